// A forward model that looks up a constant token id beyond its table: the
// embedding kernel fails at run time (runtime-error-site.test).
func.func @train_step(%table: tensor<4x3xf32> {nn.role = #nn.role<param>},
                      %x: tensor<2x3xf32> {nn.role = #nn.role<input>},
                      %y: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %ids = arith.constant dense<[1, 9]> : tensor<2xi32>
  %e = nn.embedding %table, %ids : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %h = nn.add %e, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %loss = nn.cross_entropy %h, %y : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
