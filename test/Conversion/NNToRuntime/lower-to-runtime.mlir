// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime -verify-diagnostics | FileCheck %s

// A step becomes `i32 @f(ptr)` over an array of buffers (arguments, then
// results); intermediates come from amp_alloc; the returned value is
// computed straight into its result buffer. Each buffer pointer is loaded
// right before its first use. Enum arguments are the runtime header's
// values (AMP_DTYPE_F32 = 0, AMP_DTYPE_F16 = 1, AMP_UNARY_RELU = 7).
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[TMP:.*]] = llvm.call @amp_alloc(%{{.*}}, %{{.*}}) : (i64, !llvm.ptr) -> !llvm.ptr
// CHECK: %[[F32:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[X:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @amp_cast(%[[X]], %[[TMP]], %{{.*}}, %[[F32]], %[[F16]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i32, i32, !llvm.ptr) -> i32
// CHECK: %[[RELU:.*]] = llvm.mlir.constant(7 : i32)
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[OUT:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @amp_unary(%[[RELU]], %[[TMP]], %[[OUT]], {{.*}})
// CHECK-NOT: amp_alloc
// CHECK: return %{{.*}} : i32
func.func @step(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %r = nn.relu %h : tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// amp.gemm is one amp_gemm_with_pointers call: a constant global laid out
// as the header's amp_gemm_desc_t (the six pointers, null; m n k = 4 2 8,
// batch_count 1, lda ldb ldc ldd ld_aux = 8 2 2 2 2, six zero batch
// strides, alpha 1.0f, beta 0, no transposes, a and b f16, d f32, epilogue
// none), then a, b, c, d, bias, aux (c, bias and aux null) and the stream.
// Nothing is on the stack. A reshape aliases.
// CHECK: llvm.mlir.global internal constant @[[TPL:__amp_const_[0-9_]+]]("\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\08\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\80?\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00\01\00\00\00\00\00\00\00\00\00\00\00")
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK-NOT: llvm.alloca
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[SHAPE:.*]] = llvm.mlir.addressof @[[TPL]] : !llvm.ptr
// CHECK: %[[PA:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK-NEXT: %[[A:.*]] = llvm.load %[[PA]]
// CHECK: %[[PB:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK-NEXT: %[[B:.*]] = llvm.load %[[PB]]
// CHECK: %[[PD:.*]] = llvm.getelementptr %[[BUFS]][2]
// CHECK-NEXT: %[[D:.*]] = llvm.load %[[PD]]
// CHECK-NOT: llvm.store
// CHECK: llvm.call @amp_gemm_with_pointers(%[[SHAPE]], %[[A]], %[[B]], %[[NULL]], %[[D]], %[[NULL]], %[[NULL]], %[[NULL]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: amp_reshape
// CHECK-NOT: amp_memcpy
func.func @gemm(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<8xf32> {
  %m = amp.gemm %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf32>
  %r = nn.reshape %m : tensor<4x2xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Inside amp.skip_step_if the optimizer gets the found_inf buffer; outside
// it gets null.
// CHECK-LABEL: func.func @skip
// CHECK: %[[P1:.*]] = llvm.getelementptr %{{.*}}[1]
// CHECK: %[[FLAG:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @amp_sgd_update({{.*}}, %[[FLAG]], %{{.*}}) : {{.*}} -> i32
// CHECK-NOT: %[[FLAG]],
// CHECK: llvm.call @amp_sgd_update({{.*}}) : {{.*}} -> i32
func.func @skip(%w: tensor<4xf32>, %inf: tensor<i1>, %g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = amp.skip_step_if %inf keep(%w : tensor<4xf32>) {
    %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
    amp.yield %w1 : tensor<4xf32>
  } -> tensor<4xf32>
  %s = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}

// -----

// unscale_and_check zeroes found_inf first (the kernel only sets it).
// CHECK-LABEL: func.func @unscale
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[3]
// CHECK: %[[FLAG:.*]] = llvm.load %[[SLOT]]
// CHECK: llvm.call @amp_memset(%[[FLAG]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: llvm.call @amp_unscale_and_check({{.*}}, %[[FLAG]], %{{.*}})
func.func @unscale(%scale: tensor<f32>, %g: tensor<4xf16>) -> (tensor<4xf16>, tensor<i1>) {
  %u, %inf = amp.unscale_and_check %scale, %g : tensor<4xf16>
  return %u, %inf : tensor<4xf16>, tensor<i1>
}

// -----

// A returned argument is copied into its result buffer.
// CHECK-LABEL: func.func @passthrough
// CHECK: llvm.call @amp_memcpy
func.func @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Loops on tensors lower to loops on buffers; the loop takes over a copy
// of the argument it starts from.
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = llvm.call @amp_alloc
// CHECK: %[[X:.*]] = llvm.load
// CHECK: llvm.call @amp_memcpy(%[[INIT]], %[[X]], {{.*}})
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[INIT]]) -> (!llvm.ptr)
// CHECK:   llvm.call @amp_unary(%{{.*}}, %[[A]], {{.*}})
// CHECK:   scf.yield %{{.*}} : !llvm.ptr
// CHECK: llvm.call @amp_memcpy(%{{.*}}, %[[R]], {{.*}})
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An argument first used inside a loop is loaded before the loop; an unused
// argument is not loaded at all.
// CHECK-LABEL: func.func @late_use(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK-NOT: llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[INIT:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_fill(%[[INIT]],
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK-NEXT: %[[W:.*]] = llvm.load %[[P1]]
// CHECK-NEXT: scf.for
// CHECK:   llvm.call @amp_binary(%{{.*}}, %{{.*}}, %[[W]], {{.*}})
// CHECK-NOT: llvm.getelementptr %[[BUFS]][0]
// CHECK: return
func.func @late_use(%unused: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %z) -> (tensor<4xf32>) {
    %y = nn.add %a, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A pointer array whose elements are all in the buffer array (arguments or
// results), with 8 or more of them, is filled by a loop over a constant
// table of their positions in it; the elements' own loads and stores go.
// CHECK: llvm.mlir.global internal constant @[[TABLE:__amp_i32_7_1_2_3_4_5_6_0]](dense<[7, 1, 2, 3, 4, 5, 6, 0]> : tensor<8xi32>)
// CHECK-LABEL: func.func @gather_arguments(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[PTRS:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x ptr>
// CHECK: %[[T:.*]] = llvm.mlir.addressof @[[TABLE]]
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C1]] {
// CHECK-NEXT: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT: %[[SLOT:.*]] = llvm.load %[[AT]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[FROM:.*]] = llvm.getelementptr %[[BUFS]][%[[SLOT]]] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P:.*]] = llvm.load %[[FROM]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[TO:.*]] = llvm.getelementptr %[[PTRS]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.store %[[P]], %[[TO]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: }
// CHECK-NOT: llvm.store
// CHECK: llvm.call @amp_concat(%{{.*}}, %[[PTRS]],
func.func @gather_arguments(%a0: tensor<1x4xf32>, %a1: tensor<1x4xf32>, %a2: tensor<1x4xf32>, %a3: tensor<1x4xf32>, %a4: tensor<1x4xf32>, %a5: tensor<1x4xf32>, %a6: tensor<1x4xf32>, %a7: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = nn.concat %a7, %a1, %a2, %a3, %a4, %a5, %a6, %a0 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Seven elements, or one that is not in the buffer array, keep a load and a
// store each.
// CHECK-LABEL: func.func @seven_pointers(
// CHECK-NOT: scf.for
// CHECK-COUNT-7: llvm.store
// CHECK-NOT: scf.for
// CHECK: llvm.call @amp_concat(
// CHECK-LABEL: func.func @one_computed(
// CHECK-NOT: scf.for
// CHECK-COUNT-8: llvm.store
// CHECK-NOT: scf.for
// CHECK: llvm.call @amp_concat(
func.func @seven_pointers(%a0: tensor<1x4xf32>, %a1: tensor<1x4xf32>, %a2: tensor<1x4xf32>, %a3: tensor<1x4xf32>, %a4: tensor<1x4xf32>, %a5: tensor<1x4xf32>, %a6: tensor<1x4xf32>) -> tensor<7x4xf32> {
  %0 = nn.concat %a0, %a1, %a2, %a3, %a4, %a5, %a6 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<7x4xf32>
  return %0 : tensor<7x4xf32>
}
func.func @one_computed(%a0: tensor<1x4xf32>, %a1: tensor<1x4xf32>, %a2: tensor<1x4xf32>, %a3: tensor<1x4xf32>, %a4: tensor<1x4xf32>, %a5: tensor<1x4xf32>, %a6: tensor<1x4xf32>, %a7: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %r = nn.relu %a3 : tensor<1x4xf32>
  %0 = nn.concat %a0, %a1, %a2, %r, %a4, %a5, %a6, %a7 {axis = 0 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// The multi-tensor update of 8 params: params and grads are arguments 0-7
// and 8-15, the new params results 16-23, computed in their buffers. All
// three arrays are gathered, and no result is copied.
// CHECK-DAG: llvm.mlir.global internal constant @[[PARAMS:__amp_i32_0_1_2_3_4_5_6_7]](
// CHECK-DAG: llvm.mlir.global internal constant @[[GRADS:__amp_i32_8_9_10_11_12_13_14_15]](
// CHECK-DAG: llvm.mlir.global internal constant @[[NEW:__amp_i32_16_17_18_19_20_21_22_23]](
// CHECK-LABEL: func.func @sgd_gathered(
// CHECK: llvm.mlir.addressof @[[PARAMS]]
// CHECK: scf.for
// CHECK: llvm.mlir.addressof @[[GRADS]]
// CHECK: scf.for
// CHECK: llvm.mlir.addressof @[[NEW]]
// CHECK: scf.for
// CHECK: llvm.store
// CHECK-NEXT: }
// CHECK-NOT: llvm.store
// CHECK: llvm.call @amp_sgd_update_multi(
// CHECK-NOT: llvm.call
// CHECK: return
func.func @sgd_gathered(%w0: tensor<4xf32>, %w1: tensor<4xf32>, %w2: tensor<4xf32>, %w3: tensor<4xf32>, %w4: tensor<4xf32>, %w5: tensor<4xf32>, %w6: tensor<4xf32>, %w7: tensor<4xf32>, %g0: tensor<4xf32>, %g1: tensor<4xf32>, %g2: tensor<4xf32>, %g3: tensor<4xf32>, %g4: tensor<4xf32>, %g5: tensor<4xf32>, %g6: tensor<4xf32>, %g7: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %n0 = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  %n1 = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<4xf32>
  %n2 = nn.sgd_update %w2, %g2 {lr = 0.1 : f32} : tensor<4xf32>
  %n3 = nn.sgd_update %w3, %g3 {lr = 0.1 : f32} : tensor<4xf32>
  %n4 = nn.sgd_update %w4, %g4 {lr = 0.1 : f32} : tensor<4xf32>
  %n5 = nn.sgd_update %w5, %g5 {lr = 0.1 : f32} : tensor<4xf32>
  %n6 = nn.sgd_update %w6, %g6 {lr = 0.1 : f32} : tensor<4xf32>
  %n7 = nn.sgd_update %w7, %g7 {lr = 0.1 : f32} : tensor<4xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A branch that yields a value from outside hands over a copy of it; the
// condition comes from the loop's index (e.g. every other iteration).
// CHECK-LABEL: func.func @branch
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (!llvm.ptr)
// CHECK:   %[[C:.*]] = arith.cmpi eq, %[[I]]
// CHECK:   scf.if %[[C]] -> (!llvm.ptr)
// CHECK:     llvm.call @amp_unary(%{{.*}}, %[[A]], {{.*}})
// CHECK:   } else {
// CHECK:     %[[COPY:.*]] = llvm.call @amp_alloc
// CHECK:     llvm.call @amp_memcpy(%[[COPY]], %[[A]], {{.*}})
// CHECK:     scf.yield %[[COPY]]
func.func @branch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %c = arith.cmpi eq, %i, %c0 : index
    %b = scf.if %c -> tensor<4xf32> {
      %y = nn.exp %a : tensor<4xf32>
      scf.yield %y : tensor<4xf32>
    } else {
      scf.yield %a : tensor<4xf32>
    }
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Equal constants are one value where one dominates the other: the size and
// the null stream of the top level serve the loop and both branches, but each
// branch, and the code after the loop, has its own AMP_UNARY_EXP. (The
// else branch's nn.neg works in place on the %z that dies there.)
// CHECK-LABEL: func.func @scoped_constants
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @amp_alloc(%[[SIZE]], %[[NULL]])
// CHECK: scf.for
// CHECK:   scf.if
// CHECK-NOT: llvm.mlir.constant(16 : i64)
// CHECK:     llvm.call @amp_alloc(%[[SIZE]], %[[NULL]])
// CHECK:     %[[EXP1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:     llvm.call @amp_unary(%[[EXP1]], {{.*}}, %[[NULL]])
// CHECK:   } else {
// CHECK:     llvm.call @amp_alloc(%[[SIZE]], %[[NULL]])
// CHECK:     %[[EXP2:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK:     llvm.call @amp_unary(%[[EXP2]], {{.*}}, %[[NULL]])
// CHECK-NOT: llvm.call @amp_alloc
// CHECK-NOT: llvm.mlir.constant
// CHECK:   scf.yield
// CHECK: %[[EXP3:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[EXP3]], {{.*}}, %[[NULL]])
func.func @scoped_constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = nn.neg %x : tensor<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %n) -> (tensor<4xf32>) {
    %c = arith.cmpi eq, %i, %c0 : index
    %b = scf.if %c -> tensor<4xf32> {
      %y = nn.exp %a : tensor<4xf32>
      scf.yield %y : tensor<4xf32>
    } else {
      %z = nn.exp %a : tensor<4xf32>
      %w = nn.neg %z : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    }
    scf.yield %b : tensor<4xf32>
  }
  %e = nn.exp %r : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// scf.while carries buffers where it carried tensors, in the order of its
// arguments when tensors and scalars mix (before and after regions both).
// CHECK-LABEL: func.func @while_loop
// CHECK: %[[R:.*]]:2 = scf.while (%[[A:.*]] = %{{.*}}, %[[I:.*]] = %{{.*}}) : (!llvm.ptr, i32) -> (!llvm.ptr, i32)
// CHECK:   arith.cmpi slt, %[[I]]
// CHECK:   scf.condition(%{{.*}}) %[[A]], %[[I]] : !llvm.ptr, i32
// CHECK: ^bb0(%[[B:.*]]: !llvm.ptr, %[[J:.*]]: i32):
// CHECK:   %[[Y:.*]] = llvm.call @amp_alloc
// CHECK:   llvm.call @amp_unary(%{{.*}}, %[[B]], %[[Y]],
// CHECK:   %[[K:.*]] = arith.addi %[[J]]
// CHECK:   scf.yield %[[Y]], %[[K]] : !llvm.ptr, i32
// CHECK: llvm.call @amp_memcpy(%{{.*}}, %[[R]]#0,
func.func @while_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%a = %x, %i = %c0) : (tensor<4xf32>, i32) -> (tensor<4xf32>, i32) {
    %go = arith.cmpi slt, %i, %c3 : i32
    scf.condition(%go) %a, %i : tensor<4xf32>, i32
  } do {
  ^bb0(%b: tensor<4xf32>, %j: i32):
    %y = nn.relu %b : tensor<4xf32>
    %k = arith.addi %j, %c1 : i32
    scf.yield %y, %k : tensor<4xf32>, i32
  }
  return %r#0 : tensor<4xf32>
}

// -----

// expected-error @below {{amp-lower-to-runtime: function arguments and results must be static tensors of f32, f16, bf16, i32, i64 or i1, got 'f32'}}
func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}

// -----

func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{amp-lower-to-runtime: nn.matmul must become amp.gemm first}}
  %m = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

func.func @foreign(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @below {{amp-lower-to-runtime: cannot lower 'tensor.extract'}}
  %e = tensor.extract %a[%c0] : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// The updates of a step with one configuration are one multi-tensor call
// (param, grad and momentum arrays; sizes and dtypes per tensor); an update
// with other hyperparameters, or outside the skip region, gets its own.
// CHECK-LABEL: func.func @sgd_run
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[FLAG:.*]] = llvm.load %[[P0]]
// CHECK: llvm.call @amp_sgd_update_multi(%{{.*}}, {{.*}}, %[[FLAG]], %{{.*}}) : {{.*}} -> i32
// CHECK: llvm.call @amp_sgd_update(
// CHECK-NOT: @amp_sgd_update
// CHECK: return
func.func @sgd_run(%inf: tensor<i1>, %w1: tensor<4xf32>, %g1: tensor<4xf32>, %m1: tensor<4xf32>,
                   %w2: tensor<3x2xf16>, %g2: tensor<3x2xf16>, %m2: tensor<3x2xf16>,
                   %w3: tensor<5xf32>, %g3: tensor<5xf32>, %m3: tensor<5xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<5xf32>, tensor<5xf32>) {
  %r:6 = amp.skip_step_if %inf keep(%w1, %m1, %w2, %m2, %w3, %m3 : tensor<4xf32>, tensor<4xf32>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<5xf32>, tensor<5xf32>) {
    %a, %b = nn.sgd_update %w1, %g1, %m1 {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<4xf32>
    %c, %d = nn.sgd_update %w2, %g2, %m2 {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<3x2xf16>
    %e, %f = nn.sgd_update %w3, %g3, %m3 {lr = 0.2 : f32, momentum = 0.9 : f32} : tensor<5xf32>
    amp.yield %a, %b, %c, %d, %e, %f : tensor<4xf32>, tensor<4xf32>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<5xf32>, tensor<5xf32>
  } -> tensor<4xf32>, tensor<4xf32>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<5xf32>, tensor<5xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<4xf32>, tensor<4xf32>, tensor<3x2xf16>, tensor<3x2xf16>, tensor<5xf32>, tensor<5xf32>
}

// -----

// nn.lr_schedule is one amp_lr_schedule call (the kind as amp_lr_schedule_t,
// the parameters a kind does not take as 0) whose factor buffer the updates
// read: updates with one lr_factor are one multi-tensor call, an update with
// another factor gets its own.
// CHECK-LABEL: func.func @lr_schedule_run
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[F:.*]] = llvm.call @amp_alloc(
// CHECK-DAG: %[[COSINE:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[WARMUP:.*]] = llvm.mlir.constant(5 : i64) : i64
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-DAG: %[[TOTAL:.*]] = llvm.mlir.constant(50 : i64) : i64
// CHECK-DAG: %[[FINAL:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK-DAG: %[[NO_STEP_SIZE:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[POWER_1:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-DAG: %[[NO_MILESTONES:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @amp_lr_schedule(%{{.*}}, %[[F]], %{{.*}}, %[[COSINE]], %[[WARMUP]], %[[ZERO]], %[[TOTAL]], %[[FINAL]], %[[NO_STEP_SIZE]], %[[ZERO]], %[[POWER_1]], %[[NULL:[^,]*]], %[[NO_MILESTONES]], %[[NULL]])
// CHECK-NOT: llvm.call @amp_sgd_update
// CHECK: llvm.call @amp_sgd_update_multi(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[F]], {{.*}})
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[F2:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @amp_sgd_update(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[F2]], {{.*}})
// CHECK-NOT: @amp_sgd_update
// CHECK: return
func.func @lr_schedule_run(%count: tensor<f32>, %f2: tensor<f32>,
                           %w1: tensor<4xf32>, %g1: tensor<4xf32>,
                           %w2: tensor<3xf32>, %g2: tensor<3xf32>,
                           %w3: tensor<5xf32>, %g3: tensor<5xf32>)
    -> (tensor<4xf32>, tensor<3xf32>, tensor<5xf32>, tensor<f32>) {
  %f, %n = nn.lr_schedule cosine %count {warmup_steps = 5 : i64, total_steps = 50 : i64, final_factor = 0.25 : f32}
  %a = nn.sgd_update %w1, %g1 lr_factor(%f) {lr = 0.1 : f32} : tensor<4xf32>
  %b = nn.sgd_update %w2, %g2 lr_factor(%f) {lr = 0.1 : f32} : tensor<3xf32>
  %c = nn.sgd_update %w3, %g3 lr_factor(%f2) {lr = 0.1 : f32} : tensor<5xf32>
  return %a, %b, %c, %n : tensor<4xf32>, tensor<3xf32>, tensor<5xf32>, tensor<f32>
}

// -----

// multistep passes its milestones as a constant i64 array and their count;
// polynomial its power.
// CHECK: llvm.mlir.global internal constant @[[MILESTONES:__amp_i64_30_60_90]](dense<[30, 60, 90]> : tensor<3xi64>)
// CHECK-LABEL: func.func @lr_schedule_kinds
// CHECK-DAG: %[[MULTISTEP:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-DAG: %[[GAMMA:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK-DAG: %[[THREE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[ARRAY:.*]] = llvm.mlir.addressof @[[MILESTONES]]
// CHECK: llvm.call @amp_lr_schedule(%{{.*}}, %{{.*}}, %{{.*}}, %[[MULTISTEP]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[GAMMA]], %{{.*}}, %[[ARRAY]], %[[THREE]], %{{.*}})
// CHECK-DAG: %[[POLYNOMIAL:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG: %[[POWER:.*]] = llvm.mlir.constant(2.500000e+00 : f32) : f32
// CHECK: llvm.call @amp_lr_schedule(%{{.*}}, %{{.*}}, %{{.*}}, %[[POLYNOMIAL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[POWER]], %{{.*}}, %{{.*}}, %{{.*}})
func.func @lr_schedule_kinds(%count: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %f, %n = nn.lr_schedule multistep %count {milestones = array<i64: 30, 60, 90>, gamma = 0.1 : f32}
  %g, %m = nn.lr_schedule polynomial %count {total_steps = 50 : i64, power = 2.5 : f32}
  return %f, %g : tensor<f32>, tensor<f32>
}

// -----

// AdamW updates of a step: one multi call with every tensor's own step
// counter; an update whose grad comes after the first update in the block
// is computed by a call of its own (the multi call sits at the first).
// CHECK-LABEL: func.func @adam_run
// CHECK: llvm.call @amp_adam_update_multi(
// CHECK: llvm.call @amp_unary(
// CHECK: llvm.call @amp_adam_update(
// CHECK-NOT: @amp_adam_update
// CHECK: return
func.func @adam_run(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %m1: tensor<4xf32>, %v1: tensor<4xf32>, %t1: tensor<f32>,
                    %w2: tensor<6xf32>, %g2: tensor<6xf32>, %m2: tensor<6xf32>, %v2: tensor<6xf32>, %t2: tensor<f32>,
                    %w3: tensor<2xf32>, %g3: tensor<2xf32>, %m3: tensor<2xf32>, %v3: tensor<2xf32>, %t3: tensor<f32>)
    -> (tensor<4xf32>, tensor<6xf32>, tensor<2xf32>) {
  %a:4 = nn.adam_update %w1, %g1, %m1, %v1, %t1 {lr = 1.0e-3 : f32} : tensor<4xf32>
  %b:4 = nn.adam_update %w2, %g2, %m2, %v2, %t2 {lr = 1.0e-3 : f32} : tensor<6xf32>
  %n = nn.neg %g3 : tensor<2xf32>
  %c:4 = nn.adam_update %w3, %n, %m3, %v3, %t3 {lr = 1.0e-3 : f32} : tensor<2xf32>
  return %a#0, %b#0, %c#0 : tensor<4xf32>, tensor<6xf32>, tensor<2xf32>
}

// -----

// RMSprop updates with momentum: the two of one configuration are one
// multi call, with pointer arrays for the momentum buffers and NULL for the
// absent gradient averages; a centered one with another alpha is a call of
// its own.
// CHECK-LABEL: func.func @rmsprop_run
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @amp_rmsprop_update_multi(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{[^,]*}}, %[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]],
// CHECK-DAG: %[[ALPHA:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-DAG: %[[CENTERED:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_rmsprop_update(%{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ALPHA]], %{{.*}}, %{{.*}}, %{{.*}}, %[[CENTERED]], %{{.*}}, %{{.*}})
// CHECK-NOT: @amp_rmsprop_update
func.func @rmsprop_run(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %v1: tensor<4xf32>, %b1: tensor<4xf32>,
                       %w2: tensor<6xf32>, %g2: tensor<6xf32>, %v2: tensor<6xf32>, %b2: tensor<6xf32>,
                       %w3: tensor<2xf32>, %g3: tensor<2xf32>, %v3: tensor<2xf32>, %a3: tensor<2xf32>)
    -> (tensor<4xf32>, tensor<6xf32>, tensor<2xf32>) {
  %a:3 = nn.rmsprop_update %w1, %g1, %v1 momentum_buffer(%b1) {lr = 1.0e-2 : f32, momentum = 0.9 : f32} : tensor<4xf32>
  %b:3 = nn.rmsprop_update %w2, %g2, %v2 momentum_buffer(%b2) {lr = 1.0e-2 : f32, momentum = 0.9 : f32} : tensor<6xf32>
  %c:3 = nn.rmsprop_update %w3, %g3, %v3 grad_avg(%a3) {lr = 1.0e-2 : f32, alpha = 0.5 : f32, centered} : tensor<2xf32>
  return %a#0, %b#0, %c#0 : tensor<4xf32>, tensor<6xf32>, tensor<2xf32>
}

// -----

// Adagrad updates of one configuration are one multi call: the params,
// gradients, sums, new params and new sums as pointer arrays, then the
// sizes, dtypes, lr, lr_factor (NULL), eps and weight decay.
// CHECK-LABEL: func.func @adagrad_run
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[EPS:.*]] = llvm.mlir.constant(1.000000e-10 : f32) : f32
// CHECK-DAG: %[[WD:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_adagrad_update_multi(%[[TWO]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %[[EPS]], %[[WD]], %[[NULL]], %{{[^,]+}})
// CHECK-NOT: @amp_adagrad_update
func.func @adagrad_run(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %s1: tensor<4xf32>,
                       %w2: tensor<6xf16>, %g2: tensor<6xf16>, %s2: tensor<6xf16>)
    -> (tensor<4xf32>, tensor<6xf16>) {
  %a:2 = nn.adagrad_update %w1, %g1, %s1 {lr = 1.0e-2 : f32, weight_decay = 0.1 : f32} : tensor<4xf32>
  %b:2 = nn.adagrad_update %w2, %g2, %s2 {lr = 1.0e-2 : f32, weight_decay = 0.1 : f32} : tensor<6xf16>
  return %a#0, %b#0 : tensor<4xf32>, tensor<6xf16>
}

// -----

// AMSGrad passes its maxima (arrays of the max_exp_avg_sq buffers and of
// their new values) and amsgrad = 1.
// CHECK-LABEL: func.func @adam_amsgrad_run
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_adam_update_multi(%[[TWO]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[MAX:[^,]+]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NEWMAX:[^,]+]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[ONE]], %[[ONE]], %[[NULL]], %[[NULL]])
// CHECK-NOT: @amp_adam_update
func.func @adam_amsgrad_run(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %m1: tensor<4xf32>, %v1: tensor<4xf32>, %t1: tensor<f32>, %x1: tensor<4xf32>,
                            %w2: tensor<6xf16>, %g2: tensor<6xf16>, %m2: tensor<6xf16>, %v2: tensor<6xf16>, %t2: tensor<f32>, %x2: tensor<6xf16>)
    -> (tensor<4xf32>, tensor<6xf16>, tensor<4xf32>, tensor<6xf16>) {
  %a:5 = nn.adam_update %w1, %g1, %m1, %v1, %t1 max_exp_avg_sq(%x1) {lr = 1.0e-3 : f32, amsgrad} : tensor<4xf32>
  %b:5 = nn.adam_update %w2, %g2, %m2, %v2, %t2 max_exp_avg_sq(%x2) {lr = 1.0e-3 : f32, amsgrad} : tensor<6xf16>
  return %a#0, %b#0, %a#4, %b#4 : tensor<4xf32>, tensor<6xf16>, tensor<4xf32>, tensor<6xf16>
}

// -----

// RAdam's run of two updates: one amp_radam_update_multi with Adam's
// arguments but AMSGrad's, decoupled_weight_decay = 1.
// CHECK-LABEL: func.func @radam_run
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_radam_update_multi(%[[TWO]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[ONE]], %[[NULL]], %[[NULL]])
// CHECK-NOT: @amp_radam_update
func.func @radam_run(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %m1: tensor<4xf32>, %v1: tensor<4xf32>, %t1: tensor<f32>,
                     %w2: tensor<6xbf16>, %g2: tensor<6xbf16>, %m2: tensor<6xbf16>, %v2: tensor<6xbf16>, %t2: tensor<f32>)
    -> (tensor<4xf32>, tensor<6xbf16>) {
  %a:4 = nn.radam_update %w1, %g1, %m1, %v1, %t1 {lr = 1.0e-3 : f32, decoupled_weight_decay} : tensor<4xf32>
  %b:4 = nn.radam_update %w2, %g2, %m2, %v2, %t2 {lr = 1.0e-3 : f32, decoupled_weight_decay} : tensor<6xbf16>
  return %a#0, %b#0 : tensor<4xf32>, tensor<6xbf16>
}

// -----

// Adagrad with lr_decay passes its step counter and the new one, and
// lr_decay after the lr and its factor.
// CHECK-LABEL: func.func @adagrad_lr_decay
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[DECAY:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_adagrad_update(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[STEP:[^,]+]], %{{[^,]+}}, %{{[^,]+}}, %[[NEWSTEP:[^,]+]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %[[DECAY]], %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %[[NULL]])
func.func @adagrad_lr_decay(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %s1: tensor<4xf32>, %t1: tensor<f32>)
    -> (tensor<4xf32>, tensor<f32>) {
  %a:3 = nn.adagrad_update %w1, %g1, %s1 step(%t1) {lr = 1.0e-2 : f32, lr_decay = 0.5 : f32} : tensor<4xf32>
  return %a#0, %a#2 : tensor<4xf32>, tensor<f32>
}

// -----

// Adafactor: the factored updates (a matrix [8, 4] and a batch of matrices
// [2, 3, 5]) are one multi call with their row_var and col_var arrays,
// NULL variance arrays, and the rows and cols of each param (constant
// arrays [8, 3] and [4, 5]) after the sizes and dtypes; the unfactored one
// is a single call with NULL row_var and col_var and rows = cols = 0; then
// lr, lr_factor (NULL), beta2_decay, eps1 (f32's epsilon), eps2, d and
// weight_decay.
// CHECK-LABEL: llvm.mlir.global internal constant @__amp_i64_4_5(dense<[4, 5]>
// CHECK: llvm.mlir.global internal constant @__amp_i64_8_3(dense<[8, 3]>
// CHECK-LABEL: func.func @adafactor_runs
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.addressof @__amp_i64_8_3 : !llvm.ptr
// CHECK-DAG: %[[COLS:.*]] = llvm.mlir.addressof @__amp_i64_4_5 : !llvm.ptr
// CHECK-DAG: %[[DECAY:.*]] = llvm.mlir.constant(-8.000000e-01 : f32) : f32
// CHECK-DAG: %[[EPS1:.*]] = llvm.mlir.constant(1.1920929E-7 : f32) : f32
// CHECK-DAG: %[[WD:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_adafactor_update_multi(%[[TWO]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[ROWS]], %[[COLS]], %{{[^,]+}}, %[[NULL]], %[[DECAY]], %[[EPS1]], %{{[^,]+}}, %{{[^,]+}}, %[[WD]], %[[NULL]], %[[NULL]])
// CHECK-DAG: %[[SIX:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @amp_adafactor_update(%{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %[[SIX]], %{{[^,]+}}, %[[ZERO]], %[[ZERO]], %{{[^,]+}}, %[[NULL]], %[[DECAY]], %[[EPS1]], %{{[^,]+}}, %{{[^,]+}}, %[[WD]], %[[NULL]], %[[NULL]])
func.func @adafactor_runs(%w1: tensor<8x4xf32>, %g1: tensor<8x4xf32>, %r1: tensor<8x1xf32>, %c1: tensor<1x4xf32>, %t1: tensor<f32>,
                          %w2: tensor<2x3x5xf32>, %g2: tensor<2x3x5xf32>, %r2: tensor<2x3x1xf32>, %c2: tensor<2x1x5xf32>, %t2: tensor<f32>,
                          %w3: tensor<6xf32>, %g3: tensor<6xf32>, %v3: tensor<6xf32>, %t3: tensor<f32>)
    -> (tensor<8x4xf32>, tensor<2x3x5xf32>, tensor<6xf32>) {
  %a:4 = nn.adafactor_update %w1, %g1 factored(%r1, %c1) step(%t1) {lr = 1.0e-2 : f32, weight_decay = 0.1 : f32} : tensor<8x4xf32>
  %b:4 = nn.adafactor_update %w2, %g2 factored(%r2, %c2) step(%t2) {lr = 1.0e-2 : f32, weight_decay = 0.1 : f32} : tensor<2x3x5xf32>
  %c:3 = nn.adafactor_update %w3, %g3 variance(%v3) step(%t3) {lr = 1.0e-2 : f32, weight_decay = 0.1 : f32} : tensor<6xf32>
  return %a#0, %b#0, %c#0 : tensor<8x4xf32>, tensor<2x3x5xf32>, tensor<6xf32>
}

// -----

// Adam (L2 weight decay) passes decoupled_weight_decay = 0, AdamW 1; the
// two configurations are separate calls.
// CHECK-LABEL: func.func @adam_weight_decay_kinds
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[WD:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @amp_adam_update(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[WD]], %[[ZERO]], %[[ZERO]], %[[NULL]], %[[NULL]])
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_adam_update(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[NULL]], %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %[[ONE]], %{{[^,]+}}, %[[NULL]], %[[NULL]])
// CHECK-NOT: @amp_adam_update
func.func @adam_weight_decay_kinds(%w1: tensor<4xf32>, %g1: tensor<4xf32>, %m1: tensor<4xf32>, %v1: tensor<4xf32>, %t1: tensor<f32>,
                                   %w2: tensor<6xf32>, %g2: tensor<6xf32>, %m2: tensor<6xf32>, %v2: tensor<6xf32>, %t2: tensor<f32>)
    -> (tensor<4xf32>, tensor<6xf32>) {
  %a:4 = nn.adam_update %w1, %g1, %m1, %v1, %t1 {lr = 1.0e-3 : f32, weight_decay = 0.1 : f32, decoupled_weight_decay = false} : tensor<4xf32>
  %b:4 = nn.adam_update %w2, %g2, %m2, %v2, %t2 {lr = 1.0e-3 : f32} : tensor<6xf32>
  return %a#0, %b#0 : tensor<4xf32>, tensor<6xf32>
}
