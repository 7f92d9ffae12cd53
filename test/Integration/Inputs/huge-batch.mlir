// A forward model whose [2^24, 64] input is too large for amp-run's
// synthetic data (amp-run-inputs.test).
func.func @train_step(%w: tensor<64x10xf32> {nn.role = #nn.role<param>},
                      %x: tensor<16777216x64xf32> {nn.role = #nn.role<input>},
                      %y: tensor<16777216xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<16777216x64xf32>, tensor<64x10xf32>) -> tensor<16777216x10xf32>
  %loss = nn.cross_entropy %logits, %y : (tensor<16777216x10xf32>, tensor<16777216xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
