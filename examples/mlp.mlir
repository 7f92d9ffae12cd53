// The digits MLP written as a PyTorch user writes it: the forward pass and
// the loss, nothing else. nn-autodiff builds the backward pass and the
// optimizer update; amp-run does that by itself when --entry is a forward
// loss function:
//
//   amp-run examples/mlp.mlir --autodiff-options "lr=0.05 momentum=0.9" \
//       --data data/digits.csv --feature-scale 0.0625 --steps 300 \
//       --eval-entry train_step_forward --precision f16
//
// It trains bitwise like the hand-written step kept as a test input,
// test/Integration/Inputs/mlp_train.mlir (test/Integration/autodiff.test).
//
//   h      = x @ W1 + b1          [32, 128]
//   a      = relu(h)
//   logits = a @ W2 + b2          [32, 10]
//   loss   = cross_entropy(logits, labels)
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
  %loss = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
