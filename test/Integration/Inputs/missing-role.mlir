func.func @train_step(%w: tensor<4x2xf32> {nn.role = #nn.role<param>}, %x: tensor<8x4xf32>, %l: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<4x2xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %loss = nn.cross_entropy %logits, %l : (tensor<8x2xf32>, tensor<8xi32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %dl = nn.cross_entropy_grad %seed, %logits, %l : (tensor<f32>, tensor<8x2xf32>, tensor<8xi32>) -> tensor<8x2xf32>
  %dw = nn.matmul %x, %dl {transpose_a} : (tensor<8x4xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %w1 = nn.sgd_update %w, %dw {lr = 0.1 : f32} : tensor<4x2xf32>
  return %w1, %loss : tensor<4x2xf32>, tensor<f32>
}
