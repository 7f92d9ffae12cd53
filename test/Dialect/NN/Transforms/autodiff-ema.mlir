// RUN: amp-opt %s --nn-autodiff="momentum=0.9 ema-decay=0.75" | FileCheck %s
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75 ema-buffers" | FileCheck %s --check-prefix=BUFFERS
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75 accumulate-steps=2" | FileCheck %s --check-prefix=ACCUMULATE
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75" --amp-pipeline | FileCheck %s --check-prefix=AMP
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75 ema-warmup=ratio" | FileCheck %s --check-prefix=RATIO
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75 ema-warmup=power ema-warmup-gamma=2 ema-warmup-power=0.75" | FileCheck %s --check-prefix=POWER
// RUN: amp-opt %s --nn-autodiff="ema-decay=0.75 ema-warmup=power" | FileCheck %s --check-prefix=POWER-DEFAULT

// Bad values are errors.
// RUN: not amp-opt %s --nn-autodiff="ema-decay=1" 2>&1 | FileCheck %s --check-prefix=BAD-DECAY
// RUN: not amp-opt %s --nn-autodiff="ema-decay=-0.5" 2>&1 | FileCheck %s --check-prefix=BAD-DECAY
// RUN: not amp-opt %s --nn-autodiff="ema-decay=nan" 2>&1 | FileCheck %s --check-prefix=BAD-DECAY
// RUN: not amp-opt %s --nn-autodiff="ema-buffers" 2>&1 | FileCheck %s --check-prefix=NO-DECAY
// RUN: not amp-opt %s --nn-autodiff="optimizer=none ema-decay=0.5" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not amp-opt %s --nn-autodiff="ema-decay=0.5 ema-warmup=linear" 2>&1 | FileCheck %s --check-prefix=BAD-WARMUP
// RUN: not amp-opt %s --nn-autodiff="ema-warmup=ratio" 2>&1 | FileCheck %s --check-prefix=WARMUP-NO-DECAY
// RUN: not amp-opt %s --nn-autodiff="ema-decay=0.5 ema-warmup=ratio ema-warmup-power=0.75" 2>&1 | FileCheck %s --check-prefix=RATIO-POWER
// RUN: not amp-opt %s --nn-autodiff="ema-decay=0.5 ema-warmup-gamma=2" 2>&1 | FileCheck %s --check-prefix=RATIO-POWER
// RUN: not amp-opt %s --nn-autodiff="ema-decay=0.5 ema-warmup=power ema-warmup-gamma=0" 2>&1 | FileCheck %s --check-prefix=BAD-GAMMA
// RUN: not amp-opt %s --nn-autodiff="ema-decay=0.5 ema-warmup=power ema-warmup-power=inf" 2>&1 | FileCheck %s --check-prefix=BAD-GAMMA
// BAD-DECAY: error: nn-autodiff: ema-decay must be in [0, 1) (0: off)
// NO-DECAY: error: nn-autodiff: ema-buffers needs ema-decay
// NONE: error: nn-autodiff: ema-decay needs an optimizer (optimizer=none updates no params to average)
// BAD-WARMUP: error: nn-autodiff: ema-warmup must be none, ratio or power, got 'linear'
// WARMUP-NO-DECAY: error: nn-autodiff: ema-warmup needs ema-decay
// RATIO-POWER: error: nn-autodiff: ema-warmup-gamma and ema-warmup-power need ema-warmup=power
// BAD-GAMMA: error: nn-autodiff: ema-warmup-gamma and ema-warmup-power must be positive finite numbers

// ema-decay: a moving average of every param after its update, as
// PyTorch's AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.75))
// updated after each optimizer step. The averages are ema arguments, one
// per param (after every other argument), and their update count an
// ema_count argument; the first update (count 0) copies the new params
// (weight 1 on averages that start at zero), each later one moves the
// average by f32(1 - 0.75) of the way to the new param: one nn.ema_update
// over every average. The results follow the optimizer state, before the
// buffers.
// CHECK-LABEL: func.func @bn(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<param>}, %[[G:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<param>},
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<8x4xf32> {nn.role = #nn.role<input>}, %[[L:[a-z0-9]+]]: tensor<8xi32> {nn.role = #nn.role<label>},
// CHECK-SAME: %[[EW:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<ema>}, %[[EG:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<ema>}, %[[EB:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<ema>},
// CHECK-SAME: %[[COUNT:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<ema_count>})
// CHECK-SAME: -> (tensor<4x3xf32> {nn.role = #nn.role<param>}, tensor<3xf32> {nn.role = #nn.role<param>}, tensor<3xf32> {nn.role = #nn.role<param>},
// CHECK-SAME: tensor<4x3xf32> {nn.role = #nn.role<opt_state>}, tensor<3xf32> {nn.role = #nn.role<opt_state>}, tensor<3xf32> {nn.role = #nn.role<opt_state>},
// CHECK-SAME: tensor<4x3xf32> {nn.role = #nn.role<ema>}, tensor<3xf32> {nn.role = #nn.role<ema>}, tensor<3xf32> {nn.role = #nn.role<ema>}, tensor<i64> {nn.role = #nn.role<ema_count>},
// CHECK-SAME: tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<3xf32> {nn.role = #nn.role<buffer>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK:      %[[NRM:.*]], %[[NRV:.*]] = nn.running_stats_update
// CHECK:      %[[NW:.*]], %{{.*}} = nn.sgd_update %[[W]],
// CHECK-NEXT: %[[NG:.*]], %{{.*}} = nn.sgd_update %[[G]],
// CHECK-NEXT: %[[NB:.*]], %{{.*}} = nn.sgd_update %[[B]],
// CHECK-NEXT: %[[STEP:.*]] = arith.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0> : tensor<i64>
// CHECK-NEXT: %[[FIRST:.*]] = nn.compare eq, %[[COUNT]], %[[ZERO]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK-NEXT: %[[COPY:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[WEIGHT:.*]] = nn.where %[[FIRST]], %[[COPY]], %[[STEP]] : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[A:.*]]:3 = nn.ema_update %[[EW]], %[[EG]], %[[EB]] toward %[[NW]], %[[NG]], %[[NB]] weight(%[[WEIGHT]]) : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1> : tensor<i64>
// CHECK-NEXT: %[[NEXT:.*]] = nn.add %[[COUNT]], %[[ONE]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: return %[[NW]], %[[NG]], %[[NB]], %{{.*}}, %{{.*}}, %{{.*}}, %[[A]]#0, %[[A]]#1, %[[A]]#2, %[[NEXT]], %[[NRM]], %[[NRV]], %{{.*}} :

// ema-buffers: the running statistics are averaged too, after the params
// (AveragedModel's use_buffers=True).
// BUFFERS-LABEL: func.func @bn(
// BUFFERS-SAME: %{{[a-z0-9]+}}: tensor<4x3xf32> {nn.role = #nn.role<ema>}, %{{[a-z0-9]+}}: tensor<3xf32> {nn.role = #nn.role<ema>}, %{{[a-z0-9]+}}: tensor<3xf32> {nn.role = #nn.role<ema>},
// BUFFERS-SAME: %[[ERM:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<ema>}, %[[ERV:[a-z0-9]+]]: tensor<3xf32> {nn.role = #nn.role<ema>}, %[[COUNT:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<ema_count>})
// BUFFERS-SAME: tensor<3xf32> {nn.role = #nn.role<ema>}, tensor<3xf32> {nn.role = #nn.role<ema>}, tensor<i64> {nn.role = #nn.role<ema_count>}, tensor<3xf32> {nn.role = #nn.role<buffer>}
// BUFFERS:      %[[NRM:.*]], %[[NRV:.*]] = nn.running_stats_update
// BUFFERS:      %[[WEIGHT:.*]] = nn.where
// BUFFERS:      %[[A:.*]]:5 = nn.ema_update %{{.*}}, %{{.*}}, %{{.*}}, %[[ERM]], %[[ERV]] toward %{{.*}}, %{{.*}}, %{{.*}}, %[[NRM]], %[[NRV]] weight(%[[WEIGHT]])
// BUFFERS:      return {{.*}}, %[[A]]#3, %[[A]]#4, %{{.*}}, %[[NRM]], %[[NRV]], %{{.*}} :

// With gradient accumulation the averages follow the one update of a step,
// and count steps, not micro-batches.
// ACCUMULATE-LABEL: func.func @bn(
// ACCUMULATE-SAME: %{{[a-z0-9]+}}: tensor<16x4xf32> {nn.role = #nn.role<input>}
// ACCUMULATE:      nn.sgd_update
// ACCUMULATE:      %[[W:.*]] = nn.where
// ACCUMULATE-NEXT: nn.ema_update %{{.*}}, %{{.*}}, %{{.*}} toward
// ACCUMULATE-NOT:  nn.sgd_update
// ACCUMULATE:      nn.add %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// ACCUMULATE-NEXT: return

// ema-warmup: the decay of update t = count (t > 0; t = 0 copies) is
// min(ema-decay, f(t)), f computed in f32 from the count: ratio (1 + t) /
// (10 + t) as diffusers' EMAModel, power 1 - (1 + t / gamma)^-power as
// timm's ModelEmaV3 use_warmup (gamma 1 and power 2/3 by default).
// RATIO-LABEL: func.func @bn(
// RATIO-NOT:  dense<2.500000e-01>
// RATIO:      %[[T:.*]] = nn.convert %[[COUNT:[a-z0-9]+]] : tensor<i64> to tensor<f32>
// RATIO-DAG:  %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// RATIO-DAG:  %[[TEN:.*]] = arith.constant dense<1.000000e+01> : tensor<f32>
// RATIO-DAG:  %[[NUM:.*]] = nn.add %[[T]], %[[ONE]]
// RATIO-DAG:  %[[DEN:.*]] = nn.add %[[T]], %[[TEN]]
// RATIO:      %[[RAMP:.*]] = nn.div %[[NUM]], %[[DEN]]
// RATIO:      %[[DECAY:.*]] = arith.constant dense<7.500000e-01> : tensor<f32>
// RATIO-NEXT: %[[D:.*]] = nn.minimum %[[RAMP]], %[[DECAY]]
// RATIO:      %[[LATER:.*]] = nn.sub %{{.*}}, %[[D]]
// RATIO:      %[[FIRST:.*]] = nn.compare eq, %[[COUNT]],
// RATIO:      %[[W:.*]] = nn.where %[[FIRST]], %{{.*}}, %[[LATER]]
// POWER-LABEL: func.func @bn(
// POWER:      %[[T:.*]] = nn.convert %{{[a-z0-9]+}} : tensor<i64> to tensor<f32>
// POWER:      %[[GAMMA:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// POWER-NEXT: %[[Q:.*]] = nn.div %[[T]], %[[GAMMA]]
// POWER-NEXT: %[[BASE:.*]] = nn.add %[[Q]], %{{.*}}
// POWER-NEXT: %[[P:.*]] = nn.pow %[[BASE]] {exponent = -7.500000e-01 : f32}
// POWER:      %[[RAMP:.*]] = nn.sub %{{.*}}, %[[P]]
// POWER:      nn.minimum %[[RAMP]], %{{.*}}
// POWER-DEFAULT-LABEL: func.func @bn(
// POWER-DEFAULT:      nn.div %{{.*}}, %{{.*}}
// POWER-DEFAULT:      nn.pow %{{.*}} {exponent = -0.666666686 : f32}

// Under mixed precision the averages stay in f32 (their arguments and
// results, as all state, and the ops between them) and read the updated
// params that loss scaling keeps on a skipped step.
// AMP-LABEL: func.func @bn(
// AMP:      nn.where {{.*}} {amp.precision = f32}
// AMP:      %[[NEW:.*]]:3 = amp.skip_step_if
// AMP:      amp.yield
// AMP-NEXT: }
// AMP-NEXT: nn.ema_update %{{.*}}, %{{.*}}, %{{.*}} toward %[[NEW]]#0, %[[NEW]]#1, %[[NEW]]#2 weight(%{{.*}}) {amp.precision = f32} : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
func.func @bn(%w: tensor<4x3xf32> {nn.role = #nn.role<param>},
              %g: tensor<3xf32> {nn.role = #nn.role<param>},
              %b: tensor<3xf32> {nn.role = #nn.role<param>},
              %rm: tensor<3xf32> {nn.role = #nn.role<buffer>},
              %rv: tensor<3xf32> {nn.init = 1.0 : f32, nn.role = #nn.role<buffer>},
              %x: tensor<8x4xf32> {nn.role = #nn.role<input>},
              %labels: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<3xf32> {nn.role = #nn.role<buffer>},
        tensor<f32> {nn.role = #nn.role<loss>},
        tensor<3xf32> {nn.role = #nn.role<buffer>}) {
  %h = nn.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %y, %mean, %invstd = nn.batch_norm %h, %g, %b {epsilon = 1.0e-3 : f32} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
  %rm1, %rv1 = nn.running_stats_update %rm, %rv, %mean, %invstd {count = 8 : i64, epsilon = 1.0e-3 : f32} : tensor<3xf32>
  %loss = nn.cross_entropy %y, %labels : (tensor<8x3xf32>, tensor<8xi32>) -> tensor<f32>
  return %rm1, %loss, %rv1 : tensor<3xf32>, tensor<f32>, tensor<3xf32>
}
