// nn.relu_grad (a backward op) has no derivative rule and lies between the
// param and the loss: nn-autodiff's error, at the op.
func.func @no_rule_loss(%p: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %g = nn.relu_grad %p, %p : tensor<4xf32>
  %l = nn.reduce_sum %g [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
