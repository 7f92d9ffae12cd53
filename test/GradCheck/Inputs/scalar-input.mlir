// A scalar (non-tensor) input cannot be filled.
func.func @scalar(%p: tensor<4xf32> {nn.role = #nn.role<param>},
                  %s: f32 {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %p [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
