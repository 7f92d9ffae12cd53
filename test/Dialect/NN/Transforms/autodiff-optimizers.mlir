// nn-autodiff's optimizers beyond the defaults: torch.optim.Adam (L2 weight
// decay, decoupled_weight_decay = false), SGD with Nesterov momentum,
// RMSprop (its state per param: square_avg, then a momentum buffer with
// momentum > 0 and a grad_avg when centered; PyTorch's lr 0.01), Adagrad
// (a state_sum per param starting at initial-accumulator-value; PyTorch's
// lr 0.01 and eps 1e-10), Adafactor (a row_var and a col_var per matrix,
// a variance per vector, and a step counter; PyTorch's lr 0.01), and
// params exempt from weight decay by name (no-decay) or rank (no-decay-1d),
// as a PyTorch param group with weight_decay=0.
// RUN: amp-opt %s --nn-autodiff="optimizer=adam weight-decay=0.5" | FileCheck %s --check-prefix=ADAM
// RUN: amp-opt %s --nn-autodiff="optimizer=adam" | FileCheck %s --check-prefix=ADAM-DEFAULT
// RUN: amp-opt %s --nn-autodiff="lr=0.1 momentum=0.9 nesterov" | FileCheck %s --check-prefix=NESTEROV
// RUN: amp-opt %s --nn-autodiff="optimizer=rmsprop" | FileCheck %s --check-prefix=RMSPROP
// RUN: amp-opt %s --nn-autodiff="optimizer=rmsprop lr=0.002 alpha=0.9 eps=1e-6 momentum=0.8 centered weight-decay=0.1 no-decay-1d" | FileCheck %s --check-prefix=RMSPROP-ALL
// RUN: amp-opt %s --nn-autodiff="optimizer=adagrad" | FileCheck %s --check-prefix=ADAGRAD
// RUN: amp-opt %s --nn-autodiff="optimizer=adagrad lr=0.05 eps=1e-6 initial-accumulator-value=0.1 weight-decay=0.1 no-decay=bias" | FileCheck %s --check-prefix=ADAGRAD-ALL
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw amsgrad" | FileCheck %s --check-prefix=AMSGRAD
// RUN: amp-opt %s --nn-autodiff="optimizer=radam beta2=0.99 weight-decay=0.1 no-decay-1d" | FileCheck %s --check-prefix=RADAM
// RUN: amp-opt %s --nn-autodiff="optimizer=radam weight-decay=0.1 decoupled-weight-decay" | FileCheck %s --check-prefix=RADAM-DECOUPLED
// RUN: amp-opt %s --nn-autodiff="optimizer=adagrad lr-decay=0.01 initial-accumulator-value=0.1" | FileCheck %s --check-prefix=ADAGRAD-DECAY
// RUN: amp-opt %s --nn-autodiff="optimizer=adafactor" | FileCheck %s --check-prefix=ADAFACTOR
// RUN: amp-opt %s --nn-autodiff="optimizer=adafactor lr=0.05 beta2-decay=-0.5 eps1=1e-4 eps2=1e-2 d=2 weight-decay=0.1 no-decay=bias" | FileCheck %s --check-prefix=ADAFACTOR-ALL
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw no-decay=bias,ln." | FileCheck %s --check-prefix=NAMES
// RUN: amp-opt %s --nn-autodiff="weight-decay=0.1 no-decay-1d" | FileCheck %s --check-prefix=RANK
// Param groups with their own lr: the first entry a name contains wins
// (fc.bias takes bias's, not fc.'s); an entry in no name is a warning.
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw param-lr=bias=0.01,ln.=0.1,fc.=0.5,conv=1 lr-schedule=step step-size=2 gamma=0.5" 2>&1 | FileCheck %s --check-prefix=PARAM-LR
// A no-decay string in no param name is a warning: the step is built.
// RUN: amp-opt %s --nn-autodiff="optimizer=adamw no-decay=bias,LayerNorm" 2>&1 | FileCheck %s --check-prefix=UNUSED

// An option the optimizer does not take is an error, as an argument
// torch.optim's class does not take is.
// RUN: not amp-opt %s --nn-autodiff="optimizer=adamw momentum=0.9" 2>&1 | FileCheck %s --check-prefix=ADAMW-MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="optimizer=adam nesterov" 2>&1 | FileCheck %s --check-prefix=ADAM-NESTEROV
// RUN: not amp-opt %s --nn-autodiff="beta1=0.5" 2>&1 | FileCheck %s --check-prefix=SGD-BETA
// RUN: not amp-opt %s --nn-autodiff="optimizer=sgd eps=1e-6" 2>&1 | FileCheck %s --check-prefix=SGD-EPS
// RUN: not amp-opt %s --nn-autodiff="optimizer=none lr=0.1" 2>&1 | FileCheck %s --check-prefix=NONE-LR
// RUN: not amp-opt %s --nn-autodiff="optimizer=none no-decay-1d" 2>&1 | FileCheck %s --check-prefix=NONE-DECAY
// RUN: not amp-opt %s --nn-autodiff="nesterov" 2>&1 | FileCheck %s --check-prefix=NESTEROV-MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="optimizer=rmsprop beta2=0.9" 2>&1 | FileCheck %s --check-prefix=RMSPROP-BETA
// RUN: not amp-opt %s --nn-autodiff="optimizer=rmsprop momentum=0.9 nesterov" 2>&1 | FileCheck %s --check-prefix=RMSPROP-NESTEROV
// RUN: not amp-opt %s --nn-autodiff="alpha=0.9" 2>&1 | FileCheck %s --check-prefix=SGD-ALPHA
// RUN: not amp-opt %s --nn-autodiff="optimizer=adamw centered" 2>&1 | FileCheck %s --check-prefix=ADAMW-CENTERED
// RUN: not amp-opt %s --nn-autodiff="optimizer=rmsprop alpha=1.5" 2>&1 | FileCheck %s --check-prefix=RMSPROP-ALPHA
// RUN: not amp-opt %s --nn-autodiff="optimizer=adagrad momentum=0.9" 2>&1 | FileCheck %s --check-prefix=ADAGRAD-MOMENTUM
// RUN: not amp-opt %s --nn-autodiff="optimizer=rmsprop initial-accumulator-value=0.1" 2>&1 | FileCheck %s --check-prefix=RMSPROP-ACCUMULATOR
// RUN: not amp-opt %s --nn-autodiff="optimizer=adagrad initial-accumulator-value=-1" 2>&1 | FileCheck %s --check-prefix=ADAGRAD-ACCUMULATOR
// RUN: not amp-opt %s --nn-autodiff="optimizer=sgd amsgrad" 2>&1 | FileCheck %s --check-prefix=SGD-AMSGRAD
// RUN: not amp-opt %s --nn-autodiff="optimizer=radam amsgrad" 2>&1 | FileCheck %s --check-prefix=RADAM-AMSGRAD
// RUN: not amp-opt %s --nn-autodiff="optimizer=adam decoupled-weight-decay" 2>&1 | FileCheck %s --check-prefix=ADAM-DECOUPLED
// RUN: not amp-opt %s --nn-autodiff="param-lr=bias" 2>&1 | FileCheck %s --check-prefix=BAD-PARAM-LR
// RUN: not amp-opt %s --nn-autodiff="param-lr==0.1" 2>&1 | FileCheck %s --check-prefix=UNNAMED-PARAM-LR
// RUN: not amp-opt %s --nn-autodiff="param-lr=bias=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-PARAM-LR
// RUN: not amp-opt %s --nn-autodiff="optimizer=none param-lr=bias=0.1" 2>&1 | FileCheck %s --check-prefix=NONE-PARAM-LR
// RUN: not amp-opt %s --nn-autodiff="optimizer=adam lr-decay=0.1" 2>&1 | FileCheck %s --check-prefix=ADAM-LR-DECAY
// RUN: not amp-opt %s --nn-autodiff="optimizer=adagrad lr-decay=-0.5" 2>&1 | FileCheck %s --check-prefix=ADAGRAD-LR-DECAY
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor eps=1e-3" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-EPS
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor beta2=0.9" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-BETA2
// RUN: not amp-opt %s --nn-autodiff="optimizer=adam beta2-decay=-0.5" 2>&1 | FileCheck %s --check-prefix=ADAM-BETA2-DECAY
// RUN: not amp-opt %s --nn-autodiff="optimizer=rmsprop d=2" 2>&1 | FileCheck %s --check-prefix=RMSPROP-D
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor beta2-decay=0.5" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-POSITIVE-DECAY
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor d=0.5" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-SMALL-D
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor eps1=-1" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-NEGATIVE-EPS1
// RUN: not amp-opt %s --nn-autodiff="optimizer=adafactor eps2=inf" 2>&1 | FileCheck %s --check-prefix=ADAFACTOR-INFINITE-EPS2

// ADAM-LABEL: func.func @step(
// ADAM: nn.adam_update {{.*}} {decoupled_weight_decay = false, lr = 1.000000e-03 : f32, weight_decay = 5.000000e-01 : f32} : tensor<3x4xf32>
// ADAM: nn.adam_update {{.*}} {decoupled_weight_decay = false, lr = 1.000000e-03 : f32, weight_decay = 5.000000e-01 : f32} : tensor<4xf32>
// ADAM: nn.adam_update {{.*}} {decoupled_weight_decay = false, lr = 1.000000e-03 : f32, weight_decay = 5.000000e-01 : f32} : tensor<4xf32>

// torch.optim.Adam's default weight decay is 0.
// ADAM-DEFAULT-LABEL: func.func @step(
// ADAM-DEFAULT-COUNT-3: nn.adam_update {{.*}} {decoupled_weight_decay = false, lr = 1.000000e-03 : f32, weight_decay = 0.000000e+00 : f32}

// NESTEROV-LABEL: func.func @step(
// NESTEROV-COUNT-3: nn.sgd_update {{.*}} {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32, nesterov}

// RMSPROP-LABEL: func.func @step(
// RMSPROP-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// RMSPROP-SAME: %[[VW:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// RMSPROP-SAME: %[[VB:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// RMSPROP-SAME: %[[VG:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// RMSPROP-SAME: %{{[^:]*}}: tensor<2x3xf32> {nn.role = #nn.role<input>}
// RMSPROP: %[[P:[^,]*]], %[[V:[^ ]*]] = nn.rmsprop_update %[[W]], %{{[^,]*}}, %[[VW]] {lr = 0.00999999977 : f32} : tensor<3x4xf32>
// RMSPROP: nn.rmsprop_update %{{[^,]*}}, %{{[^,]*}}, %[[VB]] {lr = 0.00999999977 : f32} : tensor<4xf32>
// RMSPROP: nn.rmsprop_update %{{[^,]*}}, %{{[^,]*}}, %[[VG]] {lr = 0.00999999977 : f32} : tensor<4xf32>
// RMSPROP: return %[[P]], {{.*}}, %[[V]],

// RMSPROP-ALL-LABEL: func.func @step(
// RMSPROP-ALL-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// RMSPROP-ALL-SAME: %[[VW:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}, %[[BW:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}, %[[AW:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// RMSPROP-ALL: %[[P:[^,]*]], %[[V:[^,]*]], %[[S:[^ ]*]]:2 = nn.rmsprop_update %[[W]], %{{[^,]*}}, %[[VW]] momentum_buffer(%[[BW]]) grad_avg(%[[AW]]) {alpha = 0.899999976 : f32, centered, eps = 9.99999997E-7 : f32, lr = 2.000000e-03 : f32, momentum = 8.000000e-01 : f32, weight_decay = 1.000000e-01 : f32} : tensor<3x4xf32>
// RMSPROP-ALL-COUNT-2: nn.rmsprop_update {{.*}} momentum_buffer({{.*}}) grad_avg({{.*}}) {alpha = 0.899999976 : f32, centered, eps = 9.99999997E-7 : f32, lr = 2.000000e-03 : f32, momentum = 8.000000e-01 : f32} : tensor<4xf32>
// RMSPROP-ALL: return %[[P]], {{.*}}, %[[V]], %[[S]]#0, %[[S]]#1,

// ADAGRAD-LABEL: func.func @step(
// ADAGRAD-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// ADAGRAD-SAME: %[[SW:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// ADAGRAD: %[[P:[^,]*]], %[[S:[^ ]*]] = nn.adagrad_update %[[W]], %{{[^,]*}}, %[[SW]] {lr = 0.00999999977 : f32} : tensor<3x4xf32>
// ADAGRAD-COUNT-2: nn.adagrad_update {{.*}} {lr = 0.00999999977 : f32} : tensor<4xf32>
// ADAGRAD: return %[[P]], {{.*}}, %[[S]],

// ADAGRAD-ALL-LABEL: func.func @step(
// ADAGRAD-ALL-SAME: %{{[^:]*}}: tensor<3x4xf32> {nn.init = 1.000000e-01 : f32, nn.role = #nn.role<opt_state>}
// ADAGRAD-ALL-SAME: %{{[^:]*}}: tensor<4xf32> {nn.init = 1.000000e-01 : f32, nn.role = #nn.role<opt_state>}
// ADAGRAD-ALL-SAME: %{{[^:]*}}: tensor<4xf32> {nn.init = 1.000000e-01 : f32, nn.role = #nn.role<opt_state>}
// ADAGRAD-ALL: nn.adagrad_update {{.*}} {eps = 9.99999997E-7 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<3x4xf32>
// ADAGRAD-ALL-NEXT: nn.adagrad_update {{.*}} {eps = 9.99999997E-7 : f32, lr = 5.000000e-02 : f32} : tensor<4xf32>
// ADAGRAD-ALL-NEXT: nn.adagrad_update {{.*}} {eps = 9.99999997E-7 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<4xf32>

// AMSGrad adds a max_exp_avg_sq per param after its step counter.
// AMSGRAD-LABEL: func.func @step(
// AMSGRAD-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// AMSGRAD-SAME: %[[M:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// AMSGRAD-SAME: %[[V:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// AMSGRAD-SAME: %[[T:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// AMSGRAD-SAME: %[[X:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// AMSGRAD: %[[P:[^,]*]], %[[M1:[^,]*]], %[[V1:[^,]*]], %[[T1:[^,]*]], %[[X1:[^ ]*]] = nn.adam_update %[[W]], %{{[^,]*}}, %[[M]], %[[V]], %[[T]] max_exp_avg_sq(%[[X]]) {amsgrad, lr = 1.000000e-03 : f32} : tensor<3x4xf32>
// AMSGRAD-COUNT-2: nn.adam_update {{.*}} max_exp_avg_sq({{.*}}) {amsgrad, lr = 1.000000e-03 : f32} : tensor<4xf32>
// AMSGRAD: return %[[P]], {{.*}}, %[[M1]], %[[V1]], %[[T1]], %[[X1]],

// RAdam has Adam's state per param (exp_avg, exp_avg_sq, a step counter)
// and PyTorch's L2 weight decay unless decoupled.
// RADAM-LABEL: func.func @step(
// RADAM-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// RADAM-SAME: %[[M:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// RADAM-SAME: %[[V:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<opt_state>}
// RADAM-SAME: %[[T:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// RADAM: %[[P:[^,]*]], %[[M1:[^,]*]], %[[V1:[^,]*]], %[[T1:[^ ]*]] = nn.radam_update %[[W]], %{{[^,]*}}, %[[M]], %[[V]], %[[T]] {beta2 = 9.900000e-01 : f32, lr = 1.000000e-03 : f32, weight_decay = 1.000000e-01 : f32} : tensor<3x4xf32>
// RADAM-COUNT-2: nn.radam_update {{.*}} {beta2 = 9.900000e-01 : f32, lr = 1.000000e-03 : f32} : tensor<4xf32>
// RADAM: return %[[P]], {{.*}}, %[[M1]], %[[V1]], %[[T1]],
// RADAM-DECOUPLED-LABEL: func.func @step(
// RADAM-DECOUPLED-COUNT-3: nn.radam_update {{.*}} {decoupled_weight_decay, lr = 1.000000e-03 : f32, weight_decay = 1.000000e-01 : f32}

// With lr-decay each Adagrad update counts its steps; the sums keep their
// nn.init, the counters start at zero.
// ADAGRAD-DECAY-LABEL: func.func @step(
// ADAGRAD-DECAY-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// ADAGRAD-DECAY-SAME: %[[S:[^:]*]]: tensor<3x4xf32> {nn.init = 1.000000e-01 : f32, nn.role = #nn.role<opt_state>}
// ADAGRAD-DECAY-SAME: %[[T:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// ADAGRAD-DECAY: %[[P:[^,]*]], %[[S1:[^,]*]], %[[T1:[^ ]*]] = nn.adagrad_update %[[W]], %{{[^,]*}}, %[[S]] step(%[[T]]) {lr = 0.00999999977 : f32, lr_decay = 0.00999999977 : f32} : tensor<3x4xf32>
// ADAGRAD-DECAY-COUNT-2: nn.adagrad_update {{.*}} step({{.*}}) {lr = 0.00999999977 : f32, lr_decay = 0.00999999977 : f32} : tensor<4xf32>
// ADAGRAD-DECAY: return %[[P]], {{.*}}, %[[S1]], %[[T1]],

// Adafactor factors the matrix (row_var [3, 1], col_var [1, 4]) and keeps
// the vectors' second moments whole; eps1 defaults to f32's epsilon (the
// op's default, not printed).
// ADAFACTOR-LABEL: func.func @step(
// ADAFACTOR-SAME: %[[W:[^:]*]]: tensor<3x4xf32> {nn.role = #nn.role<param>}
// ADAFACTOR-SAME: %[[B:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<param>}
// ADAFACTOR-SAME: %[[G:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<param>}
// ADAFACTOR-SAME: %[[RW:[^:]*]]: tensor<3x1xf32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[CW:[^:]*]]: tensor<1x4xf32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[TW:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[VB:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[TB:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[VG:[^:]*]]: tensor<4xf32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %[[TG:[^:]*]]: tensor<f32> {nn.role = #nn.role<opt_state>}
// ADAFACTOR-SAME: %{{[^:]*}}: tensor<2x3xf32> {nn.role = #nn.role<input>}
// ADAFACTOR: %[[P:[^,]*]], %[[S:[^,]*]]:2, %[[T:[^ ]*]] = nn.adafactor_update %[[W]], %{{[^ ]*}} factored(%[[RW]], %[[CW]]) step(%[[TW]]) {lr = 0.00999999977 : f32} : tensor<3x4xf32>
// ADAFACTOR: %[[PB:[^,]*]], %[[SB:[^,]*]], %[[TB1:[^ ]*]] = nn.adafactor_update %[[B]], %{{[^ ]*}} variance(%[[VB]]) step(%[[TB]]) {lr = 0.00999999977 : f32} : tensor<4xf32>
// ADAFACTOR: nn.adafactor_update %[[G]], %{{[^ ]*}} variance(%[[VG]]) step(%[[TG]]) {lr = 0.00999999977 : f32} : tensor<4xf32>
// ADAFACTOR: return %[[P]], %[[PB]], %{{[^,]*}}, %[[S]]#0, %[[S]]#1, %[[T]], %[[SB]], %[[TB1]],

// ADAFACTOR-ALL-LABEL: func.func @step(
// ADAFACTOR-ALL: nn.adafactor_update {{.*}} factored({{.*}}) step({{.*}}) {beta2_decay = -5.000000e-01 : f32, d = 2.000000e+00 : f32, eps1 = 9.99999974E-5 : f32, eps2 = 0.00999999977 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<3x4xf32>
// ADAFACTOR-ALL-NEXT: nn.adafactor_update {{.*}} variance({{.*}}) step({{.*}}) {beta2_decay = -5.000000e-01 : f32, d = 2.000000e+00 : f32, eps1 = 9.99999974E-5 : f32, eps2 = 0.00999999977 : f32, lr = 5.000000e-02 : f32} : tensor<4xf32>
// ADAFACTOR-ALL-NEXT: nn.adafactor_update {{.*}} variance({{.*}}) step({{.*}}) {beta2_decay = -5.000000e-01 : f32, d = 2.000000e+00 : f32, eps1 = 9.99999974E-5 : f32, eps2 = 0.00999999977 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<4xf32>

// PARAM-LR: warning: nn-autodiff: param-lr 'conv' is in no param name of @step
// PARAM-LR-LABEL: func.func @step(
// PARAM-LR: %[[F:.*]], %{{.*}} = nn.lr_schedule
// PARAM-LR: nn.adam_update {{.*}} lr_factor(%[[F]]) {lr = 5.000000e-01 : f32} : tensor<3x4xf32>
// PARAM-LR-NEXT: nn.adam_update {{.*}} lr_factor(%[[F]]) {lr = 0.00999999977 : f32} : tensor<4xf32>
// PARAM-LR-NEXT: nn.adam_update {{.*}} lr_factor(%[[F]]) {lr = 1.000000e-01 : f32} : tensor<4xf32>

// NAMES-LABEL: func.func @step(
// NAMES: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32} : tensor<3x4xf32>
// NAMES: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32, weight_decay = 0.000000e+00 : f32} : tensor<4xf32>
// NAMES: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32, weight_decay = 0.000000e+00 : f32} : tensor<4xf32>

// RANK-LABEL: func.func @step(
// RANK: nn.sgd_update {{.*}} {lr = 1.000000e-03 : f32, weight_decay = 1.000000e-01 : f32} : tensor<3x4xf32>
// RANK: nn.sgd_update {{.*}} {lr = 1.000000e-03 : f32} : tensor<4xf32>
// RANK: nn.sgd_update {{.*}} {lr = 1.000000e-03 : f32} : tensor<4xf32>

// UNUSED: warning: nn-autodiff: no-decay 'LayerNorm' is in no param name of @step
// UNUSED-NOT: no-decay 'bias'
// UNUSED-LABEL: func.func @step(
// UNUSED: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32} : tensor<3x4xf32>
// UNUSED: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32, weight_decay = 0.000000e+00 : f32} : tensor<4xf32>
// UNUSED: nn.adam_update {{.*}} {lr = 1.000000e-03 : f32} : tensor<4xf32>

// ADAMW-MOMENTUM: error: nn-autodiff: momentum is not an option of optimizer=adamw
// ADAM-NESTEROV: error: nn-autodiff: nesterov is not an option of optimizer=adam
// SGD-BETA: error: nn-autodiff: beta1 is not an option of optimizer=sgd
// SGD-EPS: error: nn-autodiff: eps is not an option of optimizer=sgd
// NONE-LR: error: nn-autodiff: lr is not an option of optimizer=none
// NONE-DECAY: error: nn-autodiff: no-decay-1d is not an option of optimizer=none
// NESTEROV-MOMENTUM: error: nn-autodiff: nesterov needs momentum > 0
// RMSPROP-BETA: error: nn-autodiff: beta2 is not an option of optimizer=rmsprop
// RMSPROP-NESTEROV: error: nn-autodiff: nesterov is not an option of optimizer=rmsprop
// SGD-ALPHA: error: nn-autodiff: alpha is not an option of optimizer=sgd
// ADAMW-CENTERED: error: nn-autodiff: centered is not an option of optimizer=adamw
// RMSPROP-ALPHA: error: nn-autodiff: alpha must be in [0, 1]
// ADAGRAD-MOMENTUM: error: nn-autodiff: momentum is not an option of optimizer=adagrad
// RMSPROP-ACCUMULATOR: error: nn-autodiff: initial-accumulator-value is not an option of optimizer=rmsprop
// ADAGRAD-ACCUMULATOR: error: nn-autodiff: initial-accumulator-value must be finite and >= 0
// SGD-AMSGRAD: error: nn-autodiff: amsgrad is not an option of optimizer=sgd
// RADAM-AMSGRAD: error: nn-autodiff: amsgrad is not an option of optimizer=radam
// ADAM-DECOUPLED: error: nn-autodiff: decoupled-weight-decay is not an option of optimizer=adam
// BAD-PARAM-LR: error: nn-autodiff: param-lr takes STRING=LR entries, LR a positive finite number, got 'bias'
// UNNAMED-PARAM-LR: error: nn-autodiff: param-lr takes STRING=LR entries, LR a positive finite number, got '=0.1'
// NEGATIVE-PARAM-LR: error: nn-autodiff: param-lr takes STRING=LR entries, LR a positive finite number, got 'bias=-1'
// NONE-PARAM-LR: error: nn-autodiff: param-lr is not an option of optimizer=none
// ADAM-LR-DECAY: error: nn-autodiff: lr-decay is not an option of optimizer=adam
// ADAGRAD-LR-DECAY: error: nn-autodiff: lr-decay must be finite and >= 0
// ADAFACTOR-EPS: error: nn-autodiff: eps is not an option of optimizer=adafactor
// ADAFACTOR-BETA2: error: nn-autodiff: beta2 is not an option of optimizer=adafactor
// ADAM-BETA2-DECAY: error: nn-autodiff: beta2-decay is not an option of optimizer=adam
// RMSPROP-D: error: nn-autodiff: d is not an option of optimizer=rmsprop
// ADAFACTOR-POSITIVE-DECAY: error: nn-autodiff: beta2-decay must be finite and <= 0
// ADAFACTOR-SMALL-D: error: nn-autodiff: d must be finite and >= 1
// ADAFACTOR-NEGATIVE-EPS1: error: nn-autodiff: eps1 must be finite and >= 0
// ADAFACTOR-INFINITE-EPS2: error: nn-autodiff: eps2 must be finite and >= 0

func.func @step(%w: tensor<3x4xf32> {nn.role = #nn.role<param>} loc("fc.weight"),
                %b: tensor<4xf32> {nn.role = #nn.role<param>} loc("fc.bias"),
                %g: tensor<4xf32> {nn.role = #nn.role<param>} loc("ln.weight"),
                %x: tensor<2x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %z = nn.add %y, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %s = nn.mul %z, %g : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %loss = nn.reduce_mean %s [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
