// A hand-written step whose loss reads the gradient ops that nn-autodiff
// composes from nn.mul and friends instead (tanh_grad, sigmoid_grad,
// sqrt_grad, rsqrt_grad), so that amp-run computes them on the runtime:
//
//   y    = f(x + w) for f in tanh, sigmoid, sqrt(|.| + 1), rsqrt(|.| + 1)
//   loss = mse_loss(concat(f_grad(dy = x, y)...), 0)
//
// The param (zero) is returned unchanged; it only makes this a step.
func.func @train_step(
    %w: tensor<64xf32> {nn.role = #nn.role<param>},
    %x: tensor<32x64xf32> {nn.role = #nn.role<input>},
    %labels: tensor<32xi32> {nn.role = #nn.role<label>})
    -> (tensor<64xf32> {nn.role = #nn.role<param>},
        tensor<f32> {nn.role = #nn.role<loss>}) {
  %one = arith.constant dense<1.0> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<32x256xf32>
  %h = nn.add %x, %w : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %t = nn.tanh %h : tensor<32x64xf32>
  %gt = nn.tanh_grad %x, %t : tensor<32x64xf32>
  %s = nn.sigmoid %h : tensor<32x64xf32>
  %gs = nn.sigmoid_grad %x, %s : tensor<32x64xf32>
  %a = nn.abs %h : tensor<32x64xf32>
  %a1 = nn.add %a, %one : (tensor<32x64xf32>, tensor<f32>) -> tensor<32x64xf32>
  %q = nn.sqrt %a1 : tensor<32x64xf32>
  %gq = nn.sqrt_grad %x, %q : tensor<32x64xf32>
  %r = nn.rsqrt %a1 : tensor<32x64xf32>
  %gr = nn.rsqrt_grad %x, %r : tensor<32x64xf32>
  %g = nn.concat %gt, %gs, %gq, %gr {axis = 1 : i64} : (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x256xf32>
  %loss = nn.mse_loss %g, %zero : (tensor<32x256xf32>, tensor<32x256xf32>) -> tensor<f32>
  return %w, %loss : tensor<64xf32>, tensor<f32>
}
