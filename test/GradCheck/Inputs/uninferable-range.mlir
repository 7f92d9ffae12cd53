// An integer argument that indexes nothing: its range cannot be inferred.
func.func @unused_ids(%p: tensor<4xf32> {nn.role = #nn.role<param>},
                      %ids: tensor<4xi32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %p [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
