// RUN: amp-opt %s -split-input-file -verify-diagnostics --mlir-print-op-on-diagnostic=false --amp-lower-to-runtime=in-place=false --amp-runtime-deallocate --amp-runtime-plan-buffers=remarks=true | FileCheck %s
// (in-place=false: every op result has a buffer of its own, which the
// passes under test then free and place.)

// A chain of temporaries: the first two overlap (the relu reads one and
// writes the other), the third reuses the first one's range, freed after
// the relu. One amp_alloc of the arena, one amp_free at the last free; the
// result is the caller's buffer.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: amp_alloc
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(512 : i64) : i64
// CHECK-NEXT: %[[A:.*]] = llvm.call @amp_alloc(%[[SIZE]],
// CHECK-NOT: amp_alloc
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[A]],
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[A]][256] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[A]], %[[B]],
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[B]], %[[A]],
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[A]], %[[OUT:.*]],
// CHECK-NEXT: llvm.call @amp_free(%[[A]],
// CHECK-NOT: amp_free
// CHECK: return
// expected-remark @below {{buffer arena: 3 buffers in 512 bytes, 512 bytes live at the peak}}
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = nn.exp %x : tensor<4x8xf32>
  %b = nn.relu %a : tensor<4x8xf32>
  %c = nn.tanh %b : tensor<4x8xf32>
  %d = nn.sigmoid %c : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// The buffers of a loop's body, its init value and its result keep their
// own allocations; the temporary before the loop is placed.
// CHECK-LABEL: func.func @loop
// CHECK: %[[ARENA:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[ARENA]],
// CHECK: %[[INIT:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[ARENA]], %[[INIT]],
// CHECK-NEXT: llvm.call @amp_free(%[[ARENA]],
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[IT:.*]] = %[[INIT]])
// CHECK:   %[[Y:.*]] = llvm.call @amp_alloc
// CHECK:   llvm.call @amp_free(%[[IT]]
// CHECK:   scf.yield %[[Y]]
// CHECK: llvm.call @amp_free(%[[R]]
// expected-remark @below {{buffer arena: 1 buffers in 256 bytes, 256 bytes live at the peak}}
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = nn.exp %x : tensor<4xf32>
  %s = nn.relu %e : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %s) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// No temporaries: nothing changes and no remark.
// CHECK-LABEL: func.func @none
// CHECK-NOT: amp_alloc
// CHECK: return
func.func @none(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nn.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Temporaries that a multi-tensor call reads through a pointer array (the
// grads of an update), 8 or more of them and all in the arena, are filled
// by a loop over a constant table of their offsets, in the array's order;
// the element stores go, and so do the GEPs that nothing else uses. The
// params and the new params are slots of the buffer array (the entry
// point's tables).
// CHECK-DAG: llvm.mlir.global internal constant @[[OFFSETS:__amp_i64_1792_256_512_768_1024_1280_1536_0]](dense<[1792, 256, 512, 768, 1024, 1280, 1536, 0]> : tensor<8xi64>)
// CHECK-LABEL: func.func @sgd_temporary_grads(
// CHECK: %[[ARENA:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.mlir.addressof @__amp_i32_7_1_2_3_4_5_6_0
// CHECK: scf.for
// CHECK: %[[GRADS:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x ptr>
// CHECK-NEXT: %[[T:.*]] = llvm.mlir.addressof @[[OFFSETS]]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT: %[[OFF:.*]] = llvm.load %[[AT]] : !llvm.ptr -> i64
// CHECK-NEXT: %[[G:.*]] = llvm.getelementptr %[[ARENA]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[TO:.*]] = llvm.getelementptr %[[GRADS]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.store %[[G]], %[[TO]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK: llvm.store
// CHECK-NEXT: }
// CHECK-NOT: llvm.store
// CHECK: llvm.call @amp_sgd_update_multi(%{{.*}}, %{{.*}}, %[[GRADS]],
// CHECK-NOT: llvm.store
// CHECK: return
// expected-remark @below {{buffer arena: 8 buffers in 2048 bytes, 2048 bytes live at the peak}}
func.func @sgd_temporary_grads(%w0: tensor<4xf32>, %w1: tensor<4xf32>, %w2: tensor<4xf32>, %w3: tensor<4xf32>, %w4: tensor<4xf32>, %w5: tensor<4xf32>, %w6: tensor<4xf32>, %w7: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g0 = nn.exp %w0 : tensor<4xf32>
  %g1 = nn.exp %w1 : tensor<4xf32>
  %g2 = nn.exp %w2 : tensor<4xf32>
  %g3 = nn.exp %w3 : tensor<4xf32>
  %g4 = nn.exp %w4 : tensor<4xf32>
  %g5 = nn.exp %w5 : tensor<4xf32>
  %g6 = nn.exp %w6 : tensor<4xf32>
  %g7 = nn.exp %w7 : tensor<4xf32>
  %n7 = nn.sgd_update %w7, %g7 {lr = 0.1 : f32} : tensor<4xf32>
  %n1 = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<4xf32>
  %n2 = nn.sgd_update %w2, %g2 {lr = 0.1 : f32} : tensor<4xf32>
  %n3 = nn.sgd_update %w3, %g3 {lr = 0.1 : f32} : tensor<4xf32>
  %n4 = nn.sgd_update %w4, %g4 {lr = 0.1 : f32} : tensor<4xf32>
  %n5 = nn.sgd_update %w5, %g5 {lr = 0.1 : f32} : tensor<4xf32>
  %n6 = nn.sgd_update %w6, %g6 {lr = 0.1 : f32} : tensor<4xf32>
  %n0 = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// One grad that is an argument, not a temporary: neither table covers that
// array, which keeps its 8 stores.
// CHECK-LABEL: func.func @one_argument_grad(
// CHECK: scf.for
// CHECK: llvm.store
// CHECK-NEXT: }
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.alloca
// CHECK: scf.for
// CHECK: llvm.call @amp_sgd_update_multi(
// expected-remark @below {{buffer arena: 7 buffers in 1792 bytes, 1792 bytes live at the peak}}
func.func @one_argument_grad(%w0: tensor<4xf32>, %w1: tensor<4xf32>, %w2: tensor<4xf32>, %w3: tensor<4xf32>, %w4: tensor<4xf32>, %w5: tensor<4xf32>, %w6: tensor<4xf32>, %w7: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g0 = nn.exp %w0 : tensor<4xf32>
  %g1 = nn.exp %w1 : tensor<4xf32>
  %g2 = nn.exp %w2 : tensor<4xf32>
  %g4 = nn.exp %w4 : tensor<4xf32>
  %g5 = nn.exp %w5 : tensor<4xf32>
  %g6 = nn.exp %w6 : tensor<4xf32>
  %g7 = nn.exp %w7 : tensor<4xf32>
  %n0 = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  %n1 = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<4xf32>
  %n2 = nn.sgd_update %w2, %g2 {lr = 0.1 : f32} : tensor<4xf32>
  %n3 = nn.sgd_update %w3, %w3 {lr = 0.1 : f32} : tensor<4xf32>
  %n4 = nn.sgd_update %w4, %g4 {lr = 0.1 : f32} : tensor<4xf32>
  %n5 = nn.sgd_update %w5, %g5 {lr = 0.1 : f32} : tensor<4xf32>
  %n6 = nn.sgd_update %w6, %g6 {lr = 0.1 : f32} : tensor<4xf32>
  %n7 = nn.sgd_update %w7, %g7 {lr = 0.1 : f32} : tensor<4xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Seven temporaries keep a store each.
// CHECK-LABEL: func.func @seven_temporary_grads(
// CHECK-NOT: scf.for
// CHECK: llvm.call @amp_sgd_update_multi(
// expected-remark @below {{buffer arena: 7 buffers in 1792 bytes, 1792 bytes live at the peak}}
func.func @seven_temporary_grads(%w0: tensor<4xf32>, %w1: tensor<4xf32>, %w2: tensor<4xf32>, %w3: tensor<4xf32>, %w4: tensor<4xf32>, %w5: tensor<4xf32>, %w6: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %g0 = nn.exp %w0 : tensor<4xf32>
  %g1 = nn.exp %w1 : tensor<4xf32>
  %g2 = nn.exp %w2 : tensor<4xf32>
  %g3 = nn.exp %w3 : tensor<4xf32>
  %g4 = nn.exp %w4 : tensor<4xf32>
  %g5 = nn.exp %w5 : tensor<4xf32>
  %g6 = nn.exp %w6 : tensor<4xf32>
  %n0 = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  %n1 = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<4xf32>
  %n2 = nn.sgd_update %w2, %g2 {lr = 0.1 : f32} : tensor<4xf32>
  %n3 = nn.sgd_update %w3, %g3 {lr = 0.1 : f32} : tensor<4xf32>
  %n4 = nn.sgd_update %w4, %g4 {lr = 0.1 : f32} : tensor<4xf32>
  %n5 = nn.sgd_update %w5, %g5 {lr = 0.1 : f32} : tensor<4xf32>
  %n6 = nn.sgd_update %w6, %g6 {lr = 0.1 : f32} : tensor<4xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// An offset beyond what a GEP's constant index holds (29 bits, signed:
// LLVM::kGEPConstantBitWidth, truncated silently) is reached through the
// start of its 2^28-byte window of the arena, one GEP with an i64 operand
// right after the arena's amp_alloc: the second temporary starts at
// 2^28 + 256 bytes.
// CHECK-LABEL: func.func @large_offset
// CHECK: %[[A:.*]] = llvm.call @amp_alloc(
// CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(268435456 : i64) : i64
// CHECK-NEXT: %[[W:.*]] = llvm.getelementptr %[[A]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[B:.*]] = llvm.getelementptr %[[W]][256] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[A]], %[[B]],
// CHECK-NOT: llvm.getelementptr %[[A]][-
// expected-remark @below {{buffer arena: 2 buffers in 536871424 bytes, 536871424 bytes live at the peak}}
func.func @large_offset(%x: tensor<67108928xf32>) -> tensor<67108928xf32> {
  %a = nn.exp %x : tensor<67108928xf32>
  %b = nn.relu %a : tensor<67108928xf32>
  %c = nn.tanh %b : tensor<67108928xf32>
  return %c : tensor<67108928xf32>
}
