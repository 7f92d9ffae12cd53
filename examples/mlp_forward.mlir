// The forward pass of the 2-layer MLP of mlp.mlir, as an inference
// function: logits for a batch of 32 8x8 digit images.
func.func @mlp_forward(
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %w1: tensor<64x128xf32> {nn.role = #nn.role<param>},
    %b1: tensor<128xf32> {nn.role = #nn.role<param>},
    %w2: tensor<128x10xf32> {nn.role = #nn.role<param>},
    %b2: tensor<10xf32> {nn.role = #nn.role<param>}) -> tensor<32x10xf32> {
  %xw1 = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %xw1, %b1 : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %aw2 = nn.matmul %a, %w2 : (tensor<32x128xf32>, tensor<128x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %aw2, %b2 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  return %logits : tensor<32x10xf32>
}
