// Gradient checks of nn.embedding (through nn.embedding_grad) with i32 and
// i64 ids, of nn.embedding_grad itself (a scatter-add in a forward model,
// through nn.embedding), and of nn.cross_entropy (through nn.cross_entropy_grad) on
// rank-2 and rank-3 logits. The checker draws ids uniformly from the
// table's rows and labels from the logits' classes.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9); the embedding
// loss is linear in the table; measured max abs error ~1e-11.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// 8 ids into 6 rows: repeated ids accumulate in nn.embedding_grad.
// CHECK-LABEL: @embedding: loss {{.*}}: ok
// CHECK-NEXT:    %table [6x3]: 18 of 18 elements, {{.*}}: ok
func.func @embedding(%table: tensor<6x3xf32> {nn.role = #nn.role<param>},
                     %ids: tensor<2x4xi32> {nn.role = #nn.role<input>},
                     %w: tensor<2x4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.embedding %table, %ids : (tensor<6x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  %yw = nn.mul %y, %w : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @embedding_i64: loss {{.*}}: ok
// CHECK-NEXT:    %table [4x2]: 8 of 8 elements, {{.*}}: ok
func.func @embedding_i64(%table: tensor<4x2xf32> {nn.role = #nn.role<param>},
                         %ids: tensor<5xi64> {nn.role = #nn.role<input>},
                         %w: tensor<5x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.embedding %table, %ids : (tensor<4x2xf32>, tensor<5xi64>) -> tensor<5x2xf32>
  %yw = nn.mul %y, %w : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<5x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// The loss itself: mean over the rows of -log_softmax(logits)[label].
// CHECK-LABEL: @cross_entropy: loss {{.*}}: ok
// CHECK-NEXT:    %logits [4x5]: 20 of 20 elements, {{.*}}: ok
func.func @cross_entropy(%logits: tensor<4x5xf32> {nn.role = #nn.role<param>},
                         %labels: tensor<4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels : (tensor<4x5xf32>, tensor<4xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Rows are all leading dims (2 x 3 = 6 rows).
// CHECK-LABEL: @cross_entropy_rank3: loss {{.*}}: ok
// CHECK-NEXT:    %logits [2x3x5]: 30 of 30 elements, {{.*}}: ok
func.func @cross_entropy_rank3(%logits: tensor<2x3x5xf32> {nn.role = #nn.role<param>},
                               %labels: tensor<2x3xi64> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels : (tensor<2x3x5xf32>, tensor<2x3xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// Labels equal to the ignore_index (here 1, also a class, so that about a
// third of the drawn labels hit it) are left out of the mean and get no
// gradient.
// CHECK-LABEL: @cross_entropy_ignore_index: loss {{.*}}: ok
// CHECK-NEXT:    %logits [3x4x3]: {{[0-9]+}} of 36 elements, {{.*}}: ok
func.func @cross_entropy_ignore_index(%logits: tensor<3x4x3xf32> {nn.role = #nn.role<param>},
                                      %labels: tensor<3x4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels {ignore_index = 1 : i64} : (tensor<3x4x3xf32>, tensor<3x4xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Label smoothing 0.3, with an ignore_index (1): every class of a kept
// row gets a gradient, an ignored row none.
// CHECK-LABEL: @cross_entropy_label_smoothing: loss {{.*}}: ok
// CHECK-NEXT:    %logits [4x2x3]: {{[0-9]+}} of 24 elements, {{.*}}: ok
func.func @cross_entropy_label_smoothing(%logits: tensor<4x2x3xf32> {nn.role = #nn.role<param>},
                                         %labels: tensor<4x2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %l = nn.cross_entropy %logits, %labels {ignore_index = 1 : i64, label_smoothing = 0.3 : f32} : (tensor<4x2x3xf32>, tensor<4x2xi32>) -> tensor<f32>
  return %l : tensor<f32>
}

// nn.embedding_grad in a forward model (ONNX's ScatterElements at run-time
// indices): the updates scatter-added into a 5x2 table, repeated ids
// adding, squared so that the gradient depends on the sums; its rule
// gathers the table's gradient back at the ids.
// CHECK-LABEL: @scatter_add: loss {{.*}}: ok
// CHECK-NEXT:    %u [2x3x2]: 12 of 12 elements, {{.*}}: ok
func.func @scatter_add(%u: tensor<2x3x2xf32> {nn.role = #nn.role<param>},
                       %ids: tensor<2x3xi64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 5.0]})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %t = nn.embedding_grad %u, %ids : (tensor<2x3x2xf32>, tensor<2x3xi64>) -> tensor<5x2xf32>
  %sq = nn.mul %t, %t : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
  %l = nn.reduce_sum %sq [0, 1] : (tensor<5x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// padding_idx = 1 (PyTorch's nn.Embedding(padding_idx=1)): the positions
// whose id is 1 read row 1 but give it no gradient. The finite differences
// hold those positions' rows fixed, so the check fails if the rule lets
// them through (checked by dropping padding_idx from the rule). The table
// is computed (t * t) and also used outside the lookup, whose gradient row
// 1 still gets; 10 ids drawn from 3 rows.
// CHECK-LABEL: @embedding_padding: loss {{.*}}: ok
// CHECK-NEXT:    %t [3x2]: 6 of 6 elements, {{.*}}: ok
func.func @embedding_padding(%t: tensor<3x2xf32> {nn.role = #nn.role<param>},
                             %ids: tensor<10xi64> {nn.role = #nn.role<input>},
                             %w: tensor<10x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %sq = nn.mul %t, %t : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = nn.embedding %sq, %ids {padding_idx = 1 : i64} : (tensor<3x2xf32>, tensor<10xi64>) -> tensor<10x2xf32>
  %yw = nn.mul %y, %w : (tensor<10x2xf32>, tensor<10x2xf32>) -> tensor<10x2xf32>
  %a = nn.reduce_sum %yw [0, 1] : (tensor<10x2xf32>) -> tensor<f32>
  %b = nn.reduce_sum %t [0, 1] : (tensor<3x2xf32>) -> tensor<f32>
  %l = nn.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}

// nn.embedding_grad with padding_idx = 2 in a forward model: the updates at
// id 2 add nothing, so their gradient is zero, which its rule gives by a
// select on ids == 2 after the gather. The loss, sum((t + w)^2), has a
// nonzero gradient at row 2, so the check fails without the select
// (checked).
// CHECK-LABEL: @scatter_add_padding: loss {{.*}}: ok
// CHECK-NEXT:    %u [8x2]: 16 of 16 elements, {{.*}}: ok
func.func @scatter_add_padding(%u: tensor<8x2xf32> {nn.role = #nn.role<param>},
                               %ids: tensor<8xi32> {nn.role = #nn.role<input>, nn.check_range = [0.0, 4.0]},
                               %w: tensor<4x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding_grad %u, %ids {padding_idx = 2 : i64} : (tensor<8x2xf32>, tensor<8xi32>) -> tensor<4x2xf32>
  %t = nn.add %e, %w : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %sq = nn.mul %t, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %l = nn.reduce_sum %sq [0, 1] : (tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// scale_grad_by_freq (with padding_idx = 0): each position's gradient is
// divided by its id's count among the 10 ids. The finite differences scale
// each position's change in the lookup so; the check fails when the rule
// drops the scaling (checked).
// CHECK-LABEL: @embedding_scaled: loss {{.*}}: ok
// CHECK-NEXT:    %t [4x2]: 8 of 8 elements, {{.*}}: ok
func.func @embedding_scaled(%t: tensor<4x2xf32> {nn.role = #nn.role<param>},
                            %ids: tensor<10xi32> {nn.role = #nn.role<input>},
                            %w: tensor<10x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %sq = nn.mul %t, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = nn.embedding %sq, %ids {padding_idx = 0 : i64, scale_grad_by_freq} : (tensor<4x2xf32>, tensor<10xi32>) -> tensor<10x2xf32>
  %yw = nn.mul %y, %w : (tensor<10x2xf32>, tensor<10x2xf32>) -> tensor<10x2xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<10x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// nn.embedding_grad with scale_grad_by_freq in a forward model: each
// update is divided by its id's count, so is its gradient (the table's
// gradient divided by the rows' counts, gathered).
// CHECK-LABEL: @scatter_add_scaled: loss {{.*}}: ok
// CHECK-NEXT:    %u [8x2]: 16 of 16 elements, {{.*}}: ok
func.func @scatter_add_scaled(%u: tensor<8x2xf32> {nn.role = #nn.role<param>},
                              %ids: tensor<8xi64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 3.0]},
                              %w: tensor<3x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.embedding_grad %u, %ids {scale_grad_by_freq} : (tensor<8x2xf32>, tensor<8xi64>) -> tensor<3x2xf32>
  %t = nn.add %e, %w : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %sq = nn.mul %t, %t : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %l = nn.reduce_sum %sq [0, 1] : (tensor<3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 11 functions, 11 params, {{[0-9]+}} elements ({{.*}}): all passed
