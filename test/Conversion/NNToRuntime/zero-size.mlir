// RUN: amp-opt %s -split-input-file --amp-to-runtime -verify-diagnostics | FileCheck %s

// Zero-size tensors through every lowering: each family lowers (the
// contract check at the end of amp-to-runtime passes), except the GEMM,
// which has no empty case and says so. test/Integration/zero-size.test runs
// the elementwise, shape, conv, pool, norm and reduction kernels on them.

// CHECK-LABEL: llvm.func @elementwise(
func.func @elementwise(%a: tensor<0x8xf32>, %b: tensor<8xf32>, %c: tensor<0x8xi1>) -> (tensor<0x8xf32>, tensor<0x8xf16>) {
  %0 = nn.exp %a : tensor<0x8xf32>
  %1 = nn.add %0, %b : (tensor<0x8xf32>, tensor<8xf32>) -> tensor<0x8xf32>
  %2 = nn.where %c, %1, %a : (tensor<0x8xi1>, tensor<0x8xf32>, tensor<0x8xf32>) -> tensor<0x8xf32>
  %3 = nn.clamp %2 {min = 0.0 : f32} : tensor<0x8xf32>
  %4 = amp.cast %3 : tensor<0x8xf32> to tensor<0x8xf16>
  return %3, %4 : tensor<0x8xf32>, tensor<0x8xf16>
}

// -----

// CHECK-LABEL: llvm.func @shape(
func.func @shape(%a: tensor<0x8xf32>, %b: tensor<3x8xf32>) -> (tensor<8x3xf32>, tensor<2x0x8xf32>, tensor<5x8xf32>, tensor<0x2xf32>) {
  %0 = nn.concat %a, %b {axis = 0 : i64} : (tensor<0x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %1 = nn.transpose %0 [1, 0] : tensor<3x8xf32> -> tensor<8x3xf32>
  %2 = nn.broadcast_to %a : tensor<0x8xf32> -> tensor<2x0x8xf32>
  %3 = nn.pad %a {low = array<i64: 2, 0>, high = array<i64: 3, 0>} : tensor<0x8xf32> -> tensor<5x8xf32>
  %4 = nn.slice %a {offsets = array<i64: 0, 1>} : tensor<0x8xf32> -> tensor<0x2xf32>
  return %1, %2, %3, %4 : tensor<8x3xf32>, tensor<2x0x8xf32>, tensor<5x8xf32>, tensor<0x2xf32>
}

// -----

// CHECK-LABEL: llvm.func @reductions(
func.func @reductions(%a: tensor<0x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<0xf32>, tensor<0x8xf32>) {
  %0 = nn.reduce_sum %a [0] : (tensor<0x8xf32>) -> tensor<8xf32>
  %1 = nn.reduce_mean %a [0] : (tensor<0x8xf32>) -> tensor<8xf32>
  %2 = nn.reduce_max %a [1] : (tensor<0x8xf32>) -> tensor<0xf32>
  %3 = nn.softmax %a : tensor<0x8xf32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<0xf32>, tensor<0x8xf32>
}

// -----

// CHECK-LABEL: llvm.func @conv_and_pools(
func.func @conv_and_pools(%x: tensor<0x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %dy: tensor<0x4x6x6xf32>) -> (tensor<0x4x3x3xf32>, tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<0x4x1x1xf32>) {
  %0 = nn.conv2d %x, %w : (tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<0x4x6x6xf32>
  %1 = nn.max_pool2d %0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<0x4x6x6xf32>) -> tensor<0x4x3x3xf32>
  %2 = nn.conv2d_grad_input %dy, %w : (tensor<0x4x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<0x3x8x8xf32>
  %3 = nn.conv2d_grad_filter %dy, %x : (tensor<0x4x6x6xf32>, tensor<0x3x8x8xf32>) -> tensor<4x3x3x3xf32>
  %4 = nn.global_avg_pool %0 : (tensor<0x4x6x6xf32>) -> tensor<0x4x1x1xf32>
  return %1, %2, %3, %4 : tensor<0x4x3x3xf32>, tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<0x4x1x1xf32>
}

// -----

// CHECK-LABEL: llvm.func @norms(
func.func @norms(%x: tensor<0x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<0x4xf32>, tensor<4xf32>, tensor<0x4xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b : (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %z, %m, %r = nn.layer_norm %x, %s, %b : (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<0x4xf32>, tensor<0xf32>, tensor<0xf32>)
  return %y, %mean, %z : tensor<0x4xf32>, tensor<4xf32>, tensor<0x4xf32>
}

// -----

// CHECK-LABEL: llvm.func @embedding_and_losses(
func.func @embedding_and_losses(%t: tensor<10x4xf32>, %ids: tensor<0xi32>, %l: tensor<0x10xf32>, %p: tensor<0x4xf32>) -> (tensor<0x4xf32>, tensor<10x4xf32>, tensor<f32>, tensor<f32>) {
  %0 = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<0xi32>) -> tensor<0x4xf32>
  %1 = nn.embedding_grad %0, %ids : (tensor<0x4xf32>, tensor<0xi32>) -> tensor<10x4xf32>
  %2 = nn.cross_entropy %l, %ids : (tensor<0x10xf32>, tensor<0xi32>) -> tensor<f32>
  %3 = nn.mse_loss %p, %0 : (tensor<0x4xf32>, tensor<0x4xf32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<0x4xf32>, tensor<10x4xf32>, tensor<f32>, tensor<f32>
}

// -----

// CHECK-LABEL: llvm.func @optimizers(
func.func @optimizers(%p: tensor<0x8xf32>, %g: tensor<0x8xf32>, %m: tensor<0x8xf32>, %v: tensor<0x8xf32>, %step: tensor<f32>) -> (tensor<0x8xf32>, tensor<0x8xf32>, tensor<f32>) {
  %c, %norm = nn.clip_grad_norm %g {max_norm = 1.0 : f32} : tensor<0x8xf32>
  %p1 = nn.sgd_update %p, %c {lr = 0.1 : f32} : tensor<0x8xf32>
  %p2, %m2, %v2, %s2 = nn.adam_update %p1, %c, %m, %v, %step {lr = 1.0e-03 : f32} : tensor<0x8xf32>
  return %p2, %m2, %norm : tensor<0x8xf32>, tensor<0x8xf32>, tensor<f32>
}

// -----

func.func @empty_matmul(%a: tensor<8x0xf32>, %b: tensor<0x3xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{amp-lower-to-runtime: nn.matmul of zero-size operands is not supported: the runtime GEMM has no empty case}}
  %0 = nn.matmul %a, %b : (tensor<8x0xf32>, tensor<0x3xf32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}
