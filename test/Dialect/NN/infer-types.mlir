// RUN: amp-opt %s -split-input-file -test-nn-infer-types -verify-diagnostics

// Result-type inference of the nn ops: -test-nn-infer-types re-infers the
// result types of every op from its operands and attributes alone and
// reports them as remarks. The last cases show that a written result type
// the inference does not allow is rejected by the verifier.

func.func @broadcast_binary(%a: tensor<2x4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>,
                            %d: tensor<1x8xf32>, %s: tensor<f32>, %h: tensor<3x1x5xf16>,
                            %g: tensor<4x1xf16>, %bf: tensor<7xbf16>) {
  // expected-remark @+1 {{inferred: 'tensor<2x4x8xf32>'}}
  %0 = nn.add %a, %b : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  // Rank-extending on the right-hand side.
  // expected-remark @+1 {{inferred: 'tensor<2x4x8xf32>'}}
  %1 = nn.sub %b, %a : (tensor<8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  // Both sides broadcast.
  // expected-remark @+1 {{inferred: 'tensor<4x8xf32>'}}
  %2 = nn.mul %c, %d : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  // A 0-d operand broadcasts to anything.
  // expected-remark @+1 {{inferred: 'tensor<4x1xf32>'}}
  %3 = nn.div %c, %s : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %4 = nn.add %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // Ranks 3 and 2 with ones on both sides.
  // expected-remark @+1 {{inferred: 'tensor<3x4x5xf16>'}}
  %5 = nn.mul %h, %g : (tensor<3x1x5xf16>, tensor<4x1xf16>) -> tensor<3x4x5xf16>
  // expected-remark @+1 {{inferred: 'tensor<7xbf16>'}}
  %6 = nn.sub %bf, %bf : (tensor<7xbf16>, tensor<7xbf16>) -> tensor<7xbf16>
  return
}

// -----

func.func @unary(%x: tensor<2x3xf16>, %y: tensor<5xbf16>) {
  // expected-remark @+1 {{inferred: 'tensor<2x3xf16>'}}
  %0 = nn.neg %x : tensor<2x3xf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3xf16>'}}
  %1 = nn.exp %x : tensor<2x3xf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3xf16>'}}
  %2 = nn.log %x : tensor<2x3xf16>
  // expected-remark @+1 {{inferred: 'tensor<5xbf16>'}}
  %3 = nn.sqrt %y : tensor<5xbf16>
  // expected-remark @+1 {{inferred: 'tensor<5xbf16>'}}
  %4 = nn.rsqrt %y : tensor<5xbf16>
  // expected-remark @+1 {{inferred: 'tensor<5xbf16>'}}
  %5 = nn.tanh %y : tensor<5xbf16>
  // expected-remark @+1 {{inferred: 'tensor<5xbf16>'}}
  %6 = nn.sigmoid %y : tensor<5xbf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3xf16>'}}
  %7 = nn.relu %x : tensor<2x3xf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3xf16>'}}
  %8 = nn.gelu %x : tensor<2x3xf16>
  return
}

// -----

func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %at: tensor<8x4xf32>,
                  %bt: tensor<16x8xf32>, %a3: tensor<3x4x8xf32>, %b3: tensor<3x8x16xf32>,
                  %a4: tensor<2x1x4x8xf16>, %b4: tensor<5x8x16xf16>) {
  // expected-remark @+1 {{inferred: 'tensor<4x16xf32>'}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{inferred: 'tensor<4x16xf32>'}}
  %1 = nn.matmul %at, %b {transpose_a} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{inferred: 'tensor<4x16xf32>'}}
  %2 = nn.matmul %a, %bt {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // expected-remark @+1 {{inferred: 'tensor<4x16xf32>'}}
  %3 = nn.matmul %at, %bt {transpose_a, transpose_b} : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // A^T A of a 4x8 matrix is 8x8.
  // expected-remark @+1 {{inferred: 'tensor<8x8xf32>'}}
  %4 = nn.matmul %a, %a {transpose_a} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  // expected-remark @+1 {{inferred: 'tensor<3x4x16xf32>'}}
  %5 = nn.matmul %a3, %b3 : (tensor<3x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  // A rank-2 weight multiplies every batch.
  // expected-remark @+1 {{inferred: 'tensor<3x4x16xf32>'}}
  %6 = nn.matmul %a3, %b : (tensor<3x4x8xf32>, tensor<8x16xf32>) -> tensor<3x4x16xf32>
  // expected-remark @+1 {{inferred: 'tensor<3x4x16xf32>'}}
  %7 = nn.matmul %a, %b3 : (tensor<4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  // Batch dimensions [2, 1] and [5] broadcast to [2, 5].
  // expected-remark @+1 {{inferred: 'tensor<2x5x4x16xf16>'}}
  %8 = nn.matmul %a4, %b4 : (tensor<2x1x4x8xf16>, tensor<5x8x16xf16>) -> tensor<2x5x4x16xf16>
  return
}

// -----

// The inferred type of an f16 matmul or reduction is f16; an f32 result
// (the f32 accumulator stored directly) is accepted as compatible.
func.func @accumulator_results(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x8xbf16>,
                               %x: tensor<2x3x8x8xf16>, %w: tensor<4x3x3x3xf16>) {
  // expected-remark @+1 {{inferred: 'tensor<4x16xf16>'}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
  // expected-remark @+1 {{inferred: 'tensor<8xf16>'}}
  %1 = nn.reduce_sum %a [0] : (tensor<4x8xf16>) -> tensor<8xf32>
  // expected-remark @+1 {{inferred: 'tensor<4x1xbf16>'}}
  %2 = nn.reduce_mean %c [1] keep_dims : (tensor<4x8xbf16>) -> tensor<4x1xf32>
  // expected-remark @+1 {{inferred: 'tensor<bf16>'}}
  %3 = nn.reduce_max %c [0, 1] : (tensor<4x8xbf16>) -> tensor<f32>
  // expected-remark @+1 {{inferred: 'tensor<2x4x6x6xf16>'}}
  %4 = nn.conv2d %x, %w : (tensor<2x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<2x4x6x6xf32>
  return
}

// -----

func.func @conv2d(%x: tensor<8x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %x2: tensor<1x3x10x12xf32>,
                  %w2: tensor<4x3x3x5xf32>, %xg: tensor<2x8x9x9xbf16>, %wg: tensor<16x2x3x3xbf16>) {
  // expected-remark @+1 {{inferred: 'tensor<8x16x30x30xf32>'}}
  %0 = nn.conv2d %x, %w : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
  // OH = (32 + 2 - 3) / 2 + 1 = 16 (floor).
  // expected-remark @+1 {{inferred: 'tensor<8x16x16x16xf32>'}}
  %1 = nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32>
  // OH = (10 + 0 + 1 - 3) / 2 + 1 = 5, OW = (12 + 1 + 2 - 5) / 3 + 1 = 4.
  // expected-remark @+1 {{inferred: 'tensor<1x4x5x4xf32>'}}
  %2 = nn.conv2d %x2, %w2 {strides = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 2>} : (tensor<1x3x10x12xf32>, tensor<4x3x3x5xf32>) -> tensor<1x4x5x4xf32>
  // The dilated 3x5 kernel spans 5x13: OH = 10 - 5 + 1 = 6 and, with the
  // width padded to 15, OW = 15 - 13 + 1 = 3.
  // expected-remark @+1 {{inferred: 'tensor<1x4x6x3xf32>'}}
  %3 = nn.conv2d %x2, %w2 {dilation = array<i64: 2, 3>, padding = array<i64: 0, 1, 0, 2>} : (tensor<1x3x10x12xf32>, tensor<4x3x3x5xf32>) -> tensor<1x4x6x3xf32>
  // 4 groups of 2 input channels; stride 3 on a 9x9 input.
  // expected-remark @+1 {{inferred: 'tensor<2x16x3x3xbf16>'}}
  %4 = nn.conv2d %xg, %wg {groups = 4 : i64, strides = array<i64: 3, 3>} : (tensor<2x8x9x9xbf16>, tensor<16x2x3x3xbf16>) -> tensor<2x16x3x3xbf16>
  return
}

// -----

func.func @norms(%x: tensor<8x16x4x4xf16>, %c: tensor<16xf32>, %ch: tensor<16xf16>,
                 %l: tensor<4x16x32xbf16>, %n1: tensor<32xbf16>, %n2: tensor<16x32xf32>) {
  // Statistics are f32 whatever the input's type.
  // expected-remark @+1 {{inferred: 'tensor<8x16x4x4xf16>', 'tensor<16xf32>', 'tensor<16xf32>'}}
  %0:3 = nn.batch_norm %x, %c, %ch : (tensor<8x16x4x4xf16>, tensor<16xf32>, tensor<16xf16>) -> (tensor<8x16x4x4xf16>, tensor<16xf32>, tensor<16xf32>)
  // expected-remark @+1 {{inferred: 'tensor<4x16x32xbf16>', 'tensor<4x16xf32>', 'tensor<4x16xf32>'}}
  %1:3 = nn.layer_norm %l, %n1, %n1 : (tensor<4x16x32xbf16>, tensor<32xbf16>, tensor<32xbf16>) -> (tensor<4x16x32xbf16>, tensor<4x16xf32>, tensor<4x16xf32>)
  // expected-remark @+1 {{inferred: 'tensor<4x16x32xbf16>', 'tensor<4xf32>', 'tensor<4xf32>'}}
  %2:3 = nn.layer_norm %l, %n2, %n2 {axis = 1 : i64} : (tensor<4x16x32xbf16>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>)
  // axis = 0 normalizes everything: 0-d statistics.
  // expected-remark @+1 {{inferred: 'tensor<16xf16>', 'tensor<f32>', 'tensor<f32>'}}
  %3:3 = nn.layer_norm %ch, %ch, %ch {axis = 0 : i64} : (tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> (tensor<16xf16>, tensor<f32>, tensor<f32>)
  // expected-remark @+1 {{inferred: 'tensor<4x16x32xbf16>'}}
  %4 = nn.softmax %l : tensor<4x16x32xbf16>
  // expected-remark @+1 {{inferred: 'tensor<4x16x32xbf16>'}}
  %5 = nn.log_softmax %l {axis = 0 : i64} : tensor<4x16x32xbf16>
  return
}

// -----

func.func @norm_grads(%dy: tensor<8x16x4x4xf16>, %c: tensor<16xf32>, %ch: tensor<16xf16>,
                      %ldy: tensor<4x16x32xbf16>, %stat: tensor<4xf32>, %ls: tensor<16x32xf32>) {
  // The parameter gradients have the scale's type.
  // expected-remark @+1 {{inferred: 'tensor<8x16x4x4xf16>', 'tensor<16xf16>', 'tensor<16xf16>'}}
  %0:3 = nn.batch_norm_grad %dy, %dy, %c, %c, %ch : (tensor<8x16x4x4xf16>, tensor<8x16x4x4xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf16>) -> (tensor<8x16x4x4xf16>, tensor<16xf16>, tensor<16xf16>)
  // expected-remark @+1 {{inferred: 'tensor<8x16x4x4xf16>', 'tensor<16xf32>', 'tensor<16xf32>'}}
  %1:3 = nn.batch_norm_grad %dy, %dy, %c, %c, %c : (tensor<8x16x4x4xf16>, tensor<8x16x4x4xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf16>, tensor<16xf32>, tensor<16xf32>)
  // expected-remark @+1 {{inferred: 'tensor<4x16x32xbf16>', 'tensor<16x32xf32>', 'tensor<16x32xf32>'}}
  %2:3 = nn.layer_norm_grad %ldy, %ldy, %stat, %stat, %ls {axis = -2 : i64} : (tensor<4x16x32xbf16>, tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<16x32xf32>, tensor<16x32xf32>)
  return
}

// -----

func.func @reductions(%x: tensor<2x3x4xf32>) {
  // expected-remark @+1 {{inferred: 'tensor<3x4xf32>'}}
  %0 = nn.reduce_sum %x [0] : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  // expected-remark @+1 {{inferred: 'tensor<2x1x4xf32>'}}
  %1 = nn.reduce_sum %x [1] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // Negative axes count from the end; the order of axes does not matter.
  // expected-remark @+1 {{inferred: 'tensor<3xf32>'}}
  %2 = nn.reduce_mean %x [-1, 0] : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // expected-remark @+1 {{inferred: 'tensor<1x3x1xf32>'}}
  %3 = nn.reduce_mean %x [2, -3] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %4 = nn.reduce_max %x [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<f32>
  // expected-remark @+1 {{inferred: 'tensor<1x1x1xf32>'}}
  %5 = nn.reduce_max %x [0, 1, 2] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return
}

// -----

func.func @shapes_and_lookups(%x: tensor<2x3x4xf16>, %t: tensor<100x16xbf16>, %ids: tensor<4x8xi64>,
                              %ids0: tensor<i32>, %l: tensor<32x10xf16>, %y: tensor<32xi32>,
                              %seed: tensor<f32>) {
  // expected-remark @+1 {{inferred: 'tensor<4x2x3xf16>'}}
  %0 = nn.transpose %x [2, 0, 1] : tensor<2x3x4xf16> -> tensor<4x2x3xf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3x4xf16>'}}
  %1 = nn.transpose %x [0, 1, 2] : tensor<2x3x4xf16> -> tensor<2x3x4xf16>
  // expected-remark @+1 {{inferred: 'tensor<4x8x16xbf16>'}}
  %2 = nn.embedding %t, %ids : (tensor<100x16xbf16>, tensor<4x8xi64>) -> tensor<4x8x16xbf16>
  // A 0-d id gives one row.
  // expected-remark @+1 {{inferred: 'tensor<16xbf16>'}}
  %3 = nn.embedding %t, %ids0 : (tensor<100x16xbf16>, tensor<i32>) -> tensor<16xbf16>
  // The loss is an f32 scalar whatever the logits' type.
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %4 = nn.cross_entropy %l, %y : (tensor<32x10xf16>, tensor<32xi32>) -> tensor<f32>
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %5 = nn.grad_seed %4 : tensor<f32>
  // The logits gradient has the logits' type, not the seed's.
  // expected-remark @+1 {{inferred: 'tensor<32x10xf16>'}}
  %6 = nn.cross_entropy_grad %seed, %l, %y : (tensor<f32>, tensor<32x10xf16>, tensor<32xi32>) -> tensor<32x10xf16>
  // expected-remark @+1 {{inferred: 'tensor<32x10xf16>'}}
  %7 = nn.softmax_grad %6, %l : tensor<32x10xf16>
  // expected-remark @+1 {{inferred: 'tensor<32x10xf16>'}}
  %8 = nn.relu_grad %6, %l : tensor<32x10xf16>
  // expected-remark @+1 {{inferred: 'tensor<32x10xf16>'}}
  %9 = nn.gelu_grad %6, %l : tensor<32x10xf16>
  return
}

// -----

func.func @pooling(%x: tensor<2x3x9x9xf16>, %dy: tensor<2x3x4x4xf16>) {
  // (9 + 1 + 1 - 2 * (3 - 1) - 1) / 2 + 1 = 4.
  // expected-remark @+1 {{inferred: 'tensor<2x3x4x4xf16>'}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 2, 2>} : (tensor<2x3x9x9xf16>) -> tensor<2x3x4x4xf16>
  // Asymmetric geometry: H = (9 + 0 + 1 - 2) / 2 + 1, W = (9 + 1 + 0 - 3) / 1 + 1.
  // expected-remark @+1 {{inferred: 'tensor<2x3x5x8xf16>'}}
  %1 = nn.avg_pool2d %x {kernel = array<i64: 2, 3>, strides = array<i64: 2, 1>, padding = array<i64: 0, 1, 1, 0>} : (tensor<2x3x9x9xf16>) -> tensor<2x3x5x8xf16>
  // expected-remark @+1 {{inferred: 'tensor<2x3x1x1xf16>'}}
  %2 = nn.global_avg_pool %x : (tensor<2x3x9x9xf16>) -> tensor<2x3x1x1xf16>
  // The input gradient has the input's type.
  // expected-remark @+1 {{inferred: 'tensor<2x3x9x9xf16>'}}
  %3 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 2, 2>} : (tensor<2x3x4x4xf16>, tensor<2x3x9x9xf16>) -> tensor<2x3x9x9xf16>
  return
}

// -----

func.func @shapes_selection_losses(%a: tensor<4x8xbf16>, %b: tensor<4x1xbf16>, %c: tensor<2x1x8xi1>,
                                   %s: tensor<bf16>, %dy: tensor<2x4x8xbf16>, %g: tensor<f32>) {
  // expected-remark @+1 {{inferred: 'tensor<4x17xbf16>'}}
  %0 = nn.concat %a, %b, %a {axis = -1 : i64} : (tensor<4x8xbf16>, tensor<4x1xbf16>, tensor<4x8xbf16>) -> tensor<4x17xbf16>
  // expected-remark @+1 {{inferred: 'tensor<7x8xbf16>'}}
  %1 = nn.pad %a {low = array<i64: 1, 0>, high = array<i64: 2, 0>} : tensor<4x8xbf16> -> tensor<7x8xbf16>
  // expected-remark @+1 {{inferred: 'tensor<4x8xbf16>'}}
  %2 = nn.maximum %a, %b : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  // expected-remark @+1 {{inferred: 'tensor<4x1xbf16>'}}
  %3 = nn.minimum %b, %s : (tensor<4x1xbf16>, tensor<bf16>) -> tensor<4x1xbf16>
  // All three operands broadcast: the condition adds the leading dimension.
  // expected-remark @+1 {{inferred: 'tensor<2x4x8xbf16>'}}
  %4 = nn.where %c, %b, %s : (tensor<2x1x8xi1>, tensor<4x1xbf16>, tensor<bf16>) -> tensor<2x4x8xbf16>
  // expected-remark @+1 {{inferred: 'tensor<2x4x8xbf16>', 'tensor<2x4x8xbf16>'}}
  %5:2 = nn.where_grad %dy, %c : (tensor<2x4x8xbf16>, tensor<2x1x8xi1>) -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>)
  // expected-remark @+1 {{inferred: 'tensor<4x8xbf16>', 'tensor<4x8xbf16>'}}
  %6:2 = nn.maximum_grad %a, %a, %b : (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x1xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>)
  // The loss is an f32 scalar whatever the prediction's type.
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %7 = nn.mse_loss %a, %a : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  // expected-remark @+1 {{inferred: 'tensor<4x8xbf16>'}}
  %8 = nn.mse_loss_grad %g, %a, %a : (tensor<f32>, tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  // expected-remark @+1 {{inferred: 'tensor<4x8xbf16>'}}
  %9 = nn.reduce_max_grad %b, %a, %b [1] keep_dims : (tensor<4x1xbf16>, tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  // expected-remark @+1 {{inferred: 'tensor<4x8xbf16>'}}
  %10 = nn.tanh_grad %a, %a : tensor<4x8xbf16>
  return
}

// -----

func.func @optimizers(%p: tensor<64x128xf32>, %m: tensor<64x128xf32>, %step: tensor<f32>,
                      %h: tensor<8xf16>, %b: tensor<2x2xbf16>) {
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>'}}
  %0 = nn.sgd_update %p, %m {lr = 0.1 : f32} : tensor<64x128xf32>
  // The momentum buffer adds a result.
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>', 'tensor<64x128xf32>'}}
  %1:2 = nn.sgd_update %p, %m, %m {lr = 0.1 : f32, momentum = 0.9 : f32, nesterov} : tensor<64x128xf32>
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>', 'tensor<64x128xf32>', 'tensor<64x128xf32>', 'tensor<f32>'}}
  %2:4 = nn.adam_update %p, %m, %m, %m, %step {lr = 1.0e-3 : f32} : tensor<64x128xf32>
  // expected-remark @+1 {{inferred: 'tensor<8xf16>', 'tensor<8xf16>', 'tensor<8xf16>', 'tensor<f32>'}}
  %3:4 = nn.adam_update %h, %h, %h, %h, %step {lr = 1.0e-3 : f32} : tensor<8xf16>
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>', 'tensor<f32>'}}
  %4:2 = nn.clip_grad_norm %p {max_norm = 1.0 : f32} : tensor<64x128xf32>
  // One clipped result per gradient, then the f32 total norm.
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>', 'tensor<8xf16>', 'tensor<2x2xbf16>', 'tensor<f32>'}}
  %5:4 = nn.clip_grad_norm %p, %h, %b {max_norm = 1.0 : f32} : tensor<64x128xf32>, tensor<8xf16>, tensor<2x2xbf16>
  // One clipped result per gradient, and nothing else.
  // expected-remark @+1 {{inferred: 'tensor<64x128xf32>', 'tensor<8xf16>', 'tensor<2x2xbf16>'}}
  %6:3 = nn.clip_grad_value %p, %h, %b {clip_value = 1.0 : f32} : tensor<64x128xf32>, tensor<8xf16>, tensor<2x2xbf16>
  return
}

// -----

// The generic form states the result types; they are checked against the
// inferred ones.
func.func @generic_form_checked(%p: tensor<8xf32>) {
  // expected-error @+2 {{'nn.sgd_update' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<8xf16>'}}
  // expected-error @+1 {{'nn.sgd_update' op failed to infer returned types}}
  %0 = "nn.sgd_update"(%p, %p) {lr = 0.1 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf16>
  return
}

// -----

func.func @incompatible_binary(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+2 {{'nn.add' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{'nn.add' op failed to infer returned types}}
  %0 = nn.add %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @incompatible_matmul_shape(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) {
  // expected-error @+2 {{'nn.matmul' op inferred type(s) 'tensor<4x16xf16>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x8xf32>
  return
}

// -----

// f16 operands with a bf16 result: neither the operands' type nor f32.
func.func @incompatible_matmul_element_type(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) {
  // expected-error @+2 {{'nn.matmul' op inferred type(s) 'tensor<4x16xf16>' are incompatible with return type(s) of operation 'tensor<4x16xbf16>'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xbf16>
  return
}

// -----

func.func @incompatible_reduce(%x: tensor<4x8xbf16>) {
  // expected-error @+2 {{'nn.reduce_max' op inferred type(s) 'tensor<8xbf16>' are incompatible with return type(s) of operation 'tensor<8xf16>'}}
  // expected-error @+1 {{'nn.reduce_max' op failed to infer returned types}}
  %0 = nn.reduce_max %x [0] : (tensor<4x8xbf16>) -> tensor<8xf16>
  return
}

// -----

func.func @incompatible_conv2d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'nn.conv2d' op inferred type(s) 'tensor<1x4x8x8xf32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xf32>'}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Layer norm statistics have the input's leading dimensions.
func.func @incompatible_layer_norm_stats(%x: tensor<4x8xf16>, %s: tensor<8xf16>) {
  // expected-error @+2 {{'nn.layer_norm' op inferred type(s) 'tensor<4x8xf16>', 'tensor<4xf32>', 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf16>', 'tensor<8xf32>', 'tensor<8xf32>'}}
  // expected-error @+1 {{'nn.layer_norm' op failed to infer returned types}}
  %0:3 = "nn.layer_norm"(%x, %s, %s) : (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @incompatible_embedding(%t: tensor<100x16xf32>, %ids: tensor<4x8xi32>) {
  // expected-error @+2 {{'nn.embedding' op inferred type(s) 'tensor<4x8x16xf32>' are incompatible with return type(s) of operation 'tensor<32x16xf32>'}}
  // expected-error @+1 {{'nn.embedding' op failed to infer returned types}}
  %0 = nn.embedding %t, %ids : (tensor<100x16xf32>, tensor<4x8xi32>) -> tensor<32x16xf32>
  return
}

// -----

// The embedding is not an accumulator: an f16 table gives f16 rows.
func.func @incompatible_embedding_f32(%t: tensor<100x16xf16>, %ids: tensor<8xi32>) {
  // expected-error @+2 {{'nn.embedding' op inferred type(s) 'tensor<8x16xf16>' are incompatible with return type(s) of operation 'tensor<8x16xf32>'}}
  // expected-error @+1 {{'nn.embedding' op failed to infer returned types}}
  %0 = nn.embedding %t, %ids : (tensor<100x16xf16>, tensor<8xi32>) -> tensor<8x16xf32>
  return
}

// -----

// The optimizer state keeps the param's type: no f16 moments of an f32 param.
func.func @incompatible_adam_moments(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+2 {{'nn.adam_update' op inferred type(s) 'tensor<8xf32>', 'tensor<8xf32>', 'tensor<8xf32>', 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<8xf32>', 'tensor<8xf16>', 'tensor<8xf16>', 'tensor<f32>'}}
  // expected-error @+1 {{'nn.adam_update' op failed to infer returned types}}
  %0:4 = "nn.adam_update"(%p, %p, %p, %p, %step) {lr = 1.0e-3 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf16>, tensor<8xf16>, tensor<f32>)
  return
}
