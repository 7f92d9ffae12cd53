// The digits MLP of examples/mlp.mlir with dropout (rate 0.2) on its hidden
// layer, as PyTorch's nn.Dropout in training mode (dropout-masks.test).
func.func @train_step(
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %seed = arith.constant dense<2024> : tensor<i64>
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %d = nn.dropout %a, %seed {rate = 0.2 : f32, training} : tensor<32x128xf32>
  %aw2 = nn.matmul %d, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
