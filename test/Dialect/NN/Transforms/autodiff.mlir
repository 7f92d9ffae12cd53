// RUN: amp-opt %s -split-input-file --nn-autodiff | FileCheck %s
// The remarks of @unreached_param and @only_through_steps, and no other diagnostic:
// RUN: amp-opt %s -split-input-file --nn-autodiff -verify-diagnostics -o /dev/null
// RUN: amp-opt %s -split-input-file --nn-autodiff="momentum=0.9" | FileCheck %s --check-prefix=MOMENTUM
// RUN: amp-opt %s -split-input-file --nn-autodiff="optimizer=adamw" | FileCheck %s --check-prefix=ADAMW
// RUN: amp-opt %s -split-input-file --nn-autodiff="lr=0.1 weight-decay=5e-4" | FileCheck %s --check-prefix=SGD-OPTIONS
// RUN: amp-opt %s -split-input-file --nn-autodiff="clip-norm=1.0" | FileCheck %s --check-prefix=CLIP
// RUN: amp-opt %s -split-input-file --nn-autodiff="optimizer=none" | FileCheck %s --check-prefix=NONE
// RUN: amp-opt %s -split-input-file --nn-autodiff --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefix=LOC
// `entry` names one function, so these RUN lines read the whole file as one
// module (function names are unique for that reason).
// RUN: amp-opt %s --nn-autodiff="entry=mlp keep-forward=true" | FileCheck %s --check-prefix=FORWARD
// RUN: amp-opt %s --nn-autodiff="entry=pick" | FileCheck %s --check-prefix=ENTRY
// RUN: amp-opt %s --nn-autodiff="entry=regression keep-forward=true" | FileCheck %s --check-prefix=FORWARD-MSE

// nn-autodiff: the rule of every differentiable nn op (one function each,
// with the loss a nn.reduce_sum over all axes), gradient accumulation and
// broadcast reduction, which values get no gradient, the optimizer forms and
// their options, keep-forward, entry, and the locations of backward ops.

// The reduce_sum of the loss is the first rule applied: the seed is reshaped
// to rank 1 and broadcast back. nn.add passes the gradient through to both
// operands unchanged.
// CHECK-LABEL: func.func @add(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<param>})
// CHECK-SAME: -> (tensor<4xf32> {nn.role = #nn.role<param>}, tensor<4xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK-NEXT: %[[Y:.*]] = nn.add %[[A]], %[[B]]
// CHECK-NEXT: %[[L:.*]] = nn.reduce_sum %[[Y]] [0]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]] : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = nn.reshape %[[SEED]] : tensor<f32> -> tensor<1xf32>
// CHECK-NEXT: %[[DY:.*]] = nn.broadcast_to %[[R]] : tensor<1xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[NA:.*]] = nn.sgd_update %[[A]], %[[DY]] {lr = 1.000000e-03 : f32} : tensor<4xf32>
// CHECK-NEXT: %[[NB:.*]] = nn.sgd_update %[[B]], %[[DY]] {lr = 1.000000e-03 : f32} : tensor<4xf32>
// CHECK-NEXT: return %[[NA]], %[[NB]], %[[L]] : tensor<4xf32>, tensor<4xf32>, tensor<f32>
func.func @add(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d(a - b) = (dy, -dy).
// CHECK-LABEL: func.func @sub(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DB:.*]] = nn.neg %[[DY]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DY]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @sub(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sub %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d(a * b) = (dy * b, dy * a).
// CHECK-LABEL: func.func @mul(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[B]] :
// CHECK-NEXT: %[[DB:.*]] = nn.mul %[[DY]], %[[A]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @mul(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// y = a / b: da = dy / b, db = -dy * a / b^2 = -(dy / b) * y.
// CHECK-LABEL: func.func @div(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.div %[[A]], %[[B]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[Q:.*]] = nn.div %[[DY]], %[[B]] :
// CHECK-NEXT: %[[QY:.*]] = nn.mul %[[Q]], %[[Y]] :
// CHECK-NEXT: %[[DB:.*]] = nn.neg %[[QY]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[Q]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @div(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.div %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// pow(a, b): da = dy * b * a^(b - 1), 0 where b == 0; db = dy * y * log(a),
// 0 where a == 0 and b >= 0 (PyTorch's rules).
// CHECK-LABEL: func.func @powf(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.powf %[[A]], %[[B]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[BM1:.*]] = nn.sub %[[B]], %[[ONE]]
// CHECK-NEXT: %[[P:.*]] = nn.powf %[[A]], %[[BM1]]
// CHECK-NEXT: %[[BP:.*]] = nn.mul %[[B]], %[[P]]
// CHECK-NEXT: %[[GA:.*]] = nn.mul %[[DY]], %[[BP]]
// CHECK-NEXT: %[[BZ:.*]] = nn.compare eq, %[[B]], %[[ZERO]]
// CHECK-NEXT: %[[DA:.*]] = nn.where %[[BZ]], %[[ZERO]], %[[GA]]
// CHECK-NEXT: %[[LOG:.*]] = nn.log %[[A]]
// CHECK-NEXT: %[[YL:.*]] = nn.mul %[[Y]], %[[LOG]]
// CHECK-NEXT: %[[GB:.*]] = nn.mul %[[DY]], %[[YL]]
// CHECK-NEXT: %[[AZ:.*]] = nn.compare eq, %[[A]], %[[ZERO]]
// CHECK-NEXT: %[[NN:.*]] = nn.compare ge, %[[B]], %[[ZERO]]
// CHECK-NEXT: %[[BOTH:.*]] = nn.where %[[AZ]], %[[NN]], %[[AZ]]
// CHECK-NEXT: %[[DB:.*]] = nn.where %[[BOTH]], %[[ZERO]], %[[GB]]
// CHECK: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @powf(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.powf %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @neg(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.neg %[[DY]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @neg(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.neg %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d exp(a) = dy * exp(a), reusing the forward result.
// CHECK-LABEL: func.func @exp(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.exp %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[Y]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @exp(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.exp %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d log(a) = dy / a.
// CHECK-LABEL: func.func @log(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.div %[[DY]], %[[A]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @log(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d sqrt(a) = dy / (2 y): nn.sqrt_grad of the forward output.
// CHECK-LABEL: func.func @sqrt(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.sqrt %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.sqrt_grad %[[DY]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @sqrt(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sqrt %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d a^-1/2 = -1/2 y^3 dy: nn.rsqrt_grad of the forward output.
// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.rsqrt %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.rsqrt_grad %[[DY]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @rsqrt(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.rsqrt %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d tanh(a) = dy * (1 - y^2): nn.tanh_grad of the forward output.
// CHECK-LABEL: func.func @tanh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.tanh %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.tanh_grad %[[DY]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @tanh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.tanh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d sigmoid(a) = dy * y * (1 - y): nn.sigmoid_grad of the forward output.
// CHECK-LABEL: func.func @sigmoid(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.sigmoid %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.sigmoid_grad %[[DY]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @sigmoid(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sigmoid %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// relu_grad and gelu_grad read the forward input.
// CHECK-LABEL: func.func @relu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.relu_grad %[[DY]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @relu(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.relu %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @gelu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.gelu_grad %[[DY]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @gelu(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.gelu %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @gelu_erf(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.gelu_erf_grad %[[DY]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @gelu_erf(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.gelu_erf %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d sin(a) = dy * cos(a).
// CHECK-LABEL: func.func @sin(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[C:.*]] = nn.cos %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[C]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @sin(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sin %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The gradient of a cumsum is the cumsum of dy the other way, exclusive as
// the forward.
// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[G1:.*]] = nn.cumsum %[[DY]] {axis = 1 : i64} : tensor<2x4xf32>
// CHECK-NEXT: %[[G0:.*]] = nn.cumsum %[[G1]] {axis = -2 : i64, exclusive, reverse} : tensor<2x4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[G0]] {
func.func @cumsum(%a: tensor<2x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cumsum %a {axis = -2 : i64, exclusive} : tensor<2x4xf32>
  %z = nn.cumsum %y {axis = 1 : i64, reverse} : tensor<2x4xf32>
  %l = nn.reduce_sum %z [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A router: nn.topk picks each row's two best experts from the softmax of
// its scores; its i64 result carries no derivative, and the weights get
// their gradient through the scores gathered at the picks (an embedding of
// the scores as a one-column table), as the importer builds TopK's values.
// CHECK-LABEL: func.func @topk_router(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<8x4xf32>
// CHECK: %[[I:.*]] = nn.topk %{{.*}} {axis = 1 : i64, k = 2 : i64} : (tensor<2x4xf32>) -> tensor<2x2xi64>
// CHECK: nn.embedding_grad
// CHECK-NOT: nn.topk
// CHECK: nn.softmax_grad
// CHECK: nn.sgd_update %[[W]],
func.func @topk_router(%w: tensor<8x4xf32> {nn.role = #nn.role<param>}, %x: tensor<2x8xf32> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.matmul %x, %w : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %p = nn.softmax %s : tensor<2x4xf32>
  %i = nn.topk %p {axis = 1 : i64, k = 2 : i64} : (tensor<2x4xf32>) -> tensor<2x2xi64>
  %base = arith.constant dense<[[0, 0], [4, 4]]> : tensor<2x2xi64>
  %at = nn.add %i, %base : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  %t = nn.reshape %p : tensor<2x4xf32> -> tensor<8x1xf32>
  %v = nn.embedding %t, %at : (tensor<8x1xf32>, tensor<2x2xi64>) -> tensor<2x2x1xf32>
  %l = nn.reduce_sum %v [0, 1, 2] : (tensor<2x2x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// nn.embedding_grad in a forward model (a scatter-add at run-time ids, as
// the importer's ScatterElements): the derivative of its updates gathers
// the table's gradient back at the same ids.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[U:[a-z0-9]+]]: tensor<2x3x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi64>
// CHECK: %[[DT:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DU:.*]] = nn.embedding %[[DT]], %[[IDS]] : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[U]], %[[DU]] {
func.func @scatter_add(%u: tensor<2x3x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = nn.embedding_grad %u, %ids : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<5x4xf32>
  %l = nn.reduce_sum %t [0, 1] : (tensor<5x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// padding_idx and scale_grad_by_freq pass from the lookup to its gradient;
// the gradient of an nn.embedding_grad with padding_idx is zero at the ids
// it leaves out, and with scale_grad_by_freq the table's gradient divided
// by the rows' counts (a scatter-add of ones, at least 1), gathered.
// CHECK-LABEL: func.func @embedding_padding(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<6x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi64>
// CHECK: %[[DT:.*]] = nn.embedding_grad %{{.*}}, %[[IDS]] {padding_idx = 1 : i64, scale_grad_by_freq} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<6x4xf32>
// CHECK: nn.sgd_update %[[T]], %[[DT]] {
func.func @embedding_padding(%t: tensor<6x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding %t, %ids {padding_idx = 1 : i64, scale_grad_by_freq} : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %l = nn.reduce_sum %e [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @scatter_add_padding(
// CHECK-SAME: %[[U:[a-z0-9]+]]: tensor<2x3x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi64>
// CHECK: %[[G:.*]] = nn.embedding %{{.*}}, %[[IDS]] : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// CHECK: %[[P:.*]] = arith.constant dense<2> : tensor<i64>
// CHECK: %[[EQ:.*]] = nn.compare eq, %[[IDS]], %[[P]] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
// CHECK: %[[COL:.*]] = nn.reshape %[[EQ]] : tensor<2x3xi1> -> tensor<2x3x1xi1>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[DU:.*]] = nn.where %[[COL]], %[[Z]], %[[G]] : (tensor<2x3x1xi1>, tensor<f32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: nn.sgd_update %[[U]], %[[DU]] {
func.func @scatter_add_padding(%u: tensor<2x3x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = nn.embedding_grad %u, %ids {padding_idx = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<5x4xf32>
  %l = nn.reduce_sum %t [0, 1] : (tensor<5x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @scatter_add_scaled(
// CHECK-SAME: %[[U:[a-z0-9]+]]: tensor<2x3x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi64>
// CHECK: %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<2x3x1xf32>
// CHECK: %[[N:.*]] = nn.embedding_grad %[[ONES]], %[[IDS]] : (tensor<2x3x1xf32>, tensor<2x3xi64>) -> tensor<5x1xf32>
// CHECK: %[[N1:.*]] = nn.maximum %[[N]], %{{.*}} : (tensor<5x1xf32>, tensor<f32>) -> tensor<5x1xf32>
// CHECK: %[[Q:.*]] = nn.div %{{.*}}, %[[N1]] : (tensor<5x4xf32>, tensor<5x1xf32>) -> tensor<5x4xf32>
// CHECK: %[[DU:.*]] = nn.embedding %[[Q]], %[[IDS]] : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// CHECK: nn.sgd_update %[[U]], %[[DU]] {
func.func @scatter_add_scaled(%u: tensor<2x3x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = nn.embedding_grad %u, %ids {scale_grad_by_freq} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<5x4xf32>
  %l = nn.reduce_sum %t [0, 1] : (tensor<5x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Integer arithmetic (position ids from a mask) carries no derivative: only
// the embedding table gets a gradient.
// CHECK-LABEL: func.func @integer_positions(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<16x4xf32>
// CHECK-NOT: nn.cumsum {{.*}}f32
// CHECK: nn.embedding_grad
// CHECK-NOT: nn.cumsum {{.*}}f32
// CHECK: nn.sgd_update %[[T]],
func.func @integer_positions(%t: tensor<16x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x8xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %pad = arith.constant dense<1> : tensor<i64>
  %m = nn.compare ne, %ids, %pad : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi1>
  %mi = nn.convert %m : tensor<2x8xi1> to tensor<2x8xi64>
  %c = nn.cumsum %mi {axis = 1 : i64} : tensor<2x8xi64>
  %p = nn.mul %c, %mi : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
  %q = nn.add %p, %pad : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi64>
  %e = nn.embedding %t, %q : (tensor<16x4xf32>, tensor<2x8xi64>) -> tensor<2x8x4xf32>
  %l = nn.reduce_sum %e [0, 1, 2] : (tensor<2x8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// nn.argmax reads a value the loss depends on through its float ops, but
// its i64 result carries no derivative: no rule is needed, and the table
// gets its gradient through the embedding only.
// CHECK-LABEL: func.func @argmax_picks_rows(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<4x3xf32>
// CHECK: %[[I:.*]] = nn.argmax %{{.*}} {axis = 1 : i64} : (tensor<4x3xf32>) -> tensor<4xi64>
// CHECK: %[[G:.*]] = nn.embedding_grad %{{.*}}, %[[I]]
// CHECK-NOT: nn.argmax
// CHECK: nn.sgd_update %[[T]], %[[G]] {
func.func @argmax_picks_rows(%t: tensor<4x3xf32> {nn.role = #nn.role<param>}, %x: tensor<4x3xf32> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.mul %t, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %i = nn.argmax %s {axis = 1 : i64} : (tensor<4x3xf32>) -> tensor<4xi64>
  %e = nn.embedding %t, %i : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  %l = nn.reduce_sum %e [0, 1] : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d cos(a) = -(dy * sin(a)).
// CHECK-LABEL: func.func @cos(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[S:.*]] = nn.sin %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = nn.mul %[[DY]], %[[S]]
// CHECK-NEXT: %[[DA:.*]] = nn.neg %[[M]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @cos(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cos %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d tan(a) = dy * (1 + y^2), from the forward output y.
// CHECK-LABEL: func.func @tan(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[Y:.*]] = nn.tan %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[YY:.*]] = nn.mul %[[Y]], %[[Y]]
// CHECK-NEXT: %[[D:.*]] = nn.add %[[ONE]], %[[YY]]
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[D]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @tan(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.tan %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d asin(a) = dy * rsqrt(1 - a^2).
// CHECK-LABEL: func.func @asin(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.sub %[[ONE]], %[[AA]]
// CHECK-NEXT: %[[R:.*]] = nn.rsqrt %[[S]]
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[R]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @asin(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.asin %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d acos(a) = -(dy * rsqrt(1 - a^2)).
// CHECK-LABEL: func.func @acos(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.sub %[[ONE]], %[[AA]]
// CHECK-NEXT: %[[R:.*]] = nn.rsqrt %[[S]]
// CHECK-NEXT: %[[M:.*]] = nn.mul %[[DY]], %[[R]]
// CHECK-NEXT: %[[DA:.*]] = nn.neg %[[M]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @acos(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.acos %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d atan(a) = dy / (a^2 + 1).
// CHECK-LABEL: func.func @atan(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.add %[[AA]], %[[ONE]]
// CHECK-NEXT: %[[DA:.*]] = nn.div %[[DY]], %[[S]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @atan(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.atan %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d sinh(a) = dy * cosh(a).
// CHECK-LABEL: func.func @sinh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[C:.*]] = nn.cosh %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[C]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @sinh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sinh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d cosh(a) = dy * sinh(a).
// CHECK-LABEL: func.func @cosh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[S:.*]] = nn.sinh %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[S]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @cosh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.cosh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d asinh(a) = dy * rsqrt(a^2 + 1).
// CHECK-LABEL: func.func @asinh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.add %[[AA]], %[[ONE]]
// CHECK-NEXT: %[[R:.*]] = nn.rsqrt %[[S]]
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[R]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @asinh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.asinh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d acosh(a) = dy * rsqrt(a^2 - 1).
// CHECK-LABEL: func.func @acosh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.sub %[[AA]], %[[ONE]]
// CHECK-NEXT: %[[R:.*]] = nn.rsqrt %[[S]]
// CHECK-NEXT: %[[DA:.*]] = nn.mul %[[DY]], %[[R]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @acosh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.acosh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d atanh(a) = dy / (1 - a^2).
// CHECK-LABEL: func.func @atanh(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[AA:.*]] = nn.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = nn.sub %[[ONE]], %[[AA]]
// CHECK-NEXT: %[[DA:.*]] = nn.div %[[DY]], %[[S]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @atanh(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.atanh %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d mod(a, b): dy for a; -(dy * floor(a / b)) for b (PyTorch's remainder).
// CHECK-LABEL: func.func @remainder(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[Q:.*]] = nn.div %[[A]], %[[B]]
// CHECK-NEXT: %[[F:.*]] = nn.floor %[[Q]] : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = nn.mul %[[DY]], %[[F]]
// CHECK-NEXT: %[[DB:.*]] = nn.neg %[[M]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DY]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @remainder(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mod %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// With fmod the quotient rounds toward zero: ceil below 0, floor above.
// CHECK-LABEL: func.func @fmod(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[Q:.*]] = nn.div %[[A]], %[[B]]
// CHECK-NEXT: %[[F:.*]] = nn.floor %[[Q]] : tensor<4xf32>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[NEG:.*]] = nn.compare lt, %[[Q]], %[[ZERO]]
// CHECK-NEXT: %[[C:.*]] = nn.ceil %[[Q]] : tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = nn.where %[[NEG]], %[[C]], %[[F]]
// CHECK-NEXT: %[[M:.*]] = nn.mul %[[DY]], %[[T]]
// CHECK-NEXT: %[[DB:.*]] = nn.neg %[[M]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DY]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @fmod(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mod %a, %b {fmod} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @erf(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.erf_grad %[[DY]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @erf(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.erf %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// C = A B: dA = dC B^T, dB = A^T dC, with transpose flags (no transposes).
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.matmul %[[DC]], %[[B]] {transpose_b} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.matmul %[[A]], %[[DC]] {transpose_a} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @matmul(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// C = A B^T: dA = dC B, dB = dC^T A.
// CHECK-LABEL: func.func @matmul_transpose_b(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4x3xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.matmul %[[DC]], %[[B]] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.matmul %[[DC]], %[[A]] {transpose_a} : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @matmul_transpose_b(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<4x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_b} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A pinned op's derivative ops keep its pin (amp.precision), as PyTorch's
// autocast runs an op's backward in its forward's type; the gradient of the
// unpinned op, and the sum of the two gradients of %a, are not pinned.
// CHECK-LABEL: func.func @pinned(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK: nn.matmul %[[A]], %[[B]] {amp.precision = f32}
// CHECK: %[[DZ:.*]] = nn.broadcast_to %{{.*}} : tensor<1x1xf32> -> tensor<2x3xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to %{{.*}} : tensor<1x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[DZA:.*]] = nn.mul %[[DZ]], %[[A]] : (
// CHECK-NEXT: %[[DZB:.*]] = nn.mul %[[DZ]], %[[A]] : (
// CHECK-NEXT: %[[DZ2:.*]] = nn.add %[[DZA]], %[[DZB]] : (
// CHECK-NEXT: %[[DA:.*]] = nn.matmul %[[DC]], %[[B]] {amp.precision = f32, transpose_b}
// CHECK-NEXT: %[[DB:.*]] = nn.matmul %[[A]], %[[DC]] {amp.precision = f32, transpose_a}
// CHECK-NEXT: %[[SUM:.*]] = nn.add %[[DZ2]], %[[DA]] : (
// CHECK-NEXT: nn.sgd_update %[[A]], %[[SUM]] {
func.func @pinned(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {amp.precision = f32} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %z = nn.mul %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %ly = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  %lz = nn.reduce_sum %z [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  %l = nn.add %ly, %lz : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// C = A^T B: dA = B dC^T, dB = A dC.
// CHECK-LABEL: func.func @matmul_transpose_a(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<3x2xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.matmul %[[B]], %[[DC]] {transpose_b} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.matmul %[[A]], %[[DC]] : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @matmul_transpose_a(%a: tensor<3x2xf32> {nn.role = #nn.role<param>}, %b: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_a} : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// C = A^T B^T: dA = (dC B)^T = B^T dC^T, dB = (A dC)^T = dC^T A^T.
// CHECK-LABEL: func.func @matmul_transpose_ab(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<3x2xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4x3xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.matmul %[[B]], %[[DC]] {transpose_a, transpose_b} : (tensor<4x3xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.matmul %[[DC]], %[[A]] {transpose_a, transpose_b} : (tensor<2x4xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @matmul_transpose_ab(%a: tensor<3x2xf32> {nn.role = #nn.role<param>}, %b: tensor<4x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %a, %b {transpose_a, transpose_b} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A rank-2 weight broadcast over the batch of a rank-3 input: its gradient
// is the batched X^T dC summed over the batch. The input gets none.
// CHECK-LABEL: func.func @matmul_batched_weight(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<5x2x3xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK: %[[DC:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DWB:.*]] = nn.matmul %[[X]], %[[DC]] {transpose_a} : (tensor<5x2x3xf32>, tensor<5x2x4xf32>) -> tensor<5x3x4xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.reduce_sum %[[DWB]] [0] : (tensor<5x3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
func.func @matmul_batched_weight(%x: tensor<5x2x3xf32> {nn.role = #nn.role<input>}, %w: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %x, %w : (tensor<5x2x3xf32>, tensor<3x4xf32>) -> tensor<5x2x4xf32>
  %l = nn.reduce_sum %y [0, 1, 2] : (tensor<5x2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The grad ops take the forward geometry.
// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x4x9x9xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<6x2x3x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DX:.*]] = nn.conv2d_grad_input %[[DY]], %[[W]] {dilation = array<i64: 2, 2>, groups = 2 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x6x4x4xf32>, tensor<6x2x3x3xf32>) -> tensor<2x4x9x9xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.conv2d_grad_filter %[[DY]], %[[X]] {dilation = array<i64: 2, 2>, groups = 2 : i64, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x6x4x4xf32>, tensor<2x4x9x9xf32>) -> tensor<6x2x3x3xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
func.func @conv2d(%x: tensor<2x4x9x9xf32> {nn.role = #nn.role<param>}, %w: tensor<6x2x3x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 2, 2>, groups = 2 : i64}
      : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<2x6x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A transposed convolution (nn.conv2d_grad_input as a forward op): the
// gradient of its input is the convolution of dy with the filter, that of
// the filter the filter gradient with the input as grad_output and dy as
// input, both with its geometry.
// CHECK-LABEL: func.func @conv2d_transposed(
// CHECK-SAME: %[[G:[a-z0-9]+]]: tensor<1x4x3x3xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<4x2x3x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DG:.*]] = nn.conv2d %[[DY]], %[[W]] {padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x6x7xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.conv2d_grad_filter %[[G]], %[[DY]] {padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<1x2x6x7xf32>) -> tensor<4x2x3x3xf32>
// CHECK-NEXT: nn.sgd_update %[[G]], %[[DG]] {
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
func.func @conv2d_transposed(%g: tensor<1x4x3x3xf32> {nn.role = #nn.role<param>}, %w: tensor<4x2x3x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.conv2d_grad_input %g, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>}
      : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x7xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<1x2x6x7xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A multi-result op of which only result 0 is used: the saved statistics
// feed the grad op, which gives the input, scale and bias gradients.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32> {{.*}}, %[[G:[a-z0-9]+]]: tensor<3x4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[MEAN:[a-z0-9_]+]], %[[RSTD:[a-z0-9_]+]] = nn.layer_norm %[[X]], %[[G]], %[[B]] {axis = 1 : i64}
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DX:[a-z0-9_]+]], %[[DG:[a-z0-9_]+]], %[[DB:[a-z0-9_]+]] = nn.layer_norm_grad %[[DY]], %[[X]], %[[MEAN]], %[[RSTD]], %[[G]] {axis = 1 : i64}
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: nn.sgd_update %[[G]], %[[DG]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @layer_norm(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}, %g: tensor<3x4xf32> {nn.role = #nn.role<param>},
                      %b: tensor<3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %rstd = nn.layer_norm %x, %g, %b {axis = 1 : i64}
      : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2xf32>, tensor<2xf32>)
  %l = nn.reduce_sum %y [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// nn.attention: one nn.attention_grad, reading the saved output and
// log-sum-exp, gives the query, key and value gradients; the mask, an input,
// gets none, and scale and causal carry over.
// CHECK-LABEL: func.func @attention(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: tensor<2x4x8xf32> {{.*}}, %[[K:[a-z0-9]+]]: tensor<2x6x8xf32> {{.*}}, %[[V:[a-z0-9]+]]: tensor<2x6x3xf32> {{.*}}, %[[M:[a-z0-9]+]]: tensor<4x6xf32>
// CHECK-NEXT: %[[O:[a-z0-9_]+]], %[[LSE:[a-z0-9_]+]] = nn.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] {causal, scale = 5.000000e-01 : f32}
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DQ:[a-z0-9_]+]], %[[DK:[a-z0-9_]+]], %[[DV:[a-z0-9_]+]] = nn.attention_grad %[[DY]], %[[Q]], %[[K]], %[[V]], %[[O]], %[[LSE]] mask %[[M]] {causal, scale = 5.000000e-01 : f32}
// CHECK-NEXT: nn.sgd_update %[[Q]], %[[DQ]] {
// CHECK-NEXT: nn.sgd_update %[[K]], %[[DK]] {
// CHECK-NEXT: nn.sgd_update %[[V]], %[[DV]] {
func.func @attention(%q: tensor<2x4x8xf32> {nn.role = #nn.role<param>}, %k: tensor<2x6x8xf32> {nn.role = #nn.role<param>},
                     %v: tensor<2x6x3xf32> {nn.role = #nn.role<param>}, %m: tensor<4x6xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v mask %m {causal, scale = 0.5 : f32}
      : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x3xf32>, tensor<4x6xf32>) -> (tensor<2x4x3xf32>, tensor<2x4xf32>)
  %l = nn.reduce_sum %o [0, 1, 2] : (tensor<2x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4x4xf32> {{.*}}, %[[G:[a-z0-9]+]]: tensor<3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3xf32>
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[MEAN:[a-z0-9_]+]], %[[INVSTD:[a-z0-9_]+]] = nn.batch_norm %[[X]], %[[G]], %[[B]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DX:[a-z0-9_]+]], %[[DG:[a-z0-9_]+]], %[[DB:[a-z0-9_]+]] = nn.batch_norm_grad %[[DY]], %[[X]], %[[MEAN]], %[[INVSTD]], %[[G]] :
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: nn.sgd_update %[[G]], %[[DG]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @batch_norm(%x: tensor<2x3x4x4xf32> {nn.role = #nn.role<param>}, %g: tensor<3xf32> {nn.role = #nn.role<param>},
                      %b: tensor<3xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y, %mean, %invstd = nn.batch_norm %x, %g, %b
      : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<2x3x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// softmax_grad reads the forward output and keeps the axis.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.softmax %[[X]] {axis = 0 : i64}
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DX:.*]] = nn.softmax_grad %[[DY]], %[[Y]] {axis = 0 : i64} : tensor<2x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @softmax(%x: tensor<2x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.softmax %x {axis = 0 : i64} : tensor<2x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// y = log_softmax(x): dx = dy - exp(y) * sum(dy, axis), the default axis -1
// made positive.
// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.log_softmax %[[X]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[S:.*]] = nn.reduce_sum %[[DY]] [1] keep_dims : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[E:.*]] = nn.exp %[[Y]] :
// CHECK-NEXT: %[[ES:.*]] = nn.mul %[[E]], %[[S]] : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.sub %[[DY]], %[[ES]] :
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @log_softmax(%x: tensor<2x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log_softmax %x : tensor<2x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Without keep_dims the gradient is reshaped to keep the reduced axis (the
// negative axis made positive) as 1, then broadcast.
// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK: %[[SEED:.*]] = nn.grad_seed
// CHECK-NEXT: %[[R:.*]] = nn.reshape %[[SEED]] : tensor<f32> -> tensor<1x1xf32>
// CHECK-NEXT: %[[DS:.*]] = nn.broadcast_to %[[R]] : tensor<1x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[K:.*]] = nn.reshape %[[DS]] : tensor<2x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.broadcast_to %[[K]] : tensor<2x1x4xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reduce_sum(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.reduce_sum %x [-2] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %s [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// With keep_dims the gradient is broadcast directly.
// CHECK-LABEL: func.func @reduce_sum_keep_dims(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK: %[[SEED:.*]] = nn.grad_seed
// CHECK-NEXT: %[[R:.*]] = nn.reshape %[[SEED]] : tensor<f32> -> tensor<1x1x1xf32>
// CHECK-NEXT: %[[DL:.*]] = nn.broadcast_to %[[R]] : tensor<1x1x1xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.broadcast_to %[[DL]] : tensor<2x1x4xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reduce_sum_keep_dims(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.reduce_sum %x [1] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %k = nn.reduce_sum %s [0, 1, 2] keep_dims : (tensor<2x1x4xf32>) -> tensor<1x1x1xf32>
  %l = nn.reshape %k : tensor<1x1x1xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The mean over axes 0 and 2 of 2x3x4 scales by 1/8.
// CHECK-LABEL: func.func @reduce_mean(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK: %[[DM:.*]] = nn.broadcast_to {{.*}} -> tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[K:.*]] = nn.reshape %[[DM]] : tensor<3xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT: %[[B:.*]] = nn.broadcast_to %[[K]] : tensor<1x3x1xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.div %[[B]], %[[C]] :
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reduce_mean(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.reduce_mean %x [0, 2] : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %l = nn.reduce_sum %m [0] : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x6xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<3x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.reshape %[[DY]] : tensor<3x4xf32> -> tensor<2x6xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reshape(%x: tensor<2x6xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.reshape %x : tensor<2x6xf32> -> tensor<3x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The gradient is transposed by the inverse permutation.
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<3x4x2xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.transpose %[[DY]] [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @transpose(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %l = nn.reduce_sum %y [0, 1, 2] : (tensor<3x4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The gradient is summed over the new leading axis and the stretched axis,
// then reshaped back to 3x1.
// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<3x1xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to %{{.*}} : tensor<1x1x1xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[S:.*]] = nn.reduce_sum %[[DY]] [0, 2] : (tensor<2x3x4xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.reshape %[[S]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @broadcast_to(%x: tensor<3x1xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.broadcast_to %x : tensor<3x1xf32> -> tensor<2x3x4xf32>
  %l = nn.reduce_sum %y [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @embedding(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<10x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[DT:.*]] = nn.embedding_grad %[[DY]], %[[IDS]] : (tensor<2x3x4xf32>, tensor<2x3xi32>) -> tensor<10x4xf32>
// CHECK-NEXT: nn.sgd_update %[[T]], %[[DT]] {
func.func @embedding(%t: tensor<10x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %l = nn.reduce_sum %e [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The seed is the loss gradient of cross_entropy_grad.
// CHECK-LABEL: func.func @cross_entropy(
// CHECK-SAME: %[[Z:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[LAB:[a-z0-9]+]]: tensor<2xi32>
// CHECK-NEXT: %[[L:.*]] = nn.cross_entropy %[[Z]], %[[LAB]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]] : tensor<f32>
// CHECK-NEXT: %[[DZ:.*]] = nn.cross_entropy_grad %[[SEED]], %[[Z]], %[[LAB]] : (tensor<f32>, tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: nn.sgd_update %[[Z]], %[[DZ]] {
func.func @cross_entropy(%z: tensor<2x3xf32> {nn.role = #nn.role<param>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %z, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The gradient smooths the targets as the loss does.
// CHECK-LABEL: func.func @cross_entropy_label_smoothing(
// CHECK: %[[L:.*]] = nn.cross_entropy %{{.*}}, %{{.*}} {label_smoothing = 1.000000e-01 : f32}
// CHECK: nn.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} {label_smoothing = 1.000000e-01 : f32}
func.func @cross_entropy_label_smoothing(%z: tensor<2x3xf32> {nn.role = #nn.role<param>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %z, %lab {label_smoothing = 0.1 : f32} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The gradient ignores the rows the loss ignores.
// CHECK-LABEL: func.func @cross_entropy_ignore_index(
// CHECK: %[[L:.*]] = nn.cross_entropy %{{.*}}, %{{.*}} {ignore_index = -100 : i64}
// CHECK: nn.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = -100 : i64}
func.func @cross_entropy_ignore_index(%z: tensor<2x3x4xf32> {nn.role = #nn.role<param>}, %lab: tensor<2x3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %z, %lab {ignore_index = -100 : i64} : (tensor<2x3x4xf32>, tensor<2x3xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Accumulation and broadcasting
//===----------------------------------------------------------------------===//

// -----

// A value used twice gets the sum of both contributions: through exp (the
// later use, differentiated first) and through tanh.
// CHECK-LABEL: func.func @fan_out(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[T:.*]] = nn.tanh %[[A]]
// CHECK-NEXT: %[[E:.*]] = nn.exp %[[A]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DT:.*]] = nn.mul %[[DY]], %[[E]] :
// CHECK-NEXT: %[[DE:.*]] = nn.mul %[[DY]], %[[T]] :
// CHECK-NEXT: %[[G1:.*]] = nn.mul %[[DE]], %[[E]] :
// CHECK-NEXT: %[[G2:.*]] = nn.tanh_grad %[[DT]], %[[T]] :
// CHECK-NEXT: %[[DA:.*]] = nn.add %[[G1]], %[[G2]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @fan_out(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = nn.tanh %a : tensor<4xf32>
  %e = nn.exp %a : tensor<4xf32>
  %y = nn.mul %t, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Both operands of one op: d(a * a) = dy * a + dy * a.
// CHECK-LABEL: func.func @square(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[G1:.*]] = nn.mul %[[DY]], %[[A]] :
// CHECK-NEXT: %[[G2:.*]] = nn.mul %[[DY]], %[[A]] :
// CHECK-NEXT: %[[DA:.*]] = nn.add %[[G1]], %[[G2]] :
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @square(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A bias broadcast over the batch gets the gradient summed over the batch;
// the input gets none.
// CHECK-LABEL: func.func @bias_add(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.reduce_sum %[[DY]] [0] : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @bias_add(%x: tensor<2x3xf32> {nn.role = #nn.role<input>}, %b: tensor<3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A [1,N] operand broadcast to [M,N]: summed over axis 0, then reshaped to
// [1,N]. The mul's gradient (dy * x) is reduced after the rule.
// CHECK-LABEL: func.func @broadcast_row(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[C:[a-z0-9]+]]: tensor<1x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[P:.*]] = nn.mul %[[DY]], %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[S:.*]] = nn.reduce_sum %[[P]] [0] : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[DC:.*]] = nn.reshape %[[S]] : tensor<3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: nn.sgd_update %[[C]], %[[DC]] {
func.func @broadcast_row(%x: tensor<2x3xf32> {nn.role = #nn.role<input>}, %c: tensor<1x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %x, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// What gets no gradient
//===----------------------------------------------------------------------===//

// -----

// Integer operands get none: the ids only index embedding_grad, the labels
// only feed cross_entropy_grad. The whole backward pass is checked.
// CHECK-LABEL: func.func @integer_operands(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<10x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<4x10xf32> {{.*}}, %[[LAB:[a-z0-9]+]]: tensor<2x3xi32>
// CHECK-NEXT: %[[E:.*]] = nn.embedding %[[T]], %[[IDS]]
// CHECK-NEXT: %[[Z:.*]] = nn.matmul %[[E]], %[[W]]
// CHECK-NEXT: %[[L:.*]] = nn.cross_entropy %[[Z]], %[[LAB]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT: %[[DZ:.*]] = nn.cross_entropy_grad %[[SEED]], %[[Z]], %[[LAB]]
// CHECK-NEXT: %[[DE:.*]] = nn.matmul %[[DZ]], %[[W]] {transpose_b} : (tensor<2x3x10xf32>, tensor<4x10xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[DWB:.*]] = nn.matmul %[[E]], %[[DZ]] {transpose_a} : (tensor<2x3x4xf32>, tensor<2x3x10xf32>) -> tensor<2x4x10xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.reduce_sum %[[DWB]] [0] : (tensor<2x4x10xf32>) -> tensor<4x10xf32>
// CHECK-NEXT: %[[DT:.*]] = nn.embedding_grad %[[DE]], %[[IDS]] : (tensor<2x3x4xf32>, tensor<2x3xi32>) -> tensor<10x4xf32>
// CHECK-NEXT: %[[NT:.*]] = nn.sgd_update %[[T]], %[[DT]] {
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: return %[[NT]], %[[NW]], %[[L]] : tensor<10x4xf32>, tensor<4x10xf32>, tensor<f32>
func.func @integer_operands(%t: tensor<10x4xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi32> {nn.role = #nn.role<input>},
                            %w: tensor<4x10xf32> {nn.role = #nn.role<param>}, %lab: tensor<2x3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %z = nn.matmul %e, %w : (tensor<2x3x4xf32>, tensor<4x10xf32>) -> tensor<2x3x10xf32>
  %l = nn.cross_entropy %z, %lab : (tensor<2x3x10xf32>, tensor<2x3xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An embedding table that is an input (frozen) gets no embedding_grad, and
// the matmul computes no gradient for the looked-up rows.
// CHECK-LABEL: func.func @frozen_embedding(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<10x4xf32> {{.*}}, %[[IDS:[a-z0-9]+]]: tensor<2x3xi32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<4x10xf32>
// CHECK-NEXT: %[[E:.*]] = nn.embedding %[[T]], %[[IDS]]
// CHECK: %[[DZ:.*]] = nn.cross_entropy_grad
// CHECK-NEXT: %[[DWB:.*]] = nn.matmul %[[E]], %[[DZ]] {transpose_a}
// CHECK-NEXT: %[[DW:.*]] = nn.reduce_sum %[[DWB]] [0]
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: return %[[NW]], %{{.*}} : tensor<4x10xf32>, tensor<f32>
func.func @frozen_embedding(%t: tensor<10x4xf32> {nn.role = #nn.role<input>}, %ids: tensor<2x3xi32> {nn.role = #nn.role<input>},
                            %w: tensor<4x10xf32> {nn.role = #nn.role<param>}, %lab: tensor<2x3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %z = nn.matmul %e, %w : (tensor<2x3x4xf32>, tensor<4x10xf32>) -> tensor<2x3x10xf32>
  %l = nn.cross_entropy %z, %lab : (tensor<2x3x10xf32>, tensor<2x3xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A param that does not reach the loss (its only use is dead) gets a zero
// gradient and a remark.
// CHECK-LABEL: func.func @unreached_param(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[V:[a-z0-9]+]]: tensor<2x2xf32>
// CHECK: %[[DW:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: nn.sgd_update %[[V]], %[[ZERO]] {
func.func @unreached_param(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                           // expected-remark @below {{nn-autodiff: param #1 of @unreached_param does not reach the loss; its gradient is zero}}
                           %v: tensor<2x2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %dead = nn.exp %v : tensor<2x2xf32>
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Ops without a rule off the active paths are accepted: a relu_grad (a
// backward op, which has no rule) of the input only (it reaches the loss but
// no param reaches it) and one of a param whose result is dead. Neither they
// nor the sub are differentiated.
// CHECK-LABEL: func.func @no_rule_off_path(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<3x4xf32>
// CHECK-NEXT: %[[M:.*]] = nn.relu_grad %[[X]], %[[X]]
// CHECK-NEXT: %[[XC:.*]] = nn.sub %[[X]], %[[M]]
// CHECK-NEXT: %[[Y:.*]] = nn.matmul %[[XC]], %[[W]]
// CHECK-NEXT: nn.relu_grad %[[W]], %[[W]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DW:.*]] = nn.matmul %[[XC]], %[[DY]] {transpose_a}
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: return
func.func @no_rule_off_path(%x: tensor<2x3xf32> {nn.role = #nn.role<input>}, %w: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.relu_grad %x, %x : tensor<2x3xf32>
  %xc = nn.sub %x, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = nn.matmul %xc, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %dead = nn.relu_grad %w, %w : tensor<3x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Optimizers and their options, on a two-layer MLP whose params are not the
// last arguments
//===----------------------------------------------------------------------===//

// -----

// Default: sgd without momentum, no opt_state. The input gets no gradient:
// the first layer's backward is only the weight gradient X^T dH (the whole
// backward pass is checked, so no matmul computes dX).
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %[[W1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<2x4xf32> {nn.role = #nn.role<input>}, %[[W2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<param>}, %[[LAB:[a-z0-9]+]]: tensor<2xi32> {nn.role = #nn.role<label>})
// CHECK-SAME: -> (tensor<4x8xf32> {nn.role = #nn.role<param>}, tensor<8x3xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W1]]
// CHECK-NEXT: %[[R:.*]] = nn.relu %[[H]]
// CHECK-NEXT: %[[Z:.*]] = nn.matmul %[[R]], %[[W2]]
// CHECK-NEXT: %[[L:.*]] = nn.cross_entropy %[[Z]], %[[LAB]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT: %[[DZ:.*]] = nn.cross_entropy_grad %[[SEED]], %[[Z]], %[[LAB]]
// CHECK-NEXT: %[[DR:.*]] = nn.matmul %[[DZ]], %[[W2]] {transpose_b}
// CHECK-NEXT: %[[DW2:.*]] = nn.matmul %[[R]], %[[DZ]] {transpose_a}
// CHECK-NEXT: %[[DH:.*]] = nn.relu_grad %[[DR]], %[[H]]
// CHECK-NEXT: %[[DW1:.*]] = nn.matmul %[[X]], %[[DH]] {transpose_a}
// CHECK-NEXT: %[[N1:.*]] = nn.sgd_update %[[W1]], %[[DW1]] {lr = 1.000000e-03 : f32} : tensor<4x8xf32>
// CHECK-NEXT: %[[N2:.*]] = nn.sgd_update %[[W2]], %[[DW2]] {lr = 1.000000e-03 : f32} : tensor<8x3xf32>
// CHECK-NEXT: return %[[N1]], %[[N2]], %[[L]] : tensor<4x8xf32>, tensor<8x3xf32>, tensor<f32>

// Momentum: one buffer per param, inserted after the last param; results are
// the params, the buffers, then the loss.
// MOMENTUM-LABEL: func.func @mlp(
// MOMENTUM-SAME: %[[W1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<2x4xf32> {nn.role = #nn.role<input>}, %[[W2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<param>},
// MOMENTUM-SAME: %[[M1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, %[[M2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, %{{[a-z0-9]+}}: tensor<2xi32> {nn.role = #nn.role<label>})
// MOMENTUM-SAME: -> (tensor<4x8xf32> {nn.role = #nn.role<param>}, tensor<8x3xf32> {nn.role = #nn.role<param>}, tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<loss>})
// MOMENTUM: %[[L:.*]] = nn.cross_entropy
// MOMENTUM: %[[DW2:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// MOMENTUM: %[[DW1:.*]] = nn.matmul %[[X]], %{{.*}} {transpose_a}
// MOMENTUM-NEXT: %[[N1:.*]], %[[B1:.*]] = nn.sgd_update %[[W1]], %[[DW1]], %[[M1]] {lr = 1.000000e-03 : f32, momentum = 0.899999976 : f32} : tensor<4x8xf32>
// MOMENTUM-NEXT: %[[N2:.*]], %[[B2:.*]] = nn.sgd_update %[[W2]], %[[DW2]], %[[M2]] {lr = 1.000000e-03 : f32, momentum = 0.899999976 : f32} : tensor<8x3xf32>
// MOMENTUM-NEXT: return %[[N1]], %[[N2]], %[[B1]], %[[B2]], %[[L]] :

// AdamW: exp_avg, exp_avg_sq and a tensor<f32> step per param, in param
// order; weight_decay is AdamW's 0.01 (the attribute default, elided).
// ADAMW-LABEL: func.func @mlp(
// ADAMW-SAME: %[[W1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<param>}, %{{[a-z0-9]+}}: tensor<2x4xf32> {nn.role = #nn.role<input>}, %[[W2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<param>},
// ADAMW-SAME: %[[M1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, %[[V1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, %[[S1:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<opt_state>},
// ADAMW-SAME: %[[M2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, %[[V2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, %[[S2:[a-z0-9]+]]: tensor<f32> {nn.role = #nn.role<opt_state>},
// ADAMW-SAME: %{{[a-z0-9]+}}: tensor<2xi32> {nn.role = #nn.role<label>})
// ADAMW-SAME: -> (tensor<4x8xf32> {nn.role = #nn.role<param>}, tensor<8x3xf32> {nn.role = #nn.role<param>},
// ADAMW-SAME: tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, tensor<4x8xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<opt_state>},
// ADAMW-SAME: tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, tensor<8x3xf32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<opt_state>}, tensor<f32> {nn.role = #nn.role<loss>})
// ADAMW: %[[L:.*]] = nn.cross_entropy
// ADAMW: %[[DW2:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// ADAMW: %[[DW1:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// ADAMW-NEXT: %[[N1:[a-z0-9_]+]], %[[A1:[a-z0-9_]+]], %[[Q1:[a-z0-9_]+]], %[[T1:[a-z0-9_]+]] = nn.adam_update %[[W1]], %[[DW1]], %[[M1]], %[[V1]], %[[S1]] {lr = 1.000000e-03 : f32} : tensor<4x8xf32>
// ADAMW-NEXT: %[[N2:[a-z0-9_]+]], %[[A2:[a-z0-9_]+]], %[[Q2:[a-z0-9_]+]], %[[T2:[a-z0-9_]+]] = nn.adam_update %[[W2]], %[[DW2]], %[[M2]], %[[V2]], %[[S2]] {lr = 1.000000e-03 : f32} : tensor<8x3xf32>
// ADAMW-NEXT: return %[[N1]], %[[N2]], %[[A1]], %[[Q1]], %[[T1]], %[[A2]], %[[Q2]], %[[T2]], %[[L]] :

// SGD-OPTIONS-LABEL: func.func @mlp(
// SGD-OPTIONS-NOT: opt_state
// SGD-OPTIONS: nn.sgd_update %{{.*}}, %{{.*}} {lr = 1.000000e-01 : f32, weight_decay = 5.000000e-04 : f32} : tensor<4x8xf32>
// SGD-OPTIONS-NEXT: nn.sgd_update %{{.*}}, %{{.*}} {lr = 1.000000e-01 : f32, weight_decay = 5.000000e-04 : f32} : tensor<8x3xf32>

// One clip over all gradients, in param order, before the updates; its
// norm (before clipping) is a result after the loss.
// CLIP-LABEL: func.func @mlp(
// CLIP-SAME: %[[W1:[a-z0-9]+]]: tensor<4x8xf32> {{.*}}, %[[W2:[a-z0-9]+]]: tensor<8x3xf32>
// CLIP-SAME: tensor<f32> {nn.role = #nn.role<loss>}, tensor<f32> {nn.role = #nn.role<grad_norm>})
// CLIP-NOT: nn.clip_grad_norm
// CLIP: %[[L:.*]] = nn.cross_entropy
// CLIP: %[[DW2:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// CLIP: %[[DW1:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// CLIP-NEXT: %[[C:.*]]:2, %[[NORM:.*]] = nn.clip_grad_norm %[[DW1]], %[[DW2]] {max_norm = 1.000000e+00 : f32} : tensor<4x8xf32>, tensor<8x3xf32>
// CLIP-NEXT: %[[NW1:.*]] = nn.sgd_update %[[W1]], %[[C]]#0 {
// CLIP-NEXT: %[[NW2:.*]] = nn.sgd_update %[[W2]], %[[C]]#1 {
// CLIP-NEXT: return %[[NW1]], %[[NW2]], %[[L]], %[[NORM]] :

// optimizer=none: the gradients (without a role), then the loss.
// NONE-LABEL: func.func @mlp(
// NONE-SAME: -> (tensor<4x8xf32>, tensor<8x3xf32>, tensor<f32> {nn.role = #nn.role<loss>})
// NONE: %[[L:.*]] = nn.cross_entropy
// NONE: %[[DW2:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// NONE: %[[DW1:.*]] = nn.matmul %{{.*}}, %{{.*}} {transpose_a}
// NONE-NEXT: return %[[DW1]], %[[DW2]], %[[L]] : tensor<4x8xf32>, tensor<8x3xf32>, tensor<f32>

// keep-forward: @mlp_forward takes the params and inputs (not the labels)
// and returns the logits; @mlp is the training step.
// FORWARD-LABEL: func.func @mlp(
// FORWARD: nn.grad_seed
// FORWARD: nn.sgd_update
// FORWARD-LABEL: func.func @mlp_forward(
// FORWARD-SAME: %[[W1:[a-z0-9]+]]: tensor<4x8xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<2x4xf32> {nn.role = #nn.role<input>}, %[[W2:[a-z0-9]+]]: tensor<8x3xf32> {nn.role = #nn.role<param>}) -> tensor<2x3xf32> {
// FORWARD-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W1]]
// FORWARD-NEXT: %[[R:.*]] = nn.relu %[[H]]
// FORWARD-NEXT: %[[Z:.*]] = nn.matmul %[[R]], %[[W2]]
// FORWARD-NEXT: return %[[Z]] : tensor<2x3xf32>
// FORWARD-NEXT: }
func.func @mlp(%w1: tensor<4x8xf32> {nn.role = #nn.role<param>}, %x: tensor<2x4xf32> {nn.role = #nn.role<input>},
               %w2: tensor<8x3xf32> {nn.role = #nn.role<param>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.matmul %x, %w1 : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %r = nn.relu %h : tensor<2x8xf32>
  %z = nn.matmul %r, %w2 : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
  %l = nn.cross_entropy %z, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

// -----

// Backward ops carry fused<"grad">[their forward op], the seed that of the
// loss's op, and the optimizer updates fused<"optimizer">[their param].
// LOC-LABEL: func.func @location(
// LOC-SAME: %arg0: tensor<4xf32> {nn.role = #nn.role<param>} loc([[A:"[^"]*":[0-9]+:[0-9]+]]), %arg1: tensor<4xf32> {nn.role = #nn.role<param>} loc([[B:"[^"]*":[0-9]+:[0-9]+]]))
// LOC-NEXT: nn.mul %arg0, %arg1 {{.*}} loc([[MUL:"[^"]*":[0-9]+:[0-9]+]])
// LOC-NEXT: nn.reduce_sum {{.*}} loc([[SUM:"[^"]*":[0-9]+:[0-9]+]])
// LOC-NEXT: nn.grad_seed {{.*}} loc(fused<"grad">{{\[}}[[SUM]]{{\]}})
// LOC-NEXT: nn.reshape {{.*}} loc(fused<"grad">{{\[}}[[SUM]]{{\]}})
// LOC-NEXT: nn.broadcast_to {{.*}} loc(fused<"grad">{{\[}}[[SUM]]{{\]}})
// LOC-NEXT: nn.mul {{.*}} loc(fused<"grad">{{\[}}[[MUL]]{{\]}})
// LOC-NEXT: nn.mul {{.*}} loc(fused<"grad">{{\[}}[[MUL]]{{\]}})
// LOC-NEXT: nn.sgd_update %arg0, {{.*}} loc(fused<"optimizer">{{\[}}[[A]]{{\]}})
// LOC-NEXT: nn.sgd_update %arg1, {{.*}} loc(fused<"optimizer">{{\[}}[[B]]{{\]}})
func.func @location(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// entry
//===----------------------------------------------------------------------===//

// -----

// Without entry every loss function is differentiated; entry=pick takes only
// @pick and leaves every other function of the module alone.
// CHECK-LABEL: func.func @pick(
// CHECK: nn.grad_seed
// CHECK-LABEL: func.func @skip(
// CHECK: nn.grad_seed
// ENTRY-NOT: nn.grad_seed
// ENTRY-LABEL: func.func @pick(
// ENTRY-SAME: -> (tensor<4xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>})
// ENTRY: nn.grad_seed
// ENTRY: nn.sgd_update
// ENTRY-LABEL: func.func @skip(
// ENTRY-SAME: -> (tensor<f32> {nn.role = #nn.role<loss>})
// ENTRY-NOT: nn.grad_seed
func.func @pick(%w: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @skip(%w: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Rules of the reduction, pooling, shape, selection and regression ops
//===----------------------------------------------------------------------===//

// -----

// reduce_max_grad reads the forward input and output (it splits dy among
// the maxima) and keeps the axes as written, here negative.
// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK-NEXT: %[[M:.*]] = nn.reduce_max %[[X]] [-2]
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.reduce_max_grad %[[DY]], %[[X]], %[[M]] [-2] : (tensor<2x4xf32>, tensor<2x3x4xf32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reduce_max(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.reduce_max %x [-2] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %l = nn.reduce_sum %m [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// keep_dims is kept: dy and the output have the kept shape.
// CHECK-LABEL: func.func @reduce_max_keep_dims(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>
// CHECK-NEXT: %[[M:.*]] = nn.reduce_max %[[X]] [1] keep_dims
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x1x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.reduce_max_grad %[[DY]], %[[X]], %[[M]] [1] keep_dims : (tensor<2x1x4xf32>, tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @reduce_max_keep_dims(%x: tensor<2x3x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.reduce_max %x [1] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %l = nn.reduce_sum %m [0, 1, 2] : (tensor<2x1x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// max_pool2d_grad reads the forward input and takes the forward geometry:
// OH = (8 + 1 + 1 - 2 * (3 - 1) - 1) / 2 + 1 = 3, OW = (...) / 1 + 1 = 6.
// CHECK-LABEL: func.func @max_pool2d(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<1x3x8x8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<1x3x3x6xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.max_pool2d_grad %[[DY]], %[[X]] {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<1x3x3x6xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @max_pool2d(%x: tensor<1x3x8x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.max_pool2d %x {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>}
      : (tensor<1x3x8x8xf32>) -> tensor<1x3x3x6xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<1x3x3x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// avg_pool2d_grad takes the forward geometry and count_include_pad (the
// divisor) and needs no forward value; the result type gives the input
// shape (9 rows, which the 5 output rows at stride 2 do not determine).
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x4x9x9xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x4x5x8xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.avg_pool2d_grad %[[DY]] {count_include_pad, kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 2, 1>} : (tensor<2x4x5x8xf32>) -> tensor<2x4x9x9xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @avg_pool2d(%x: tensor<2x4x9x9xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.avg_pool2d %x {count_include_pad, kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 2, 1>}
      : (tensor<2x4x9x9xf32>) -> tensor<2x4x5x8xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<2x4x5x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Without count_include_pad the grad op has none either (the divisor is the
// in-bounds count of each window).
// CHECK-LABEL: func.func @avg_pool2d_exclude_pad(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<1x2x4x4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.avg_pool2d_grad %[[DY]] {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @avg_pool2d_exclude_pad(%x: tensor<1x2x4x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.avg_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<1x2x4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A global average pool is an average pool whose window is the whole
// H x W image (stride 1, no padding: one window, divisor 5 * 7 = 35).
// CHECK-LABEL: func.func @global_avg_pool(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3x5x7xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3x1x1xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.avg_pool2d_grad %[[DY]] {kernel = array<i64: 5, 7>} : (tensor<2x3x1x1xf32>) -> tensor<2x3x5x7xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @global_avg_pool(%x: tensor<2x3x5x7xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.global_avg_pool %x : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
  %l = nn.reduce_sum %y [0, 1, 2, 3] : (tensor<2x3x1x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Each input's gradient is its window of dy along the axis (-1 made
// positive): columns [0, 3), [3, 4) and [4, 8).
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<2x1xf32> {{.*}}, %[[C:[a-z0-9]+]]: tensor<2x4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x8xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.slice %[[DY]] {offsets = array<i64: 0, 0>} : tensor<2x8xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.slice %[[DY]] {offsets = array<i64: 0, 3>} : tensor<2x8xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[DC:.*]] = nn.slice %[[DY]] {offsets = array<i64: 0, 4>} : tensor<2x8xf32> -> tensor<2x4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
// CHECK-NEXT: nn.sgd_update %[[C]], %[[DC]] {
func.func @concat(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<2x1xf32> {nn.role = #nn.role<param>},
                  %c: tensor<2x4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.concat %a, %b, %c {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An input operand gets no slice, but the offset still advances past it:
// the param's window starts at row 2. The whole backward pass is checked.
// CHECK-LABEL: func.func @concat_input_first(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<4x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<6x3xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.slice %[[DY]] {offsets = array<i64: 2, 0>} : tensor<6x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: return %[[NW]], %{{.*}} : tensor<4x3xf32>, tensor<f32>
func.func @concat_input_first(%x: tensor<2x3xf32> {nn.role = #nn.role<input>}, %w: tensor<4x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.concat %x, %w {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<6x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// slice_grad scatters dy back to the positions the slice read (rows 1, 3;
// columns 7, 5, 3, 1) with the same offsets and strides.
// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x4xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.slice_grad %[[DY]] {offsets = array<i64: 1, 7>, strides = array<i64: 2, -2>} : tensor<2x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @slice(%x: tensor<4x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.slice %x {offsets = array<i64: 1, 7>, strides = array<i64: 2, -2>} : tensor<4x8xf32> -> tensor<2x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Without strides the grad op has none (unit strides).
// CHECK-LABEL: func.func @slice_unit_strides(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x5xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.slice_grad %[[DY]] {offsets = array<i64: 1, 2>} : tensor<2x5xf32> -> tensor<4x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @slice_unit_strides(%x: tensor<4x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.slice %x {offsets = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x5xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The pad value is constant: the gradient is the unpadded window of dy,
// starting at low = [2, 1] (rows 2..5 of 6, columns 1..8 of 12).
// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<6x12xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.slice %[[DY]] {offsets = array<i64: 2, 1>} : tensor<6x12xf32> -> tensor<4x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @pad(%x: tensor<4x8xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.pad %x {low = array<i64: 2, 1>, high = array<i64: 0, 3>, value = 1.000000e+00 : f32} : tensor<4x8xf32> -> tensor<6x12xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<6x12xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Dropout is linear with the mask its seed fixes: the gradient is the same
// dropout (seed, rate, training) of dy. The i64 seed gets no gradient. Each
// step draws a new mask: the seed is offset by the rng_state step count
// (autodiff-dropout.mlir has the cases).
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32> {{.*}}, %[[SEED:[a-z0-9]+]]: tensor<i64> {{.*}}, %[[T:[a-z0-9]+]]: tensor<i64> {nn.role = #nn.role<rng_state>}
// CHECK: %[[S:.*]] = nn.add %[[SEED]], %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: nn.dropout %[[X]], %[[S]] {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.dropout %[[DY]], %[[S]] {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
// CHECK: %[[NT:.*]] = nn.add %[[T]], %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT: %[[NX:.*]] = nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: return %[[NX]], %[[NT]], %{{.*}} : tensor<4x8xf32>, tensor<i64>, tensor<f32>
func.func @dropout(%x: tensor<4x8xf32> {nn.role = #nn.role<param>}, %seed: tensor<i64> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.dropout %x, %seed {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Without training the forward dropout is the identity, and so is its
// gradient: training stays absent.
// CHECK-LABEL: func.func @dropout_eval(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x8xf32> {{.*}}, %[[SEED:[a-z0-9]+]]: tensor<i64>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: %[[DX:.*]] = nn.dropout %[[DY]], %[[SEED]] {rate = 5.000000e-01 : f32} : tensor<4x8xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
func.func @dropout_eval(%x: tensor<4x8xf32> {nn.role = #nn.role<param>}, %seed: tensor<i64> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.dropout %x, %seed {rate = 5.000000e-01 : f32} : tensor<4x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// maximum_grad routes dy to the larger operand (ties split); both results
// have dy's shape, here the operands'.
// CHECK-LABEL: func.func @maximum(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<2x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[DA:[a-z0-9_]+]], %[[DB:[a-z0-9_]+]] = nn.maximum_grad %[[DY]], %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @maximum(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<2x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.maximum %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Both operands broadcast: the 4x1 lhs's gradient is summed over axis 1 and
// reshaped back, the 8 rhs's summed over the new leading axis.
// CHECK-LABEL: func.func @maximum_broadcast(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4x1xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<8xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: %[[GA:[a-z0-9_]+]], %[[GB:[a-z0-9_]+]] = nn.maximum_grad %[[DY]], %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT: %[[SA:.*]] = nn.reduce_sum %[[GA]] [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.reshape %[[SA]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.reduce_sum %[[GB]] [0] : (tensor<4x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @maximum_broadcast(%a: tensor<4x1xf32> {nn.role = #nn.role<param>}, %b: tensor<8xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.maximum %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// minimum_grad routes dy to the smaller operand; the [1,3] rhs's gradient
// is summed over axis 0 and reshaped to [1,3], the lhs's taken as is.
// CHECK-LABEL: func.func @minimum(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<1x3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[DA:[a-z0-9_]+]], %[[GB:[a-z0-9_]+]] = nn.minimum_grad %[[DY]], %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[SB:.*]] = nn.reduce_sum %[[GB]] [0] : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.reshape %[[SB]] : tensor<3xf32> -> tensor<1x3xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @minimum(%a: tensor<2x3xf32> {nn.role = #nn.role<param>}, %b: tensor<1x3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.minimum %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The step functions pass no gradient (their derivative is zero, as
// PyTorch's): d(sign(a) * log(a) + floor(a)) = dy * sign(a) / a, from the
// log alone; sign and floor stay in the forward pass only.
// CHECK-LABEL: func.func @step_functions(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = nn.sign %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[G:.*]] = nn.log %[[A]] : tensor<4xf32>
// CHECK-NEXT: %[[Y:.*]] = nn.mul %[[S]], %[[G]]
// CHECK-NEXT: %[[F:.*]] = nn.floor %[[A]] : tensor<4xf32>
// CHECK-NOT: nn.sign
// CHECK-NOT: nn.floor
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DG:.*]] = nn.mul %[[DY]], %[[S]]
// CHECK-NEXT: %[[DA:.*]] = nn.div %[[DG]], %[[A]]
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @step_functions(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.sign %a : tensor<4xf32>
  %g = nn.log %a : tensor<4xf32>
  %y = nn.mul %s, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %f = nn.floor %a : tensor<4xf32>
  %z = nn.add %y, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %z [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A param that reaches the loss only through step functions gets a zero
// gradient, as one that does not reach it.
// CHECK-LABEL: func.func @only_through_steps(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[V:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[R:.*]] = nn.round %[[V]]
// CHECK-NEXT: %[[C:.*]] = nn.ceil %[[R]]
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DW:.*]] = nn.mul %[[DY]], %[[C]]
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: nn.sgd_update %[[V]], %[[ZERO]] {
func.func @only_through_steps(%w: tensor<4xf32> {nn.role = #nn.role<param>},
                              // expected-remark @below {{nn-autodiff: param #1 of @only_through_steps does not reach the loss; its gradient is zero}}
                              %v: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %r = nn.round %v : tensor<4xf32>
  %c = nn.ceil %r : tensor<4xf32>
  %y = nn.mul %w, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A model's own casts (an imported ONNX Cast to FLOAT16: an f32 -> f16 ->
// f32 round trip) differentiate as PyTorch's autograd of .half().float():
// the gradient goes back through the same casts, so it is rounded to f16
// too.
// CHECK-LABEL: func.func @cast_round_trip(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK-NEXT: %[[H:.*]] = amp.cast %[[A]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[F:.*]] = amp.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DE:.*]] = nn.mul %[[DY]], %[[E:.*]] :
// CHECK-NEXT: %[[DH:.*]] = amp.cast %[[DE]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: %[[DA:.*]] = amp.cast %[[DH]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @cast_round_trip(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = amp.cast %a : tensor<4xf32> to tensor<4xf16>
  %f = amp.cast %h : tensor<4xf16> to tensor<4xf32>
  %e = nn.exp %f : tensor<4xf32>
  %l = nn.reduce_sum %e [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d|a| = dy * sign(a): abs_grad reads the forward input.
// CHECK-LABEL: func.func @abs(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.abs_grad %[[DY]], %[[A]] : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @abs(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.abs %a : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// d a^3 = dy * 3 a^2: pow_grad reads the forward input and the exponent.
// CHECK-LABEL: func.func @pow(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.pow_grad %[[DY]], %[[A]] {exponent = 3.000000e+00 : f32} : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @pow(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.pow %a {exponent = 3.000000e+00 : f32} : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// dy passes where min <= a <= max: clamp_grad reads the forward input and
// takes both bounds.
// CHECK-LABEL: func.func @clamp(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DA:.*]] = nn.clamp_grad %[[DY]], %[[A]] {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
func.func @clamp(%a: tensor<4xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.clamp %a {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// One bound: the missing one stays missing (unbounded), min only then max
// only.
// CHECK-LABEL: func.func @clamp_one_bound(
// CHECK-SAME: %[[A:[a-z0-9]+]]: tensor<4xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<4xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to
// CHECK-NEXT: %[[DB:.*]] = nn.clamp_grad %[[DY]], %[[B]] {max = 1.000000e+00 : f32} : tensor<4xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.clamp_grad %[[DY]], %[[A]] {min = -1.000000e+00 : f32} : tensor<4xf32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @clamp_one_bound(%a: tensor<4xf32> {nn.role = #nn.role<param>}, %b: tensor<4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %ya = nn.clamp %a {min = -1.000000e+00 : f32} : tensor<4xf32>
  %yb = nn.clamp %b {max = 1.000000e+00 : f32} : tensor<4xf32>
  %y = nn.add %ya, %yb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_sum %y [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// where_grad splits dy by the condition: cond ? dy : 0 to lhs, cond ? 0 : dy
// to rhs. The i1 cond gets no gradient; the broadcast rhs's is summed over
// axis 0. The whole backward pass is checked.
// CHECK-LABEL: func.func @where(
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<2x3xi1> {{.*}}, %[[A:[a-z0-9]+]]: tensor<2x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<3xf32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[DA:[a-z0-9_]+]], %[[GB:[a-z0-9_]+]] = nn.where_grad %[[DY]], %[[C]] : (tensor<2x3xf32>, tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[DB:.*]] = nn.reduce_sum %[[GB]] [0] : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[NA:.*]] = nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: %[[NB:.*]] = nn.sgd_update %[[B]], %[[DB]] {
// CHECK-NEXT: return %[[NA]], %[[NB]], %{{.*}} : tensor<2x3xf32>, tensor<3xf32>, tensor<f32>
func.func @where(%c: tensor<2x3xi1> {nn.role = #nn.role<input>}, %a: tensor<2x3xf32> {nn.role = #nn.role<param>},
                 %b: tensor<3xf32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.where %c, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A broadcast cond and two broadcast branches: the 2x1 lhs's gradient is
// summed over axis 1 and reshaped, the 0-d rhs's summed over every axis.
// CHECK-LABEL: func.func @where_broadcast(
// CHECK-SAME: %[[C:[a-z0-9]+]]: tensor<3xi1> {{.*}}, %[[A:[a-z0-9]+]]: tensor<2x1xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<f32>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %[[GA:[a-z0-9_]+]], %[[GB:[a-z0-9_]+]] = nn.where_grad %[[DY]], %[[C]] : (tensor<2x3xf32>, tensor<3xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: %[[SA:.*]] = nn.reduce_sum %[[GA]] [1] : (tensor<2x3xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[DA:.*]] = nn.reshape %[[SA]] : tensor<2xf32> -> tensor<2x1xf32>
// CHECK-NEXT: %[[DB:.*]] = nn.reduce_sum %[[GB]] [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
// CHECK-NEXT: nn.sgd_update %[[A]], %[[DA]] {
// CHECK-NEXT: nn.sgd_update %[[B]], %[[DB]] {
func.func @where_broadcast(%c: tensor<3xi1> {nn.role = #nn.role<input>}, %a: tensor<2x1xf32> {nn.role = #nn.role<param>},
                           %b: tensor<f32> {nn.role = #nn.role<param>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.where %c, %a, %b : (tensor<3xi1>, tensor<2x1xf32>, tensor<f32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// l = mean((p - t)^2): the seed is the loss gradient of mse_loss_grad,
// dp = 2 (p - t) / n * dl, and dt = -dp for a target that depends on a param.
// CHECK-LABEL: func.func @mse_loss(
// CHECK-SAME: %[[P:[a-z0-9]+]]: tensor<4x2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK-NEXT: %[[L:.*]] = nn.mse_loss %[[P]], %[[T]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]] : tensor<f32>
// CHECK-NEXT: %[[DP:.*]] = nn.mse_loss_grad %[[SEED]], %[[P]], %[[T]] : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[DT:.*]] = nn.neg %[[DP]] : tensor<4x2xf32>
// CHECK-NEXT: nn.sgd_update %[[P]], %[[DP]] {
// CHECK-NEXT: nn.sgd_update %[[T]], %[[DT]] {
func.func @mse_loss(%p: tensor<4x2xf32> {nn.role = #nn.role<param>}, %t: tensor<4x2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.mse_loss %p, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A target that is an input gets nothing (no nn.neg): only the prediction's
// gradient flows, into the weight. The whole backward pass is checked.
// CHECK-LABEL: func.func @mse_loss_input_target(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x3xf32> {{.*}}, %[[W:[a-z0-9]+]]: tensor<3x2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK-NEXT: %[[P:.*]] = nn.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[L:.*]] = nn.mse_loss %[[P]], %[[T]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT: %[[DP:.*]] = nn.mse_loss_grad %[[SEED]], %[[P]], %[[T]] : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.matmul %[[X]], %[[DP]] {transpose_a} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: return %[[NW]], %[[L]] : tensor<3x2xf32>, tensor<f32>
func.func @mse_loss_input_target(%x: tensor<4x3xf32> {nn.role = #nn.role<input>}, %w: tensor<3x2xf32> {nn.role = #nn.role<param>},
                                 %t: tensor<4x2xf32> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %p = nn.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %l = nn.mse_loss %p, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// L1 and Huber differentiate as MSE does: the gradient op (Huber's keeps its
// delta) and its negation for the target.
// CHECK-LABEL: func.func @l1_and_huber_losses(
// CHECK-SAME: %[[P:[a-z0-9]+]]: tensor<4x2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK-NEXT: %[[L1:.*]] = nn.l1_loss %[[P]], %[[T]]
// CHECK-NEXT: %[[H:.*]] = nn.huber_loss %[[P]], %[[T]] {delta = 2.500000e-01 : f32}
// CHECK-NEXT: %[[L:.*]] = nn.add %[[L1]], %[[H]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]] : tensor<f32>
// CHECK-NEXT: %[[DPH:.*]] = nn.huber_loss_grad %[[SEED]], %[[P]], %[[T]] {delta = 2.500000e-01 : f32} : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[DTH:.*]] = nn.neg %[[DPH]] : tensor<4x2xf32>
// CHECK-NEXT: %[[DP1:.*]] = nn.l1_loss_grad %[[SEED]], %[[P]], %[[T]] : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[DT1:.*]] = nn.neg %[[DP1]] : tensor<4x2xf32>
// CHECK-NEXT: %[[DP:.*]] = nn.add %[[DPH]], %[[DP1]]
// CHECK-NEXT: %[[DT:.*]] = nn.add %[[DTH]], %[[DT1]]
// CHECK-NEXT: nn.sgd_update %[[P]], %[[DP]] {
// CHECK-NEXT: nn.sgd_update %[[T]], %[[DT]] {
func.func @l1_and_huber_losses(%p: tensor<4x2xf32> {nn.role = #nn.role<param>}, %t: tensor<4x2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l1 = nn.l1_loss %p, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  %h = nn.huber_loss %p, %t {delta = 0.25 : f32} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  %l = nn.add %l1, %h : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// BCE with logits: dx from its gradient op; the target's is -x dl / n
// (n = 8), as PyTorch's.
// CHECK-LABEL: func.func @bce_with_logits_loss(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK-NEXT: %[[L:.*]] = nn.bce_with_logits_loss %[[X]], %[[T]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]] : tensor<f32>
// CHECK-NEXT: %[[DX:.*]] = nn.bce_with_logits_loss_grad %[[SEED]], %[[X]], %[[T]] : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[NEG:.*]] = nn.neg %[[X]] : tensor<4x2xf32>
// CHECK-NEXT: %[[M:.*]] = nn.mul %[[NEG]], %[[SEED]] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[N:.*]] = arith.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[DT:.*]] = nn.div %[[M]], %[[N]] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: nn.sgd_update %[[T]], %[[DT]] {
func.func @bce_with_logits_loss(%x: tensor<4x2xf32> {nn.role = #nn.role<param>}, %t: tensor<4x2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.bce_with_logits_loss %x, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Summed (reduction sum): the gradient ops keep the reduction, and BCE's
// target gradient is -x dl, undivided.
// CHECK-LABEL: func.func @summed_losses(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK: %[[SEED:.*]] = nn.grad_seed
// CHECK-NEXT: %[[DB:.*]] = nn.bce_with_logits_loss_grad %[[SEED]], %[[X]], %[[T]] reduction sum :
// CHECK-NEXT: %[[NEG:.*]] = nn.neg %[[X]] : tensor<4x2xf32>
// CHECK-NEXT: %[[DTB:.*]] = nn.mul %[[NEG]], %[[SEED]] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[DM:.*]] = nn.mse_loss_grad %[[SEED]], %[[X]], %[[T]] reduction sum :
// CHECK-NEXT: %[[DTM:.*]] = nn.neg %[[DM]]
// CHECK-NEXT: %[[DX:.*]] = nn.add %[[DB]], %[[DM]]
// CHECK-NEXT: %[[DT:.*]] = nn.add %[[DTB]], %[[DTM]]
// CHECK-NEXT: nn.sgd_update %[[X]], %[[DX]] {
// CHECK-NEXT: nn.sgd_update %[[T]], %[[DT]] {
func.func @summed_losses(%x: tensor<4x2xf32> {nn.role = #nn.role<param>}, %t: tensor<4x2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.mse_loss %x, %t reduction sum : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  %b = nn.bce_with_logits_loss %x, %t reduction sum : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  %l = nn.add %m, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

//===----------------------------------------------------------------------===//
// keep-forward with nn.mse_loss
//===----------------------------------------------------------------------===//

// -----

// The training step: dp from mse_loss_grad, the bias's summed over the
// batch, the weight's X^T dp; the label target gets none.
// CHECK-LABEL: func.func @regression(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<3x2xf32> {{.*}}, %[[X:[a-z0-9]+]]: tensor<4x3xf32> {{.*}}, %[[B:[a-z0-9]+]]: tensor<2xf32> {{.*}}, %[[T:[a-z0-9]+]]: tensor<4x2xf32> {nn.role = #nn.role<label>})
// CHECK-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[P:.*]] = nn.add %[[H]], %[[B]]
// CHECK-NEXT: %[[L:.*]] = nn.mse_loss %[[P]], %[[T]]
// CHECK-NEXT: %[[SEED:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT: %[[DP:.*]] = nn.mse_loss_grad %[[SEED]], %[[P]], %[[T]]
// CHECK-NEXT: %[[DB:.*]] = nn.reduce_sum %[[DP]] [0] : (tensor<4x2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[DW:.*]] = nn.matmul %[[X]], %[[DP]] {transpose_a}
// CHECK-NEXT: %[[NW:.*]] = nn.sgd_update %[[W]], %[[DW]] {
// CHECK-NEXT: %[[NB:.*]] = nn.sgd_update %[[B]], %[[DB]] {
// CHECK-NEXT: return %[[NW]], %[[NB]], %[[L]] : tensor<3x2xf32>, tensor<2xf32>, tensor<f32>

// keep-forward: @regression_forward takes the params and inputs (not the
// label target) and returns the predictions, mse_loss's first operand.
// FORWARD-MSE-LABEL: func.func @regression(
// FORWARD-MSE: nn.mse_loss_grad
// FORWARD-MSE: nn.sgd_update
// FORWARD-MSE-LABEL: func.func @regression_forward(
// FORWARD-MSE-SAME: %[[W:[a-z0-9]+]]: tensor<3x2xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<4x3xf32> {nn.role = #nn.role<input>}, %[[B:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<param>}) -> tensor<4x2xf32> {
// FORWARD-MSE-NEXT: %[[H:.*]] = nn.matmul %[[X]], %[[W]]
// FORWARD-MSE-NEXT: %[[P:.*]] = nn.add %[[H]], %[[B]]
// FORWARD-MSE-NEXT: return %[[P]] : tensor<4x2xf32>
// FORWARD-MSE-NEXT: }
func.func @regression(%w: tensor<3x2xf32> {nn.role = #nn.role<param>}, %x: tensor<4x3xf32> {nn.role = #nn.role<input>},
                      %b: tensor<2xf32> {nn.role = #nn.role<param>}, %t: tensor<4x2xf32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %p = nn.add %h, %b : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = nn.mse_loss %p, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Derivatives flow through float values only: the mask p > 0 (nn.compare,
// then nn.convert to f32) and the padding mask of the ids are constants, so
// d(p * (p > 0)) is dy * (p > 0) and neither compare nor convert needs a
// derivative rule; the i1 reshapes of the mask get no gradient either.
// CHECK-LABEL: func.func @masks_carry_no_derivative(
// CHECK-SAME: %[[P:[a-z0-9]+]]: tensor<2x3xf32>
// CHECK: %[[POS:.*]] = nn.compare gt, %[[P]],
// CHECK-NEXT: %[[POSF:.*]] = nn.convert %[[POS]] : tensor<2x3xi1> to tensor<2x3xf32>
// CHECK: %[[MASK:.*]] = nn.reshape %{{.*}} : tensor<6xi1> -> tensor<2x3xi1>
// CHECK: %[[DY:.*]] = nn.broadcast_to {{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: %{{.*}}, %[[DRELU:[a-z0-9_]+]] = nn.where_grad %[[DY]], %[[MASK]]
// CHECK-NEXT: %[[DP:.*]] = nn.mul %[[DRELU]], %[[POSF]]
// CHECK-NEXT: nn.sgd_update %[[P]], %[[DP]] {
func.func @masks_carry_no_derivative(%p: tensor<2x3xf32> {nn.role = #nn.role<param>}, %ids: tensor<2x3xi64> {nn.role = #nn.role<input>}) -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %pos = nn.compare gt, %p, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %posf = nn.convert %pos : tensor<2x3xi1> to tensor<2x3xf32>
  %zi = arith.constant dense<0> : tensor<i64>
  %pad = nn.compare eq, %ids, %zi : (tensor<2x3xi64>, tensor<i64>) -> tensor<2x3xi1>
  %flat = nn.reshape %pad : tensor<2x3xi1> -> tensor<6xi1>
  %mask = nn.reshape %flat : tensor<6xi1> -> tensor<2x3xi1>
  %relu = nn.mul %p, %posf : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = nn.where %mask, %zero, %relu : (tensor<2x3xi1>, tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
