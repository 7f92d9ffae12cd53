// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime=in-place=false --amp-runtime-deallocate | FileCheck %s
// (in-place=false: every op result has a buffer of its own, which the
// passes under test then free.)

// An intermediate is freed right after its last reader; the result buffer
// and the arguments are not freed. Every free takes the one null stream at
// the top of the function.
// CHECK-LABEL: func.func @straight
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[TMP:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_cast
// CHECK: llvm.getelementptr %{{.*}}[1]
// CHECK-NEXT: %[[OUT:.*]] = llvm.load
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[TMP]], %[[OUT]], {{.*}})
// CHECK-NEXT: llvm.call @amp_free(%[[TMP]], %[[NULL]])
// CHECK-NOT: amp_free
// CHECK: return
func.func @straight(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %r = nn.relu %h : tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// A pointer stored into a call's stack memory (a pointer array) lives
// until that call: the free comes after amp_concat, not after the store.
// CHECK-LABEL: func.func @through_memory
// CHECK: %[[T:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[T]], {{.*}})
// CHECK: llvm.store %[[T]]
// CHECK-NOT: amp_free
// CHECK: llvm.call @amp_concat
// CHECK: llvm.call @amp_free(%[[T]]
func.func @through_memory(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<8x8xf16> {
  %e = nn.exp %a : tensor<4x8xf16>
  %c = nn.concat %e, %b {axis = 0 : i64} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  return %c : tensor<8x8xf16>
}

// -----

// In a loop the body owns its iteration argument: it is freed after its
// last use and the new value is yielded; the copy the loop started from is
// not freed outside; the loop's result is freed after it is copied out.
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = llvm.call @amp_alloc
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[INIT]])
// CHECK:   %[[Y:.*]] = llvm.call @amp_alloc
// CHECK:   llvm.call @amp_unary(%{{.*}}, %[[A]], %[[Y]], {{.*}})
// CHECK:   llvm.call @amp_free(%[[A]]
// CHECK-NOT: amp_free(%[[Y]]
// CHECK:   scf.yield %[[Y]]
// CHECK-NOT: amp_free(%[[INIT]]
// CHECK: llvm.call @amp_memcpy(%{{.*}}, %[[R]], {{.*}})
// CHECK: llvm.call @amp_free(%[[R]]
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An unused result (layer_norm's statistics) is freed right after the op.
// CHECK-LABEL: func.func @unused
// CHECK: llvm.call @amp_layer_norm
// CHECK-NEXT: llvm.call @amp_free
// CHECK-NEXT: llvm.call @amp_free
func.func @unused(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %y, %m, %r = nn.layer_norm %x, %g, %b : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>)
  return %y : tensor<2x4xf32>
}

// -----

// The input pointer array of amp_concat is read by the call: an input
// computed in the function is freed after it, not after the store.
// CHECK-LABEL: func.func @concat_frees_after(
// CHECK: %[[E:.*]] = llvm.call @amp_alloc
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[E]],
// CHECK-NOT: @amp_free
// CHECK: llvm.call @amp_concat
// CHECK-NEXT: llvm.call @amp_free(%[[E]],
func.func @concat_frees_after(%a: tensor<4xf32>) -> tensor<8xf32> {
  %e = nn.exp %a : tensor<4xf32>
  %0 = nn.concat %a, %e {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
