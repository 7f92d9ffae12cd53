// nn-autodiff's lr-schedule options: one nn.lr_schedule gives every update
// its lr_factor; its step counter is the last opt_state argument and result,
// and the step's lr (lr x factor) a result after the loss.
// RUN: amp-opt %s --nn-autodiff="lr=0.1 momentum=0.9 lr-schedule=cosine warmup-steps=10 warmup-start-factor=0.25 total-steps=100 final-factor=0.1" | FileCheck %s --check-prefix=SGD
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw lr-schedule=step step-size=30 gamma=0.5" | FileCheck %s --check-prefix=ADAM
// RUN: amp-opt %s --nn-autodiff="lr-schedule=polynomial warmup-steps=5 total-steps=50 final-factor=0.01 power=2" | FileCheck %s --check-prefix=POLY
// RUN: amp-opt %s --nn-autodiff="lr-schedule=multistep milestones=30,60,90 gamma=0.1" | FileCheck %s --check-prefix=MULTISTEP
// Loss scaling skips the updates only: the schedule counts a skipped step.
// RUN: amp-opt %s --nn-autodiff="lr-schedule=exponential gamma=0.9" --amp-loss-scaling | FileCheck %s --check-prefix=SCALED

// Bad schedules are errors before anything is changed, in the options'
// spelling.
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=poly" 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=cosine" 2>&1 | FileCheck %s --check-prefix=TOTAL
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=linear warmup-steps=5 total-steps=5" 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=cosine total-steps=5 final-factor=2" 2>&1 | FileCheck %s --check-prefix=FINAL
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=step gamma=0.5" 2>&1 | FileCheck %s --check-prefix=STEP-SIZE
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=exponential gamma=0" 2>&1 | FileCheck %s --check-prefix=GAMMA
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=cosine total-steps=5 gamma=0.5" 2>&1 | FileCheck %s --check-prefix=UNUSED
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=constant warmup-steps=-1" 2>&1 | FileCheck %s --check-prefix=WARMUP
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=constant warmup-steps=2 warmup-start-factor=1.5" 2>&1 | FileCheck %s --check-prefix=START
// RUN: not amp-opt %s --nn-autodiff="total-steps=100" 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not amp-opt %s --nn-autodiff="optimizer=none lr-schedule=constant" 2>&1 | FileCheck %s --check-prefix=NO-OPTIMIZER
// RUN: not amp-opt %s --nn-autodiff="power=2" 2>&1 | FileCheck %s --check-prefix=POWER-NONE
// RUN: not amp-opt %s --nn-autodiff="milestones=3,5" 2>&1 | FileCheck %s --check-prefix=MILESTONES-NONE
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=cosine total-steps=9 power=2" 2>&1 | FileCheck %s --check-prefix=POWER-KIND
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=polynomial total-steps=9 power=-1" 2>&1 | FileCheck %s --check-prefix=POWER-RANGE
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=multistep gamma=0.1" 2>&1 | FileCheck %s --check-prefix=MILESTONES-MISSING
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=step step-size=3 gamma=0.1 milestones=3" 2>&1 | FileCheck %s --check-prefix=MILESTONES-KIND
// RUN: not amp-opt %s --nn-autodiff="lr-schedule=multistep gamma=0.1 milestones=9,3" 2>&1 | FileCheck %s --check-prefix=MILESTONES-ORDER

// SGD-LABEL: func.func @step(
// SGD-SAME: %[[W:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<param>}
// SGD-SAME: %[[B:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<param>}
// SGD-SAME: %[[MW:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// SGD-SAME: %[[MB:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<opt_state>}
// SGD-SAME: %[[COUNT:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<schedule_state>}
// SGD-SAME: %{{[a-z0-9]+}}: tensor<4xf32> {nn.role = #nn.role<input>}
// SGD-SAME: -> (tensor<4xf32> {nn.role = #nn.role<param>}, tensor<2xf32> {nn.role = #nn.role<param>}, tensor<4xf32> {nn.role = #nn.role<opt_state>}, tensor<2xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<schedule_state>}, tensor<f32> {nn.role = #nn.role<loss>}, tensor<f32> {nn.role = #nn.role<lr>})
// SGD: %[[F:.*]], %[[NEW_COUNT:.*]] = nn.lr_schedule cosine %[[COUNT]] {final_factor = 1.000000e-01 : f32, total_steps = 100 : i64, warmup_start_factor = 2.500000e-01 : f32, warmup_steps = 10 : i64}
// SGD-NEXT: %[[BASE:.*]] = arith.constant dense<1.000000e-01> : tensor<f32>
// SGD-NEXT: %[[LR:.*]] = nn.mul %[[F]], %[[BASE]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// SGD-NEXT: %[[NW:.*]], %[[NMW:.*]] = nn.sgd_update %[[W]], %{{.*}}, %[[MW]] lr_factor(%[[F]]) {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<4xf32>
// SGD-NEXT: %[[NB:.*]], %[[NMB:.*]] = nn.sgd_update %[[B]], %{{.*}}, %[[MB]] lr_factor(%[[F]]) {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<2xf32>
// SGD-NEXT: return %[[NW]], %[[NB]], %[[NMW]], %[[NMB]], %[[NEW_COUNT]], %{{.*}}, %[[LR]] :

// ADAM-LABEL: func.func @step(
// ADAM-SAME: %[[T:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<opt_state>}, %[[COUNT:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<schedule_state>}, %{{[a-z0-9]+}}: tensor<4xf32> {nn.role = #nn.role<input>}
// ADAM: %[[F:.*]], %[[NEW_COUNT:.*]] = nn.lr_schedule step %[[COUNT]] {gamma = 5.000000e-01 : f32, step_size = 30 : i64}
// ADAM-NEXT: %[[BASE:.*]] = arith.constant dense<1.000000e-03> : tensor<f32>
// ADAM-NEXT: %[[LR:.*]] = nn.mul %[[F]], %[[BASE]]
// ADAM-NEXT: nn.adam_update {{.*}} lr_factor(%[[F]]) {lr = 1.000000e-03 : f32} : tensor<4xf32>
// ADAM-NEXT: nn.adam_update {{.*}}, %[[T]] lr_factor(%[[F]]) {lr = 1.000000e-03 : f32} : tensor<2xf32>
// ADAM-NEXT: return {{.*}}, %[[NEW_COUNT]], %{{.*}}, %[[LR]] :

// POLY-LABEL: func.func @step(
// POLY: nn.lr_schedule polynomial %{{.*}} {final_factor = 0.00999999977 : f32, power = 2.000000e+00 : f32, total_steps = 50 : i64, warmup_steps = 5 : i64}

// MULTISTEP-LABEL: func.func @step(
// MULTISTEP: nn.lr_schedule multistep %{{.*}} {gamma = 1.000000e-01 : f32, milestones = array<i64: 30, 60, 90>}

// SCALED-LABEL: func.func @step(
// SCALED-SAME: tensor<f32> {nn.role = #nn.role<loss>}, tensor<f32> {nn.role = #nn.role<lr>}, tensor<f32> {nn.role = #nn.role<loss_scale>}
// SCALED: %[[F:.*]], %[[NEW_COUNT:.*]] = nn.lr_schedule exponential
// SCALED: %[[LR:.*]] = nn.mul %[[F]],
// SCALED: amp.skip_step_if
// SCALED-NOT: nn.lr_schedule
// SCALED: nn.sgd_update {{.*}} lr_factor(%[[F]])
// SCALED: nn.sgd_update {{.*}} lr_factor(%[[F]])
// SCALED: return {{.*}}, %[[NEW_COUNT]], %{{.*}}, %[[LR]], %{{.*}}, %{{.*}}, %{{.*}} :

// KIND: error: nn-autodiff: lr-schedule must be none, constant, linear, cosine, step, exponential, polynomial or multistep, got 'poly'
// TOTAL: error: nn-autodiff: cosine schedules need total-steps
// AFTER: error: nn-autodiff: total-steps must be greater than warmup-steps (5), got 5
// FINAL: error: nn-autodiff: final-factor must be in [0, 1]
// STEP-SIZE: error: nn-autodiff: step schedules need step-size
// GAMMA: error: nn-autodiff: gamma must be positive and finite
// UNUSED: error: nn-autodiff: gamma applies to step, exponential and multistep schedules only, not cosine
// WARMUP: error: nn-autodiff: warmup-steps must be >= 0, got -1
// START: error: nn-autodiff: warmup-start-factor must be in [0, 1]
// NONE: error: nn-autodiff: total-steps needs an lr-schedule
// NO-OPTIMIZER: error: nn-autodiff: lr-schedule needs an optimizer (optimizer=none has no lr)
// POWER-NONE: error: nn-autodiff: power needs an lr-schedule
// MILESTONES-NONE: error: nn-autodiff: milestones needs an lr-schedule
// POWER-KIND: error: nn-autodiff: power applies to polynomial schedules only, not cosine
// POWER-RANGE: error: nn-autodiff: power must be positive and finite
// MILESTONES-MISSING: error: nn-autodiff: multistep schedules need milestones
// MILESTONES-KIND: error: nn-autodiff: milestones applies to multistep schedules only, not step
// MILESTONES-ORDER: error: nn-autodiff: milestones must be increasing steps >= 0, got 3 after 9

func.func @step(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                %b: tensor<2xf32> {nn.role = #nn.role<param>},
                %x: tensor<4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %wx = nn.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l1 = nn.reduce_sum %wx [0] : (tensor<4xf32>) -> tensor<f32>
  %l2 = nn.reduce_sum %b [0] : (tensor<2xf32>) -> tensor<f32>
  %loss = nn.add %l1, %l2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %loss : tensor<f32>
}
