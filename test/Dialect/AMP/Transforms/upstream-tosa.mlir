// RUN: amp-opt %s -split-input-file --amp-assign-precision --amp-insert-casts | FileCheck %s
// The output is valid TOSA (the verifier runs on the re-parse):
// RUN: amp-opt %s -split-input-file --amp-assign-precision --amp-insert-casts | amp-opt -split-input-file > /dev/null
// RUN: amp-opt %s -split-input-file --amp-assign-precision="remarks=true" -verify-diagnostics > /dev/null
// RUN: amp-opt %s -split-input-file --amp-assign-precision="compute-type=bf16" --amp-insert-casts | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s -split-input-file --amp-assign-precision="compute-type=bf16" --amp-insert-casts | amp-opt -split-input-file > /dev/null

// TOSA as TFLite and torch-mlir emit it. Casts are tosa.cast; constants
// (zero points) are converted at compile time; tosa.clamp's bounds follow
// its type.

// An MLP with a TFLite-style softmax (reduce_max, sub, exp, reduce_sum,
// reciprocal, mul): matmuls in f16, bias add and relu between them in f16,
// the second matmul stores its f32 accumulator for the softmax, which stays
// f32 throughout.
// CHECK-LABEL: func @tosa_mlp
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x16xf32>, %[[W1:.*]]: tensor<1x16x32xf32>, %[[B1:.*]]: tensor<1x1x32xf32>, %[[W2:.*]]: tensor<1x32x4xf32>)
// CHECK-NEXT: %[[X16:.*]] = tosa.cast %[[X]] : (tensor<1x8x16xf32>) -> tensor<1x8x16xf16>
// CHECK-NEXT: %[[W116:.*]] = tosa.cast %[[W1]] : (tensor<1x16x32xf32>) -> tensor<1x16x32xf16>
// CHECK-NEXT: %[[B116:.*]] = tosa.cast %[[B1]] : (tensor<1x1x32xf32>) -> tensor<1x1x32xf16>
// CHECK-NEXT: %[[W216:.*]] = tosa.cast %[[W2]] : (tensor<1x32x4xf32>) -> tensor<1x32x4xf16>
// CHECK-NEXT: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
// CHECK-NEXT: %[[MM1:.*]] = tosa.matmul %[[X16]], %[[W116]], %[[ZP]], %[[ZP]] {{.*}} -> tensor<1x8x32xf16>
// CHECK-NEXT: %[[ADD:.*]] = tosa.add %[[MM1]], %[[B116]] {{.*}} -> tensor<1x8x32xf16>
// CHECK-NEXT: %[[RELU:.*]] = tosa.clamp %[[ADD]] {{{.*}}max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16} : (tensor<1x8x32xf16>) -> tensor<1x8x32xf16>
// CHECK-NEXT: %[[MM2:.*]] = tosa.matmul %[[RELU]], %[[W216]], %[[ZP]], %[[ZP]] {{.*}} : (tensor<1x8x32xf16>, tensor<1x32x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x4xf32>
// CHECK-NEXT: %[[MAX:.*]] = tosa.reduce_max %[[MM2]] {{.*}} : (tensor<1x8x4xf32>) -> tensor<1x8x1xf32>
// CHECK-NEXT: %[[SUB:.*]] = tosa.sub %[[MM2]], %[[MAX]] {{.*}} -> tensor<1x8x4xf32>
// CHECK-NEXT: %[[EXP:.*]] = tosa.exp %[[SUB]] {{.*}} -> tensor<1x8x4xf32>
// CHECK-NEXT: %[[SUM:.*]] = tosa.reduce_sum %[[EXP]] {{.*}} -> tensor<1x8x1xf32>
// CHECK-NEXT: %[[RCP:.*]] = tosa.reciprocal %[[SUM]] {{.*}} -> tensor<1x8x1xf32>
// CHECK-NEXT: %[[SHIFT:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK-NEXT: %[[SM:.*]] = tosa.mul %[[EXP]], %[[RCP]], %[[SHIFT]] {{.*}} -> tensor<1x8x4xf32>
// CHECK-NEXT: return %[[SM]]
// CHECK-NOT: amp.cast
// CHECK-NOT: arith.
func.func @tosa_mlp(%x: tensor<1x8x16xf32>, %w1: tensor<1x16x32xf32>, %b1: tensor<1x1x32xf32>, %w2: tensor<1x32x4xf32>) -> tensor<1x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{f16 (allow)}}
  %mm1 = tosa.matmul %x, %w1, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %add = tosa.add %mm1, %b1 : (tensor<1x8x32xf32>, tensor<1x1x32xf32>) -> tensor<1x8x32xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %relu = tosa.clamp %add {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  // expected-remark @below {{f16 (allow)}}
  %mm2 = tosa.matmul %relu, %w2, %zp, %zp : (tensor<1x8x32xf32>, tensor<1x32x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x4xf32>
  // expected-remark @below {{f32 (deny)}}
  %max = tosa.reduce_max %mm2 {axis = 2 : i32} : (tensor<1x8x4xf32>) -> tensor<1x8x1xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %sub = tosa.sub %mm2, %max : (tensor<1x8x4xf32>, tensor<1x8x1xf32>) -> tensor<1x8x4xf32>
  // expected-remark @below {{f32 (deny)}}
  %exp = tosa.exp %sub : (tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
  // expected-remark @below {{f32 (deny)}}
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<1x8x4xf32>) -> tensor<1x8x1xf32>
  // expected-remark @below {{f32 (deny)}}
  %rcp = tosa.reciprocal %sum : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-remark @below {{f32 (deny-propagated)}}
  %sm = tosa.mul %exp, %rcp, %shift : (tensor<1x8x4xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x4xf32>
  return %sm : tensor<1x8x4xf32>
}

// -----

// Convolutions with relu6 between them: conv2d in f16 with its bias and
// zero points converted (acc_type stays f32); the result the function
// returns in f32 is cast back with tosa.cast.
// CHECK-LABEL: func @tosa_conv
// CHECK-DAG: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK-DAG: %[[B16:.*]] = tosa.cast %{{.*}} : (tensor<8xf32>) -> tensor<8xf16>
// CHECK: %[[C1:.*]] = tosa.conv2d %{{.*}}, %{{.*}}, %[[B16]], %[[ZP]], %[[ZP]] {acc_type = f32, {{.*}} : (tensor<1x8x8x4xf16>, tensor<8x3x3x4xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x8xf16>
// CHECK-NEXT: %[[R:.*]] = tosa.clamp %[[C1]] {{{.*}}max_val = 6.000000e+00 : f16, min_val = 0.000000e+00 : f16}
// CHECK-NEXT: %[[C2:.*]] = tosa.conv2d %[[R]], {{.*}} -> tensor<1x8x8x8xf16>
// CHECK-NEXT: %[[OUT:.*]] = tosa.cast %[[C2]] : (tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @tosa_conv(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>, %w2: tensor<8x3x3x8xf32>) -> tensor<1x8x8x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{f16 (allow)}}
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %c2 = tosa.conv2d %r, %w2, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  return %c2 : tensor<1x8x8x8xf32>
}

// -----

// exp is denied in f16 for its range, but infer in bf16 (f32's exponent
// range): between two matmuls it is bf16 there.
// CHECK-LABEL: func @tosa_exp_between_matmuls
// CHECK: tosa.exp %{{.*}} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
// BF16-LABEL: func @tosa_exp_between_matmuls
// BF16: tosa.exp %{{.*}} : (tensor<1x4x8xbf16>) -> tensor<1x4x8xbf16>
// BF16-NOT: amp.cast
func.func @tosa_exp_between_matmuls(%x: tensor<1x4x8xf32>, %w: tensor<1x8x8xf32>) -> tensor<1x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark @below {{f16 (allow)}}
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %e = tosa.exp %m : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %m2 = tosa.matmul %e, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  return %m2 : tensor<1x4x8xf32>
}
