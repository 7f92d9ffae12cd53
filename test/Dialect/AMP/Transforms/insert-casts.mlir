// RUN: amp-opt %s -split-input-file --amp-insert-casts | FileCheck %s

// amp-insert-casts reads the amp.precision decisions (written here by hand).

// A weight used by the forward and the backward matmul is cast once.
// CHECK-LABEL: func @weight_cast_once
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[DY:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[X16:.*]] = amp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: %[[W16:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NEXT: %[[DY16:.*]] = amp.cast %[[DY]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: nn.matmul %[[X16]], %[[W16]] {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: nn.matmul %[[DY16]], %[[W16]] {{.*}}transpose_b{{.*}} -> tensor<4x8xf32>
// CHECK-NOT: amp.cast
func.func @weight_cast_once(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %dy: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %y = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %dx = nn.matmul %dy, %w {amp.precision = f16, transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y, %dx : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// No cast between two ops of the same precision; one cast per (value, type)
// shared by every f32 user.
// CHECK-LABEL: func @shared_cast
// CHECK: %[[M:.*]] = nn.matmul {{.*}} -> tensor<4x8xf16>
// CHECK-NEXT: %[[M32:.*]] = amp.cast %[[M]] : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = nn.relu %[[M]] {{.*}} : tensor<4x8xf16>
// CHECK-NEXT: nn.matmul %[[R]], {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: nn.softmax %[[M32]]
// CHECK-NEXT: nn.log_softmax %[[M32]]
func.func @shared_cast(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = nn.relu %m {amp.precision = f16} : tensor<4x8xf32>
  %n = nn.matmul %r, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = nn.softmax %m {amp.precision = f32} : tensor<4x8xf32>
  %l = nn.log_softmax %m {amp.precision = f32} : tensor<4x8xf32>
  return %n, %s, %l : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A low-precision matmul whose users all want f32 stores its f32
// accumulator: no cast.
// CHECK-LABEL: func @accumulator_f32_result
// CHECK: %[[M:.*]] = nn.matmul {{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT: nn.softmax %[[M]]
// CHECK-NOT: amp.cast
func.func @accumulator_f32_result(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = nn.softmax %m {amp.precision = f32} : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Reductions accumulate in f32 too: an f16 reduce_max feeding the return
// (which keeps its f32 type) writes f32 directly.
// CHECK-LABEL: func @accumulator_reduction
// CHECK: nn.reduce_max {{.*}} : (tensor<4x8xf16>) -> tensor<8xf32>
// CHECK-NOT: amp.cast {{.*}} to tensor<8xf32>
func.func @accumulator_reduction(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %r = nn.reduce_max %x [0] {amp.precision = f16} : (tensor<4x8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A non-accumulating op keeps its low-precision result and the return gets
// a cast back to the signature's f32.
// CHECK-LABEL: func @keep_io_types
// CHECK: %[[T:.*]] = nn.tanh {{.*}} : tensor<4x8xf16>
// CHECK-NEXT: %[[T32:.*]] = amp.cast %[[T]] : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK-NEXT: return %[[T32]]
func.func @keep_io_types(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = nn.tanh %x {amp.precision = f16} : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// Existing casts are absorbed: a round trip written by the user disappears,
// and a cast the pipeline needs anyway is not duplicated.
// CHECK-LABEL: func @absorb_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>
// CHECK-NEXT: nn.softmax %[[X]]
// CHECK-NOT: amp.cast
func.func @absorb_round_trip(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %f = amp.cast %h : tensor<4x8xf16> to tensor<4x8xf32>
  %s = nn.softmax %f {amp.precision = f32} : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func @absorb_existing_cast
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf16>)
// CHECK-NEXT: %[[X16:.*]] = amp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: nn.matmul %[[X16]], %[[W]]
// CHECK-NEXT: nn.tanh %[[X16]]
// CHECK-NOT: amp.cast %[[X]]
func.func @absorb_existing_cast(%x: tensor<4x8xf32>, %w: tensor<8x8xf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %a = nn.matmul %h, %w {amp.precision = f16} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf32>
  %b = nn.tanh %x {amp.precision = f16} : tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A cast that a non-participating user needs (the function returns f16) is
// kept.
// CHECK-LABEL: func @cast_for_other_user
// CHECK: %[[H:.*]] = amp.cast %{{.*}} : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT: return %[[H]]
func.func @cast_for_other_user(%x: tensor<4xf32>) -> tensor<4xf16> {
  %h = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  return %h : tensor<4xf16>
}

// -----

// Constants are converted at compile time, rounding to nearest even.
// CHECK-LABEL: func @constant_converted
// CHECK-NOT: arith.constant {{.*}}xf32>
// CHECK: %[[C16:.*]] = arith.constant dense<2.003910e+00> : tensor<4x8xf16>
// CHECK: nn.mul %{{.*}}, %[[C16]] {{.*}} -> tensor<4x8xf16>
// CHECK-NOT: amp.cast %cst
func.func @constant_converted(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // 2.0029296875 is halfway between the f16 values 2.001953125 (mantissa 1)
  // and 2.00390625 (mantissa 2); it rounds to the even mantissa. The f32
  // constant, now unused, is removed.
  %c = arith.constant dense<2.0029296875> : tensor<4x8xf32>
  %m = nn.mul %x, %c {amp.precision = f16} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Only the retyped operands and results of a normalization change: scale,
// bias and the statistics stay f32.
// CHECK-LABEL: func @layer_norm_operands
// CHECK: nn.layer_norm %{{.*}}, %arg1, %arg2 {{.*}} : (tensor<4x8xbf16>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>)
func.func @layer_norm_operands(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %y, %m, %r = nn.layer_norm %x, %g, %b {amp.precision = bf16} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return %m : tensor<4xf32>
}

// -----

// Loop-carried values get one type: the init is cast once before the loop,
// the iter_arg, the yield and the result are f16 inside.
// CHECK-LABEL: func @loop_carried
// CHECK: %[[INIT:.*]] = amp.cast %arg0 : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<4x4xf16>)
// CHECK: %[[M:.*]] = nn.matmul %[[ACC]], {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: scf.yield %[[M]] : tensor<4x4xf16>
// CHECK: amp.cast %[[R]] : tensor<4x4xf16> to tensor<4x4xf32>
func.func @loop_carried(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    %m = nn.matmul %acc, %w {amp.precision = f16} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  } {amp.precision = [f16]}
  return %r : tensor<4x4xf32>
}

// -----

// scf.if: the branch that produces f32 casts before yielding.
// CHECK-LABEL: func @if_result
// CHECK: scf.if {{.*}} -> (tensor<4x4xf16>)
// CHECK: nn.matmul {{.*}} -> tensor<4x4xf16>
// CHECK: %[[N:.*]] = nn.mul {{.*}} -> tensor<4x4xf32>
// CHECK-NEXT: %[[N16:.*]] = amp.cast %[[N]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: scf.yield %[[N16]]
func.func @if_result(%c: i1, %x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.if %c -> tensor<4x4xf32> {
    %m = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  } else {
    %n = nn.mul %x, %x {amp.precision = f32} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  } {amp.precision = [f16]}
  %o = nn.matmul %r, %w {amp.precision = f16} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// amp.autocast results take the yielded precision.
// CHECK-LABEL: func @autocast_result
// CHECK: amp.autocast compute_type = bf16 -> tensor<4x4xbf16>
// CHECK: nn.matmul {{.*}} -> tensor<4x4xbf16>
func.func @autocast_result(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = amp.autocast compute_type = bf16 -> tensor<4x4xf32> {
    %m = nn.matmul %x, %w {amp.precision = bf16} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    amp.yield %m : tensor<4x4xf32>
  } {amp.precision = [bf16]}
  %t = nn.tanh %r {amp.precision = bf16} : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

// Ops without a decision are left alone.
// CHECK-LABEL: func @undecided
// CHECK-NOT: amp.cast
// CHECK: nn.matmul {{.*}} -> tensor<4x4xf32>
func.func @undecided(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = nn.matmul %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// One constant needed in two low types is converted twice, and the f32
// original is removed once.
// CHECK-LABEL: func @constant_two_types
// CHECK-DAG: arith.constant dense<1.500000e+00> : tensor<4xf16>
// CHECK-DAG: arith.constant dense<1.500000e+00> : tensor<4xbf16>
// CHECK-NOT: arith.constant {{.*}}xf32>
func.func @constant_two_types(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<1.5> : tensor<4xf32>
  %a = nn.mul %x, %c {amp.precision = f16} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = nn.mul %x, %c {amp.precision = bf16} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// An f32 op that accumulates in f32 reads an f16 operand as it is (widening
// is exact): the bias-gradient reduction of an f16 activation gradient needs
// no cast.
// CHECK-LABEL: func @f32_accumulator_reads_f16
// CHECK: %[[G:.*]] = nn.relu_grad {{.*}} : tensor<4x8xf16>
// CHECK-NEXT: nn.reduce_sum %[[G]] [0] {{.*}} : (tensor<4x8xf16>) -> tensor<8xf32>
// CHECK-NOT: amp.cast %[[G]]
func.func @f32_accumulator_reads_f16(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>) -> (tensor<8xf32>, tensor<4x8xf16>) {
  %g = nn.relu_grad %dy, %x {amp.precision = f16} : tensor<4x8xf16>
  %db = nn.reduce_sum %g [0] {amp.precision = f32} : (tensor<4x8xf16>) -> tensor<8xf32>
  return %db, %g : tensor<8xf32>, tensor<4x8xf16>
}

// -----

// Operands of different low types are not mixed: the f32 matmul casts both.
// CHECK-LABEL: func @f32_accumulator_mixed
// CHECK-DAG: amp.cast %arg0 : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK-DAG: amp.cast %arg1 : tensor<8x8xbf16> to tensor<8x8xf32>
// CHECK: nn.matmul {{.*}} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
func.func @f32_accumulator_mixed(%x: tensor<4x8xf16>, %w: tensor<8x8xbf16>) -> tensor<4x8xf32> {
  %xf = amp.cast %x : tensor<4x8xf16> to tensor<4x8xf32>
  %wf = amp.cast %w : tensor<8x8xbf16> to tensor<8x8xf32>
  %m = nn.matmul %xf, %wf {amp.precision = f32} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// conv -> max_pool -> global_avg_pool in f16: no cast inside the chain.
// CHECK-LABEL: func @pool_chain_f16
// CHECK: %[[C:.*]] = nn.conv2d {{.*}} -> tensor<2x4x8x8xf16>
// CHECK-NEXT: %[[P:.*]] = nn.max_pool2d %[[C]] {{.*}} : (tensor<2x4x8x8xf16>) -> tensor<2x4x4x4xf16>
// CHECK-NEXT: %[[G:.*]] = nn.global_avg_pool %[[P]] {{.*}} : (tensor<2x4x4x4xf16>) -> tensor<2x4x1x1xf16>
// CHECK-NEXT: amp.cast %[[G]] : tensor<2x4x1x1xf16> to tensor<2x4x1x1xf32>
func.func @pool_chain_f16(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x1x1xf32> {
  %c = nn.conv2d %x, %w {amp.precision = f16, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  %p = nn.max_pool2d %c {amp.precision = f16, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32>
  %g = nn.global_avg_pool %p {amp.precision = f16} : (tensor<2x4x4x4xf32>) -> tensor<2x4x1x1xf32>
  return %g : tensor<2x4x1x1xf32>
}

// -----

// An f16 where casts its float operands; its i1 cond is used as it is.
// CHECK-LABEL: func @where_keeps_i1_cond
// CHECK-SAME: (%[[C:.*]]: tensor<4x8xi1>, %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NOT: amp.cast %[[C]]
// CHECK-DAG: %[[A16:.*]] = amp.cast %[[A]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-DAG: %[[B16:.*]] = amp.cast %[[B]] : tensor<8xf32> to tensor<8xf16>
// CHECK: nn.where %[[C]], %[[A16]], %[[B16]] {{.*}} : (tensor<4x8xi1>, tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
// CHECK: nn.where_grad {{.*}}, %[[C]] {{.*}} : (tensor<4x8xf16>, tensor<4x8xi1>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
func.func @where_keeps_i1_cond(%c: tensor<4x8xi1>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = nn.where %c, %a, %b {amp.precision = f16} : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1:2 = nn.where_grad %0, %c {amp.precision = f16} : (tensor<4x8xf32>, tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %0, %1#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// An f32 compare widens the f16 matmul result (exactly) and keeps its f32
// constant; an f16 convert of an i1 mask yields f16 directly, which the
// f16 add reads as it is.
// CHECK-LABEL: func @compare_widens_convert_narrows
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[M:.*]]: tensor<4x8xi1>)
// CHECK: %[[Y:.*]] = nn.matmul {{.*}} -> tensor<4x8xf16>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<1.000000e-01> : tensor<f32>
// CHECK-DAG: %[[Y32:.*]] = amp.cast %[[Y]] : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK: nn.compare gt, %[[Y32]], %[[T]] {{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
// CHECK: %[[MF:.*]] = nn.convert %[[M]] {{.*}} : tensor<4x8xi1> to tensor<4x8xf16>
// CHECK: nn.add %[[Y]], %[[MF]] {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
func.func @compare_widens_convert_narrows(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %m: tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4x8xf32>) {
  %y = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = arith.constant dense<1.000000e-01> : tensor<f32>
  %0 = nn.compare gt, %y, %t {amp.precision = f32} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %1 = nn.convert %m {amp.precision = f16} : tensor<4x8xi1> to tensor<4x8xf32>
  %2 = nn.add %y, %1 {amp.precision = f16} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %2 : tensor<4x8xi1>, tensor<4x8xf32>
}

// -----

// An f16 dropout reads its i64 seed as it is.
// CHECK-LABEL: func @dropout_keeps_i64_seed
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[S:.*]]: tensor<i64>)
// CHECK-NEXT: %[[X16:.*]] = amp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: nn.dropout %[[X16]], %[[S]] {{.*}} : tensor<4x8xf16>
func.func @dropout_keeps_i64_seed(%x: tensor<4x8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  %0 = nn.dropout %x, %seed {amp.precision = f16, rate = 0.5 : f32, training} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A loss is f32 whatever its precision: only pred and target are retyped,
// and the loss gradient keeps its f32 seed.
// CHECK-LABEL: func @mse_loss_stays_f32
// CHECK: nn.mse_loss {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f32>
// CHECK: nn.mse_loss_grad {{.*}} : (tensor<f32>, tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
func.func @mse_loss_stays_f32(%p: tensor<4x8xf32>, %t: tensor<4x8xf32>, %g: tensor<f32>) -> (tensor<f32>, tensor<4x8xf32>) {
  %0 = nn.mse_loss %p, %t {amp.precision = f16} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  %1 = nn.mse_loss_grad %g, %p, %t {amp.precision = f16} : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<f32>, tensor<4x8xf32>
}
