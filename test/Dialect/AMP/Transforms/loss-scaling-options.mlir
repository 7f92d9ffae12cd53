// Options reach amp.update_scale; hysteresis > 1 adds a hysteresis tracker.
// RUN: amp-opt %s --amp-loss-scaling="init-scale=1024 growth-factor=4 backoff-factor=0.8 growth-interval=100 min-scale=1 max-scale=1e6 hysteresis=3" | FileCheck %s
// Bad options are errors.
// RUN: not amp-opt %s --amp-loss-scaling="mode=sometimes" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %s --amp-loss-scaling="backoff-factor=1.5" 2>&1 | FileCheck %s --check-prefix=BACKOFF
// RUN: not amp-opt %s --amp-loss-scaling="growth-factor=0.5" 2>&1 | FileCheck %s --check-prefix=GROWTH
// RUN: not amp-opt %s --amp-loss-scaling="growth-interval=0" 2>&1 | FileCheck %s --check-prefix=INTERVAL
// RUN: not amp-opt %s --amp-loss-scaling="init-scale=-1" 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s --amp-loss-scaling="hysteresis=0" 2>&1 | FileCheck %s --check-prefix=HYST
// RUN: not amp-opt %s --amp-loss-scaling="min-scale=10 max-scale=5" 2>&1 | FileCheck %s --check-prefix=MINMAX

// CHECK-LABEL: func @step
// CHECK-SAME: {nn.init = 1.024000e+03 : f32, nn.role = #nn.role<loss_scale>}
// CHECK-SAME: {nn.init = 3 : i32, nn.role = #nn.role<hysteresis_tracker>}
// CHECK: amp.update_scale %{{.*}}, %{{.*}}, %{{.*}} hysteresis_tracker(%{{.*}}) {backoff_factor = 8.000000e-01 : f64, growth_factor = 4.000000e+00 : f64, growth_interval = 100 : i32, hysteresis = 3 : i32, max_scale = 1.000000e+06 : f32, min_scale = 1.000000e+00 : f32} : tensor<f32>, tensor<i32>, tensor<i32>
// CHECK: return {{.*}} : {{.*}}, tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>

// MODE: error: amp-loss-scaling: mode must be dynamic, static or none, got 'sometimes'
// BACKOFF: error: amp-loss-scaling: backoff-factor must be in (0, 1)
// GROWTH: error: amp-loss-scaling: growth-factor must be finite and > 1
// INTERVAL: error: amp-loss-scaling: growth-interval must be >= 1
// INIT: error: amp-loss-scaling: init-scale must be a positive finite f32 value
// HYST: error: amp-loss-scaling: hysteresis must be >= 1
// MINMAX: error: amp-loss-scaling: min-scale must be >= 0 and max-scale (0: none) >= min-scale

func.func @step(%w: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<4xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  %loss = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  return %w1, %loss : tensor<4xf32>, tensor<f32>
}
