// Gradient checks of small compositions: fan-out (gradients of several uses
// summed), broadcasting inside a layer, a residual add, a 2-layer MLP with
// cross_entropy, conv + batch_norm + relu + global average pooling, a
// layer_norm + softmax attention block with a residual, tied embedding
// weights, a param that does not reach the loss, a small CNN (max pooling,
// a residual conv block, global_avg_pool) and a regression head through
// dropout, slice, concat, clamp, where, pad and mse_loss, and a mixture of
// experts' top-2 router. Params with more
// than 32 elements are checked on a seeded sample of 32.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). The relu models
// (MLP, conv block) pass at the same tolerance because no seeded
// pre-activation lies within h of relu's kink; measured max abs error
// ~1e-10, except the conv block's batch-norm params (4.4e-9, 7e-9
// relative: the global average pool's reduce_mean rule multiplies by 1/36
// rounded to f32), which rtol covers. The CNN's relu and max pool kinks
// (a pre-activation within h of 0, two elements of a pool window within h
// of each other) and the clamp bounds are crossed by no seeded value;
// measured max abs error 1.6e-10 (cnn) and 3.2e-11 (select_regression)
// with every element checked at seeds 0-2.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// One value feeding three uses, two of them in the same op (h * h).
// CHECK-LABEL: @fan_out: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @fan_out(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                   %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.tanh %p : tensor<3x4xf32>
  %a = nn.exp %h : tensor<3x4xf32>
  %b = nn.mul %h, %h : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = nn.add %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A linear layer on a batch of sequences: a rank-2 weight against a rank-3
// activation, a [5] bias, then a [1, 5] row on the left of a [3, 5] add.
// CHECK-LABEL: @broadcast_layer: loss {{.*}}: ok
// CHECK-NEXT:    %W [4x5]: 20 of 20 elements, {{.*}}: ok
// CHECK-NEXT:    %b [5]: 5 of 5 elements, {{.*}}: ok
// CHECK-NEXT:    %r [1x5]: 5 of 5 elements, {{.*}}: ok
func.func @broadcast_layer(%W: tensor<4x5xf32> {nn.role = #nn.role<param>},
                           %b: tensor<5xf32> {nn.role = #nn.role<param>},
                           %r: tensor<1x5xf32> {nn.role = #nn.role<param>},
                           %x: tensor<2x3x4xf32> {nn.role = #nn.role<input>},
                           %w: tensor<2x3x5xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %xw = nn.matmul %x, %W : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %h = nn.add %xw, %b : (tensor<2x3x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  %t = nn.tanh %h : tensor<2x3x5xf32>
  %y = nn.add %r, %t : (tensor<1x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %s = nn.sigmoid %y : tensor<2x3x5xf32>
  %sw = nn.mul %s, %w : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %l = nn.reduce_sum %sw [0, 1, 2] : (tensor<2x3x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// y = x + gelu(x W1) W2: x is a param too, so its gradient is the sum of the
// skip path and the block's.
// CHECK-LABEL: @residual: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %W1 [4x6]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %W2 [6x4]: 24 of 24 elements, {{.*}}: ok
func.func @residual(%x: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %W1: tensor<4x6xf32> {nn.role = #nn.role<param>},
                    %W2: tensor<6x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %a = nn.matmul %x, %W1 : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<3x6xf32>
  %g = nn.gelu %a : tensor<3x6xf32>
  %f = nn.matmul %g, %W2 : (tensor<3x6xf32>, tensor<6x4xf32>) -> tensor<3x4xf32>
  %y = nn.add %x, %f : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mlp: loss {{.*}}: ok
// CHECK-NEXT:    %W1 [6x10]: 32 of 60 elements, {{.*}}: ok
// CHECK-NEXT:    %b1 [10]: 10 of 10 elements, {{.*}}: ok
// CHECK-NEXT:    %W2 [10x4]: 32 of 40 elements, {{.*}}: ok
// CHECK-NEXT:    %b2 [4]: 4 of 4 elements, {{.*}}: ok
func.func @mlp(%W1: tensor<6x10xf32> {nn.role = #nn.role<param>},
               %b1: tensor<10xf32> {nn.role = #nn.role<param>},
               %W2: tensor<10x4xf32> {nn.role = #nn.role<param>},
               %b2: tensor<4xf32> {nn.role = #nn.role<param>},
               %x: tensor<8x6xf32> {nn.role = #nn.role<input>},
               %labels: tensor<8xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %xw1 = nn.matmul %x, %W1 : (tensor<8x6xf32>, tensor<6x10xf32>) -> tensor<8x10xf32>
  %h = nn.add %xw1, %b1 : (tensor<8x10xf32>, tensor<10xf32>) -> tensor<8x10xf32>
  %a = nn.relu %h : tensor<8x10xf32>
  %aw2 = nn.matmul %a, %W2 : (tensor<8x10xf32>, tensor<10x4xf32>) -> tensor<8x4xf32>
  %logits = nn.add %aw2, %b2 : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<8x4xf32>, tensor<8xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// conv (+ a [C, 1, 1] bias) -> batch_norm -> relu -> global average pool ->
// linear -> cross_entropy.
// CHECK-LABEL: @conv_block: loss {{.*}}: ok
// CHECK-NEXT:    %f [4x3x3x3]: 32 of 108 elements, {{.*}}: ok
// CHECK-NEXT:    %fb [4x1x1]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %gamma [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %beta [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %fc [4x3]: 12 of 12 elements, {{.*}}: ok
func.func @conv_block(%f: tensor<4x3x3x3xf32> {nn.role = #nn.role<param>},
                      %fb: tensor<4x1x1xf32> {nn.role = #nn.role<param>},
                      %gamma: tensor<4xf32> {nn.role = #nn.role<param>},
                      %beta: tensor<4xf32> {nn.role = #nn.role<param>},
                      %fc: tensor<4x3xf32> {nn.role = #nn.role<param>},
                      %x: tensor<2x3x6x6xf32> {nn.role = #nn.role<input>},
                      %labels: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %c = nn.conv2d %x, %f {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  %cb = nn.add %c, %fb : (tensor<2x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<2x4x6x6xf32>
  %n, %mean, %invstd = nn.batch_norm %cb, %gamma, %beta : (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = nn.relu %n : tensor<2x4x6x6xf32>
  %pool = nn.reduce_mean %r [2, 3] : (tensor<2x4x6x6xf32>) -> tensor<2x4xf32>
  %logits = nn.matmul %pool, %fc : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// Single-head self-attention on [batch 2, seq 4, d 8]: layer_norm, q/k/v
// projections, softmax(q k^T / sqrt(d)) v (batched matmuls with
// transpose_b), the output projection and a residual.
// CHECK-LABEL: @attention: loss {{.*}}: ok
// CHECK-NEXT:    %gamma [8]: 8 of 8 elements, {{.*}}: ok
// CHECK-NEXT:    %beta [8]: 8 of 8 elements, {{.*}}: ok
// CHECK-NEXT:    %Wq [8x8]: 32 of 64 elements, {{.*}}: ok
// CHECK-NEXT:    %Wk [8x8]: 32 of 64 elements, {{.*}}: ok
// CHECK-NEXT:    %Wv [8x8]: 32 of 64 elements, {{.*}}: ok
// CHECK-NEXT:    %Wo [8x8]: 32 of 64 elements, {{.*}}: ok
func.func @attention(%gamma: tensor<8xf32> {nn.role = #nn.role<param>},
                     %beta: tensor<8xf32> {nn.role = #nn.role<param>},
                     %Wq: tensor<8x8xf32> {nn.role = #nn.role<param>},
                     %Wk: tensor<8x8xf32> {nn.role = #nn.role<param>},
                     %Wv: tensor<8x8xf32> {nn.role = #nn.role<param>},
                     %Wo: tensor<8x8xf32> {nn.role = #nn.role<param>},
                     %x: tensor<2x4x8xf32> {nn.role = #nn.role<input>},
                     %w: tensor<2x4x8xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h, %mean, %rstd = nn.layer_norm %x, %gamma, %beta : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  %q = nn.matmul %h, %Wq : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %k = nn.matmul %h, %Wk : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %v = nn.matmul %h, %Wv : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %qk = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %scale = arith.constant dense<0.353553385> : tensor<f32>
  %scores = nn.mul %qk, %scale : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %p = nn.softmax %scores : tensor<2x4x4xf32>
  %ctx = nn.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = nn.matmul %ctx, %Wo : (tensor<2x4x8xf32>, tensor<8x8xf32>) -> tensor<2x4x8xf32>
  %y = nn.add %x, %o : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %yw = nn.mul %y, %w : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %l = nn.reduce_sum %yw [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Tied weights: one table as the embedding and, transposed, as the output
// layer; its gradient sums nn.embedding_grad and a matmul gradient.
// CHECK-LABEL: @tied_embedding: loss {{.*}}: ok
// CHECK-NEXT:    %E [6x4]: 24 of 24 elements, {{.*}}: ok
func.func @tied_embedding(%E: tensor<6x4xf32> {nn.role = #nn.role<param>},
                          %ids: tensor<2x3xi32> {nn.role = #nn.role<input>},
                          %labels: tensor<2x3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.embedding %E, %ids : (tensor<6x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %t = nn.tanh %h : tensor<2x3x4xf32>
  %logits = nn.matmul %t, %E {transpose_b} : (tensor<2x3x4xf32>, tensor<6x4xf32>) -> tensor<2x3x6xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<2x3x6xf32>, tensor<2x3xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// A param that does not reach the loss gets a zero gradient (and a remark
// on stderr); the finite difference is exactly zero too.
// CHECK-LABEL: @unused_param: loss {{.*}}: ok
// CHECK-NEXT:    %p [3]: 3 of 3 elements, {{.*}}: ok
// CHECK-NEXT:    %q [2]: 2 of 2 elements, max abs error 0.00e+00, max rel error 0.00e+00: ok
func.func @unused_param(%p: tensor<3xf32> {nn.role = #nn.role<param>},
                        %q: tensor<2xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %e = nn.exp %p : tensor<3xf32>
  %l = nn.reduce_sum %e [0] : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A small CNN: conv -> batch_norm -> relu -> 2x2 max pool, a residual 3x3
// conv block around the pooled map, global average pooling and a linear
// head into cross_entropy.
// CHECK-LABEL: @cnn: loss {{.*}}: ok
// CHECK-NEXT:    %f1 [4x3x3x3]: 32 of 108 elements, {{.*}}: ok
// CHECK-NEXT:    %gamma [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %beta [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %f2 [4x4x3x3]: 32 of 144 elements, {{.*}}: ok
// CHECK-NEXT:    %fc [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %fb [3]: 3 of 3 elements, {{.*}}: ok
func.func @cnn(%f1: tensor<4x3x3x3xf32> {nn.role = #nn.role<param>},
               %gamma: tensor<4xf32> {nn.role = #nn.role<param>},
               %beta: tensor<4xf32> {nn.role = #nn.role<param>},
               %f2: tensor<4x4x3x3xf32> {nn.role = #nn.role<param>},
               %fc: tensor<4x3xf32> {nn.role = #nn.role<param>},
               %fb: tensor<3xf32> {nn.role = #nn.role<param>},
               %x: tensor<2x3x6x6xf32> {nn.role = #nn.role<input>},
               %labels: tensor<2xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %c = nn.conv2d %x, %f1 {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  %n, %mean, %invstd = nn.batch_norm %c, %gamma, %beta : (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = nn.relu %n : tensor<2x4x6x6xf32>
  %p = nn.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x6x6xf32>) -> tensor<2x4x3x3xf32>
  %c2 = nn.conv2d %p, %f2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %t = nn.tanh %c2 : tensor<2x4x3x3xf32>
  %s = nn.add %p, %t : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %g = nn.global_avg_pool %s : (tensor<2x4x3x3xf32>) -> tensor<2x4x1x1xf32>
  %flat = nn.reshape %g : tensor<2x4x1x1xf32> -> tensor<2x4xf32>
  %h = nn.matmul %flat, %fc : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %logits = nn.add %h, %fb : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %loss = nn.cross_entropy %logits, %labels : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// A regression head through the window and selection ops: a tanh layer,
// training dropout, the first four columns next to the last four reversed
// (slice with strides -1, concat), a where between that and a clamped
// copy of the layer, zero padding on both sides, a linear layer and
// mse_loss against a target.
// CHECK-LABEL: @select_regression: loss {{.*}}: ok
// CHECK-NEXT:    %W1 [6x8]: 32 of 48 elements, {{.*}}: ok
// CHECK-NEXT:    %W2 [10x2]: 20 of 20 elements, {{.*}}: ok
func.func @select_regression(%W1: tensor<6x8xf32> {nn.role = #nn.role<param>},
                             %W2: tensor<10x2xf32> {nn.role = #nn.role<param>},
                             %x: tensor<4x6xf32> {nn.role = #nn.role<input>},
                             %seed: tensor<i64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 1000.0]},
                             %cond: tensor<4x8xi1> {nn.role = #nn.role<input>, nn.check_range = [0.0, 2.0]},
                             %target: tensor<4x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %a = nn.matmul %x, %W1 : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %b = nn.tanh %a : tensor<4x8xf32>
  %d = nn.dropout %b, %seed {rate = 0.25 : f32, training} : tensor<4x8xf32>
  %s1 = nn.slice %d {offsets = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %s2 = nn.slice %d {offsets = array<i64: 3, 7>, strides = array<i64: -1, -1>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %c = nn.concat %s1, %s2 {axis = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %k = nn.clamp %b {min = -0.5 : f32, max = 0.5 : f32} : tensor<4x8xf32>
  %w = nn.where %cond, %c, %k : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %pd = nn.pad %w {low = array<i64: 0, 1>, high = array<i64: 0, 1>} : tensor<4x8xf32> -> tensor<4x10xf32>
  %pred = nn.matmul %pd, %W2 : (tensor<4x10xf32>, tensor<10x2xf32>) -> tensor<4x2xf32>
  %loss = nn.mse_loss %pred, %target : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// A mixture of experts' router: the softmax of the scores, each row's two
// best experts picked by nn.topk (no derivative) and their probabilities
// gathered as the importer gathers TopK's values (an embedding of the
// probabilities as a one-column table), weighted by a random input. No
// seeded row has two probabilities within h of each other, so no pick
// changes under the finite differences.
// CHECK-LABEL: @topk_router: loss {{.*}}: ok
// CHECK-NEXT:    %Wr [6x4]: 24 of 24 elements, {{.*}}: ok
func.func @topk_router(%Wr: tensor<6x4xf32> {nn.role = #nn.role<param>},
                       %x: tensor<4x6xf32> {nn.role = #nn.role<input>},
                       %w: tensor<4x2x1xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.matmul %x, %Wr : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %i = nn.topk %p {axis = 1 : i64, k = 2 : i64} : (tensor<4x4xf32>) -> tensor<4x2xi64>
  %base = arith.constant dense<[[0, 0], [4, 4], [8, 8], [12, 12]]> : tensor<4x2xi64>
  %at = nn.add %i, %base : (tensor<4x2xi64>, tensor<4x2xi64>) -> tensor<4x2xi64>
  %t = nn.reshape %p : tensor<4x4xf32> -> tensor<16x1xf32>
  %v = nn.embedding %t, %at : (tensor<16x1xf32>, tensor<4x2xi64>) -> tensor<4x2x1xf32>
  %vw = nn.mul %v, %w : (tensor<4x2x1xf32>, tensor<4x2x1xf32>) -> tensor<4x2x1xf32>
  %l = nn.reduce_sum %vw [0, 1, 2] : (tensor<4x2x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 11 functions, 34 params, {{[0-9]+}} elements ({{.*}}): all passed
