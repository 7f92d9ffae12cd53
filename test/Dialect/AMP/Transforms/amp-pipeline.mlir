// amp-pipeline = assign-precision, insert-casts, master-weights, loss-scaling,
// on the digits MLP's training step as nn-autodiff builds it.
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline | FileCheck %s
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline="compute-type=bf16" | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline="compute-type=bf16 loss-scale=dynamic" | FileCheck %s --check-prefix=BF16-SCALED
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline="loss-scale=static init-scale=128" | FileCheck %s --check-prefix=STATIC
// The same passes one by one give the same result, and the pipeline is
// idempotent.
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline -o %t.a.mlir
// RUN: amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-assign-precision --amp-insert-casts --amp-master-weights --amp-loss-scaling -o %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir
// RUN: amp-opt %t.a.mlir --amp-pipeline | diff %t.a.mlir -
// RUN: not amp-opt %amp_src_root/examples/mlp.mlir --nn-autodiff="lr=0.05 momentum=0.9" --amp-pipeline="loss-scale=maybe" 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func @train_step
// CHECK-SAME: nn.role = #nn.role<loss_scale>
// CHECK-COUNT-4: amp.cast %arg{{[0-9]+}} : tensor<{{.*}}xf32> to tensor<{{.*}}xf16>
// CHECK: amp.scaled_grad_seed
// CHECK: amp.unscale_and_check
// CHECK: amp.skip_step_if
// CHECK-COUNT-4: nn.sgd_update
// CHECK: amp.update_scale
// BF16-LABEL: func @train_step
// BF16-NOT: nn.role = #nn.role<loss_scale>
// BF16: amp.cast %arg{{[0-9]+}} : tensor<{{.*}}xf32> to tensor<{{.*}}xbf16>
// BF16: nn.grad_seed
// BF16-NOT: amp.unscale_and_check
// BF16-SCALED: amp.update_scale
// STATIC: nn.init = 1.280000e+02 : f32, nn.role = #nn.role<loss_scale>
// STATIC: amp.skip_step_if
// STATIC-NOT: amp.update_scale
// BAD: error: amp-loss-scaling: mode must be dynamic, static or none, got 'maybe'
