// A forward + loss model that runs the selection, shape and pointwise ops of
// issue #10 (and, through nn-autodiff, their gradients) on the runtime: it
// regresses the first feature of each row with mse_loss. amp-run feeds no
// float targets, so the target is sliced from the input; the labels are
// unused.
//
//   h    = x @ W1 + b1                                     [32, 32]
//   w    = where(mask, maximum(tanh h, sigmoid h), clamp(h, -0.25, 0.25))
//   f    = concat(sqrt(w^2 + 1), rsqrt(|h| + 1), minimum(tanh h, sigmoid h))
//   d    = dropout(pad(f[:, 1::2], 8 left and right), seed) [32, 64]
//   pred = d @ W2 + b2 + reduce_max(h, 1)                  [32, 1]
//   loss = mse_loss(pred, x[:, 0:1])
func.func @train_step(
    %w1: tensor<64x32xf32> {nn.role = #nn.role<param>},
    %b1: tensor<32xf32> {nn.role = #nn.role<param>},
    %w2: tensor<64x1xf32> {nn.role = #nn.role<param>},
    %b2: tensor<1xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %mask = arith.constant dense<[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true]> : tensor<32xi1>
  %seed = arith.constant dense<1234> : tensor<i64>
  %one = arith.constant dense<1.0> : tensor<f32>
  %xw = nn.matmul %x, %w1 : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
  %h = nn.add %xw, %b1 : (tensor<32x32xf32>, tensor<32xf32>) -> tensor<32x32xf32>
  %t = nn.tanh %h : tensor<32x32xf32>
  %s = nn.sigmoid %h : tensor<32x32xf32>
  %mx = nn.maximum %t, %s : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %mn = nn.minimum %t, %s : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = nn.clamp %h {min = -0.25 : f32, max = 0.25 : f32} : tensor<32x32xf32>
  %w = nn.where %mask, %mx, %c : (tensor<32xi1>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %p = nn.pow %w {exponent = 2.0 : f32} : tensor<32x32xf32>
  %p1 = nn.add %p, %one : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  %q = nn.sqrt %p1 : tensor<32x32xf32>
  %a = nn.abs %h : tensor<32x32xf32>
  %a1 = nn.add %a, %one : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  %r = nn.rsqrt %a1 : tensor<32x32xf32>
  %f = nn.concat %q, %r, %mn {axis = -1 : i64} : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x96xf32>
  %sl = nn.slice %f {offsets = array<i64: 0, 1>, strides = array<i64: 1, 2>} : tensor<32x96xf32> -> tensor<32x48xf32>
  %pd = nn.pad %sl {low = array<i64: 0, 8>, high = array<i64: 0, 8>} : tensor<32x48xf32> -> tensor<32x64xf32>
  %d = nn.dropout %pd, %seed {rate = 0.1 : f32, training} : tensor<32x64xf32>
  %dw = nn.matmul %d, %w2 : (tensor<32x64xf32>, tensor<64x1xf32>) -> tensor<32x1xf32>
  %o = nn.add %dw, %b2 : (tensor<32x1xf32>, tensor<1xf32>) -> tensor<32x1xf32>
  %m = nn.reduce_max %h [1] keep_dims : (tensor<32x32xf32>) -> tensor<32x1xf32>
  %pred = nn.add %o, %m : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %target = nn.slice %x {offsets = array<i64: 0, 0>} : tensor<32x64xf32> -> tensor<32x1xf32>
  %loss = nn.mse_loss %pred, %target : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
