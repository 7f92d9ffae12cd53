// The checker fails when a gradient is wrong: --perturb-gradient multiplies
// the first param's autodiff gradient by 1.01, every checked element of it
// is then 1% off, and the tool reports it and exits with 1. The other param
// still passes.
// RUN: not amp-grad-check %s --perturb-gradient 2>&1 | FileCheck %s
// RUN: sh -c 'amp-grad-check %s --perturb-gradient > /dev/null; test $? -eq 1'
// Without the perturbation the same function passes.
// RUN: amp-grad-check %s | FileCheck %s --check-prefix=UNPERTURBED

// CHECK-LABEL: @linear: loss {{.*}}: FAILED
// CHECK-NEXT:    %W [3x4]: 12 of 12 elements, max abs error {{.*}}, max rel error 1.00e-02: FAILED (12 outside tolerance; worst [{{[0-9]}}, {{[0-9]}}]: autodiff {{.*}}, finite difference {{.*}})
// CHECK-NEXT:    %b [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:  summary: 1 functions, 2 params, 16 elements ({{.*}}): 1 of 2 params FAILED

// UNPERTURBED: @linear: loss {{.*}}: ok
// UNPERTURBED: summary: 1 functions, 2 params, 16 elements ({{.*}}): all passed
func.func @linear(%W: tensor<3x4xf32> {nn.role = #nn.role<param>},
                  %b: tensor<4xf32> {nn.role = #nn.role<param>},
                  %x: tensor<2x3xf32> {nn.role = #nn.role<input>},
                  %w: tensor<2x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %xw = nn.matmul %x, %W : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %y = nn.add %xw, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %t = nn.tanh %y : tensor<2x4xf32>
  %tw = nn.mul %t, %w : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %tw [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
