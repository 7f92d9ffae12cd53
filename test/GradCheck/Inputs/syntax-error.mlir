func.func @broken(%p: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %p [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32
}
