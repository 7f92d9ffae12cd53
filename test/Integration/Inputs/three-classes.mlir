// A forward model of 3 classes: amp-run's synthetic labels must stay in
// [0, 3) (amp-run-inputs.test).
func.func @train_step(%w: tensor<4x3xf32> {nn.role = #nn.role<param>},
                      %x: tensor<8x4xf32> {nn.role = #nn.role<input>},
                      %y: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %loss = nn.cross_entropy %logits, %y : (tensor<8x3xf32>, tensor<8xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
