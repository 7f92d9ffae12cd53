// A 2-layer MLP training step for 8x8 digit images (64 features, 10 classes),
// written by hand: forward, nn.grad_seed, backward, SGD with momentum. The one
// hand-written step kept, as a test input of the training-step convention
// (docs/dialects.md): the examples are forward + loss and nn-autodiff builds
// their steps. test/Integration/autodiff.test checks that examples/mlp.mlir
// through nn-autodiff (lr=0.05 momentum=0.9) trains to bitwise the same
// params as this step.
//
//   h      = x @ W1 + b1          [32, 128]
//   a      = relu(h)
//   logits = a @ W2 + b2          [32, 10]
//   loss   = cross_entropy(logits, labels)
//
// The function follows the training-step convention: params and optimizer
// state come in (f32) with their roles and go out updated, followed by the
// loss.
func.func @train_step(
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>},
    %mw1: tensor<64x128xf32> {nn.role = #nn.role<opt_state>},
    %mb1: tensor<128xf32> {nn.role = #nn.role<opt_state>},
    %mw2: tensor<128x10xf32> {nn.role = #nn.role<opt_state>},
    %mb2: tensor<10xf32> {nn.role = #nn.role<opt_state>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<64x128xf32> {nn.role = #nn.role<param>},
        tensor<128xf32> {nn.role = #nn.role<param>},
        tensor<128x10xf32> {nn.role = #nn.role<param>},
        tensor<10xf32> {nn.role = #nn.role<param>},
        tensor<64x128xf32> {nn.role = #nn.role<opt_state>},
        tensor<128xf32> {nn.role = #nn.role<opt_state>},
        tensor<128x10xf32> {nn.role = #nn.role<opt_state>},
        tensor<10xf32> {nn.role = #nn.role<opt_state>},
        tensor<f32> {nn.role = #nn.role<loss>}) {
  // Forward.
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %aw2 = nn.matmul %a, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>

  // Backward.
  %seed = nn.grad_seed %loss : tensor<f32>
  %dlogits = nn.cross_entropy_grad %seed, %logits, %labels : (tensor<f32>, tensor<32x10xf32>, tensor<32xi32>) -> tensor<32x10xf32>
  %dw2 = nn.matmul %a, %dlogits {transpose_a} : (tensor<32x128xf32>, tensor<32x10xf32>) -> tensor<128x10xf32>
  %db2 = nn.reduce_sum %dlogits [0] : (tensor<32x10xf32>) -> tensor<10xf32>
  %da = nn.matmul %dlogits, %w2 {transpose_b} : (tensor<32x10xf32>, tensor<128x10xf32>) -> tensor<32x128xf32>
  %dh = nn.relu_grad %da, %h : tensor<32x128xf32>
  %dw1 = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %db1 = nn.reduce_sum %dh [0] : (tensor<32x128xf32>) -> tensor<128xf32>

  // Optimizer: SGD with momentum 0.9.
  %w1n, %mw1n = nn.sgd_update %w1, %dw1, %mw1 {lr = 0.05 : f32, momentum = 0.9 : f32} : tensor<64x128xf32>
  %b1n, %mb1n = nn.sgd_update %b1, %db1, %mb1 {lr = 0.05 : f32, momentum = 0.9 : f32} : tensor<128xf32>
  %w2n, %mw2n = nn.sgd_update %w2, %dw2, %mw2 {lr = 0.05 : f32, momentum = 0.9 : f32} : tensor<128x10xf32>
  %b2n, %mb2n = nn.sgd_update %b2, %db2, %mb2 {lr = 0.05 : f32, momentum = 0.9 : f32} : tensor<10xf32>
  return %w1n, %b1n, %w2n, %b2n, %mw1n, %mb1n, %mw2n, %mb2n, %loss
      : tensor<64x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>,
        tensor<64x128xf32>, tensor<128xf32>, tensor<128x10xf32>, tensor<10xf32>,
        tensor<f32>
}

// The forward pass alone, for evaluation: amp-run --eval-entry=predict runs
// it with the trained params (matched by role, in order) on held-out rows.
func.func @predict(
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>}) -> tensor<32x10xf32> {
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %aw2 = nn.matmul %a, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  return %logits : tensor<32x10xf32>
}
