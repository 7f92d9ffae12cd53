// Integer labels with a fractional nn.check_range.
func.func @fractional(%logits: tensor<2x5xf32> {nn.role = #nn.role<param>},
                      %labels: tensor<2xi32> {nn.role = #nn.role<label>, nn.check_range = [0.5, 3.0]})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels : (tensor<2x5xf32>, tensor<2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}
