// nn.check_range lets labels go past the 5 classes: the interpreter rejects
// the data at the op, as the runtime does.
func.func @bad_labels(%logits: tensor<4x5xf32> {nn.role = #nn.role<param>},
                      %labels: tensor<4xi32> {nn.role = #nn.role<label>, nn.check_range = [100, 200]})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels : (tensor<4x5xf32>, tensor<4xi32>) -> tensor<f32>
  return %l : tensor<f32>
}
