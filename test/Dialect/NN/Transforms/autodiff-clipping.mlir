// nn-autodiff's gradient clipping: clip-value clamps every gradient element
// (clip_grad_value_), clip-norm bounds their global norm (clip_grad_norm_)
// in the norm clip-norm-type names, and with both the values are clamped
// first. Bad values are errors before anything is changed.
// RUN: amp-opt %s --nn-autodiff="clip-value=0.5" | FileCheck %s --check-prefix=VALUE
// RUN: amp-opt %s --nn-autodiff="clip-norm=2 clip-norm-type=inf" | FileCheck %s --check-prefix=INF
// RUN: amp-opt %s --nn-autodiff="clip-norm=2 clip-norm-type=1" | FileCheck %s --check-prefix=ONE
// RUN: amp-opt %s --nn-autodiff="clip-norm=2 clip-norm-type=2" | FileCheck %s --check-prefix=TWO
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw clip-value=0.25 clip-norm=3 clip-norm-type=3.5" | FileCheck %s --check-prefix=BOTH
// RUN: amp-opt %s --nn-autodiff="optimizer=none clip-value=0.5" | FileCheck %s --check-prefix=NONE
// RUN: not amp-opt %s --nn-autodiff="clip-norm=1 clip-norm-type=0" 2>&1 | FileCheck %s --check-prefix=NORM-TYPE
// RUN: not amp-opt %s --nn-autodiff="clip-norm=1 clip-norm-type=-2" 2>&1 | FileCheck %s --check-prefix=NORM-TYPE
// RUN: not amp-opt %s --nn-autodiff="clip-norm=1 clip-norm-type=-inf" 2>&1 | FileCheck %s --check-prefix=NORM-TYPE
// RUN: not amp-opt %s --nn-autodiff="clip-norm=1 clip-norm-type=nan" 2>&1 | FileCheck %s --check-prefix=NORM-TYPE
// RUN: not amp-opt %s --nn-autodiff="clip-norm-type=inf" 2>&1 | FileCheck %s --check-prefix=NORM-TYPE-ALONE
// RUN: not amp-opt %s --nn-autodiff="clip-value=-1" 2>&1 | FileCheck %s --check-prefix=CLIP-VALUE
// RUN: not amp-opt %s --nn-autodiff="clip-value=inf" 2>&1 | FileCheck %s --check-prefix=CLIP-VALUE
// RUN: not amp-opt %s --nn-autodiff="clip-value=nan" 2>&1 | FileCheck %s --check-prefix=CLIP-VALUE

// VALUE-LABEL: func.func @step
// VALUE-SAME: %[[W:[a-z0-9]+]]: tensor<4x2xf32> {nn.role = #nn.role<param>}
// VALUE-SAME: %[[B:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<param>}
// VALUE: %[[C:.*]]:2 = nn.clip_grad_value %{{.*}}, %{{.*}} {clip_value = 5.000000e-01 : f32} : tensor<4x2xf32>, tensor<2xf32>
// VALUE-NOT: nn.clip_grad_norm
// VALUE: nn.sgd_update %[[W]], %[[C]]#0
// VALUE: nn.sgd_update %[[B]], %[[C]]#1
// Without clip-norm there is no grad_norm result.
// VALUE-NOT: grad_norm

// INF-LABEL: func.func @step
// INF-NOT: nn.clip_grad_value
// INF: %[[C:.*]]:2, %[[N:.*]] = nn.clip_grad_norm %{{.*}}, %{{.*}} {max_norm = 2.000000e+00 : f32, norm_type = 0x7F800000 : f32} : tensor<4x2xf32>, tensor<2xf32>
// INF: nn.sgd_update %{{.*}}, %[[C]]#0
// INF: nn.sgd_update %{{.*}}, %[[C]]#1
// INF: return {{.*}}%[[N]]

// ONE-LABEL: func.func @step
// ONE: nn.clip_grad_norm %{{.*}}, %{{.*}} {max_norm = 2.000000e+00 : f32, norm_type = 1.000000e+00 : f32}

// The default norm, given or not, is elided.
// TWO-LABEL: func.func @step
// TWO: nn.clip_grad_norm %{{.*}}, %{{.*}} {max_norm = 2.000000e+00 : f32} :

// BOTH-LABEL: func.func @step
// BOTH: %[[V:.*]]:2 = nn.clip_grad_value %{{.*}}, %{{.*}} {clip_value = 2.500000e-01 : f32}
// BOTH-NEXT: %[[C:.*]]:2, %{{.*}} = nn.clip_grad_norm %[[V]]#0, %[[V]]#1 {max_norm = 3.000000e+00 : f32, norm_type = 3.500000e+00 : f32}
// BOTH: nn.adam_update %{{.*}}, %[[C]]#0
// BOTH: nn.adam_update %{{.*}}, %[[C]]#1

// optimizer=none returns the clipped gradients.
// NONE-LABEL: func.func @step
// NONE: %[[C:.*]]:2 = nn.clip_grad_value
// NONE: return %[[C]]#0, %[[C]]#1, %{{.*}} :

// NORM-TYPE: error: nn-autodiff: clip-norm-type must be > 0 or inf
// NORM-TYPE-ALONE: error: nn-autodiff: clip-norm-type needs clip-norm > 0
// CLIP-VALUE: error: nn-autodiff: clip-value must be >= 0 (0: off)

func.func @step(%w: tensor<4x2xf32> {nn.role = #nn.role<param>}, %b: tensor<2xf32> {nn.role = #nn.role<param>},
                %x: tensor<3x4xf32> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.matmul %x, %w : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %y = nn.add %h, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %loss = nn.reduce_sum %y [0, 1] : (tensor<3x2xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
