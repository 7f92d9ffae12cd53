// The per-function passes run nested on func.func, so the pass manager can
// compile functions in parallel; the result does not depend on it.
// RUN: amp-opt %s --amp-pipeline --mlir-disable-threading -o %t.serial.mlir
// RUN: amp-opt %s --amp-pipeline -o %t.parallel.mlir
// RUN: diff %t.serial.mlir %t.parallel.mlir
// RUN: FileCheck %s < %t.parallel.mlir
// RUN: amp-opt %s --amp-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: amp-opt %s --amp-pipeline="report=%t.json" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: amp-opt %s --amp-pipeline="keep-io-types=false" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-KEEP

// NESTED: builtin.module(
// NESTED-NEXT: func.func(
// NESTED-NEXT: amp-assign-precision
// NESTED-NEXT: amp-insert-casts
// NESTED-NEXT: amp-master-weights
// NESTED-NEXT: amp-loss-scaling

// The report writes one file: it runs on the module, between two nests.
// REPORT: func.func(
// REPORT-NEXT: amp-assign-precision{{.*}}record-rules=true
// REPORT-NEXT: amp-insert-casts
// REPORT-NEXT: ),
// REPORT-NEXT: amp-precision-report{{.*}}file=
// REPORT-NEXT: func.func(
// REPORT-NEXT: amp-master-weights

// keep-io-types=false changes signatures: amp-insert-casts runs on the module.
// NO-KEEP: func.func(
// NO-KEEP-NEXT: amp-assign-precision
// NO-KEEP-NEXT: ),
// NO-KEEP-NEXT: amp-insert-casts{keep-io-types=false}
// NO-KEEP-NEXT: func.func(
// NO-KEEP-NEXT: amp-master-weights

// CHECK-LABEL: func.func @step_a
// CHECK: amp.cast
// CHECK: nn.matmul {{.*}}amp.precision = f16
// CHECK: amp.unscale_and_check
// CHECK-LABEL: func.func @step_b
// CHECK: nn.matmul {{.*}}amp.precision = f16
// CHECK: amp.unscale_and_check
// CHECK-LABEL: func.func @forward
// CHECK: nn.matmul {{.*}}amp.precision = f16
// CHECK-NOT: amp.unscale_and_check
// CHECK: return

func.func @step_a(%w: tensor<8x4xf32> {nn.role = #nn.role<param>}, %x: tensor<16x8xf32> {nn.role = #nn.role<input>}, %l: tensor<16xi32> {nn.role = #nn.role<label>})
    -> (tensor<8x4xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %loss = nn.cross_entropy %logits, %l : (tensor<16x4xf32>, tensor<16xi32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %dlogits = nn.cross_entropy_grad %seed, %logits, %l : (tensor<f32>, tensor<16x4xf32>, tensor<16xi32>) -> tensor<16x4xf32>
  %dw = nn.matmul %x, %dlogits {transpose_a} : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %w2 = nn.sgd_update %w, %dw {lr = 0.1 : f32} : tensor<8x4xf32>
  return %w2, %loss : tensor<8x4xf32>, tensor<f32>
}

func.func @step_b(%w: tensor<8x4xf32> {nn.role = #nn.role<param>}, %x: tensor<16x8xf32> {nn.role = #nn.role<input>}, %l: tensor<16xi32> {nn.role = #nn.role<label>})
    -> (tensor<8x4xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %loss = nn.cross_entropy %logits, %l : (tensor<16x4xf32>, tensor<16xi32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %dlogits = nn.cross_entropy_grad %seed, %logits, %l : (tensor<f32>, tensor<16x4xf32>, tensor<16xi32>) -> tensor<16x4xf32>
  %dw = nn.matmul %x, %dlogits {transpose_a} : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %w2 = nn.sgd_update %w, %dw {lr = 0.1 : f32} : tensor<8x4xf32>
  return %w2, %loss : tensor<8x4xf32>, tensor<f32>
}

func.func @forward(%w: tensor<8x4xf32>, %x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %y = nn.matmul %x, %w : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}
