// RUN: amp-opt %s -split-input-file --nn-fuse-attention | FileCheck %s

// BERT's form: q k^T times a constant, plus a padding mask. The chain and
// its scale constant go; the fused op's location fuses the chain's.
// CHECK-LABEL: func.func @bert(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x1x8xf32>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] {scale = 2.500000e-01 : f32} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x1x1x8xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
// CHECK-NEXT:    return %[[O]]
func.func @bert(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x16xf32>, %m: tensor<2x1x1x8xf32>) -> tensor<2x4x8x16xf32> {
  %c = arith.constant dense<2.500000e-01> : tensor<f32>
  %s = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
  %t = nn.mul %s, %c : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %u = nn.add %t, %m : (tensor<2x4x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %u {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// The ONNX exporters' form: an explicit transpose of the key, a division
// by sqrt(D), the mask on the left of the add and a mask of lower rank.
// The transpose has another use and stays.
// CHECK-LABEL: func.func @onnx_form(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<3x5x4xf16>, %[[K:[a-z0-9]+]]: tensor<3x6x4xf16>, %[[V:[a-z0-9]+]]: tensor<3x6x2xf16>, %[[M:[a-z0-9]+]]: tensor<5x6xf16>
// CHECK:         %[[KT:.*]] = nn.transpose %[[K]] [0, 2, 1]
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] {scale = 5.000000e-01 : f32}
// CHECK-NEXT:    return %[[O]], %[[KT]]
func.func @onnx_form(%q: tensor<3x5x4xf16>, %k: tensor<3x6x4xf16>, %v: tensor<3x6x2xf16>, %m: tensor<5x6xf16>) -> (tensor<3x5x2xf16>, tensor<3x4x6xf16>) {
  %c = arith.constant dense<2.000000e+00> : tensor<1xf16>
  %kt = nn.transpose %k [0, 2, 1] : tensor<3x6x4xf16> -> tensor<3x4x6xf16>
  %s = nn.matmul %q, %kt : (tensor<3x5x4xf16>, tensor<3x4x6xf16>) -> tensor<3x5x6xf16>
  %t = nn.div %s, %c : (tensor<3x5x6xf16>, tensor<1xf16>) -> tensor<3x5x6xf16>
  %u = nn.add %m, %t : (tensor<5x6xf16>, tensor<3x5x6xf16>) -> tensor<3x5x6xf16>
  %p = nn.softmax %u {axis = 2 : i64} : tensor<3x5x6xf16>
  %o = nn.matmul %p, %v : (tensor<3x5x6xf16>, tensor<3x6x2xf16>) -> tensor<3x5x2xf16>
  return %o, %kt : tensor<3x5x2xf16>, tensor<3x4x6xf16>
}

// -----

// No scale and no mask: scale 1. A scale on the left of the multiply.
// CHECK-LABEL: func.func @plain_and_left_scale(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<4x8xf32>, %[[K:[a-z0-9]+]]: tensor<6x8xf32>, %[[V:[a-z0-9]+]]: tensor<6x3xf32>
// CHECK-NEXT:    %[[A:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] {scale = 1.000000e+00 : f32}
// CHECK-NEXT:    %[[B:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] {scale = 3.000000e+00 : f32}
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @plain_and_left_scale(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %s = nn.matmul %q, %k {transpose_b} : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
  %p = nn.softmax %s : tensor<4x6xf32>
  %o = nn.matmul %p, %v : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %c = arith.constant dense<3.000000e+00> : tensor<f32>
  %s2 = nn.matmul %q, %k {transpose_b} : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
  %t2 = nn.mul %c, %s2 : (tensor<f32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %p2 = nn.softmax %t2 : tensor<4x6xf32>
  %o2 = nn.matmul %p2, %v : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %o, %o2 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Chains that stay as written, one reason each.
// CHECK-LABEL: func.func @probs_reused(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
// CHECK:         return
func.func @probs_reused(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %p : tensor<4x8xf32>, tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @scores_reused(
// CHECK-NOT:     nn.attention
// CHECK:         return
func.func @scores_reused(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %s : tensor<4x8xf32>, tensor<4x4xf32>
}

// -----

// A training dropout of the probabilities (BERT's attention dropout) becomes
// the fused op's dropout, with its seed and rate; the nn.dropout goes.
// CHECK-LABEL: func.func @dropout_on_probs(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8xf32>, %[[V:[a-z0-9]+]]: tensor<2x4x8xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x4xf32>, %[[SEED:[a-z0-9]+]]: tensor<i64>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[Q]], %[[V]] mask %[[M]] dropout %[[SEED]] {dropout_rate = 1.000000e-01 : f32, scale = 1.000000e+00 : f32} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x1x4xf32>, tensor<i64>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    return %[[O]]
func.func @dropout_on_probs(%q: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %m: tensor<2x1x4xf32>, %seed: tensor<i64>) -> tensor<2x4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %u = nn.add %s, %m : (tensor<2x4x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
  %p = nn.softmax %u : tensor<2x4x4xf32>
  %d = nn.dropout %p, %seed {rate = 1.000000e-01 : f32, training} : tensor<2x4x4xf32>
  %o = nn.matmul %d, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// After PyTorch's exported SDPA guard, too.
// CHECK-LABEL: func.func @dropout_after_guard(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<4x8xf32>, %[[V:[a-z0-9]+]]: tensor<4x8xf32>, %[[SEED:[a-z0-9]+]]: tensor<i64>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[Q]], %[[V]] dropout %[[SEED]] {dropout_rate = 5.000000e-01 : f32, scale = 1.000000e+00 : f32}
// CHECK-NEXT:    return %[[O]]
func.func @dropout_after_guard(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %nan = nn.compare ne, %p, %p : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %g = nn.where %nan, %zero, %p : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %d = nn.dropout %g, %seed {rate = 5.000000e-01 : f32, training} : tensor<4x4xf32>
  %o = nn.matmul %d, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A dropout that is the identity (not training, or rate 0) is left out.
// CHECK-LABEL: func.func @identity_dropouts(
// CHECK-NOT:     nn.dropout
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32}
// CHECK-NOT:     dropout
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.000000e+00 : f32}
// CHECK-NOT:     nn.dropout
func.func @identity_dropouts(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>, %seed: tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %d = nn.dropout %p, %seed {rate = 1.000000e-01 : f32} : tensor<4x4xf32>
  %o = nn.matmul %d, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = nn.matmul %v, %v {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p2 = nn.softmax %s2 : tensor<4x4xf32>
  %d2 = nn.dropout %p2, %seed {rate = 0.000000e+00 : f32, training} : tensor<4x4xf32>
  %o2 = nn.matmul %d2, %q : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %o2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A dropout whose output has another use (a hand-written backward reads
// it) keeps the chain unfused.
// CHECK-LABEL: func.func @dropout_used_twice(
// CHECK-NOT:     nn.attention
// CHECK:         nn.dropout
func.func @dropout_used_twice(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>, %seed: tensor<i64>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %d = nn.dropout %p, %seed {rate = 1.000000e-01 : f32, training} : tensor<4x4xf32>
  %o = nn.matmul %d, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %d : tensor<4x8xf32>, tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @precision_override(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @precision_override(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s {amp.precision = f32} : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @scale_not_constant(
// CHECK-NOT:     nn.attention
// CHECK:         nn.mul
func.func @scale_not_constant(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %t = nn.mul %s, %c : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %p = nn.softmax %t : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// The softmax runs over the queries, not the keys.
// CHECK-LABEL: func.func @softmax_axis(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @softmax_axis(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s {axis = 0 : i64} : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// One key for every batch entry but a value per entry: nn.matmul
// broadcasts, nn.attention reads a key and a value with the same heads.
// CHECK-LABEL: func.func @broadcast_key(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @broadcast_key(%q: tensor<2x4x8xf32>, %k: tensor<1x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %s = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8xf32>, tensor<1x4x8xf32>) -> tensor<2x4x4xf32>
  %p = nn.softmax %s : tensor<2x4x4xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// The value is read transposed.
// CHECK-LABEL: func.func @value_transposed(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @value_transposed(%q: tensor<4x8xf32>, %vt: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %o = nn.matmul %p, %vt {transpose_b} : (tensor<4x4xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// The mask widens the scores ([4, 4] to [2, 4, 4]).
// CHECK-LABEL: func.func @mask_widens(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @mask_widens(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>, %m: tensor<2x4x4xf32>) -> tensor<2x4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %u = nn.add %s, %m : (tensor<4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = nn.softmax %u : tensor<2x4x4xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x4xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// f16 operands with f32 scores: the chain already has precisions.
// CHECK-LABEL: func.func @mixed_types(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @mixed_types(%q: tensor<4x8xf16>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A transpose that also moves other dimensions (Hugging Face's key,
// [B, S, H, D] to [B, H, D, S]) leaves the key as that permutation with its
// last two entries swapped: [2, 1, 0] becomes [2, 0, 1].
// CHECK-LABEL: func.func @other_transpose(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<4x4x4xf32>, %[[K:[a-z0-9]+]]: tensor<4x4x4xf32>, %[[V:[a-z0-9]+]]: tensor<4x4x4xf32>
// CHECK-NEXT:    %[[KEY:.*]] = nn.transpose %[[K]] [2, 0, 1]
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[KEY]], %[[V]] {scale = 1.000000e+00 : f32}
// CHECK-NEXT:    return %[[O]]
func.func @other_transpose(%q: tensor<4x4x4xf32>, %k: tensor<4x4x4xf32>, %v: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %kt = nn.transpose %k [2, 1, 0] : tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  %s = nn.matmul %q, %kt : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %p = nn.softmax %s : tensor<4x4x4xf32>
  %o = nn.matmul %p, %v : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  return %o : tensor<4x4x4xf32>
}

// -----

// A learned bias (a param, or computed from one) is no mask: it needs the
// gradient that nn.attention's mask does not have. An input mask fuses.
// CHECK-LABEL: func.func @learned_bias(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
// CHECK:         return
// CHECK-LABEL: func.func @input_mask(
// CHECK:         nn.attention
// CHECK-NOT:     nn.softmax
func.func @learned_bias(%q: tensor<4x8xf32> {nn.role = #nn.role<input>}, %b: tensor<4xf32> {nn.role = #nn.role<param>}) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %bias = nn.neg %b : tensor<4xf32>
  %u = nn.add %s, %bias : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %u : tensor<4x4xf32>
  %o = nn.matmul %p, %q : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @input_mask(%q: tensor<4x8xf32> {nn.role = #nn.role<param>}, %m: tensor<4xf32> {nn.role = #nn.role<input>}) -> tensor<4x8xf32> {
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %mask = nn.neg %m : tensor<4xf32>
  %u = nn.add %s, %mask : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %u : tensor<4x4xf32>
  %o = nn.matmul %p, %q : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// PyTorch's exported scaled_dot_product_attention: q and k^T each scaled
// by D^-1/4 (the product is the op's scale), the key transposed as
// [B*H, D, Sk] and then split into [B, H, D, Sk], and the NaN guard
// where(isnan(p), 0, p), which nn.attention's zeros for a query that sees
// no key make redundant. The key's transpose and the scaled copies go.
// CHECK-LABEL: func.func @torch_sdpa(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x3x8x4xf32>, %[[K:[a-z0-9]+]]: tensor<6x8x4xf32>, %[[V:[a-z0-9]+]]: tensor<2x3x8x4xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x1x8xf32>
// CHECK-NEXT:    %[[KEY:.*]] = nn.reshape %[[K]] : tensor<6x8x4xf32> -> tensor<2x3x8x4xf32>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[KEY]], %[[V]] mask %[[M]] {scale = 0.49999997{{[0-9]*}} : f32}
// CHECK-NEXT:    return %[[O]]
func.func @torch_sdpa(%q: tensor<2x3x8x4xf32>, %k: tensor<6x8x4xf32>, %v: tensor<2x3x8x4xf32>, %m: tensor<2x1x1x8xf32>) -> tensor<2x3x8x4xf32> {
  %c = arith.constant dense<0.707106769> : tensor<1xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<1xf32>
  %kt3 = nn.transpose %k [0, 2, 1] : tensor<6x8x4xf32> -> tensor<6x4x8xf32>
  %kt = nn.reshape %kt3 : tensor<6x4x8xf32> -> tensor<2x3x4x8xf32>
  %qs = nn.mul %q, %c : (tensor<2x3x8x4xf32>, tensor<1xf32>) -> tensor<2x3x8x4xf32>
  %ks = nn.mul %kt, %c : (tensor<2x3x4x8xf32>, tensor<1xf32>) -> tensor<2x3x4x8xf32>
  %s = nn.matmul %qs, %ks : (tensor<2x3x8x4xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x8x8xf32>
  %u = nn.add %s, %m : (tensor<2x3x8x8xf32>, tensor<2x1x1x8xf32>) -> tensor<2x3x8x8xf32>
  %p = nn.softmax %u {axis = 3 : i64} : tensor<2x3x8x8xf32>
  %nan = nn.compare ne, %p, %p : (tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xi1>
  %g = nn.where %nan, %zero, %p : (tensor<2x3x8x8xi1>, tensor<1xf32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %o = nn.matmul %g, %v : (tensor<2x3x8x8xf32>, tensor<2x3x8x4xf32>) -> tensor<2x3x8x4xf32>
  return %o : tensor<2x3x8x4xf32>
}

// -----

// A guard that replaces NaNs by something else than 0 changes the result:
// no fusion.
// CHECK-LABEL: func.func @guard_not_zero(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @guard_not_zero(%q: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant dense<1.000000e+00> : tensor<f32>
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %s : tensor<4x4xf32>
  %nan = nn.compare ne, %p, %p : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  %g = nn.where %nan, %one, %p : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = nn.matmul %g, %v : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A bool mask turned into an additive one carries no gradient, even when
// the step's params are around: it fuses.
// CHECK-LABEL: func.func @bool_mask(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} mask
// CHECK-NOT:     nn.softmax
func.func @bool_mask(%q: tensor<4x8xf32> {nn.role = #nn.role<param>}, %keep: tensor<4x4xi1> {nn.role = #nn.role<input>}) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %ninf = arith.constant dense<0xFF800000> : tensor<f32>
  %mask = nn.where %keep, %zero, %ninf : (tensor<4x4xi1>, tensor<f32>, tensor<f32>) -> tensor<4x4xf32>
  %s = nn.matmul %q, %q {transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %u = nn.add %s, %mask : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = nn.softmax %u : tensor<4x4xf32>
  %o = nn.matmul %p, %q : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Grouped-query attention as Hugging Face's Llama is exported by the
// TorchScript exporter: 4 query heads, 2 key/value heads, each repeated
// twice (unsqueeze, expand, reshape) before the key's transpose. The fused
// op reads the unrepeated key and value; the repeats go.
// CHECK-LABEL: func.func @grouped_query(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x2x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x2x8x16xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x8x8xf32>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] {scale = 2.500000e-01 : f32} : (tensor<2x4x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x1x8x8xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
// CHECK-NEXT:    return %[[O]]
func.func @grouped_query(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %m: tensor<2x1x8x8xf32>) -> tensor<2x4x8x16xf32> {
  %c = arith.constant dense<5.000000e-01> : tensor<f32>
  %k1 = nn.reshape %k : tensor<2x2x8x16xf32> -> tensor<2x2x1x8x16xf32>
  %k2 = nn.broadcast_to %k1 : tensor<2x2x1x8x16xf32> -> tensor<2x2x2x8x16xf32>
  %k3 = nn.reshape %k2 : tensor<2x2x2x8x16xf32> -> tensor<2x4x8x16xf32>
  %v1 = nn.reshape %v : tensor<2x2x8x16xf32> -> tensor<2x2x1x8x16xf32>
  %v2 = nn.broadcast_to %v1 : tensor<2x2x1x8x16xf32> -> tensor<2x2x2x8x16xf32>
  %v3 = nn.reshape %v2 : tensor<2x2x2x8x16xf32> -> tensor<2x4x8x16xf32>
  %kt = nn.transpose %k3 [0, 1, 3, 2] : tensor<2x4x8x16xf32> -> tensor<2x4x16x8xf32>
  %qs = nn.mul %q, %c : (tensor<2x4x8x16xf32>, tensor<f32>) -> tensor<2x4x8x16xf32>
  %ks = nn.mul %kt, %c : (tensor<2x4x16x8xf32>, tensor<f32>) -> tensor<2x4x16x8xf32>
  %s = nn.matmul %qs, %ks : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %u = nn.add %s, %m : (tensor<2x4x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %u {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v3 : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// The torch.export-based exporter's form: the repeated key reshaped to
// [B*H, S, D], transposed, and reshaped back to [B, H, D, S]; one
// key/value head for all four query heads (multi-query attention). The
// value's repeat is reused elsewhere and stays.
// CHECK-LABEL: func.func @grouped_query_flat(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x1x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x1x8x16xf32>
// CHECK-NEXT:    %[[V1:.*]] = nn.reshape %[[V]]
// CHECK-NEXT:    %[[V2:.*]] = nn.broadcast_to %[[V1]]
// CHECK-NEXT:    %[[V3:.*]] = nn.reshape %[[V2]]
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f32} : (tensor<2x4x8x16xf32>, tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
// CHECK-NEXT:    return %[[O]], %[[V3]]
func.func @grouped_query_flat(%q: tensor<2x4x8x16xf32>, %k: tensor<2x1x8x16xf32>, %v: tensor<2x1x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) {
  %c = arith.constant dense<2.500000e-01> : tensor<f32>
  %k1 = nn.reshape %k : tensor<2x1x8x16xf32> -> tensor<2x1x1x8x16xf32>
  %k2 = nn.broadcast_to %k1 : tensor<2x1x1x8x16xf32> -> tensor<2x1x4x8x16xf32>
  %k3 = nn.reshape %k2 : tensor<2x1x4x8x16xf32> -> tensor<8x8x16xf32>
  %kt = nn.transpose %k3 [0, 2, 1] : tensor<8x8x16xf32> -> tensor<8x16x8xf32>
  %kr = nn.reshape %kt : tensor<8x16x8xf32> -> tensor<2x4x16x8xf32>
  %v1 = nn.reshape %v : tensor<2x1x8x16xf32> -> tensor<2x1x1x8x16xf32>
  %v2 = nn.broadcast_to %v1 : tensor<2x1x1x8x16xf32> -> tensor<2x1x4x8x16xf32>
  %v3 = nn.reshape %v2 : tensor<2x1x4x8x16xf32> -> tensor<2x4x8x16xf32>
  %s = nn.matmul %q, %kr : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %t = nn.mul %s, %c : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %t {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v3 : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o, %v3 : tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>
}

// -----

// The repeat's source is no unsqueeze of a [..., Hkv, S, D] tensor: the
// fused op reshapes it.
// CHECK-LABEL: func.func @grouped_query_source(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<3x8x4xf32>, %[[K:[a-z0-9]+]]: tensor<1x1x8x4xf32>, %[[V:[a-z0-9]+]]: tensor<1x1x8x2xf32>
// CHECK-NEXT:    %[[KR:.*]] = nn.reshape %[[K]] : tensor<1x1x8x4xf32> -> tensor<1x8x4xf32>
// CHECK-NEXT:    %[[VR:.*]] = nn.reshape %[[V]] : tensor<1x1x8x2xf32> -> tensor<1x8x2xf32>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[KR]], %[[VR]] {scale = 1.000000e+00 : f32} : (tensor<3x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x2xf32>) -> (tensor<3x8x2xf32>, tensor<3x8xf32>)
// CHECK-NEXT:    return %[[O]]
func.func @grouped_query_source(%q: tensor<3x8x4xf32>, %k: tensor<1x1x8x4xf32>, %v: tensor<1x1x8x2xf32>) -> tensor<3x8x2xf32> {
  %k2 = nn.broadcast_to %k : tensor<1x1x8x4xf32> -> tensor<1x3x8x4xf32>
  %k3 = nn.reshape %k2 : tensor<1x3x8x4xf32> -> tensor<3x8x4xf32>
  %v2 = nn.broadcast_to %v : tensor<1x1x8x2xf32> -> tensor<1x3x8x2xf32>
  %v3 = nn.reshape %v2 : tensor<1x3x8x2xf32> -> tensor<3x8x2xf32>
  %s = nn.matmul %q, %k3 {transpose_b} : (tensor<3x8x4xf32>, tensor<3x8x4xf32>) -> tensor<3x8x8xf32>
  %p = nn.softmax %s : tensor<3x8x8xf32>
  %o = nn.matmul %p, %v3 : (tensor<3x8x8xf32>, tensor<3x8x2xf32>) -> tensor<3x8x2xf32>
  return %o : tensor<3x8x2xf32>
}

// -----

// Heads tiled (x.repeat(1, G, 1, 1): query head h reads key head h % Hkv,
// not h / G), a key repeated but a value not, and key and value repeated
// by different groups: each fuses on the repeated tensors as written.
// CHECK-LABEL: func.func @not_grouped_query(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<1x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x2x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<1x4x8x16xf32>, %[[W:[a-z0-9]+]]: tensor<1x2x8x16xf32>
// CHECK:         %[[KT:.*]] = nn.reshape %{{.*}} : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
// CHECK:         %[[WT:.*]] = nn.reshape %{{.*}} : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
// CHECK-NEXT:    nn.attention %[[Q]], %[[KT]], %[[WT]] {{.*}} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
// CHECK:         %[[KR:.*]] = nn.reshape %{{.*}} : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
// CHECK-NEXT:    nn.attention %[[Q]], %[[KR]], %[[V]] {{.*}} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
// CHECK:         %[[VR:.*]] = nn.reshape %{{.*}} : tensor<1x1x4x8x16xf32> -> tensor<1x4x8x16xf32>
// CHECK-NEXT:    nn.attention %[[Q]], %[[KR]], %[[VR]] {{.*}} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
func.func @not_grouped_query(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x4x8x16xf32>, %w: tensor<1x2x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) {
  %t1 = nn.reshape %k : tensor<1x2x8x16xf32> -> tensor<1x1x2x8x16xf32>
  %t2 = nn.broadcast_to %t1 : tensor<1x1x2x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %kt = nn.reshape %t2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %u1 = nn.reshape %w : tensor<1x2x8x16xf32> -> tensor<1x1x2x8x16xf32>
  %u2 = nn.broadcast_to %u1 : tensor<1x1x2x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %wt = nn.reshape %u2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %s = nn.matmul %q, %kt {transpose_b} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x8xf32>
  %p = nn.softmax %s : tensor<1x4x8x8xf32>
  %o = nn.matmul %p, %wt : (tensor<1x4x8x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  %r1 = nn.reshape %k : tensor<1x2x8x16xf32> -> tensor<1x2x1x8x16xf32>
  %r2 = nn.broadcast_to %r1 : tensor<1x2x1x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %kr = nn.reshape %r2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %s2 = nn.matmul %q, %kr {transpose_b} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x8xf32>
  %p2 = nn.softmax %s2 : tensor<1x4x8x8xf32>
  %o2 = nn.matmul %p2, %v : (tensor<1x4x8x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  %v0 = nn.slice %v {offsets = array<i64: 0, 0, 0, 0>} : tensor<1x4x8x16xf32> -> tensor<1x1x8x16xf32>
  %w1 = nn.reshape %v0 : tensor<1x1x8x16xf32> -> tensor<1x1x1x8x16xf32>
  %w2 = nn.broadcast_to %w1 : tensor<1x1x1x8x16xf32> -> tensor<1x1x4x8x16xf32>
  %vr = nn.reshape %w2 : tensor<1x1x4x8x16xf32> -> tensor<1x4x8x16xf32>
  %s3 = nn.matmul %q, %kr {transpose_b} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x8xf32>
  %p3 = nn.softmax %s3 : tensor<1x4x8x8xf32>
  %o3 = nn.matmul %p3, %vr : (tensor<1x4x8x8xf32>, tensor<1x4x8x16xf32>) -> tensor<1x4x8x16xf32>
  return %o, %o2, %o3 : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>
}

// -----

// Multi-query attention written with the matmuls' broadcasting (one
// key/value head for all query heads, as Falcon's attention writes it):
// the heads dimension of 1 is a group of all 4 query heads.
// CHECK-LABEL: func.func @broadcast_heads(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x1x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x1x8x16xf32>
// CHECK-NEXT:    %[[O:.*]], %{{.*}} = nn.attention %[[Q]], %[[K]], %[[V]] {scale = 2.500000e-01 : f32} : (tensor<2x4x8x16xf32>, tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
// CHECK-NEXT:    return %[[O]]
func.func @broadcast_heads(%q: tensor<2x4x8x16xf32>, %k: tensor<2x1x8x16xf32>, %v: tensor<2x1x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %c = arith.constant dense<2.500000e-01> : tensor<f32>
  %s = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8x16xf32>, tensor<2x1x8x16xf32>) -> tensor<2x4x8x8xf32>
  %t = nn.mul %s, %c : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %t {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x1x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// A key and value broadcast over the batch, not the heads, stay unfused:
// nn.attention groups the heads only.
// CHECK-LABEL: func.func @broadcast_batch(
// CHECK-NOT:     nn.attention
// CHECK:         nn.softmax
func.func @broadcast_batch(%q: tensor<2x4x8x16xf32>, %k: tensor<1x4x8x16xf32>, %v: tensor<1x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %s = nn.matmul %q, %k {transpose_b} : (tensor<2x4x8x16xf32>, tensor<1x4x8x16xf32>) -> tensor<2x4x8x8xf32>
  %p = nn.softmax %s {axis = -1 : i64} : tensor<2x4x8x8xf32>
  %o = nn.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<1x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// An nn.attention that already exists (amp-import-onnx's of ONNX's
// Attention op) on Hugging Face's repeat_kv copies reads the unrepeated
// key and value; the copies are erased. Its mask, scale and causal
// frontier stay.
// CHECK-LABEL: func.func @grouped_attention_op(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x4x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x2x8x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x2x8x16xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x8x8xf32>
// CHECK-NEXT:    %[[O:.*]], %[[L:.*]] = nn.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] {causal, scale = 2.500000e-01 : f32} : (tensor<2x4x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x1x8x8xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
// CHECK-NEXT:    return %[[O]], %[[L]]
func.func @grouped_attention_op(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %m: tensor<2x1x8x8xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>) {
  %k1 = nn.reshape %k : tensor<2x2x8x16xf32> -> tensor<2x2x1x8x16xf32>
  %k2 = nn.broadcast_to %k1 : tensor<2x2x1x8x16xf32> -> tensor<2x2x2x8x16xf32>
  %k3 = nn.reshape %k2 : tensor<2x2x2x8x16xf32> -> tensor<2x4x8x16xf32>
  %v1 = nn.reshape %v : tensor<2x2x8x16xf32> -> tensor<2x2x1x8x16xf32>
  %v2 = nn.broadcast_to %v1 : tensor<2x2x1x8x16xf32> -> tensor<2x2x2x8x16xf32>
  %v3 = nn.reshape %v2 : tensor<2x2x2x8x16xf32> -> tensor<2x4x8x16xf32>
  %o, %lse = nn.attention %q, %k3, %v3 mask %m {causal, scale = 0.25 : f32} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x1x8x8xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x8xf32>)
  return %o, %lse : tensor<2x4x8x16xf32>, tensor<2x4x8xf32>
}

// -----

// Not read as grouped: the key's heads repeated but the value's tiled
// (x.repeat(1, G, 1, 1): another head mapping).
// CHECK-LABEL: func.func @not_grouped_attention_op(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 2.500000e-01 : f32} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>)
func.func @not_grouped_attention_op(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %k1 = nn.reshape %k : tensor<1x2x8x16xf32> -> tensor<1x2x1x8x16xf32>
  %k2 = nn.broadcast_to %k1 : tensor<1x2x1x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %k3 = nn.reshape %k2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %v1 = nn.reshape %v : tensor<1x2x8x16xf32> -> tensor<1x1x2x8x16xf32>
  %v2 = nn.broadcast_to %v1 : tensor<1x1x2x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %v3 = nn.reshape %v2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %o, %lse = nn.attention %q, %k3, %v3 {scale = 0.25 : f32} : (tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32>) -> (tensor<1x4x8x16xf32>, tensor<1x4x8xf32>)
  return %o : tensor<1x4x8x16xf32>
}
