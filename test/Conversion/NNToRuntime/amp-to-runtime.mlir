// RUN: amp-opt %s --amp-to-runtime | FileCheck %s

// The whole pipeline: LLVM-dialect functions only; every status is checked
// and a failure records the op's location and returns the status; a NULL
// from amp_alloc returns AMP_STATUS_BACKEND_ERROR (3); the loop became
// branches. Every check branches to the one failure block of the function,
// passing the status and the address of its site's string.
// CHECK-DAG: llvm.mlir.global external @__amp_error_site()
// CHECK-DAG: llvm.mlir.global internal constant @[[RELU:__amp_site_[0-9]+]]("relu_in_loop\00")
// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: %{{.*}}: !llvm.ptr) -> i32
// CHECK-DAG: %[[RELUSITE:.*]] = llvm.mlir.addressof @[[RELU]] : !llvm.ptr
// CHECK-DAG: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[OOM:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[P:.*]] = llvm.call @amp_alloc
// CHECK: %[[NULL:.*]] = llvm.icmp "eq" %[[P]]
// CHECK: llvm.cond_br %[[NULL]], ^[[FAIL:bb[0-9]+]](%[[OOM]], %{{.*}} : i32, !llvm.ptr), ^
// CHECK: %[[S:.*]] = llvm.call @amp_unary
// CHECK: %[[BAD:.*]] = llvm.icmp "ne" %[[S]], %[[OK]] : i32
// CHECK: llvm.cond_br %[[BAD]], ^[[FAIL]](%[[S]], %[[RELUSITE]] : i32, !llvm.ptr), ^
// CHECK: ^[[FAIL]](%[[STATUS:.*]]: i32, %[[SITE:.*]]: !llvm.ptr):
// CHECK-NEXT: %[[G:.*]] = llvm.mlir.addressof @__amp_error_site : !llvm.ptr
// CHECK-NEXT: llvm.store %[[SITE]], %[[G]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.return %[[STATUS]] : i32
// CHECK-NOT: ^bb
// CHECK-NOT: func.func
// CHECK-NOT: scf.
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32> loc("relu_in_loop")
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
