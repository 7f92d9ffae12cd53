// A small ResNet on the 8x8 digits, written as forward + loss; amp-run builds
// its training step with nn-autodiff (docs/amp-run.md has the results):
//
//   amp-run examples/resnet.mlir --autodiff-options "lr=0.05 momentum=0.9" \
//       --data data/digits.csv --feature-scale 0.0625 --steps 1500 \
//       --eval-entry train_step_forward --precision f16
//
// Two basic blocks (conv3x3-bn-relu-conv3x3-bn, identity shortcut, relu)
// around a max pool, then global average pooling and a linear head. amp-run
// feeds [batch, features] rows, so the image is reshaped inside:
//
//   x      = reshape(input)                             [32, 1, 8, 8]
//   s      = relu(bn(conv3x3(x)))                       [32, 16, 8, 8]
//   b1     = relu(s + bn(conv3x3(relu(bn(conv3x3(s))))))  basic block
//   p      = max_pool2x2(b1)                            [32, 16, 4, 4]
//   b2     = relu(p + bn(conv3x3(relu(bn(conv3x3(p))))))  basic block
//   logits = reshape(global_avg_pool(b2)) @ W + b       [32, 10]
//   loss   = cross_entropy(logits, labels)
//
// The batch norms train as PyTorch's BatchNorm2d in training mode: batch
// statistics, and running statistics (buffers, returned after the loss)
// that the inference function @train_step_forward normalizes with.
func.func @train_step(
    %w0: tensor<16x1x3x3xf32> {nn.role = #nn.role<param>},
    %g0: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b0: tensor<16xf32> {nn.role = #nn.role<param>},
    %w1a: tensor<16x16x3x3xf32> {nn.role = #nn.role<param>},
    %g1a: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b1a: tensor<16xf32> {nn.role = #nn.role<param>},
    %w1b: tensor<16x16x3x3xf32> {nn.role = #nn.role<param>},
    %g1b: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b1b: tensor<16xf32> {nn.role = #nn.role<param>},
    %w2a: tensor<16x16x3x3xf32> {nn.role = #nn.role<param>},
    %g2a: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b2a: tensor<16xf32> {nn.role = #nn.role<param>},
    %w2b: tensor<16x16x3x3xf32> {nn.role = #nn.role<param>},
    %g2b: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<param>},
    %b2b: tensor<16xf32> {nn.role = #nn.role<param>},
    %wfc: tensor<16x10xf32> {nn.role = #nn.role<param>},
    %bfc: tensor<10xf32> {nn.role = #nn.role<param>},
    %rm0: tensor<16xf32> {nn.role = #nn.role<buffer>},
    %rv0: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %rm1a: tensor<16xf32> {nn.role = #nn.role<buffer>},
    %rv1a: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %rm1b: tensor<16xf32> {nn.role = #nn.role<buffer>},
    %rv1b: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %rm2a: tensor<16xf32> {nn.role = #nn.role<buffer>},
    %rv2a: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %rm2b: tensor<16xf32> {nn.role = #nn.role<buffer>},
    %rv2b: tensor<16xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
    %input: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>},
        tensor<16xf32> {nn.role = #nn.role<buffer>}) {
  %x = nn.reshape %input : tensor<32x64xf32> -> tensor<32x1x8x8xf32>

  // Stem.
  %c0 = nn.conv2d %x, %w0 {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x1x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<32x16x8x8xf32>
  %n0, %m0, %i0 = nn.batch_norm %c0, %g0, %b0 : (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  %rm0n, %rv0n = nn.running_stats_update %rm0, %rv0, %m0, %i0 {count = 2048 : i64} : tensor<16xf32>
  %s = nn.relu %n0 : tensor<32x16x8x8xf32>

  // Basic block 1 (8x8).
  %c1a = nn.conv2d %s, %w1a {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<32x16x8x8xf32>
  %n1a, %m1a, %i1a = nn.batch_norm %c1a, %g1a, %b1a : (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  %rm1an, %rv1an = nn.running_stats_update %rm1a, %rv1a, %m1a, %i1a {count = 2048 : i64} : tensor<16xf32>
  %r1a = nn.relu %n1a : tensor<32x16x8x8xf32>
  %c1b = nn.conv2d %r1a, %w1b {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<32x16x8x8xf32>
  %n1b, %m1b, %i1b = nn.batch_norm %c1b, %g1b, %b1b : (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<32x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  %rm1bn, %rv1bn = nn.running_stats_update %rm1b, %rv1b, %m1b, %i1b {count = 2048 : i64} : tensor<16xf32>
  %sum1 = nn.add %s, %n1b : (tensor<32x16x8x8xf32>, tensor<32x16x8x8xf32>) -> tensor<32x16x8x8xf32>
  %out1 = nn.relu %sum1 : tensor<32x16x8x8xf32>

  %p = nn.max_pool2d %out1 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<32x16x8x8xf32>) -> tensor<32x16x4x4xf32>

  // Basic block 2 (4x4).
  %c2a = nn.conv2d %p, %w2a {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x16x4x4xf32>, tensor<16x16x3x3xf32>) -> tensor<32x16x4x4xf32>
  %n2a, %m2a, %i2a = nn.batch_norm %c2a, %g2a, %b2a : (tensor<32x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<32x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  %rm2an, %rv2an = nn.running_stats_update %rm2a, %rv2a, %m2a, %i2a {count = 512 : i64} : tensor<16xf32>
  %r2a = nn.relu %n2a : tensor<32x16x4x4xf32>
  %c2b = nn.conv2d %r2a, %w2b {padding = array<i64: 1, 1, 1, 1>} : (tensor<32x16x4x4xf32>, tensor<16x16x3x3xf32>) -> tensor<32x16x4x4xf32>
  %n2b, %m2b, %i2b = nn.batch_norm %c2b, %g2b, %b2b : (tensor<32x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<32x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  %rm2bn, %rv2bn = nn.running_stats_update %rm2b, %rv2b, %m2b, %i2b {count = 512 : i64} : tensor<16xf32>
  %sum2 = nn.add %p, %n2b : (tensor<32x16x4x4xf32>, tensor<32x16x4x4xf32>) -> tensor<32x16x4x4xf32>
  %out2 = nn.relu %sum2 : tensor<32x16x4x4xf32>

  // Head.
  %gap = nn.global_avg_pool %out2 : (tensor<32x16x4x4xf32>) -> tensor<32x16x1x1xf32>
  %f = nn.reshape %gap : tensor<32x16x1x1xf32> -> tensor<32x16xf32>
  %fw = nn.matmul %f, %wfc : (tensor<32x16xf32>, tensor<16x10xf32>) -> tensor<32x10xf32>
  %logits = nn.add %fw, %bfc : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  return %loss, %rm0n, %rv0n, %rm1an, %rv1an, %rm1bn, %rv1bn, %rm2an, %rv2an, %rm2bn, %rv2bn : tensor<f32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
