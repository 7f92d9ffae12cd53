// math.sin reads only an input, so nn-autodiff needs no rule for it, but the
// reference interpreter has no evaluator for it.
func.func @sin_input(%p: tensor<4xf32> {nn.role = #nn.role<param>},
                     %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = math.sin %x : tensor<4xf32>
  %y = nn.mul %p, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
