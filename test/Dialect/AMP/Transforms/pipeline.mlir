// The two passes together on a training step, and idempotence: running them
// again on their own output changes nothing.
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-assign-precision --amp-insert-casts -o %t.1.mlir
// RUN: amp-opt %t.1.mlir --amp-assign-precision --amp-insert-casts -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s < %t.1.mlir
// RUN: amp-opt %s --amp-assign-precision --amp-insert-casts -o %t.3.mlir
// RUN: amp-opt %t.3.mlir --amp-assign-precision --amp-insert-casts | diff %t.3.mlir -

// The MLP (examples/mlp.mlir, its step built by nn-autodiff): every matmul is
// f16, the loss and the reductions are f32, every weight is cast once, the
// f32 loss gradient gets one f16 copy that both backward matmuls share, and
// the weight-gradient matmuls produce f32 directly.
// CHECK-LABEL: func @train_step
// CHECK-COUNT-4: amp.cast %arg{{[0-9]}} : tensor<{{.*}}xf32> to tensor<{{.*}}xf16>
// CHECK-NOT: amp.cast %arg
// CHECK: nn.matmul {{.*}}amp.precision = f16{{.*}} -> tensor<32x128xf16>
// CHECK: nn.matmul {{.*}}amp.precision = f16{{.*}} -> tensor<32x10xf32>
// CHECK: nn.cross_entropy {{.*}}amp.precision = f32
// CHECK: %[[DL:.*]] = amp.cast %{{.*}} : tensor<32x10xf32> to tensor<32x10xf16>
// CHECK-NOT: amp.cast
// CHECK: nn.matmul %[[DL]], {{.*}}amp.precision = f16, transpose_b{{.*}} -> tensor<32x128xf16>
// CHECK: nn.matmul %{{.*}}, %[[DL]] {amp.precision = f16, transpose_a{{.*}} -> tensor<128x10xf32>
// CHECK: nn.reduce_sum {{.*}}amp.precision = f32
// CHECK: nn.matmul {{.*}}amp.precision = f16, transpose_a{{.*}} -> tensor<64x128xf32>
// CHECK-COUNT-4: nn.sgd_update {{.*}}amp.precision = f32

func.func @loop(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    %m = nn.matmul %acc, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = nn.softmax %m : tensor<4x4xf32>
    scf.yield %s : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
