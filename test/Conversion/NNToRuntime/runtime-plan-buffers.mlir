// RUN: amp-opt %s -split-input-file -verify-diagnostics --mlir-print-op-on-diagnostic=false --amp-lower-to-runtime --amp-runtime-deallocate --amp-runtime-plan-buffers=remarks=true | FileCheck %s

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
