// The digits MLP of mlp.mlir with its loss multiplied by a tiny weight
// w = 2^-20, trained with its learning rate multiplied by 2^20
// (lr = 0.05 * 2^20 = 52428.8): in exact arithmetic it trains exactly like
// mlp.mlir, but its activation gradients are ~2^-20 times smaller, below
// fp16's smallest subnormal (2^-24). fp16 without loss scaling loses them;
// dynamic loss scaling brings them back. See docs/underflow.md:
//
//   amp-run examples/underflow.mlir --autodiff-options "lr=52428.8 momentum=0.9" \
//       --data data/digits.csv --feature-scale 0.0625 --steps 300 \
//       --eval-entry train_step_forward --precision f16
//
//   h      = x @ W1 + b1          [32, 128]
//   a      = relu(h)
//   logits = a @ W2 + b2          [32, 10]
//   loss   = 2^-20 * cross_entropy(logits, labels)
func.func @train_step(
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %aw2 = nn.matmul %a, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %ce = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  %w = arith.constant dense<9.5367431640625E-7> : tensor<f32>
  %loss = nn.mul %ce, %w : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// Not part of training: a probe for amp-run --underflow-report=grads. It
// returns, in f32, the two activation gradients that the f16 AMP step holds
// in f16 (dlogits feeds two f16 GEMMs, dh is the relu_grad output), and the
// report counts how many of their non-zero elements an f16 cast flushes to
// zero. nn-autodiff builds param gradients, not activation gradients, so
// these two are written out: dlogits = w * d(cross_entropy)/d(logits), and
// dh = relu'(h) * (dlogits @ W2^T).
func.func @grads(
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<32x10xf32>, tensor<32x128xf32>) {
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %aw2 = nn.matmul %a, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %w = arith.constant dense<9.5367431640625E-7> : tensor<f32>
  %dlogits = nn.cross_entropy_grad %w, %logits, %labels : (tensor<f32>, tensor<32x10xf32>, tensor<32xi32>) -> tensor<32x10xf32>
  %da = nn.matmul %dlogits, %w2 {transpose_b} : (tensor<32x10xf32>, tensor<128x10xf32>) -> tensor<32x128xf32>
  %dh = nn.relu_grad %da, %h : tensor<32x128xf32>
  return %dlogits, %dh : tensor<32x10xf32>, tensor<32x128xf32>
}
