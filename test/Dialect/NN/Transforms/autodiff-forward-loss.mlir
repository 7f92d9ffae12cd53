// RUN: amp-opt %s -split-input-file --nn-autodiff="keep-forward=true" | FileCheck %s

// keep-forward when the loss has no predictions to return: a loss written
// out of other ops (a model exported with its loss, amp-import-onnx --loss
// graph), several losses, or one loss op that does not read a label
// argument itself. @<name>_forward then returns the loss, computed in
// inference mode, and takes the label.

// A mean squared error written out: the forward computes it from the
// params, the input and the label.
// CHECK-LABEL: func.func @written_out(
// CHECK: nn.sgd_update
// CHECK-LABEL: func.func @written_out_forward(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<param>}, %[[X:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<input>}, %[[T:[a-z0-9]+]]: tensor<4xf32> {nn.role = #nn.role<label>}) -> tensor<f32> {
// CHECK-NEXT: %[[P:.*]] = nn.mul %[[W]], %[[X]]
// CHECK-NEXT: %[[D:.*]] = nn.sub %[[P]], %[[T]]
// CHECK-NEXT: %[[SQ:.*]] = nn.mul %[[D]], %[[D]]
// CHECK-NEXT: %[[L:.*]] = nn.reduce_mean %[[SQ]] [0]
// CHECK-NEXT: return %[[L]] : tensor<f32>
// CHECK-NEXT: }
func.func @written_out(%w: tensor<4xf32> {nn.role = #nn.role<param>}, %x: tensor<4xf32> {nn.role = #nn.role<input>},
                       %t: tensor<4xf32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %p = nn.mul %w, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = nn.sub %p, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sq = nn.mul %d, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = nn.reduce_mean %sq [0] : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Two cross-entropies (of two heads): the sum of both.
// CHECK-LABEL: func.func @two_heads_forward(
// CHECK-SAME: %[[LAB:[a-z0-9]+]]: tensor<2xi32> {nn.role = #nn.role<label>}) -> tensor<f32> {
// CHECK: %[[A:.*]] = nn.cross_entropy %{{.*}}, %[[LAB]]
// CHECK: %[[B:.*]] = nn.cross_entropy %{{.*}}, %[[LAB]]
// CHECK-NEXT: %[[L:.*]] = nn.add %[[A]], %[[B]]
// CHECK-NEXT: return %[[L]] : tensor<f32>
func.func @two_heads(%w: tensor<4x3xf32> {nn.role = #nn.role<param>}, %v: tensor<4x3xf32> {nn.role = #nn.role<param>},
                     %x: tensor<2x4xf32> {nn.role = #nn.role<input>}, %lab: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %z = nn.matmul %x, %v : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a = nn.cross_entropy %y, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  %b = nn.cross_entropy %z, %lab : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  %l = nn.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// One mse_loss whose targets are computed from the label (here, scaled):
// the runner could not score its predictions against the label's values,
// so the forward returns the loss.
// CHECK-LABEL: func.func @scaled_targets_forward(
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<4x2xf32> {nn.role = #nn.role<label>}) -> tensor<f32> {
// CHECK: %[[S:.*]] = nn.mul %[[T]],
// CHECK-NEXT: %[[L:.*]] = nn.mse_loss %{{.*}}, %[[S]]
// CHECK-NEXT: return %[[L]] : tensor<f32>
func.func @scaled_targets(%w: tensor<3x2xf32> {nn.role = #nn.role<param>}, %x: tensor<4x3xf32> {nn.role = #nn.role<input>},
                          %t: tensor<4x2xf32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %c = arith.constant dense<0.5> : tensor<f32>
  %s = nn.mul %t, %c : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  %l = nn.mse_loss %h, %s : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A written-out loss after a batch norm that trains: the forward
// normalizes with the running statistics and has no dropout.
// CHECK-LABEL: func.func @normed_forward(
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x2xf32> {nn.role = #nn.role<input>}, %[[G:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<param>}, %[[B:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<param>}, %[[M:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<buffer>}, %[[V:[a-z0-9]+]]: tensor<2xf32> {nn.role = #nn.role<buffer>}, %[[T:[a-z0-9]+]]: tensor<4x2xf32> {nn.role = #nn.role<label>}) -> tensor<f32> {
// CHECK-NOT: nn.batch_norm
// CHECK-NOT: nn.dropout
// CHECK: nn.rsqrt
// CHECK-NOT: nn.batch_norm
// CHECK-NOT: nn.dropout
// CHECK: return %{{.*}} : tensor<f32>
func.func @normed(%x: tensor<4x2xf32> {nn.role = #nn.role<input>}, %g: tensor<2xf32> {nn.role = #nn.role<param>},
                  %b: tensor<2xf32> {nn.role = #nn.role<param>}, %rm: tensor<2xf32> {nn.role = #nn.role<buffer>},
                  %rv: tensor<2xf32> {nn.role = #nn.role<buffer>}, %t: tensor<4x2xf32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}, tensor<2xf32> {nn.role = #nn.role<buffer>}, tensor<2xf32> {nn.role = #nn.role<buffer>}) {
  %y, %mean, %invstd = nn.batch_norm %x, %g, %b : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %nm, %nv = nn.running_stats_update %rm, %rv, %mean, %invstd {count = 4 : i64, momentum = 0.1 : f32} : tensor<2xf32>
  %seed = arith.constant dense<7> : tensor<i64>
  %dr = nn.dropout %y, %seed {rate = 0.5 : f32, training} : tensor<4x2xf32>
  %d = nn.sub %dr, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %a = nn.abs %d : tensor<4x2xf32>
  %l = nn.reduce_sum %a [0, 1] : (tensor<4x2xf32>) -> tensor<f32>
  return %l, %nm, %nv : tensor<f32>, tensor<2xf32>, tensor<2xf32>
}
