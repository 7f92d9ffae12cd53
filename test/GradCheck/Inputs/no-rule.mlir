// nn.reduce_max has no derivative rule and lies between the param and the
// loss: nn-autodiff's error, at the op.
func.func @max_loss(%p: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_max %p [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
