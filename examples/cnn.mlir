// A small residual CNN on the 8x8 digits, written as forward + loss;
// amp-run builds its training step with nn-autodiff:
//
//   amp-run examples/cnn.mlir --autodiff-options "optimizer=adamw lr=0.003" \
//       --data data/digits.csv --feature-scale 0.0625 --steps 500 \
//       --eval-entry train_step_forward --precision f16
//
// amp-run feeds [batch, features] rows, so the image is reshaped inside:
//
//   x      = reshape(input)                          [32, 1, 8, 8]
//   h      = relu(bn(conv3x3(x)))                    [32, 8, 8, 8]
//   p      = max_pool2x2(h)                          [32, 8, 4, 4]
//   r      = relu(p + bn(conv3x3(avg_pool3x3(p))))   residual block
//   logits = reshape(global_avg_pool(r)) @ W + b     [32, 10]
//   loss   = cross_entropy(logits, labels)
//
// The batch norms train as PyTorch's BatchNorm2d in training mode: they
// normalize with the batch's statistics and update running ones (buffers,
// returned after the loss; momentum 0.1, unbiased variance), which the
// inference function @train_step_forward that --eval-entry runs normalizes
// with.
func.func @train_step(
    %w1: tensor<8x1x3x3xf32> {nn.role = #nn.role<param>},
    %g1: tensor<8xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b1: tensor<8xf32> {nn.role = #nn.role<param>},
    %w2: tensor<8x8x3x3xf32> {nn.role = #nn.role<param>},
    %g2: tensor<8xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b2: tensor<8xf32> {nn.role = #nn.role<param>},
    %w3: tensor<8x10xf32> {nn.role = #nn.role<param>},
    %b3: tensor<10xf32> {nn.role = #nn.role<param>},
    %rm1: tensor<8xf32> {nn.role = #nn.role<buffer>},
    %rv1: tensor<8xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %rm2: tensor<8xf32> {nn.role = #nn.role<buffer>},
    %rv2: tensor<8xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %input: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>},
        tensor<8xf32> {nn.role = #nn.role<buffer>},
        tensor<8xf32> {nn.role = #nn.role<buffer>},
        tensor<8xf32> {nn.role = #nn.role<buffer>},
        tensor<8xf32> {nn.role = #nn.role<buffer>}) {
  %x = nn.reshape %input : tensor<32x64xf32> -> tensor<32x1x8x8xf32>
  %c1 = nn.conv2d %x, %w1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x1x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<32x8x8x8xf32>
  %n1, %m1, %s1 = nn.batch_norm %c1, %g1, %b1 : (tensor<32x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<32x8x8x8xf32>, tensor<8xf32>, tensor<8xf32>)
  %rm1n, %rv1n = nn.running_stats_update %rm1, %rv1, %m1, %s1 {count = 2048 : i64} : tensor<8xf32>
  %h = nn.relu %n1 : tensor<32x8x8x8xf32>
  %p = nn.max_pool2d %h {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<32x8x8x8xf32>) -> tensor<32x8x4x4xf32>
  %a = nn.avg_pool2d %p {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<32x8x4x4xf32>) -> tensor<32x8x4x4xf32>
  %c2 = nn.conv2d %a, %w2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x8x4x4xf32>, tensor<8x8x3x3xf32>) -> tensor<32x8x4x4xf32>
  %n2, %m2, %s2 = nn.batch_norm %c2, %g2, %b2 : (tensor<32x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<32x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>)
  %rm2n, %rv2n = nn.running_stats_update %rm2, %rv2, %m2, %s2 {count = 512 : i64} : tensor<8xf32>
  %sum = nn.add %p, %n2 : (tensor<32x8x4x4xf32>, tensor<32x8x4x4xf32>) -> tensor<32x8x4x4xf32>
  %r = nn.relu %sum : tensor<32x8x4x4xf32>
  %g = nn.global_avg_pool %r : (tensor<32x8x4x4xf32>) -> tensor<32x8x1x1xf32>
  %f = nn.reshape %g : tensor<32x8x1x1xf32> -> tensor<32x8xf32>
  %fw = nn.matmul %f, %w3 : (tensor<32x8xf32>, tensor<8x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %fw, %b3 : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  return %loss, %rm1n, %rv1n, %rm2n, %rv2n : tensor<f32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
