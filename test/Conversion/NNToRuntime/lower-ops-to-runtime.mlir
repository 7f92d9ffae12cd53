// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime | FileCheck %s
// The whole amp-to-runtime pipeline accepts every function: it ends with
// amp-verify-runtime-contract, which fails the run on any op, type or
// declaration outside the runtime ABI.
// RUN: amp-opt %s -split-input-file --amp-to-runtime | FileCheck %s --check-prefix=CONTRACT
// CONTRACT-COUNT-36: llvm.func @{{[a-z0-9_]+}}(%{{.*}}: !llvm.ptr) -> i32 {
// CONTRACT-NOT: func.func

// One function per nn op of issue #10: the runtime call and its key
// arguments. Enum arguments are the runtime header's values
// (AMP_DTYPE_F32 = 0, F16 = 1, BF16 = 2; AMP_UNARY_ABS = 9, GELU_ERF = 10,
// SIN = 11, COS = 12, ERF = 13;
// AMP_BINARY_MAX = 4, MIN = 5); shapes and attribute arrays are module
// globals named by their values (@__amp_i64_4_8 holds [4, 8]).

// CHECK-LABEL: func.func @abs(
// CHECK: %[[ABS:.*]] = llvm.mlir.constant(9 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[X:.*]] = llvm.load
// CHECK: %[[Y:.*]] = llvm.load
// CHECK: llvm.call @amp_unary(%[[ABS]], %[[X]], %[[Y]], %[[N]], %[[F32]], %{{.*}})
func.func @abs(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.abs %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The exact GELU and its gradient (from the forward input x).
// CHECK-LABEL: func.func @gelu_erf(
// CHECK: %[[OP:.*]] = llvm.mlir.constant(10 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[OP]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: llvm.call @amp_gelu_erf_grad(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
func.func @gelu_erf(%x: tensor<4x8xbf16>, %dy: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %0 = nn.gelu_erf %x : tensor<4x8xbf16>
  %1 = nn.gelu_erf_grad %dy, %x : tensor<4x8xbf16>
  return %0, %1 : tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// sin, cos and erf, and erf's gradient (from the forward input x).
// CHECK-LABEL: func.func @sin_cos_erf(
// CHECK: %[[SIN:.*]] = llvm.mlir.constant(11 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[SIN]], %{{.*}}, %{{.*}}, %[[N]], %[[F16]], %{{.*}})
// CHECK: %[[COS:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[COS]], %{{.*}}, %{{.*}}, %[[N]], %[[F16]], %{{.*}})
// CHECK: %[[ERF:.*]] = llvm.mlir.constant(13 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ERF]], %{{.*}}, %{{.*}}, %[[N]], %[[F16]], %{{.*}})
// CHECK: llvm.call @amp_erf_grad(%{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[F16]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
func.func @sin_cos_erf(%x: tensor<4x8xf16>, %dy: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  %0 = nn.sin %x : tensor<4x8xf16>
  %1 = nn.cos %x : tensor<4x8xf16>
  %2 = nn.erf %x : tensor<4x8xf16>
  %3 = nn.erf_grad %dy, %x : tensor<4x8xf16>
  return %0, %1, %2, %3 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// The other trigonometric and hyperbolic functions: AMP_UNARY_TAN ..
// AMP_UNARY_ATANH = 18 .. 26.
// CHECK-LABEL: func.func @trig_hyperbolic(
// CHECK: %[[TAN:.*]] = llvm.mlir.constant(18 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[TAN]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ASIN:.*]] = llvm.mlir.constant(19 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ASIN]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ACOS:.*]] = llvm.mlir.constant(20 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ACOS]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ATAN:.*]] = llvm.mlir.constant(21 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ATAN]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[SINH:.*]] = llvm.mlir.constant(22 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[SINH]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[COSH:.*]] = llvm.mlir.constant(23 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[COSH]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ASINH:.*]] = llvm.mlir.constant(24 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ASINH]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ACOSH:.*]] = llvm.mlir.constant(25 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ACOSH]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ATANH:.*]] = llvm.mlir.constant(26 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ATANH]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
func.func @trig_hyperbolic(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %0 = nn.tan %x : tensor<2x8xbf16>
  %1 = nn.asin %0 : tensor<2x8xbf16>
  %2 = nn.acos %1 : tensor<2x8xbf16>
  %3 = nn.atan %2 : tensor<2x8xbf16>
  %4 = nn.sinh %3 : tensor<2x8xbf16>
  %5 = nn.cosh %4 : tensor<2x8xbf16>
  %6 = nn.asinh %5 : tensor<2x8xbf16>
  %7 = nn.acosh %6 : tensor<2x8xbf16>
  %8 = nn.atanh %7 : tensor<2x8xbf16>
  return %8 : tensor<2x8xbf16>
}

// -----

// nn.mod: AMP_BINARY_MOD = 8, with fmod AMP_BINARY_FMOD = 7; integer
// nn.div: AMP_BINARY_DIV = 3 on AMP_DTYPE_I64 = 4.
// CHECK-LABEL: func.func @mod_and_integer_div(
// CHECK: %[[MOD:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[I64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[MOD]], {{.*}}, %[[I64]], %{{.*}})
// CHECK: %[[FMOD:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[FMOD]], {{.*}}, %[[F32]], %{{.*}})
// CHECK: %[[DIV:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[DIV]], {{.*}}, %[[I64]], %{{.*}})
func.func @mod_and_integer_div(%a: tensor<2x8xi64>, %b: tensor<2x8xi64>, %x: tensor<2x8xf32>) -> (tensor<2x8xi64>, tensor<2x8xf32>) {
  %0 = nn.mod %a, %b : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
  %1 = nn.mod %x, %x {fmod} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = nn.div %0, %b : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
  return %2, %1 : tensor<2x8xi64>, tensor<2x8xf32>
}

// -----

// Integer arithmetic on position ids: amp_binary with AMP_DTYPE_I64 = 4
// (AMP_BINARY_MUL = 2).
// CHECK-LABEL: func.func @integer_mul(
// CHECK: %[[MUL:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[I64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[MUL]], {{.*}}, %[[I64]], %{{.*}})
func.func @integer_mul(%a: tensor<2x8xi64>, %b: tensor<2x8xi64>) -> tensor<2x8xi64> {
  %0 = nn.mul %a, %b : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
  return %0 : tensor<2x8xi64>
}

// -----

// nn.cumsum: amp_cumsum(x, y, dims, rank, axis normalized, exclusive,
// reverse, dtype, stream).
// CHECK-LABEL: func.func @cumsum(
// CHECK-DAG: %[[DIMS:.*]] = llvm.mlir.addressof @__amp_i64_2_8 : !llvm.ptr
// CHECK-DAG: %[[RANK:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[AXIS:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[I32:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @amp_cumsum(%{{.*}}, %{{.*}}, %[[DIMS]], %[[RANK]], %[[AXIS]], %[[ONE]], %[[ZERO]], %[[I32]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64, i32, i32, i32, !llvm.ptr) -> i32
func.func @cumsum(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  %0 = nn.cumsum %x {axis = -1 : i64, exclusive} : tensor<2x8xi32>
  return %0 : tensor<2x8xi32>
}

// -----

// nn.argmax: amp_argmax(x, y, dims, rank, axis normalized, select_last,
// dtype, stream); keep_dims does not change the layout.
// CHECK-LABEL: func.func @argmax(
// CHECK-DAG: %[[DIMS:.*]] = llvm.mlir.addressof @__amp_i64_4_8 : !llvm.ptr
// The rank and AMP_DTYPE_BF16 are both the constant 2.
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[AXIS:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[LAST:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_argmax(%{{.*}}, %{{.*}}, %[[DIMS]], %[[TWO]], %[[AXIS]], %[[LAST]], %[[TWO]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64, i32, i32, !llvm.ptr) -> i32
func.func @argmax(%x: tensor<4x8xbf16>) -> tensor<1x8xi64> {
  %0 = nn.argmax %x {axis = -2 : i64, keep_dims, select_last} : (tensor<4x8xbf16>) -> tensor<1x8xi64>
  return %0 : tensor<1x8xi64>
}

// -----

// The step functions (AMP_UNARY_FLOOR = 14, CEIL = 15, ROUND = 16,
// SIGN = 17).
// CHECK-LABEL: func.func @step_functions(
// CHECK: %[[FLOOR:.*]] = llvm.mlir.constant(14 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[FLOOR]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[CEIL:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[CEIL]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[ROUND:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[ROUND]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
// CHECK: %[[SIGN:.*]] = llvm.mlir.constant(17 : i32) : i32
// CHECK: llvm.call @amp_unary(%[[SIGN]], %{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %{{.*}})
func.func @step_functions(%x: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %0 = nn.floor %x : tensor<4x8xbf16>
  %1 = nn.ceil %x : tensor<4x8xbf16>
  %2 = nn.round %x : tensor<4x8xbf16>
  %3 = nn.sign %x : tensor<4x8xbf16>
  return %0, %1, %2, %3 : tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// nn.topk: amp_topk(x, y, dims, rank, axis normalized, k, smallest, dtype,
// stream).
// CHECK-LABEL: func.func @topk(
// CHECK-DAG: %[[DIMS:.*]] = llvm.mlir.addressof @__amp_i64_4_8 : !llvm.ptr
// CHECK-DAG: %[[RANK:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[AXIS:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[K:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[SMALLEST:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[I32:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @amp_topk(%{{.*}}, %{{.*}}, %[[DIMS]], %[[RANK]], %[[AXIS]], %[[K]], %[[SMALLEST]], %[[I32]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64, i64, i32, i32, !llvm.ptr) -> i32
func.func @topk(%x: tensor<4x8xi32>) -> tensor<4x3xi64> {
  %0 = nn.topk %x {axis = -1 : i64, k = 3 : i64, smallest} : (tensor<4x8xi32>) -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// -----

// CHECK-LABEL: func.func @pow(
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[E:.*]] = llvm.mlir.constant(3.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_pow(%{{.*}}, %{{.*}}, %[[N]], %[[BF16]], %[[E]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
func.func @pow(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = nn.pow %x {exponent = 3.000000e+00 : f32} : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @clamp(
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(6.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_clamp(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MIN]], %[[MAX]], %{{.*}})
func.func @clamp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.clamp %x {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A missing bound is passed as -inf (min) or +inf (max).
// CHECK-LABEL: func.func @clamp_min_only(
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(-1.000000e+00 : f32) : f32
// CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
// CHECK: llvm.call @amp_clamp(%{{.*}}, %{{.*}}, %{{.*}}, %[[F16]], %[[MIN]], %[[INF]], %{{.*}})
func.func @clamp_min_only(%x: tensor<f16>) -> tensor<f16> {
  %0 = nn.clamp %x {min = -1.000000e+00 : f32} : tensor<f16>
  return %0 : tensor<f16>
}

// -----

// CHECK-LABEL: func.func @clamp_grad_max_only(
// CHECK: %[[NINF:.*]] = llvm.mlir.constant(0xFF800000 : f32) : f32
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(6.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_clamp_grad(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NINF]], %[[MAX]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, f32, f32, !llvm.ptr) -> i32
func.func @clamp_grad_max_only(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = nn.clamp_grad %dy, %x {max = 6.000000e+00 : f32} : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// CHECK-LABEL: func.func @maximum(
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[LD:.*]] = llvm.mlir.addressof @__amp_i64_4_8 : !llvm.ptr
// CHECK: %[[LR:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[RD:.*]] = llvm.mlir.addressof @__amp_i64_8 : !llvm.ptr
// CHECK: %[[RR:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[MAX]], %{{.*}}, %{{.*}}, %{{.*}}, %[[LD]], %[[LR]], %[[RD]], %[[RR]], {{.*}})
func.func @maximum(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = nn.maximum %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @minimum(
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: llvm.call @amp_binary(%[[MIN]], {{.*}})
func.func @minimum(%a: tensor<4x1xf16>, %b: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %0 = nn.minimum %a, %b : (tensor<4x1xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// Both gradients have dy's shape; the three shapes go in dy, lhs, rhs order.
// CHECK-LABEL: func.func @maximum_grad(
// CHECK: %[[DYD:.*]] = llvm.mlir.addressof @__amp_i64_4_8
// CHECK: %[[AD:.*]] = llvm.mlir.addressof @__amp_i64_4_1
// CHECK: %[[BD:.*]] = llvm.mlir.addressof @__amp_i64_1_8
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[A:.*]] = llvm.load
// CHECK: %[[B:.*]] = llvm.load
// CHECK: %[[DA:.*]] = llvm.load
// CHECK: %[[DB:.*]] = llvm.load
// CHECK: llvm.call @amp_maximum_grad(%[[DY]], %[[A]], %[[B]], %[[DA]], %[[DB]], %[[DYD]], %{{.*}}, %[[AD]], %{{.*}}, %[[BD]], {{.*}})
func.func @maximum_grad(%dy: tensor<4x8xf32>, %a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %dl, %dr = nn.maximum_grad %dy, %a, %b : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %dl, %dr : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @minimum_grad(
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_minimum_grad({{.*}}, %[[F16]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32, i32, !llvm.ptr) -> i32
func.func @minimum_grad(%dy: tensor<4x8xf16>, %a: tensor<4x8xf16>, %b: tensor<8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %dl, %dr = nn.minimum_grad %dy, %a, %b : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
  return %dl, %dr : tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// The i1 condition is a bool buffer with its own shape and no dtype; a rank-0
// operand has no dims (null). Equal constants are one value.
// CHECK-LABEL: func.func @where(
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[CD:.*]] = llvm.mlir.addressof @__amp_i64_8 : !llvm.ptr
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[LD:.*]] = llvm.mlir.addressof @__amp_i64_4_1 : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_4_8 : !llvm.ptr
// CHECK: %[[C:.*]] = llvm.load
// CHECK: llvm.call @amp_where(%[[C]], %{{.*}}, %{{.*}}, %{{.*}}, %[[CD]], %[[ONE]], %[[LD]], %[[TWO]], %[[NULL]], %[[ZERO]], %[[YD]], %[[TWO]], %[[ONE]], %{{.*}})
func.func @where(%c: tensor<8xi1>, %a: tensor<4x1xf16>, %b: tensor<f16>) -> tensor<4x8xf16> {
  %0 = nn.where %c, %a, %b : (tensor<8xi1>, tensor<4x1xf16>, tensor<f16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// An i1 constant is one byte per element (AMP_DTYPE_BOOL): 4 bytes copied
// from a global of 0/1 bytes (globals print before the function).
// CHECK: llvm.mlir.global internal constant @__amp_const_{{[0-9_]+}}("\01\00\00\01")
// CHECK-LABEL: func.func @where_constant_mask(
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[MASK:.*]] = llvm.call @amp_alloc(%[[BYTES]], %{{.*}})
// CHECK: %[[DATA:.*]] = llvm.mlir.addressof @__amp_const_{{[0-9_]+}} : !llvm.ptr
// CHECK: llvm.call @amp_memcpy(%[[MASK]], %[[DATA]], %[[BYTES]], %{{.*}})
// CHECK: llvm.call @amp_where(%[[MASK]], {{.*}})
func.func @where_constant_mask(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[true, false, false, true]> : tensor<4xi1>
  %0 = nn.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// nn.compare: the predicate (ge = AMP_COMPARE_GE = 5), the operands' dtype
// (i64 = 4), the three shapes; a rank-0 operand has no dims (null).
// CHECK-LABEL: func.func @compare(
// CHECK-DAG: %[[GE:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[D:.*]] = llvm.mlir.addressof @__amp_i64_4_8 : !llvm.ptr
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[I64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.call @amp_compare(%[[GE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[D]], %[[TWO]], %[[NULL]], %[[ZERO]], %[[D]], %[[TWO]], %[[I64]], %{{.*}}) : (i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32, i32, !llvm.ptr) -> i32
func.func @compare(%ids: tensor<4x8xi64>, %z: tensor<i64>) -> tensor<4x8xi1> {
  %0 = nn.compare ge, %ids, %z : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
  return %0 : tensor<4x8xi1>
}

// -----

// nn.convert is amp_cast between any two dtypes: 32 elements, i64 (4) to
// bf16 (2).
// CHECK-LABEL: func.func @convert(
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[I64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @amp_cast(%{{.*}}, %{{.*}}, %[[N]], %[[I64]], %[[BF16]], %{{.*}})
func.func @convert(%m: tensor<4x8xi64>) -> tensor<4x8xbf16> {
  %0 = nn.convert %m : tensor<4x8xi64> to tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @where_grad(
// CHECK: %[[DYD:.*]] = llvm.mlir.addressof @__amp_i64_4_8
// CHECK: %[[CD:.*]] = llvm.mlir.addressof @__amp_i64_8
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[C:.*]] = llvm.load
// CHECK: %[[DL:.*]] = llvm.load
// CHECK: %[[DR:.*]] = llvm.load
// CHECK: llvm.call @amp_where_grad(%[[DY]], %[[C]], %[[DL]], %[[DR]], %[[DYD]], %{{.*}}, %[[CD]], {{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, i32, !llvm.ptr) -> i32
func.func @where_grad(%dy: tensor<4x8xf32>, %c: tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %dl, %dr = nn.where_grad %dy, %c : (tensor<4x8xf32>, tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %dl, %dr : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The seed is passed by pointer (its buffer), so no host sync.
// CHECK-LABEL: func.func @dropout(
// CHECK: %[[RATE:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK: %[[TRAIN:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[X:.*]] = llvm.load
// CHECK: %[[SEED:.*]] = llvm.load
// CHECK: llvm.call @amp_dropout(%[[X]], %[[SEED]], %{{.*}}, %{{.*}}, %{{.*}}, %[[RATE]], %[[TRAIN]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, f32, i32, !llvm.ptr) -> i32
func.func @dropout(%x: tensor<4x8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  %0 = nn.dropout %x, %seed {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Not training; a constant seed is an 8-byte buffer.
// CHECK-LABEL: func.func @dropout_eval(
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[SEED:.*]] = llvm.call @amp_alloc(%[[BYTES]], %{{.*}})
// CHECK: %[[RATE:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK: %[[TRAIN:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @amp_dropout(%{{.*}}, %[[SEED]], %{{.*}}, %{{.*}}, %{{.*}}, %[[RATE]], %[[TRAIN]], %{{.*}})
func.func @dropout_eval(%x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %seed = arith.constant dense<7> : tensor<i64>
  %0 = nn.dropout %x, %seed {rate = 5.000000e-01 : f32} : tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// -----

// The gradients from the forward output y, and abs_grad and pow_grad from
// x: (dy, y or x, dx, n, dtype[, exponent]).
// CHECK-LABEL: func.func @pointwise_grads(
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[Y:.*]] = llvm.load
// CHECK: llvm.call @amp_tanh_grad(%[[DY]], %[[Y]], %{{.*}}, %[[N]], %[[F32]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
// CHECK: llvm.call @amp_sigmoid_grad(%[[DY]], %[[Y]], {{.*}})
// CHECK: llvm.call @amp_sqrt_grad(%[[DY]], %[[Y]], {{.*}})
// CHECK: llvm.call @amp_rsqrt_grad(%[[DY]], %[[Y]], {{.*}})
// CHECK: llvm.call @amp_abs_grad(%[[DY]], %[[Y]], {{.*}})
// CHECK: %[[E:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_pow_grad(%[[DY]], %[[Y]], %{{.*}}, %[[N]], %[[F32]], %[[E]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
func.func @pointwise_grads(%dy: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = nn.tanh_grad %dy, %y : tensor<4x8xf32>
  %1 = nn.sigmoid_grad %dy, %y : tensor<4x8xf32>
  %2 = nn.sqrt_grad %dy, %y : tensor<4x8xf32>
  %3 = nn.rsqrt_grad %dy, %y : tensor<4x8xf32>
  %4 = nn.abs_grad %dy, %y : tensor<4x8xf32>
  %5 = nn.pow_grad %dy, %y {exponent = 5.000000e-01 : f32} : tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// An array of the input pointers and their sizes along the (normalized)
// axis.
// CHECK-LABEL: func.func @concat(
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[PTRS:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x ptr>
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[PTRS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A:.*]] = llvm.load
// CHECK: llvm.store %[[A]], %[[P0]]
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[PTRS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[B:.*]] = llvm.load
// CHECK: llvm.store %[[B]], %[[P1]]
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[PTRS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[C:.*]] = llvm.load
// CHECK: llvm.store %[[C]], %[[P2]]
// CHECK: %[[DIMS:.*]] = llvm.mlir.addressof @__amp_i64_6_4_8
// CHECK: %[[SIZES:.*]] = llvm.mlir.addressof @__amp_i64_2_1_3
// CHECK: %[[AXIS:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[Y:.*]] = llvm.load
// CHECK: llvm.call @amp_concat(%[[COUNT]], %[[PTRS]], %[[Y]], %[[DIMS]], %{{.*}}, %[[SIZES]], %{{.*}}, %[[AXIS]], %{{.*}})
func.func @concat(%a: tensor<2x4x8xf16>, %b: tensor<1x4x8xf16>, %c: tensor<3x4x8xf16>) -> tensor<6x4x8xf16> {
  %0 = nn.concat %a, %b, %c {axis = -3 : i64} : (tensor<2x4x8xf16>, tensor<1x4x8xf16>, tensor<3x4x8xf16>) -> tensor<6x4x8xf16>
  return %0 : tensor<6x4x8xf16>
}

// -----

// x's shape, then y's, the rank, offsets and strides.
// CHECK-LABEL: func.func @slice(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_4_8
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_4_4
// CHECK: %[[R:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[OFF:.*]] = llvm.mlir.addressof @__amp_i64_0_7
// CHECK: %[[STR:.*]] = llvm.mlir.addressof @__amp_i64_1_m2
// CHECK: llvm.call @amp_slice(%{{.*}}, %{{.*}}, %[[XD]], %[[YD]], %[[R]], %[[OFF]], %[[STR]], {{.*}})
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = nn.slice %x {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>} : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The gradient takes the same arguments: x_dims is dx's shape, y_dims dy's;
// absent strides are ones.
// CHECK-LABEL: func.func @slice_grad(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_4_8
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_2_3
// CHECK: %[[OFF:.*]] = llvm.mlir.addressof @__amp_i64_1_2
// CHECK: %[[STR:.*]] = llvm.mlir.addressof @__amp_i64_1_1
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[DX:.*]] = llvm.load
// CHECK: llvm.call @amp_slice_grad(%[[DY]], %[[DX]], %[[XD]], %[[YD]], %{{.*}}, %[[OFF]], %[[STR]], {{.*}})
func.func @slice_grad(%dy: tensor<2x3xf32>) -> tensor<4x8xf32> {
  %0 = nn.slice_grad %dy {offsets = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @pad(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_1_3_4_4
// CHECK: %[[R:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[LOW:.*]] = llvm.mlir.addressof @__amp_i64_0_0_1_2
// CHECK: %[[HIGH:.*]] = llvm.mlir.addressof @__amp_i64_0_0_2_1
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[V:.*]] = llvm.mlir.constant(-1.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_pad(%{{.*}}, %{{.*}}, %[[XD]], %[[R]], %[[LOW]], %[[HIGH]], %[[F16]], %[[V]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32, f32, !llvm.ptr) -> i32
func.func @pad(%x: tensor<1x3x4x4xf16>) -> tensor<1x3x7x7xf16> {
  %0 = nn.pad %x {high = array<i64: 0, 0, 2, 1>, low = array<i64: 0, 0, 1, 2>, value = -1.000000e+00 : f32} : tensor<1x3x4x4xf16> -> tensor<1x3x7x7xf16>
  return %0 : tensor<1x3x7x7xf16>
}

// -----

// Negative axes are normalized; x's shape and the axes as for amp_reduce
// (keep_dims does not change the layout), then x's and y's dtypes (the
// axis count and both bf16 dtypes are the one constant 2).
// CHECK-LABEL: func.func @reduce_max_grad(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_2_8_3
// CHECK: %[[R:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[AXES:.*]] = llvm.mlir.addressof @__amp_i64_0_2
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[X:.*]] = llvm.load
// CHECK: %[[Y:.*]] = llvm.load
// CHECK: %[[DX:.*]] = llvm.load
// CHECK: llvm.call @amp_reduce_max_grad(%[[DY]], %[[X]], %[[Y]], %[[DX]], %[[XD]], %[[R]], %[[AXES]], %[[TWO]], %[[TWO]], %[[TWO]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, i32, i32, !llvm.ptr) -> i32
func.func @reduce_max_grad(%dy: tensor<1x8x1xbf16>, %x: tensor<2x8x3xbf16>, %y: tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16> {
  %0 = nn.reduce_max_grad %dy, %x, %y [0, -1] keep_dims : (tensor<1x8x1xbf16>, tensor<2x8x3xbf16>, tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16>
  return %0 : tensor<2x8x3xbf16>
}

// -----

// Pools: x's and y's shapes, the dtype, kernel, strides, padding, then the
// dilation (max) or count_include_pad (avg); defaults are spelled out.
// CHECK-LABEL: func.func @max_pool2d(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_1_3_8_8
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_1_3_6_6
// CHECK: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[K:.*]] = llvm.mlir.addressof @__amp_i64_3_3
// CHECK: %[[S:.*]] = llvm.mlir.addressof @__amp_i64_1_1
// CHECK: %[[P:.*]] = llvm.mlir.addressof @__amp_i64_1_1_1_1
// CHECK: %[[D:.*]] = llvm.mlir.addressof @__amp_i64_2_2
// CHECK: llvm.call @amp_max_pool2d(%{{.*}}, %{{.*}}, %[[XD]], %[[YD]], %[[F16]], %[[K]], %[[S]], %[[P]], %[[D]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
func.func @max_pool2d(%x: tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16> {
  %0 = nn.max_pool2d %x {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16>
  return %0 : tensor<1x3x6x6xf16>
}

// -----

// CHECK-LABEL: func.func @max_pool2d_grad(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_8_16_32_32
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_8_16_16_16
// CHECK: %[[KS:.*]] = llvm.mlir.addressof @__amp_i64_2_2
// CHECK: %[[P:.*]] = llvm.mlir.addressof @__amp_i64_0_0_0_0
// CHECK: %[[D:.*]] = llvm.mlir.addressof @__amp_i64_1_1
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[X:.*]] = llvm.load
// CHECK: %[[DX:.*]] = llvm.load
// CHECK: llvm.call @amp_max_pool2d_grad(%[[DY]], %[[X]], %[[DX]], %[[XD]], %[[YD]], %{{.*}}, %[[KS]], %[[KS]], %[[P]], %[[D]], %{{.*}})
func.func @max_pool2d_grad(%dy: tensor<8x16x16x16xf32>, %x: tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32> {
  %0 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf32>, tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
  return %0 : tensor<8x16x32x32xf32>
}

// -----

// CHECK-LABEL: func.func @avg_pool2d(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_2_4_9_9
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_2_4_5_8
// CHECK: %[[K:.*]] = llvm.mlir.addressof @__amp_i64_2_3
// CHECK: %[[S:.*]] = llvm.mlir.addressof @__amp_i64_2_1
// CHECK: %[[P:.*]] = llvm.mlir.addressof @__amp_i64_0_1_1_0
// CHECK: %[[CIP:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @amp_avg_pool2d(%{{.*}}, %{{.*}}, %[[XD]], %[[YD]], %{{.*}}, %[[K]], %[[S]], %[[P]], %[[CIP]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> i32
func.func @avg_pool2d(%x: tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16> {
  %0 = nn.avg_pool2d %x {kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 2, 1>} : (tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16>
  return %0 : tensor<2x4x5x8xf16>
}

// -----

// x_dims is the result's (dx) shape, y_dims dy's.
// CHECK-LABEL: func.func @avg_pool2d_grad(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_1_2_8_8
// CHECK: %[[YD:.*]] = llvm.mlir.addressof @__amp_i64_1_2_4_4
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[CIP:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[DY:.*]] = llvm.load
// CHECK: %[[DX:.*]] = llvm.load
// CHECK: llvm.call @amp_avg_pool2d_grad(%[[DY]], %[[DX]], %[[XD]], %[[YD]], %[[BF16]], %{{.*}}, %{{.*}}, %{{.*}}, %[[CIP]], %{{.*}})
func.func @avg_pool2d_grad(%dy: tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16> {
  %0 = nn.avg_pool2d_grad %dy {count_include_pad, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16>
  return %0 : tensor<1x2x8x8xbf16>
}

// -----

// CHECK-LABEL: func.func @global_avg_pool(
// CHECK: %[[XD:.*]] = llvm.mlir.addressof @__amp_i64_8_512_7_7
// CHECK: %[[BF16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @amp_global_avg_pool(%{{.*}}, %{{.*}}, %[[XD]], %[[BF16]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr) -> i32
func.func @global_avg_pool(%x: tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16> {
  %0 = nn.global_avg_pool %x : (tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16>
  return %0 : tensor<8x512x1x1xbf16>
}

// -----

// The table's rows and columns and the number of ids (2 x 3); the gradient
// takes padding_idx, AMP_IGNORE_NONE (INT64_MIN) without one, and
// scale_grad_by_freq as 1 or 0.
// CHECK-LABEL: func.func @embedding(
// CHECK-DAG: %[[V:[0-9]+]] = llvm.mlir.constant(50 : i64) : i64
// CHECK-DAG: %[[D:[0-9]+]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[N:[0-9]+]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[ONE:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @amp_embedding(%{{.*}}, %{{.*}}, %{{.*}}, %[[V]], %[[D]], %[[N]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, i32, !llvm.ptr) -> i32
// CHECK-DAG: %[[PAD:[0-9]+]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[ZERO:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.call @amp_embedding_grad(%{{.*}}, %{{.*}}, %{{.*}}, %[[V]], %[[D]], %[[N]], %[[PAD]], %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i32, i32, i32, i32, !llvm.ptr) -> i32
// CHECK-DAG: %[[NONE:[0-9]+]] = llvm.mlir.constant(-9223372036854775808 : i64) : i64
// CHECK: llvm.call @amp_embedding_grad(%{{.*}}, %{{.*}}, %{{.*}}, %[[V]], %[[D]], %[[N]], %[[NONE]], %[[ZERO]],
func.func @embedding(%t: tensor<50x16xf16>, %ids: tensor<2x3xi64>, %dy: tensor<2x3x16xf16>) -> (tensor<2x3x16xf16>, tensor<50x16xf32>, tensor<50x16xf16>) {
  %0 = nn.embedding %t, %ids {padding_idx = 3 : i64} : (tensor<50x16xf16>, tensor<2x3xi64>) -> tensor<2x3x16xf16>
  %1 = nn.embedding_grad %dy, %ids {padding_idx = 3 : i64, scale_grad_by_freq} : (tensor<2x3x16xf16>, tensor<2x3xi64>) -> tensor<50x16xf32>
  %2 = nn.embedding_grad %dy, %ids : (tensor<2x3x16xf16>, tensor<2x3xi64>) -> tensor<50x16xf16>
  return %0, %1, %2 : tensor<2x3x16xf16>, tensor<50x16xf32>, tensor<50x16xf16>
}

// -----

// Rows are the logits' leading dims (4 x 8); the ignore_index and the label
// smoothing are passed on, and without an ignore_index AMP_IGNORE_NONE
// (INT64_MIN) ignores nothing, without smoothing 0.
// CHECK-LABEL: func.func @cross_entropy(
// CHECK-DAG: %[[ROWS:[0-9]+]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[CLASSES:[0-9]+]] = llvm.mlir.constant(50 : i64) : i64
// CHECK-DAG: %[[IGNORE:[0-9]+]] = llvm.mlir.constant(-100 : i64) : i64
// CHECK-DAG: %[[SMOOTH:[0-9]+]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK: llvm.call @amp_cross_entropy(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]], %[[CLASSES]], %[[IGNORE]], %[[SMOOTH]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, f32, i32, i32, !llvm.ptr) -> i32
// CHECK: llvm.call @amp_cross_entropy_grad(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]], %[[CLASSES]], %[[IGNORE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, f32, i32, i32, i32, !llvm.ptr) -> i32
// CHECK-DAG: %[[NONE:[0-9]+]] = llvm.mlir.constant(-9223372036854775808 : i64) : i64
// CHECK-DAG: %[[ZERO:[0-9]+]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_cross_entropy(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]], %[[CLASSES]], %[[NONE]], %[[ZERO]],
func.func @cross_entropy(%l: tensor<4x8x50xf16>, %y: tensor<4x8xi32>, %g: tensor<f32>) -> (tensor<f32>, tensor<4x8x50xf16>, tensor<f32>) {
  %0 = nn.cross_entropy %l, %y {ignore_index = -100 : i64, label_smoothing = 0.25 : f32} : (tensor<4x8x50xf16>, tensor<4x8xi32>) -> tensor<f32>
  %1 = nn.cross_entropy_grad %g, %l, %y {ignore_index = -100 : i64, label_smoothing = 0.25 : f32} : (tensor<f32>, tensor<4x8x50xf16>, tensor<4x8xi32>) -> tensor<4x8x50xf16>
  %2 = nn.cross_entropy %l, %y : (tensor<4x8x50xf16>, tensor<4x8xi32>) -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<4x8x50xf16>, tensor<f32>
}

// -----

// The loss is an f32 scalar; n counts every element and is the mean's
// divisor. The kind is amp_elementwise_loss_t's (MSE 0), the parameter 0
// for all but Huber.
// CHECK-LABEL: func.func @mse_loss(
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[MSE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[NONE:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[P:.*]] = llvm.load
// CHECK: %[[T:.*]] = llvm.load
// CHECK: %[[L:.*]] = llvm.load
// CHECK: llvm.call @amp_elementwise_loss(%[[MSE]], %[[NONE]], %[[P]], %[[T]], %[[L]], %[[N]], %[[N]], %[[F16]], %{{.*}}) : (i32, f32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i32, !llvm.ptr) -> i32
func.func @mse_loss(%p: tensor<4x8xf16>, %t: tensor<4x8xf16>) -> tensor<f32> {
  %0 = nn.mse_loss %p, %t : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A sum divides by 1.
// CHECK-LABEL: func.func @l1_loss_sum(
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[L1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[NONE:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_elementwise_loss(%[[L1]], %[[NONE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[ONE]],
func.func @l1_loss_sum(%p: tensor<4x8xf32>, %t: tensor<4x8xf32>) -> tensor<f32> {
  %0 = nn.l1_loss %p, %t reduction sum : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Huber (2) passes its delta.
// CHECK-LABEL: func.func @huber_loss(
// CHECK-DAG: %[[HUBER:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[DELTA:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_elementwise_loss(%[[HUBER]], %[[DELTA]],
func.func @huber_loss(%p: tensor<4x8xf16>, %t: tensor<4x8xf16>) -> tensor<f32> {
  %0 = nn.huber_loss %p, %t {delta = 0.5 : f32} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @bce_with_logits_loss(
// CHECK-DAG: %[[BCE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @amp_elementwise_loss(%[[BCE]],
func.func @bce_with_logits_loss(%p: tensor<4x8xbf16>, %t: tensor<4x8xbf16>) -> tensor<f32> {
  %0 = nn.bce_with_logits_loss %p, %t : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// grad_loss has its own dtype (f32 here), the prediction f16.
// CHECK-LABEL: func.func @mse_loss_grad(
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[GT:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[PT:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[NONE:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[G:.*]] = llvm.load
// CHECK: %[[P:.*]] = llvm.load
// CHECK: %[[T:.*]] = llvm.load
// CHECK: %[[DP:.*]] = llvm.load
// CHECK: llvm.call @amp_elementwise_loss_grad(%[[GT]], %[[NONE]], %[[G]], %[[P]], %[[T]], %[[DP]], %[[N]], %[[N]], %[[GT]], %[[PT]], %{{.*}})
func.func @mse_loss_grad(%g: tensor<f32>, %p: tensor<32x1xf16>, %t: tensor<32x1xf16>) -> tensor<32x1xf16> {
  %0 = nn.mse_loss_grad %g, %p, %t : (tensor<f32>, tensor<32x1xf16>, tensor<32x1xf16>) -> tensor<32x1xf16>
  return %0 : tensor<32x1xf16>
}

// -----

// CHECK-LABEL: func.func @huber_loss_grad(
// CHECK-DAG: %[[HUBER:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[DELTA:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK: llvm.call @amp_elementwise_loss_grad(%[[HUBER]], %[[DELTA]],
func.func @huber_loss_grad(%g: tensor<f32>, %p: tensor<32x1xf32>, %t: tensor<32x1xf32>) -> tensor<32x1xf32> {
  %0 = nn.huber_loss_grad %g, %p, %t {delta = 0.25 : f32} : (tensor<f32>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  return %0 : tensor<32x1xf32>
}

// -----

// The summed BCE's gradient divides by 1, the L1's by its 32 elements.
// CHECK-LABEL: func.func @l1_and_bce_grads(
// CHECK: %[[L1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[N:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.call @amp_elementwise_loss_grad(%[[L1]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[N]],
// CHECK: %[[BCE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @amp_elementwise_loss_grad(%[[BCE]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]], %[[ONE]],
func.func @l1_and_bce_grads(%g: tensor<f32>, %p: tensor<32x1xf32>, %t: tensor<32x1xf32>) -> (tensor<32x1xf32>, tensor<32x1xf32>) {
  %0 = nn.l1_loss_grad %g, %p, %t : (tensor<f32>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %1 = nn.bce_with_logits_loss_grad %g, %p, %t reduction sum : (tensor<f32>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  return %0, %1 : tensor<32x1xf32>, tensor<32x1xf32>
}

// -----

// The unbiased correction count / (count - 1) is folded into one f32
// constant (128 / 127); the results are fresh buffers.
// CHECK-LABEL: func.func @running_stats_update(
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG: %[[MOM:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK-DAG: %[[EPS:.*]] = llvm.mlir.constant(1.000000e-03 : f32) : f32
// CHECK-DAG: %[[COR:.*]] = llvm.mlir.constant(1.00787401 : f32) : f32
// CHECK: llvm.call @amp_running_stats_update(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]], %[[MOM]], %[[EPS]], %[[COR]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, f32, f32, f32, !llvm.ptr) -> i32
func.func @running_stats_update(%rm: tensor<16xf32>, %rv: tensor<16xf32>, %m: tensor<16xf32>, %i: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = nn.running_stats_update %rm, %rv, %m, %i {count = 128 : i64, epsilon = 1.0e-3 : f32, momentum = 0.25 : f32} : tensor<16xf32>
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// The biased form passes a correction of 1.
// CHECK-LABEL: func.func @running_stats_update_biased(
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_running_stats_update({{.*}}, %[[ONE]], %{{.*}}) :
func.func @running_stats_update_biased(%rm: tensor<16xf32>, %rv: tensor<16xf32>, %m: tensor<16xf32>, %i: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0:2 = nn.running_stats_update %rm, %rv, %m, %i {count = 1 : i64, unbiased = false} : tensor<16xf32>
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// nn.attention: amp_attention(q, k, v, mask, out, lse, q dims, rank, Sk, Dv,
// kv_group (1: as many key/value heads as query heads), mask dims padded
// with leading 1s to the scores' rank, dtype (F16), mask dtype (F32),
// scale, causal, dropout seed (NULL: none), dropout rate (0), stream); the
// results are the function's.
// CHECK-LABEL: func.func @attention(
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[NORATE:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-DAG: %[[QDIMS:.*]] = llvm.mlir.addressof @__amp_i64_2_4_8_16 : !llvm.ptr
// CHECK-DAG: %[[MDIMS:.*]] = llvm.mlir.addressof @__amp_i64_1_1_1_6 : !llvm.ptr
// CHECK-DAG: %[[RANK:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[SK:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[DV:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG: %[[GROUP:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[SCALE:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK: llvm.call @amp_attention(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[QDIMS]], %[[RANK]], %[[SK]], %[[DV]], %[[GROUP]], %[[MDIMS]], %[[F16]], %[[F32]], %[[SCALE]], %[[F16]], %[[NULL]], %[[NORATE]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i64, i64, i64, !llvm.ptr, i32, i32, f32, i32, !llvm.ptr, f32, !llvm.ptr) -> i32
func.func @attention(%q: tensor<2x4x8x16xf16>, %k: tensor<2x4x6x16xf16>, %v: tensor<2x4x6x32xf16>, %m: tensor<6xf32>) -> (tensor<2x4x8x32xf16>, tensor<2x4x8xf32>) {
  %o, %lse = nn.attention %q, %k, %v mask %m {causal, scale = 0.25 : f32} : (tensor<2x4x8x16xf16>, tensor<2x4x6x16xf16>, tensor<2x4x6x32xf16>, tensor<6xf32>) -> (tensor<2x4x8x32xf16>, tensor<2x4x8xf32>)
  return %o, %lse : tensor<2x4x8x32xf16>, tensor<2x4x8xf32>
}

// -----

// nn.attention_grad without a mask: NULL mask and mask dims, the default
// scale 1/sqrt(D) = 0.5, causal 0, kv_group 1 (rank 2: no heads); with
// dropout: the seed's buffer (the step's argument #6, from the argument
// array) and the rate.
// CHECK-LABEL: func.func @attention_grad(
// CHECK-DAG: %[[RATE:.*]] = llvm.mlir.constant(1.000000e-01 : f32) : f32
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[QDIMS:.*]] = llvm.mlir.addressof @__amp_i64_3_4 : !llvm.ptr
// CHECK-DAG: %[[RANK:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[SK:.*]] = llvm.mlir.constant(5 : i64) : i64
// CHECK-DAG: %[[DV:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[GROUP:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[SCALE:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK: %[[SEEDAT:.*]] = llvm.getelementptr %arg0[6] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[SEED:.*]] = llvm.load %[[SEEDAT]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @amp_attention_grad(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[QDIMS]], %[[RANK]], %[[SK]], %[[DV]], %[[GROUP]], %[[NULL]], %[[F32]], %[[F32]], %[[SCALE]], %[[F32]], %[[SEED]], %[[RATE]], %{{.*}})
func.func @attention_grad(%dy: tensor<3x2xf32>, %q: tensor<3x4xf32>, %k: tensor<5x4xf32>, %v: tensor<5x2xf32>, %o: tensor<3x2xf32>, %lse: tensor<3xf32>, %seed: tensor<i64>)
    -> (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>) {
  %dq, %dk, %dv = nn.attention_grad %dy, %q, %k, %v, %o, %lse dropout %seed {dropout_rate = 1.000000e-01 : f32} : (tensor<3x2xf32>, tensor<3x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>, tensor<3x2xf32>, tensor<3xf32>, tensor<i64>) -> (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>)
  return %dq, %dk, %dv : tensor<3x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>
}

// -----

// Grouped-query attention: 8 query heads on 2 key/value heads, kv_group 4,
// the same in the gradient.
// CHECK-LABEL: func.func @attention_grouped_query(
// CHECK-DAG: %[[QDIMS:.*]] = llvm.mlir.addressof @__amp_i64_2_8_5_4 : !llvm.ptr
// CHECK-DAG: %[[SK:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[DV:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[GROUP:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.call @amp_attention(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[QDIMS]], %{{.*}}, %[[SK]], %[[DV]], %[[GROUP]], %{{.*}})
// CHECK: llvm.call @amp_attention_grad(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[QDIMS]], %{{.*}}, %[[SK]], %[[DV]], %[[GROUP]], %{{.*}})
func.func @attention_grouped_query(%q: tensor<2x8x5x4xf32>, %k: tensor<2x2x6x4xf32>, %v: tensor<2x2x6x3xf32>, %dy: tensor<2x8x5x3xf32>)
    -> (tensor<2x8x5x4xf32>, tensor<2x2x6x4xf32>, tensor<2x2x6x3xf32>) {
  %o, %lse = nn.attention %q, %k, %v : (tensor<2x8x5x4xf32>, tensor<2x2x6x4xf32>, tensor<2x2x6x3xf32>) -> (tensor<2x8x5x3xf32>, tensor<2x8x5xf32>)
  %dq, %dk, %dv = nn.attention_grad %dy, %q, %k, %v, %o, %lse : (tensor<2x8x5x3xf32>, tensor<2x8x5x4xf32>, tensor<2x2x6x4xf32>, tensor<2x2x6x3xf32>, tensor<2x8x5x3xf32>, tensor<2x8x5xf32>) -> (tensor<2x8x5x4xf32>, tensor<2x2x6x4xf32>, tensor<2x2x6x3xf32>)
  return %dq, %dk, %dv : tensor<2x8x5x4xf32>, tensor<2x2x6x4xf32>, tensor<2x2x6x3xf32>
}
