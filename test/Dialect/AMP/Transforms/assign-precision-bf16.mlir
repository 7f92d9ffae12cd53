// RUN: amp-opt %s -split-input-file --amp-assign-precision="compute-type=bf16 remarks=true" -verify-diagnostics | FileCheck %s
// RUN: amp-opt %s -split-input-file --amp-assign-precision="compute-type=f16" | FileCheck %s --check-prefix=F16

// bf16 only: an infer op directly after an allow op follows it, even with no
// allow op downstream. In f16 it stays f32.
// CHECK-LABEL: func @infer_follows_allow
// CHECK: nn.gelu {{.*}}amp.precision = bf16
// CHECK: nn.add {{.*}}amp.precision = f32
// F16-LABEL: func @infer_follows_allow
// F16: nn.gelu {{.*}}amp.precision = f32
func.func @infer_follows_allow(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (follows-allow-bf16)}}
  %1 = nn.gelu %0 : tensor<4x8xf32>
  // Only the infer op directly after a low-precision op: not transitive.
  // expected-remark @below {{f32 (no-allow-path)}}
  %2 = nn.add %1, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// bf16 has f32's range: exp and the normalizations are infer, not deny.
// F16-LABEL: func @range_ops
// F16: nn.exp {{.*}}amp.precision = f32
// F16: nn.layer_norm {{.*}}amp.precision = f32
func.func @range_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %1 = nn.exp %0 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %y, %m, %r = nn.layer_norm %1, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  // expected-remark @below {{bf16 (allow)}}
  %2 = nn.matmul %y, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // Probabilities and logs stay f32 in bf16 too.
  // expected-remark @below {{f32 (deny)}}
  %3 = nn.log_softmax %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// A constant out of f16's range fits bf16.
func.func @constant_fits_bf16(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %big = arith.constant dense<1.0e+06> : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %1 = nn.mul %0, %big : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %2 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// The exact GELU is infer, as the tanh form: between two matmuls it runs in
// the compute type in bf16 and in f16.
// CHECK-LABEL: func @gelu_erf_between_matmuls
// CHECK: nn.gelu_erf {{.*}}amp.precision = bf16
// F16-LABEL: func @gelu_erf_between_matmuls
// F16: nn.gelu_erf {{.*}}amp.precision = f16
func.func @gelu_erf_between_matmuls(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %1 = nn.gelu_erf %0 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %2 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// cumsum is deny in both types (PyTorch's autocast runs it in f32); integer
// arithmetic on ids has no float operand to retype: it keeps its types.
// CHECK-LABEL: func @cumsum_between_matmuls
// CHECK: nn.cumsum {{.*}}amp.precision = f32
// CHECK: nn.add {{.*}} : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x8xi64>
// F16-LABEL: func @cumsum_between_matmuls
// F16: nn.cumsum {{.*}}amp.precision = f32
func.func @cumsum_between_matmuls(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %ids: tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>) {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.cumsum %0 {axis = 1 : i64} : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %2 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // An integer op is decided as the integer compare is (no float operand is
  // retyped).
  // expected-remark @below {{f32 (no-allow-path)}}
  %3 = nn.add %ids, %ids : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<4x8xi64>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xi64>
}

// argmax is clear: it compares the values it is given, here the matmul's
// bf16 result, exactly; its i64 result is no float edge.
// CHECK-LABEL: func @argmax_after_matmul
// CHECK: nn.argmax {{.*}}amp.precision = bf16
func.func @argmax_after_matmul(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4xi64> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (follows-neighbour)}}
  %1 = nn.argmax %0 {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4xi64>
  return %1 : tensor<4xi64>
}

// topk is clear as argmax: a router picks its experts from the matmul's
// bf16 scores as they are.
// CHECK-LABEL: func @topk_after_matmul
// CHECK: nn.topk {{.*}}amp.precision = bf16
func.func @topk_after_matmul(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x2xi64> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (follows-neighbour)}}
  %1 = nn.topk %0 {axis = 1 : i64, k = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x2xi64>
  return %1 : tensor<4x2xi64>
}

// sin and cos are deny in both types (their argument reduction needs the
// low bits of large angles); erf is infer.
// CHECK-LABEL: func @sin_cos_erf_between_matmuls
// CHECK: nn.sin {{.*}}amp.precision = f32
// CHECK: nn.cos {{.*}}amp.precision = f32
// CHECK: nn.erf {{.*}}amp.precision = bf16
// F16-LABEL: func @sin_cos_erf_between_matmuls
// F16: nn.sin {{.*}}amp.precision = f32
// F16: nn.cos {{.*}}amp.precision = f32
// F16: nn.erf {{.*}}amp.precision = f16
func.func @sin_cos_erf_between_matmuls(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.sin %0 : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %2 = nn.cos %1 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %4 = nn.erf %3 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %5 = nn.matmul %4, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %5 : tensor<4x8xf32>
}

// -----

// Each of the other trigonometric and hyperbolic functions between two
// matmuls: tan, asin, acos, acosh and atanh are deny in both types (large
// derivatives at the ends of their domains); sinh and cosh are deny in f16
// only (range, as exp); atan and asinh are infer (well conditioned).
// CHECK-LABEL: func @trig_hyperbolic_between_matmuls
// CHECK: nn.tan {{.*}}amp.precision = f32
// CHECK: nn.asin {{.*}}amp.precision = f32
// CHECK: nn.acos {{.*}}amp.precision = f32
// CHECK: nn.atan {{.*}}amp.precision = bf16
// CHECK: nn.sinh {{.*}}amp.precision = bf16
// CHECK: nn.cosh {{.*}}amp.precision = bf16
// CHECK: nn.asinh {{.*}}amp.precision = bf16
// CHECK: nn.acosh {{.*}}amp.precision = f32
// CHECK: nn.atanh {{.*}}amp.precision = f32
// F16-LABEL: func @trig_hyperbolic_between_matmuls
// F16: nn.tan {{.*}}amp.precision = f32
// F16: nn.asin {{.*}}amp.precision = f32
// F16: nn.acos {{.*}}amp.precision = f32
// F16: nn.atan {{.*}}amp.precision = f16
// F16: nn.sinh {{.*}}amp.precision = f32
// F16: nn.cosh {{.*}}amp.precision = f32
// F16: nn.asinh {{.*}}amp.precision = f16
// F16: nn.acosh {{.*}}amp.precision = f32
// F16: nn.atanh {{.*}}amp.precision = f32
func.func @trig_hyperbolic_between_matmuls(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %m0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %t0 = nn.tan %m0 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m1 = nn.matmul %t0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %t1 = nn.asin %m1 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m2 = nn.matmul %t1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %t2 = nn.acos %m2 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m3 = nn.matmul %t2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %t3 = nn.atan %m3 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m4 = nn.matmul %t3, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %t4 = nn.sinh %m4 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m5 = nn.matmul %t4, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %t5 = nn.cosh %m5 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m6 = nn.matmul %t5, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %t6 = nn.asinh %m6 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m7 = nn.matmul %t6, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %t7 = nn.acosh %m7 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m8 = nn.matmul %t7, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %t8 = nn.atanh %m8 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %m9 = nn.matmul %t8, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %m9 : tensor<4x8xf32>
}

// -----

// floor, ceil, round and sign are clear: exact in every float type, they
// follow the matmuls' low type.
// CHECK-LABEL: func @step_functions_between_matmuls
// CHECK: nn.floor {{.*}}amp.precision = bf16
// CHECK: nn.ceil {{.*}}amp.precision = bf16
// CHECK: nn.round {{.*}}amp.precision = bf16
// CHECK: nn.sign {{.*}}amp.precision = bf16
// F16-LABEL: func @step_functions_between_matmuls
// F16: nn.floor {{.*}}amp.precision = f16
// F16: nn.sign {{.*}}amp.precision = f16
func.func @step_functions_between_matmuls(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{bf16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %1 = nn.floor %0 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %2 = nn.ceil %1 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %3 = nn.round %2 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (between-allow)}}
  %4 = nn.sign %3 : tensor<4x8xf32>
  // expected-remark @below {{bf16 (allow)}}
  %5 = nn.matmul %4, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %5 : tensor<4x8xf32>
}
