// nn-autodiff's Adafactor on params of other ranks: a conv weight
// [O, I, kh, kw] is factored over its kernel ([O, I, kh, 1] and
// [O, I, 1, kw]), a 0-d param keeps its second moment whole, eps1 is f32's
// epsilon (PyTorch's eps=(None, ...) for f32 params; the op's default, not
// printed), and a param without elements is an error (torch.optim.Adafactor
// divides by its element count).
// RUN: amp-opt %s -split-input-file --nn-autodiff="optimizer=adafactor" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @ranks(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4x2x3x3xf32> {nn.role = #nn.role<param>}
// CHECK-SAME: %[[S:[^:]*]]: tensor<f32> {nn.role = #nn.role<param>}
// CHECK-SAME: %[[R:[^:]*]]: tensor<4x2x3x1xf32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[C:[^:]*]]: tensor<4x2x1x3xf32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[T:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[V:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[U:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// CHECK: nn.adafactor_update %[[W]], %{{[^ ]*}} factored(%[[R]], %[[C]]) step(%[[T]]) {lr = 0.00999999977 : f32} : tensor<4x2x3x3xf32>
// CHECK: nn.adafactor_update %[[S]], %{{[^ ]*}} variance(%[[V]]) step(%[[U]]) {lr = 0.00999999977 : f32} : tensor<f32>
func.func @ranks(%w: tensor<4x2x3x3xf32> {nn.role = #nn.role<param>},
                 %s: tensor<f32> {nn.role = #nn.role<param>},
                 %x: tensor<4x2x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %x, %w : (tensor<4x2x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<4x2x3x3xf32>
  %u = nn.mul %y, %s : (tensor<4x2x3x3xf32>, tensor<f32>) -> tensor<4x2x3x3xf32>
  %loss = nn.reduce_mean %u [0, 1, 2, 3] : (tensor<4x2x3x3xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// expected-error @+1 {{nn-autodiff: param #1 of @empty has no elements: Adafactor scales each step by the param's root mean square (torch.optim.Adafactor fails on it too)}}
func.func @empty(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                 %e: tensor<0x4xf32> {nn.role = #nn.role<param>},
                 %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %loss = nn.reduce_mean %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
