// A linear classifier on 4096 features at batch 64: each batch is 1 MiB of
// f32 inputs, enough for amp-exec's threaded gather (test/AOT/prefetch.test),
// at little compute.
func.func @train_step(
    %w: tensor<4096x10xf32> {nn.role = #nn.role<param>},
    %b: tensor<10xf32> {nn.role = #nn.role<param>},
    %x: tensor<64x4096xf32> {nn.role = #nn.role<input>},
    %labels: tensor<64xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %xw = nn.matmul %x, %w : (tensor<64x4096xf32>, tensor<4096x10xf32>) -> tensor<64x10xf32>
  %logits = nn.add %xw, %b : (tensor<64x10xf32>, tensor<10xf32>) -> tensor<64x10xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<64x10xf32>, tensor<64xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
