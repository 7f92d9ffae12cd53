// A forward + loss model with zero-size branches beside a classifier: [8, 0]
// tensors with a zero-size param, and an empty batch through conv2d, the
// pools and layer_norm. Every op of the branches, and through nn-autodiff
// their gradients and the params' updates, runs on tensors with no elements
// (zero-size.test). The branches add 0 to the loss.
func.func @train_step(
    %w: tensor<4x3xf32> {nn.role = #nn.role<param>},
    %v: tensor<0xf32> {nn.role = #nn.role<param>},
    %f: tensor<2x1x1x1xf32> {nn.role = #nn.role<param>},
    %g: tensor<4xf32> {nn.role = #nn.role<param>},
    %h: tensor<4xf32> {nn.role = #nn.role<param>},
    %x: tensor<8x4xf32> {nn.role = #nn.role<input>},
    %y: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %logits = nn.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %ce = nn.cross_entropy %logits, %y : (tensor<8x3xf32>, tensor<8xi32>) -> tensor<f32>
  %e = nn.slice %x {offsets = array<i64: 0, 0>} : tensor<8x4xf32> -> tensor<8x0xf32>
  %ev = nn.add %e, %v : (tensor<8x0xf32>, tensor<0xf32>) -> tensor<8x0xf32>
  %r = nn.relu %ev : tensor<8x0xf32>
  %t = nn.tanh %r : tensor<8x0xf32>
  %m = nn.mul %t, %ev : (tensor<8x0xf32>, tensor<8x0xf32>) -> tensor<8x0xf32>
  %sm = nn.softmax %m {axis = 0 : i64} : tensor<8x0xf32>
  %tr = nn.transpose %sm [1, 0] : tensor<8x0xf32> -> tensor<0x8xf32>
  %rs = nn.reshape %tr : tensor<0x8xf32> -> tensor<8x0xf32>
  %cat = nn.concat %rs, %x {axis = 1 : i64} : (tensor<8x0xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %p = nn.pad %rs {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : tensor<8x0xf32> -> tensor<8x2xf32>
  %s1 = nn.reduce_sum %cat [0, 1] : (tensor<8x4xf32>) -> tensor<f32>
  %s2 = nn.reduce_sum %p [0, 1] : (tensor<8x2xf32>) -> tensor<f32>
  %s3 = nn.reduce_sum %rs [0, 1] : (tensor<8x0xf32>) -> tensor<f32>
  // An empty batch: conv2d, the pools and layer_norm over no rows.
  %e0 = nn.slice %x {offsets = array<i64: 0, 0>} : tensor<8x4xf32> -> tensor<0x4xf32>
  %img = nn.reshape %e0 : tensor<0x4xf32> -> tensor<0x1x2x2xf32>
  %conv = nn.conv2d %img, %f : (tensor<0x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<0x2x2x2xf32>
  %mp = nn.max_pool2d %conv {kernel = array<i64: 2, 2>} : (tensor<0x2x2x2xf32>) -> tensor<0x2x1x1xf32>
  %ap = nn.avg_pool2d %conv {kernel = array<i64: 2, 2>} : (tensor<0x2x2x2xf32>) -> tensor<0x2x1x1xf32>
  %ln, %mean, %rstd = nn.layer_norm %e0, %g, %h {axis = 1 : i64} : (tensor<0x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<0x4xf32>, tensor<0xf32>, tensor<0xf32>)
  %s4 = nn.reduce_sum %mp [0, 1, 2, 3] : (tensor<0x2x1x1xf32>) -> tensor<f32>
  %s5 = nn.reduce_sum %ap [0, 1, 2, 3] : (tensor<0x2x1x1xf32>) -> tensor<f32>
  %s6 = nn.reduce_sum %ln [0, 1] : (tensor<0x4xf32>) -> tensor<f32>
  %s45 = nn.add %s4, %s5 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %s456 = nn.add %s45, %s6 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %s3b = nn.add %s3, %s456 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %z1 = nn.mul %s1, %s3b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %z = nn.add %z1, %s2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %loss = nn.add %ce, %z : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %loss : tensor<f32>
}
