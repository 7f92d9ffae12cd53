// A function as a compiler that embeds amp hands it: its own op
// (embed.dense, allow), upstream arith, and amp's nn ops. embed-amp runs
// amp-pipeline on it (test/Embed/embed.test checks the result).
func.func @mixed(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>,
                 %b1: tensor<8x32xf32>, %w2: tensor<32x4xf32>) -> tensor<8x4xf32> {
  %h = embed.dense %x, %w1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %hb = arith.addf %h, %b1 : tensor<8x32xf32>
  %a = nn.relu %hb : tensor<8x32xf32>
  %y = nn.matmul %a, %w2 : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
  %p = nn.softmax %y : tensor<8x4xf32>
  return %p : tensor<8x4xf32>
}
