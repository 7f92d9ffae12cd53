// The options of nn-autodiff: every option reaches the ops it sets, and bad
// values are errors before anything is changed.
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw lr=0.5 beta1=0.5 beta2=0.75 eps=0.25 weight-decay=0.125 clip-norm=2" | FileCheck %s
// RUN: not amp-opt %s --nn-autodiff="optimizer=foo" 2>&1 | FileCheck %s --check-prefix=OPTIMIZER
// RUN: not amp-opt %s --nn-autodiff="lr=-1" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not amp-opt %s --nn-autodiff="lr=0" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not amp-opt %s --nn-autodiff="lr=inf" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not amp-opt %s --nn-autodiff="momentum=1.5" 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="momentum=1" 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="momentum=-0.5" 2>&1 | FileCheck %s --check-prefix=MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="optimizer=adamw beta1=1" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not amp-opt %s --nn-autodiff="optimizer=adamw beta2=-0.5" 2>&1 | FileCheck %s --check-prefix=BETA
// RUN: not amp-opt %s --nn-autodiff="optimizer=adamw eps=0" 2>&1 | FileCheck %s --check-prefix=EPS
// RUN: not amp-opt %s --nn-autodiff="clip-norm=-1" 2>&1 | FileCheck %s --check-prefix=CLIP
// RUN: not amp-opt %s --nn-autodiff="clip-norm=inf" 2>&1 | FileCheck %s --check-prefix=CLIP
// RUN: not amp-opt %s --nn-autodiff="weight-decay=nan" 2>&1 | FileCheck %s --check-prefix=WEIGHT-DECAY
// RUN: not amp-opt %s --nn-autodiff="weight-decay=inf" 2>&1 | FileCheck %s --check-prefix=WEIGHT-DECAY

// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<param>}
// CHECK-SAME: %[[M:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[V:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// CHECK: %[[G:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[C:.*]], %{{.*}} = nn.clip_grad_norm %[[G]] {max_norm = 2.000000e+00 : f32} : tensor<4xf32>
// CHECK-NEXT: nn.adam_update %[[W]], %[[C]], %[[M]], %[[V]], %[[T]] {beta1 = 5.000000e-01 : f32, beta2 = 7.500000e-01 : f32, eps = 2.500000e-01 : f32, lr = 5.000000e-01 : f32, weight_decay = 1.250000e-01 : f32} : tensor<4xf32>

// OPTIMIZER: error: nn-autodiff: optimizer must be sgd, adam, adamw, radam, rmsprop, adagrad, adafactor or none, got 'foo'
// LR: error: nn-autodiff: lr must be a positive finite number
// MOMENTUM: error: nn-autodiff: momentum must be in [0, 1)
// BETA: error: nn-autodiff: beta1 and beta2 must be in [0, 1)
// EPS: error: nn-autodiff: eps must be a positive finite number
// CLIP: error: nn-autodiff: clip-norm must be >= 0 (0: off)
// WEIGHT-DECAY: error: nn-autodiff: weight-decay must be finite

func.func @step(%w: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %loss = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
