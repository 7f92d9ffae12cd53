// RUN: amp-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the nn dialect (NNOps.cpp, NNDialect.cpp
// and the ODS constraints of NNOps.td).

//===----------------------------------------------------------------------===//
// ODS type constraints
//===----------------------------------------------------------------------===//

func.func @dynamic_shape(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'nn.relu' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<?x8xf32>'}}
  %0 = nn.relu %x : tensor<?x8xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'nn.exp' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<*xf32>'}}
  %0 = "nn.exp"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// nn.powf is float only.
func.func @integer_powf(%a: tensor<4xi64>, %b: tensor<4xi64>) {
  // expected-error @+1 {{'nn.powf' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi64>'}}
  %0 = nn.powf %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return
}

// -----

// Shapes that do not broadcast.
func.func @powf_shapes(%a: tensor<4x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes [4, 3] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.powf' op failed to infer returned types}}
  %0 = nn.powf %a, %b : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// nn.div takes integers (truncating), but not booleans.
func.func @bool_div(%a: tensor<4xi1>, %b: tensor<4xi1>) {
  // expected-error @+1 {{'nn.div' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = nn.div %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @bool_add(%a: tensor<4xi1>, %b: tensor<4xi1>) {
  // expected-error @+1 {{'nn.add' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = nn.add %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @integer_widths(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'i64' and 'i32'}}
  // expected-error @+1 {{'nn.mul' op failed to infer returned types}}
  %0 = nn.mul %a, %b : (tensor<4xi64>, tensor<4xi32>) -> tensor<4xi64>
  return
}

// -----

func.func @f64_data(%a: tensor<4x4xf64>) {
  // expected-error @+1 {{'nn.matmul' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4x4xf64>'}}
  %0 = nn.matmul %a, %a : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  return
}

// -----

func.func @float_ids(%t: tensor<10x4xf32>, %ids: tensor<3xf32>) {
  // expected-error @+1 {{'nn.embedding' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xf32>'}}
  %0 = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @f16_loss(%l: tensor<4x10xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'nn.cross_entropy' op result #0 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0 = nn.cross_entropy %l, %y : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f16>
  return
}

// -----

func.func @non_scalar_grad_loss(%s: tensor<1xf32>, %l: tensor<4x10xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'nn.cross_entropy_grad' op operand #0 must be 0D tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1xf32>'}}
  %0 = nn.cross_entropy_grad %s, %l, %y : (tensor<1xf32>, tensor<4x10xf32>, tensor<4xi32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @f16_statistics(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>, %m: tensor<4xf16>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'nn.layer_norm_grad' op operand #2 must be statically shaped tensor of 32-bit float values, but got 'tensor<4xf16>'}}
  %0:3 = nn.layer_norm_grad %dy, %x, %m, %m, %s : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf16>, tensor<4xf16>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @f16_step(%p: tensor<8xf32>, %step: tensor<f16>) {
  // expected-error @+1 {{'nn.adam_update' op operand #4 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0:4 = "nn.adam_update"(%p, %p, %p, %p, %step) {lr = 1.0e-3 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f16>)
  return
}

// -----

func.func @missing_required_attribute(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op requires attribute 'lr'}}
  %0 = nn.sgd_update %p, %p : tensor<8xf32>
  return
}

// -----

func.func @wrong_attribute_type(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op attribute 'lr' failed to satisfy constraint: 32-bit float attribute}}
  %0 = nn.sgd_update %p, %p {lr = 0.1 : f64} : tensor<8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// -----

func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'nn.add' op failed to infer returned types}}
  %0 = nn.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @binary_not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes [4, 8] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.mul' op failed to infer returned types}}
  %0 = nn.mul %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @binary_wrong_result_shape(%a: tensor<4x1xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{'nn.sub' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{'nn.sub' op failed to infer returned types}}
  %0 = nn.sub %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x1xf32>
  return
}

// -----

// Elementwise ops do not accumulate: f16 operands give an f16 result.
func.func @binary_f32_result_of_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) {
  // expected-error @+2 {{'nn.div' op inferred type(s) 'tensor<4xf16>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'nn.div' op failed to infer returned types}}
  %0 = nn.div %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @unary_type_change(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.tanh' op requires the same type for all operands and results}}
  %0 = "nn.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @maximum_not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes [4, 8] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.maximum' op failed to infer returned types}}
  %0 = nn.maximum %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @pow_without_exponent(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.pow' op requires attribute 'exponent'}}
  %0 = nn.pow %x : tensor<4xf32>
  return
}

// -----

func.func @clamp_without_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.clamp' op requires at least one of min and max}}
  %0 = nn.clamp %x : tensor<4xf32>
  return
}

// -----

func.func @clamp_min_above_max(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.clamp' op min = 2 must be <= max = 1.5}}
  %0 = nn.clamp %x {min = 2.0 : f32, max = 1.5 : f32} : tensor<4xf32>
  return
}

// -----

func.func @clamp_nan_bound(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.clamp' op min and max must not be NaN}}
  %0 = nn.clamp %x {max = 0x7FC00000 : f32} : tensor<4xf32>
  return
}

// -----

func.func @where_integer_cond(%c: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.where' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = nn.where %c, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_element_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'nn.where' op failed to infer returned types}}
  %0 = nn.where %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @where_not_broadcastable(%c: tensor<4x3xi1>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{cond [4, 3], lhs [4, 8] and rhs [8] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.where' op failed to infer returned types}}
  %0 = nn.where %c, %a, %b : (tensor<4x3xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// The condition broadcasts too: here it adds a dimension.
func.func @where_wrong_result_shape(%c: tensor<2x1x8xi1>, %a: tensor<4x8xf32>) {
  // expected-error @+2 {{'nn.where' op inferred type(s) 'tensor<2x4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{'nn.where' op failed to infer returned types}}
  %0 = nn.where %c, %a, %a : (tensor<2x1x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @compare_element_types(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'i64' and 'i32'}}
  // expected-error @+1 {{'nn.compare' op failed to infer returned types}}
  %0 = nn.compare eq, %a, %b : (tensor<4xi64>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_not_broadcastable(%a: tensor<4x3xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{operand shapes [4, 3] and [8] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.compare' op failed to infer returned types}}
  %0 = nn.compare lt, %a, %b : (tensor<4x3xf32>, tensor<8xf32>) -> tensor<4x8xi1>
  return
}

// -----

func.func @compare_float_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = nn.compare lt, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_unknown_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'nn.compare' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = nn.compare ult, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_predicate_out_of_range(%a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.compare' op attribute 'predicate' failed to satisfy constraint: the comparison of nn.compare}}
  %0 = "nn.compare"(%a, %a) {predicate = 9 : i32} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @convert_between_floats(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.convert' op converts 'f32' to 'f16': conversions between float types are the precision passes' (amp.cast); nn.convert needs an integer or i1 side}}
  %0 = nn.convert %x : tensor<4xf32> to tensor<4xf16>
  return
}

// -----

func.func @convert_shape(%x: tensor<4xi64>) {
  // expected-error @+1 {{'nn.convert' op the result shape [2, 2] must be the input shape [4]}}
  %0 = nn.convert %x : tensor<4xi64> to tensor<2x2xf32>
  return
}

// -----

func.func @convert_unsupported_type(%x: tensor<4xi8>) {
  // expected-error @+1 {{'nn.convert' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = nn.convert %x : tensor<4xi8> to tensor<4xf32>
  return
}

// -----

func.func @reshape_element_types(%x: tensor<4xi64>) {
  // expected-error @+1 {{input and result must have the same element type, got 'i64' and 'i32'}}
  %0 = nn.reshape %x : tensor<4xi64> -> tensor<2x2xi32>
  return
}

// -----

func.func @dropout_rate_one(%x: tensor<4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'nn.dropout' op rate must be in [0, 1), got 1}}
  %0 = nn.dropout %x, %s {rate = 1.0 : f32, training} : tensor<4xf32>
  return
}

// -----

func.func @dropout_negative_rate(%x: tensor<4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'nn.dropout' op rate must be in [0, 1), got -0.1}}
  %0 = nn.dropout %x, %s {rate = -0.1 : f32} : tensor<4xf32>
  return
}

// -----

func.func @dropout_seed_not_scalar(%x: tensor<4xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'nn.dropout' op operand #1 must be 0D tensor of 64-bit signless integer values, but got 'tensor<2xi64>'}}
  %0 = "nn.dropout"(%x, %s) {rate = 0.5 : f32} : (tensor<4xf32>, tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @dropout_result_type(%x: tensor<4xf32>, %s: tensor<i64>) {
  // expected-error @+1 {{'nn.dropout' op failed to verify that all of {input, result} have same type}}
  %0 = "nn.dropout"(%x, %s) {rate = 0.5 : f32} : (tensor<4xf32>, tensor<i64>) -> tensor<4xf16>
  return
}

// -----

func.func @maximum_grad_shape(%dy: tensor<4x4xf32>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{grad_output has shape [4, 4] but lhs [4, 8] and rhs [8] broadcast to [4, 8]}}
  // expected-error @+1 {{'nn.maximum_grad' op failed to infer returned types}}
  %0:2 = nn.maximum_grad %dy, %a, %b : (tensor<4x4xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @minimum_grad_not_broadcastable(%dy: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes [4, 8] and [4] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.minimum_grad' op failed to infer returned types}}
  %0:2 = nn.minimum_grad %dy, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @minimum_grad_element_types(%dy: tensor<4x8xf16>, %a: tensor<4x8xf32>) {
  // expected-error @+2 {{grad_output and lhs must have the same element type, got 'f16' and 'f32'}}
  // expected-error @+1 {{'nn.minimum_grad' op failed to infer returned types}}
  %0:2 = nn.minimum_grad %dy, %a, %a : (tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
  return
}

// -----

func.func @where_grad_cond_shape(%dy: tensor<4x8xf32>, %c: tensor<4x3xi1>) {
  // expected-error @+2 {{cond [4, 3] does not broadcast to grad_output's shape [4, 8]}}
  // expected-error @+1 {{'nn.where_grad' op failed to infer returned types}}
  %0:2 = nn.where_grad %dy, %c : (tensor<4x8xf32>, tensor<4x3xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

// The forward result, and so dy, has the broadcast shape of all three operands.
func.func @where_grad_cond_larger(%dy: tensor<4x8xf32>, %c: tensor<2x4x8xi1>) {
  // expected-error @+2 {{cond [2, 4, 8] does not broadcast to grad_output's shape [4, 8]}}
  // expected-error @+1 {{'nn.where_grad' op failed to infer returned types}}
  %0:2 = nn.where_grad %dy, %c : (tensor<4x8xf32>, tensor<2x4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

//===----------------------------------------------------------------------===//
// nn.matmul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank1(%a: tensor<8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+2 {{operands must have rank >= 2, got lhs [8] and rhs [8, 4]}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<8xf32>, tensor<8x4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<4x8xf16>, %b: tensor<8x4xbf16>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'f16' and 'bf16'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x4xbf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_k_mismatch(%a: tensor<4x8xf32>, %b: tensor<16x4xf32>) {
  // expected-error @+2 {{contraction dimensions differ: lhs [4, 8] has K = 8 but rhs [16, 4] has K = 16}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_k_mismatch_transposed(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+2 {{contraction dimensions differ: lhs [4, 8] (transposed) has K = 4 but rhs [4, 8] (transposed) has K = 8}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b {transpose_a, transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) {
  // expected-error @+2 {{batch dimensions [2] and [3] are not broadcast-compatible}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

func.func @matmul_wrong_result_shape(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+2 {{'nn.matmul' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<16x4xf32>'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<16x4xf32>
  return
}

// -----

// The result is the operands' element type or f32, nothing else.
func.func @matmul_f16_to_bf16(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) {
  // expected-error @+2 {{'nn.matmul' op inferred type(s) 'tensor<4x16xf16>' are incompatible with return type(s) of operation 'tensor<4x16xbf16>'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xbf16>
  return
}

// -----

// An f32 matmul cannot store a low-precision result: that is an amp.cast.
func.func @matmul_f32_to_f16(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+2 {{'nn.matmul' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<4x16xf16>'}}
  // expected-error @+1 {{'nn.matmul' op failed to infer returned types}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf16>
  return
}

//===----------------------------------------------------------------------===//
// nn.conv2d geometry
//===----------------------------------------------------------------------===//

// -----

func.func @conv_input_rank(%x: tensor<3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{input must be rank 4 (NCHW), got [3, 32, 32]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<16x30x30xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3xf32>) {
  // expected-error @+2 {{filter must be rank 4 (OIHW), got [16, 3, 3]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<16x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_empty_kernel(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x0x3xf32>) {
  // expected-error @+2 {{filter must have a kernel of at least 1x1, got [1, 1, 0, 3]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<1x1x0x3xf32>) -> tensor<1x1x5x2xf32>
  return
}

// -----

func.func @conv_strides_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [1, 1, 1]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {strides = array<i64: 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_zero_stride(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [0, 1]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_negative_dilation(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{dilation must be 2 positive values, got [1, -1]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {dilation = array<i64: 1, -1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_padding_count(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [1, 1]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  return
}

// -----

func.func @conv_negative_padding(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [0, 0, -1, 0]}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {padding = array<i64: 0, 0, -1, 0>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x29x30xf32>
  return
}

// -----

func.func @conv_zero_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+2 {{groups must be positive, got 0}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {groups = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_do_not_divide_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error @+2 {{groups = 4 must divide the input channels (6) and the output channels (8)}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x6x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_groups_do_not_divide_output_channels(%x: tensor<1x8x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+2 {{groups = 4 must divide the input channels (8) and the output channels (6)}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_channel_mismatch(%x: tensor<1x3x32x32xf32>, %w: tensor<16x4x3x3xf32>) {
  // expected-error @+2 {{filter has 4 input channels per group but input has 3 channels in 1 group(s)}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv_group_channel_mismatch(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) {
  // expected-error @+2 {{filter has 8 input channels per group but input has 8 channels in 2 group(s)}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_kernel_too_large(%x: tensor<1x3x4x4xf32>, %w: tensor<8x3x5x3xf32>) {
  // expected-error @+2 {{dilated kernel extent 5 exceeds the padded input extent 4 in spatial dimension 0}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<8x3x5x3xf32>) -> tensor<1x8x0x2xf32>
  return
}

// -----

func.func @conv_dilated_kernel_too_large(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{dilated kernel extent 9 exceeds the padded input extent 8 in spatial dimension 1}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {dilation = array<i64: 1, 4>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x0xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x8x8xf16>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{input and filter must have the same element type, got 'f16' and 'f32'}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x3x8x8xf16>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_wrong_result_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{'nn.conv2d' op inferred type(s) 'tensor<1x8x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x8x6x6xf32>'}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @conv_bf16_to_f16(%x: tensor<1x3x8x8xbf16>, %w: tensor<8x3x3x3xbf16>) {
  // expected-error @+2 {{'nn.conv2d' op inferred type(s) 'tensor<1x8x6x6xbf16>' are incompatible with return type(s) of operation 'tensor<1x8x6x6xf16>'}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w : (tensor<1x3x8x8xbf16>, tensor<8x3x3x3xbf16>) -> tensor<1x8x6x6xf16>
  return
}

// -----

// conv2d shares the window arithmetic and its overflow checks.
func.func @conv_padding_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+2 {{padded input extent (8 + 9223372036854775807 + 1) overflows int64 in spatial dimension 1}}
  // expected-error @+1 {{'nn.conv2d' op failed to infer returned types}}
  %0 = nn.conv2d %x, %w {padding = array<i64: 0, 9223372036854775807, 0, 1>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// Convolution gradients
//===----------------------------------------------------------------------===//

// -----

func.func @conv_grad_input_shape_mismatch(%dy: tensor<1x8x5x5xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{'nn.conv2d_grad_input' op grad_output has shape [1, 8, 5, 5] but the forward convolution of input [1, 3, 8, 8] with filter [8, 3, 3, 3] produces [1, 8, 6, 6]}}
  %0 = nn.conv2d_grad_input %dy, %w : (tensor<1x8x5x5xf32>, tensor<8x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @conv_grad_filter_shape_mismatch(%dy: tensor<1x8x6x6xf32>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'nn.conv2d_grad_filter' op grad_output has shape [1, 8, 6, 6] but the forward convolution of input [1, 3, 8, 8] with filter [8, 3, 5, 5] produces [1, 8, 4, 4]}}
  %0 = nn.conv2d_grad_filter %dy, %x : (tensor<1x8x6x6xf32>, tensor<1x3x8x8xf32>) -> tensor<8x3x5x5xf32>
  return
}

// -----

func.func @conv_grad_input_result_rank(%dy: tensor<1x8x6x6xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{the result (input gradient) must be rank 4 (NCHW), got [3, 8, 8]}}
  %0 = nn.conv2d_grad_input %dy, %w : (tensor<1x8x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<3x8x8xf32>
  return
}

// -----

func.func @conv_grad_filter_channels(%dy: tensor<1x8x6x6xf32>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{the result (filter gradient) has 4 input channels per group but input has 3 channels in 1 group(s)}}
  %0 = nn.conv2d_grad_filter %dy, %x : (tensor<1x8x6x6xf32>, tensor<1x3x8x8xf32>) -> tensor<8x4x3x3xf32>
  return
}

// -----

func.func @conv_grad_input_geometry(%dy: tensor<1x8x6x6xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{strides must be 2 positive values, got [-1, 1]}}
  %0 = nn.conv2d_grad_input %dy, %w {strides = array<i64: -1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @conv_grad_input_element_types(%dy: tensor<1x8x6x6xf16>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{grad_output and filter must have the same element type, got 'f16' and 'f32'}}
  %0 = nn.conv2d_grad_input %dy, %w : (tensor<1x8x6x6xf16>, tensor<8x3x3x3xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @conv_grad_filter_element_types(%dy: tensor<1x8x6x6xbf16>, %x: tensor<1x3x8x8xf16>) {
  // expected-error @+1 {{grad_output and input must have the same element type, got 'bf16' and 'f16'}}
  %0 = nn.conv2d_grad_filter %dy, %x : (tensor<1x8x6x6xbf16>, tensor<1x3x8x8xf16>) -> tensor<8x3x3x3xf32>
  return
}

// -----

func.func @conv_grad_input_f16_to_bf16(%dy: tensor<1x8x6x6xf16>, %w: tensor<8x3x3x3xf16>) {
  // expected-error @+1 {{'nn.conv2d_grad_input' op result element type must be 'f16' or f32 (f32 accumulation), got 'bf16'}}
  %0 = nn.conv2d_grad_input %dy, %w : (tensor<1x8x6x6xf16>, tensor<8x3x3x3xf16>) -> tensor<1x3x8x8xbf16>
  return
}

// -----

func.func @conv_grad_filter_f32_to_f16(%dy: tensor<1x8x6x6xf32>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'nn.conv2d_grad_filter' op result element type must be 'f32' or f32 (f32 accumulation), got 'f16'}}
  %0 = nn.conv2d_grad_filter %dy, %x : (tensor<1x8x6x6xf32>, tensor<1x3x8x8xf32>) -> tensor<8x3x3x3xf16>
  return
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// -----

func.func @pool_input_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+2 {{input must be rank 4 (NCHW), got [3, 8, 8]}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x7x7xf32>
  return
}

// -----

func.func @pool_missing_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'nn.avg_pool2d' op requires attribute 'kernel'}}
  %0 = nn.avg_pool2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @pool_kernel_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{kernel must be 2 positive values, got [2]}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @pool_zero_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{kernel must be 2 positive values, got [0, 2]}}
  // expected-error @+1 {{'nn.avg_pool2d' op failed to infer returned types}}
  %0 = nn.avg_pool2d %x {kernel = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x9x7xf32>
  return
}

// -----

func.func @pool_zero_stride(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{strides must be 2 positive values, got [1, 0]}}
  // expected-error @+1 {{'nn.avg_pool2d' op failed to infer returned types}}
  %0 = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @pool_negative_dilation(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{dilation must be 2 positive values, got [-1, 1]}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>, dilation = array<i64: -1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @pool_padding_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [1, 1]}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x9x9xf32>
  return
}

// -----

func.func @pool_negative_padding(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padding must be 4 non-negative values [top, left, bottom, right], got [0, -1, 0, 0]}}
  // expected-error @+1 {{'nn.avg_pool2d' op failed to infer returned types}}
  %0 = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 0, -1, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x6xf32>
  return
}

// -----

// An output extent below 1 is an error.
func.func @pool_kernel_too_large(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+2 {{dilated kernel extent 5 exceeds the padded input extent 4 in spatial dimension 1}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 3>, dilation = array<i64: 1, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x3x0xf32>
  return
}

// -----

// Extents near the int64 limit are reported, never wrapped.
func.func @pool_padding_overflow(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{padded input extent (8 + 9223372036854775807 + 0) overflows int64 in spatial dimension 0}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 9223372036854775807, 0, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @pool_dilation_overflow(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{dilated kernel extent (9223372036854775807 * (3 - 1) + 1) overflows int64 in spatial dimension 1}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 3>, dilation = array<i64: 1, 9223372036854775807>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @pool_wrong_result_shape(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{'nn.max_pool2d' op inferred type(s) 'tensor<1x3x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x3x7x7xf32>'}}
  // expected-error @+1 {{'nn.max_pool2d' op failed to infer returned types}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

// Pools accumulate in f32 but store the input type.
func.func @pool_f32_result_of_f16(%x: tensor<1x3x8x8xf16>) {
  // expected-error @+2 {{'nn.avg_pool2d' op inferred type(s) 'tensor<1x3x7x7xf16>' are incompatible with return type(s) of operation 'tensor<1x3x7x7xf32>'}}
  // expected-error @+1 {{'nn.avg_pool2d' op failed to infer returned types}}
  %0 = nn.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xf16>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @global_avg_pool_rank(%x: tensor<8x16xf32>) {
  // expected-error @+2 {{input must be rank 4 (NCHW), got [8, 16]}}
  // expected-error @+1 {{'nn.global_avg_pool' op failed to infer returned types}}
  %0 = nn.global_avg_pool %x : (tensor<8x16xf32>) -> tensor<8x16x1x1xf32>
  return
}

// -----

func.func @global_avg_pool_result(%x: tensor<8x16x7x7xf32>) {
  // expected-error @+2 {{'nn.global_avg_pool' op inferred type(s) 'tensor<8x16x1x1xf32>' are incompatible with return type(s) of operation 'tensor<8x16xf32>'}}
  // expected-error @+1 {{'nn.global_avg_pool' op failed to infer returned types}}
  %0 = nn.global_avg_pool %x : (tensor<8x16x7x7xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @max_pool_grad_shape_mismatch(%dy: tensor<1x3x3x3xf32>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{grad_output has shape [1, 3, 3, 3] but the forward pooling of input [1, 3, 8, 8] produces [1, 3, 4, 4]}}
  // expected-error @+1 {{'nn.max_pool2d_grad' op failed to infer returned types}}
  %0 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x3x3xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @max_pool_grad_element_types(%dy: tensor<1x3x4x4xf16>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{grad_output and input must have the same element type, got 'f16' and 'f32'}}
  // expected-error @+1 {{'nn.max_pool2d_grad' op failed to infer returned types}}
  %0 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf16>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// The gradient checks the forward geometry.
func.func @max_pool_grad_geometry(%dy: tensor<1x3x4x4xf32>, %x: tensor<1x3x8x8xf32>) {
  // expected-error @+2 {{dilation must be 2 positive values, got [0, 1]}}
  // expected-error @+1 {{'nn.max_pool2d_grad' op failed to infer returned types}}
  %0 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 0, 1>} : (tensor<1x3x4x4xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @avg_pool_grad_shape_mismatch(%dy: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{grad_output has shape [1, 2, 3, 3] but the forward pooling of the result (input gradient) [1, 2, 8, 8] produces [1, 2, 4, 4]}}
  %0 = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @avg_pool_grad_result_rank(%dy: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{the result (input gradient) must be rank 4 (NCHW), got [2, 8, 8]}}
  %0 = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<2x8x8xf32>
  return
}

// -----

func.func @avg_pool_grad_element_types(%dy: tensor<1x2x4x4xf16>) {
  // expected-error @+1 {{grad_output and the result (input gradient) must have the same element type, got 'f16' and 'f32'}}
  %0 = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf16>) -> tensor<1x2x8x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

// -----

func.func @running_stats_rank2(%s: tensor<2x8xf32>) {
  // expected-error @+1 {{'nn.running_stats_update' op the statistics must be 1-D (one value per channel), got 'tensor<2x8xf32>'}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 4 : i64} : tensor<2x8xf32>
  return
}

// -----

func.func @running_stats_f16(%s: tensor<8xf16>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit float values}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 4 : i64} : tensor<8xf16>
  return
}

// -----

func.func @running_stats_types(%s: tensor<8xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{all of {running_mean, running_var, mean, invstd, new_running_mean, new_running_var} have same type}}
  %0:2 = "nn.running_stats_update"(%s, %s, %t, %s) {count = 4 : i64} : (tensor<8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @running_stats_momentum(%s: tensor<8xf32>) {
  // expected-error @+1 {{momentum must be in [0, 1], got 1.5}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 4 : i64, momentum = 1.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @running_stats_epsilon(%s: tensor<8xf32>) {
  // expected-error @+1 {{epsilon must be a finite value >= 0, got -1}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 4 : i64, epsilon = -1.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @running_stats_unbiased_count(%s: tensor<8xf32>) {
  // expected-error @+1 {{count must be >= 2 for the unbiased variance, got 1}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 1 : i64} : tensor<8xf32>
  return
}

// -----

func.func @running_stats_biased_count(%s: tensor<8xf32>) {
  // expected-error @+1 {{count must be >= 1, got 0}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = 0 : i64, unbiased = false} : tensor<8xf32>
  return
}

// -----

// A negative count is not read as an unsigned 2^64 - 1.
func.func @running_stats_negative_count(%s: tensor<8xf32>) {
  // expected-error @+1 {{count must be >= 2 for the unbiased variance, got -1}}
  %0:2 = nn.running_stats_update %s, %s, %s, %s {count = -1 : i64} : tensor<8xf32>
  return
}

// -----

func.func @running_stats_norm_count(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %s : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  // expected-error @+1 {{count must be 128, the values per channel of the nn.batch_norm its statistics come from; got 16}}
  %0:2 = nn.running_stats_update %s, %s, %mean, %invstd {count = 16 : i64} : tensor<16xf32>
  return
}

// -----

func.func @running_stats_norm_epsilon(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %s {epsilon = 1.0e-3 : f32} : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  // expected-error @+1 {{epsilon must be the nn.batch_norm's (0.001), got 1e-05}}
  %0:2 = nn.running_stats_update %s, %s, %mean, %invstd {count = 128 : i64} : tensor<16xf32>
  return
}

// -----

func.func @batch_norm_rank1(%x: tensor<16xf32>, %s: tensor<16xf32>) {
  // expected-error @+2 {{input must have rank >= 2 (N, C, ...), got [16]}}
  // expected-error @+1 {{'nn.batch_norm' op failed to infer returned types}}
  %0:3 = nn.batch_norm %x, %s, %s : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_scale_shape(%x: tensor<8x16x4x4xf32>, %s: tensor<4xf32>, %b: tensor<16xf32>) {
  // expected-error @+2 {{scale must have shape [16] ([C]), got [4]}}
  // expected-error @+1 {{'nn.batch_norm' op failed to infer returned types}}
  %0:3 = nn.batch_norm %x, %s, %b : (tensor<8x16x4x4xf32>, tensor<4xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_bias_shape(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<1x16xf32>) {
  // expected-error @+2 {{bias must have shape [16] ([C]), got [1, 16]}}
  // expected-error @+1 {{'nn.batch_norm' op failed to infer returned types}}
  %0:3 = nn.batch_norm %x, %s, %b : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<1x16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_scale_element_type(%x: tensor<8x16xf16>, %s: tensor<16xbf16>, %b: tensor<16xf16>) {
  // expected-error @+2 {{scale element type must be f32 or the input's ('f16'), got 'bf16'}}
  // expected-error @+1 {{'nn.batch_norm' op failed to infer returned types}}
  %0:3 = nn.batch_norm %x, %s, %b : (tensor<8x16xf16>, tensor<16xbf16>, tensor<16xf16>) -> (tensor<8x16xf16>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_negative_epsilon(%x: tensor<8x16xf32>, %s: tensor<16xf32>) {
  // expected-error @+1 {{'nn.batch_norm' op epsilon must be a finite value >= 0, got -1}}
  %0:3 = nn.batch_norm %x, %s, %s {epsilon = -1.0 : f32} : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_wrong_statistics(%x: tensor<8x16xf16>, %s: tensor<16xf32>) {
  // expected-error @+2 {{'nn.batch_norm' op inferred type(s) 'tensor<8x16xf16>', 'tensor<16xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<8x16xf16>', 'tensor<8xf32>', 'tensor<8xf32>'}}
  // expected-error @+1 {{'nn.batch_norm' op failed to infer returned types}}
  %0:3 = nn.batch_norm %x, %s, %s : (tensor<8x16xf16>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf16>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<4x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.layer_norm' op failed to infer returned types}}
  %0:3 = nn.layer_norm %x, %s, %s {axis = 2 : i64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_scale_shape(%x: tensor<4x16x32xf32>, %s: tensor<32xf32>) {
  // expected-error @+2 {{scale must have shape [16, 32] (the normalized shape), got [32]}}
  // expected-error @+1 {{'nn.layer_norm' op failed to infer returned types}}
  %0:3 = nn.layer_norm %x, %s, %s {axis = 1 : i64} : (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_bias_element_type(%x: tensor<4x8xbf16>, %s: tensor<8xbf16>, %b: tensor<8xf16>) {
  // expected-error @+2 {{bias element type must be f32 or the input's ('bf16'), got 'f16'}}
  // expected-error @+1 {{'nn.layer_norm' op failed to infer returned types}}
  %0:3 = nn.layer_norm %x, %s, %b : (tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xf16>) -> (tensor<4x8xbf16>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_nan_epsilon(%x: tensor<4x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'nn.layer_norm' op epsilon must be a finite value >= 0, got nan}}
  %0:3 = nn.layer_norm %x, %s, %s {epsilon = 0x7FC00000 : f32} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_grad_output_type(%dy: tensor<4x8xf16>, %x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{grad_output must have the input's type 'tensor<4x8xf32>', got 'tensor<4x8xf16>'}}
  // expected-error @+1 {{'nn.layer_norm_grad' op failed to infer returned types}}
  %0:3 = nn.layer_norm_grad %dy, %x, %m, %m, %s : (tensor<4x8xf16>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_grad_mean_shape(%dy: tensor<4x8xf32>, %m: tensor<8xf32>, %r: tensor<4xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{mean must have shape [4] (the input's leading dimensions), got [8]}}
  // expected-error @+1 {{'nn.layer_norm_grad' op failed to infer returned types}}
  %0:3 = nn.layer_norm_grad %dy, %dy, %m, %r, %s : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_grad_rstd_shape(%dy: tensor<4x8xf32>, %m: tensor<4xf32>, %r: tensor<4x1xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{rstd must have shape [4] (the input's leading dimensions), got [4, 1]}}
  // expected-error @+1 {{'nn.layer_norm_grad' op failed to infer returned types}}
  %0:3 = nn.layer_norm_grad %dy, %dy, %m, %r, %s : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x1xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @layer_norm_grad_axis(%dy: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{axis -3 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.layer_norm_grad' op failed to infer returned types}}
  %0:3 = nn.layer_norm_grad %dy, %dy, %m, %m, %s {axis = -3 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_grad_scale_shape(%dy: tensor<8x16xf32>, %m: tensor<16xf32>, %s: tensor<8xf32>) {
  // expected-error @+2 {{scale must have shape [16] ([C]), got [8]}}
  // expected-error @+1 {{'nn.batch_norm_grad' op failed to infer returned types}}
  %0:3 = nn.batch_norm_grad %dy, %dy, %m, %m, %s : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @batch_norm_grad_invstd_shape(%dy: tensor<8x16xf32>, %m: tensor<16xf32>, %i: tensor<8xf32>) {
  // expected-error @+2 {{invstd must have shape [16] ([C]), got [8]}}
  // expected-error @+1 {{'nn.batch_norm_grad' op failed to infer returned types}}
  %0:3 = nn.batch_norm_grad %dy, %dy, %m, %i, %m : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<8xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @batch_norm_grad_wrong_results(%dy: tensor<8x16xf16>, %m: tensor<16xf32>) {
  // expected-error @+2 {{'nn.batch_norm_grad' op inferred type(s) 'tensor<8x16xf16>', 'tensor<16xf32>', 'tensor<16xf32>' are incompatible with return type(s) of operation 'tensor<8x16xf16>', 'tensor<16xf16>', 'tensor<16xf16>'}}
  // expected-error @+1 {{'nn.batch_norm_grad' op failed to infer returned types}}
  %0:3 = nn.batch_norm_grad %dy, %dy, %m, %m, %m : (tensor<8x16xf16>, tensor<8x16xf16>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16xf16>, tensor<16xf16>, tensor<16xf16>)
  return
}

//===----------------------------------------------------------------------===//
// Softmax and activation gradients
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_axis(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  %0 = nn.softmax %x {axis = 2 : i64} : tensor<4x10xf32>
  return
}

// -----

func.func @softmax_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{axis -1 is out of range for a rank-0 tensor (expected 0 <= axis < 0)}}
  %0 = nn.softmax %x : tensor<f32>
  return
}

// -----

func.func @log_softmax_axis(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{axis -3 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  %0 = nn.log_softmax %x {axis = -3 : i64} : tensor<4x10xf32>
  return
}

// -----

func.func @softmax_grad_axis(%dy: tensor<4x10xf32>) {
  // expected-error @+1 {{axis 5 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  %0 = nn.softmax_grad %dy, %dy {axis = 5 : i64} : tensor<4x10xf32>
  return
}

// -----

func.func @softmax_grad_types(%dy: tensor<4x10xf16>, %y: tensor<4x10xf32>) {
  // expected-error @+1 {{'nn.softmax_grad' op requires the same type for all operands and results}}
  %0 = "nn.softmax_grad"(%dy, %y) : (tensor<4x10xf16>, tensor<4x10xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @relu_grad_shapes(%dy: tensor<4x10xf32>, %x: tensor<4x1xf32>) {
  // expected-error @+1 {{'nn.relu_grad' op requires the same type for all operands and results}}
  %0 = "nn.relu_grad"(%dy, %x) : (tensor<4x10xf32>, tensor<4x1xf32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @gelu_erf_operand_type(%x: tensor<4xf16>) {
  // expected-error @+1 {{'nn.gelu_erf' op requires the same type for all operands and results}}
  %0 = "nn.gelu_erf"(%x) : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @gelu_erf_grad_integer(%dy: tensor<4xi32>) {
  // expected-error @+1 {{'nn.gelu_erf_grad' op operand #0 must be}}
  %0 = nn.gelu_erf_grad %dy, %dy : tensor<4xi32>
  return
}

// -----

func.func @sin_operand_type(%x: tensor<4xf16>) {
  // expected-error @+1 {{'nn.sin' op requires the same type for all operands and results}}
  %0 = "nn.sin"(%x) : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @atanh_operand_type(%x: tensor<4xbf16>) {
  // expected-error @+1 {{'nn.atanh' op requires the same type for all operands and results}}
  %0 = "nn.atanh"(%x) : (tensor<4xbf16>) -> tensor<4xf32>
  return
}

// -----

func.func @asin_integer(%x: tensor<4xi64>) {
  // expected-error @+1 {{'nn.asin' op operand #0 must be}}
  %0 = nn.asin %x : tensor<4xi64>
  return
}

// -----

func.func @mod_mixed_types(%a: tensor<4xi64>, %b: tensor<4xi32>) {
  // expected-error @+2 {{lhs and rhs must have the same element type, got 'i64' and 'i32'}}
  // expected-error @+1 {{'nn.mod' op failed to infer returned types}}
  %0 = nn.mod %a, %b : (tensor<4xi64>, tensor<4xi32>) -> tensor<4xi64>
  return
}

// -----

func.func @mod_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'nn.mod' op operand #0 must be}}
  %0 = nn.mod %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @cos_integer(%x: tensor<4xi64>) {
  // expected-error @+1 {{'nn.cos' op operand #0 must be}}
  %0 = nn.cos %x : tensor<4xi64>
  return
}

// -----

func.func @erf_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.erf' op requires the same type for all operands and results}}
  %0 = "nn.erf"(%x) : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @erf_grad_integer(%dy: tensor<4xi32>) {
  // expected-error @+1 {{'nn.erf_grad' op operand #0 must be}}
  %0 = nn.erf_grad %dy, %dy : tensor<4xi32>
  return
}

// -----

func.func @floor_integer(%x: tensor<4xi64>) {
  // expected-error @+1 {{'nn.floor' op operand #0 must be}}
  %0 = nn.floor %x : tensor<4xi64>
  return
}

// -----

func.func @ceil_result_type(%x: tensor<4xf16>) {
  // expected-error @+1 {{'nn.ceil' op requires the same type for all operands and results}}
  %0 = "nn.ceil"(%x) : (tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @round_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.round' op requires the same type for all operands and results}}
  %0 = "nn.round"(%x) : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @sign_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'nn.sign' op operand #0 must be}}
  %0 = nn.sign %x : tensor<4xi32>
  return
}

// -----

func.func @gelu_grad_result(%dy: tensor<4xf16>) {
  // expected-error @+1 {{'nn.gelu_grad' op requires the same type for all operands and results}}
  %0 = "nn.gelu_grad"(%dy, %dy) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @grad_seed_type(%loss: tensor<f32>) {
  // expected-error @+1 {{'nn.grad_seed' op requires the same type for all operands and results}}
  %0 = "nn.grad_seed"(%loss) : (tensor<f32>) -> tensor<f16>
  return
}

// -----

func.func @clamp_grad_min_above_max(%dy: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.clamp_grad' op min = 1 must be <= max = -1}}
  %0 = nn.clamp_grad %dy, %dy {min = 1.0 : f32, max = -1.0 : f32} : tensor<4x8xf32>
  return
}

// -----

func.func @clamp_grad_without_bounds(%dy: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.clamp_grad' op requires at least one of min and max}}
  %0 = nn.clamp_grad %dy, %dy : tensor<4x8xf32>
  return
}

// -----

func.func @pow_grad_without_exponent(%dy: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.pow_grad' op requires attribute 'exponent'}}
  %0 = nn.pow_grad %dy, %dy : tensor<4x8xf32>
  return
}

// -----

func.func @tanh_grad_types(%dy: tensor<4x8xf32>, %y: tensor<4x8xf16>) {
  // expected-error @+1 {{'nn.tanh_grad' op requires the same type for all operands and results}}
  %0 = "nn.tanh_grad"(%dy, %y) : (tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<4x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_empty_axes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axes must not be empty}}
  // expected-error @+1 {{'nn.reduce_sum' op failed to infer returned types}}
  %0 = nn.reduce_sum %x [] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_duplicate_axes(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axis -1 is reduced more than once in axes [1, -1]}}
  // expected-error @+1 {{'nn.reduce_mean' op failed to infer returned types}}
  %0 = nn.reduce_mean %x [1, -1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.reduce_max' op failed to infer returned types}}
  %0 = nn.reduce_max %x [2] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_keep_dims_result(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'nn.reduce_sum' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'nn.reduce_sum' op failed to infer returned types}}
  %0 = nn.reduce_sum %x [1] keep_dims : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_f16_to_bf16(%x: tensor<4x8xf16>) {
  // expected-error @+2 {{'nn.reduce_sum' op inferred type(s) 'tensor<8xf16>' are incompatible with return type(s) of operation 'tensor<8xbf16>'}}
  // expected-error @+1 {{'nn.reduce_sum' op failed to infer returned types}}
  %0 = nn.reduce_sum %x [0] : (tensor<4x8xf16>) -> tensor<8xbf16>
  return
}

// -----

func.func @reduce_max_grad_dy_shape(%dy: tensor<8xf32>, %x: tensor<4x8xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{grad_output must have shape [4] (the reduced shape of the input), got [8]}}
  // expected-error @+1 {{'nn.reduce_max_grad' op failed to infer returned types}}
  %0 = nn.reduce_max_grad %dy, %x, %y [1] : (tensor<8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_max_grad_output_shape(%dy: tensor<4x1xf32>, %x: tensor<4x8xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{output must have shape [4, 1] (the reduced shape of the input), got [4]}}
  // expected-error @+1 {{'nn.reduce_max_grad' op failed to infer returned types}}
  %0 = nn.reduce_max_grad %dy, %x, %y [1] keep_dims : (tensor<4x1xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_max_grad_axis(%dy: tensor<4xf32>, %x: tensor<4x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.reduce_max_grad' op failed to infer returned types}}
  %0 = nn.reduce_max_grad %dy, %x, %dy [2] : (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_max_grad_element_types(%dy: tensor<4xf32>, %x: tensor<4x8xf32>, %y: tensor<4xf16>) {
  // expected-error @+2 {{output and input must have the same element type, got 'f16' and 'f32'}}
  // expected-error @+1 {{'nn.reduce_max_grad' op failed to infer returned types}}
  %0 = nn.reduce_max_grad %dy, %x, %y [1] : (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf16>) -> tensor<4x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.reshape' op cannot reshape [4, 8] (32 elements) to [4, 4] (16 elements)}}
  %0 = nn.reshape %x : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{input and result must have the same element type, got 'f32' and 'f16'}}
  %0 = nn.reshape %x : tensor<4x8xf32> -> tensor<32xf16>
  return
}

// -----

func.func @transpose_not_a_permutation(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{perm [0, 0, 1] is not a permutation of the 3 dimensions of the input}}
  // expected-error @+1 {{'nn.transpose' op failed to infer returned types}}
  %0 = nn.transpose %x [0, 0, 1] : tensor<2x3x4xf32> -> tensor<2x2x3xf32>
  return
}

// -----

func.func @transpose_perm_length(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{perm [1, 0] is not a permutation of the 3 dimensions of the input}}
  // expected-error @+1 {{'nn.transpose' op failed to infer returned types}}
  %0 = nn.transpose %x [1, 0] : tensor<2x3x4xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_perm_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{perm [2, 0] is not a permutation of the 2 dimensions of the input}}
  // expected-error @+1 {{'nn.transpose' op failed to infer returned types}}
  %0 = nn.transpose %x [2, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'nn.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'nn.transpose' op failed to infer returned types}}
  %0 = nn.transpose %x [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_to_incompatible(%x: tensor<3xf32>) {
  // expected-error @+1 {{shapes [3] and [4, 8] are not broadcast-compatible}}
  %0 = nn.broadcast_to %x : tensor<3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_to_smaller(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.broadcast_to' op cannot broadcast [4, 8] to [1, 8]: the result must be at least as large in every dimension}}
  %0 = nn.broadcast_to %x : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @broadcast_to_lower_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.broadcast_to' op cannot broadcast [4, 8] to [8]: the result must be at least as large in every dimension}}
  %0 = nn.broadcast_to %x : tensor<4x8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @broadcast_to_element_type(%x: tensor<8xbf16>) {
  // expected-error @+1 {{input and result must have the same element type, got 'bf16' and 'f32'}}
  %0 = nn.broadcast_to %x : tensor<8xbf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+2 {{expects at least one input}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = "nn.concat"() {axis = 0 : i64} : () -> tensor<4xf32>
  return
}

// -----

func.func @concat_missing_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.concat' op requires attribute 'axis'}}
  %0 = nn.concat %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %a {axis = 2 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_rank_mismatch(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{input #1 has rank 1 ([8]) but input #0 has rank 2 ([4, 8])}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %b {axis = 0 : i64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<5x8xf32>
  return
}

// -----

func.func @concat_element_types(%a: tensor<4x8xf32>, %b: tensor<4x8xf16>) {
  // expected-error @+2 {{input #0 and input #1 must have the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %b {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_dimension_mismatch(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>, %c: tensor<3x2xf32>) {
  // expected-error @+2 {{input #2 has shape [3, 2] but input #0 has [4, 8]: they differ in dimension 0, which is not the concatenation axis 1}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %b, %c {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x12xf32>
  return
}

// -----

// Three inputs of 2^62 - 1 f16 values (each 2^63 - 2 bytes, which fits).
func.func @concat_extent_overflow(%a: tensor<4611686018427387903xf16>) {
  // expected-error @+2 {{the concatenated extent of axis 0 overflows int64}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %a, %a {axis = 0 : i64} : (tensor<4611686018427387903xf16>, tensor<4611686018427387903xf16>, tensor<4611686018427387903xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @concat_wrong_result_shape(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'nn.concat' op inferred type(s) 'tensor<4x16xf32>' are incompatible with return type(s) of operation 'tensor<8x8xf32>'}}
  // expected-error @+1 {{'nn.concat' op failed to infer returned types}}
  %0 = nn.concat %a, %a {axis = -1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @slice_element_types(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{input and result must have the same element type, got 'f32' and 'f16'}}
  %0 = nn.slice %x {offsets = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<2x2xf16>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op result [4] must have the rank of input [4, 8]}}
  %0 = nn.slice %x {offsets = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @slice_offsets_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op offsets must have one entry per dimension (2), got [0]}}
  %0 = nn.slice %x {offsets = array<i64: 0>} : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_strides_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op strides must have one entry per dimension (2), got [1, 1, 1]}}
  %0 = nn.slice %x {offsets = array<i64: 0, 0>, strides = array<i64: 1, 1, 1>} : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_zero_stride(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op strides must be non-zero, got [1, 0]}}
  %0 = nn.slice %x {offsets = array<i64: 0, 0>, strides = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_offset_out_of_bounds(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op the slice of dimension 1 reads index 8, outside [0, 8) of input [4, 8] (offset 8, size 1, stride 1)}}
  %0 = nn.slice %x {offsets = array<i64: 0, 8>} : tensor<4x8xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @slice_negative_offset(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op the slice of dimension 0 reads index -1, outside [0, 4) of input [4, 8] (offset -1, size 2, stride 1)}}
  %0 = nn.slice %x {offsets = array<i64: -1, 0>} : tensor<4x8xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @slice_last_index_out_of_bounds(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op the slice of dimension 1 reads index 8, outside [0, 8) of input [4, 8] (offset 2, size 4, stride 2)}}
  %0 = nn.slice %x {offsets = array<i64: 0, 2>, strides = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_backwards_below_zero(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op the slice of dimension 1 reads index -1, outside [0, 8) of input [4, 8] (offset 1, size 3, stride -1)}}
  %0 = nn.slice %x {offsets = array<i64: 0, 1>, strides = array<i64: 1, -1>} : tensor<4x8xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_overflow(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.slice' op the slice of dimension 1 overflows int64 (offset 1, size 3, stride 9223372036854775807)}}
  %0 = nn.slice %x {offsets = array<i64: 0, 1>, strides = array<i64: 1, 9223372036854775807>} : tensor<4x8xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_low_count(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{low must be 2 non-negative values (one per dimension of the input [4, 8]), got [1]}}
  // expected-error @+1 {{'nn.pad' op failed to infer returned types}}
  %0 = nn.pad %x {low = array<i64: 1>, high = array<i64: 0, 0>} : tensor<4x8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @pad_negative_high(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{high must be 2 non-negative values (one per dimension of the input [4, 8]), got [0, -1]}}
  // expected-error @+1 {{'nn.pad' op failed to infer returned types}}
  %0 = nn.pad %x {low = array<i64: 0, 0>, high = array<i64: 0, -1>} : tensor<4x8xf32> -> tensor<4x7xf32>
  return
}

// -----

func.func @pad_overflow(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{the padded extent of dimension 1 overflows int64 (low 1, size 8, high 9223372036854775807)}}
  // expected-error @+1 {{'nn.pad' op failed to infer returned types}}
  %0 = nn.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 9223372036854775807>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @pad_wrong_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{'nn.pad' op inferred type(s) 'tensor<5x10xf32>' are incompatible with return type(s) of operation 'tensor<4x10xf32>'}}
  // expected-error @+1 {{'nn.pad' op failed to infer returned types}}
  %0 = nn.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>} : tensor<4x8xf32> -> tensor<4x10xf32>
  return
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

// -----

func.func @embedding_table_rank(%t: tensor<10x4x2xf32>, %ids: tensor<3xi32>) {
  // expected-error @+2 {{table must be rank 2 [V, D], got [10, 4, 2]}}
  // expected-error @+1 {{'nn.embedding' op failed to infer returned types}}
  %0 = nn.embedding %t, %ids : (tensor<10x4x2xf32>, tensor<3xi32>) -> tensor<3x4x2xf32>
  return
}

// -----

func.func @embedding_padding_past_table(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'nn.embedding' op padding_idx must be a row of the table, in [0, 10), got 10}}
  %0 = nn.embedding %t, %ids {padding_idx = 10 : i64} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @embedding_padding_negative(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'nn.embedding' op padding_idx must be a row of the table, in [0, 10), got -1}}
  %0 = nn.embedding %t, %ids {padding_idx = -1 : i64} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @embedding_grad_padding_past_table(%dy: tensor<3x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'nn.embedding_grad' op padding_idx must be a row of the table, in [0, 6), got 6}}
  %0 = nn.embedding_grad %dy, %ids {padding_idx = 6 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @embedding_bool_table(%t: tensor<10x4xi1>, %ids: tensor<3xi32>) {
  // expected-error @+1 {{'nn.embedding' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<10x4xi1>'}}
  %0 = nn.embedding %t, %ids : (tensor<10x4xi1>, tensor<3xi32>) -> tensor<3x4xi1>
  return
}

// -----

func.func @embedding_wrong_result(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) {
  // expected-error @+2 {{'nn.embedding' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<3x10xf32>'}}
  // expected-error @+1 {{'nn.embedding' op failed to infer returned types}}
  %0 = nn.embedding %t, %ids : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_label_smoothing_above_one(%l: tensor<4x10xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'nn.cross_entropy' op label_smoothing must be in [0, 1], got 1.5}}
  %0 = nn.cross_entropy %l, %y {label_smoothing = 1.5 : f32} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_grad_negative_label_smoothing(%g: tensor<f32>, %l: tensor<4x10xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'nn.cross_entropy_grad' op label_smoothing must be in [0, 1], got -0.25}}
  %0 = nn.cross_entropy_grad %g, %l, %y {label_smoothing = -0.25 : f32} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi32>) -> tensor<4x10xf32>
  return
}

// -----

func.func @cross_entropy_scalar_logits(%l: tensor<f32>, %y: tensor<i32>) {
  // expected-error @+1 {{logits must have rank >= 1 [..., C]}}
  %0 = nn.cross_entropy %l, %y : (tensor<f32>, tensor<i32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_labels_shape(%l: tensor<32x10xf32>, %y: tensor<32x10xi32>) {
  // expected-error @+1 {{labels must have shape [32] (the logits' shape without the class dimension), got [32, 10]}}
  %0 = nn.cross_entropy %l, %y : (tensor<32x10xf32>, tensor<32x10xi32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_grad_labels_shape(%s: tensor<f32>, %l: tensor<32x10xf32>, %y: tensor<16xi64>) {
  // expected-error @+2 {{labels must have shape [32] (the logits' shape without the class dimension), got [16]}}
  // expected-error @+1 {{'nn.cross_entropy_grad' op failed to infer returned types}}
  %0 = nn.cross_entropy_grad %s, %l, %y : (tensor<f32>, tensor<32x10xf32>, tensor<16xi64>) -> tensor<32x10xf32>
  return
}

// -----

func.func @cross_entropy_grad_result(%s: tensor<f32>, %l: tensor<32x10xf16>, %y: tensor<32xi32>) {
  // expected-error @+2 {{'nn.cross_entropy_grad' op inferred type(s) 'tensor<32x10xf16>' are incompatible with return type(s) of operation 'tensor<32x10xf32>'}}
  // expected-error @+1 {{'nn.cross_entropy_grad' op failed to infer returned types}}
  %0 = nn.cross_entropy_grad %s, %l, %y : (tensor<f32>, tensor<32x10xf16>, tensor<32xi32>) -> tensor<32x10xf32>
  return
}

// -----

func.func @embedding_grad_output_shape(%dy: tensor<8x16xf32>, %ids: tensor<4xi32>) {
  // expected-error @+1 {{'nn.embedding_grad' op grad_output must have shape ids.shape + [D] = [4] + [D], got [8, 16]}}
  %0 = nn.embedding_grad %dy, %ids : (tensor<8x16xf32>, tensor<4xi32>) -> tensor<100x16xf32>
  return
}

// -----

func.func @embedding_grad_output_rank(%dy: tensor<8xf32>, %ids: tensor<8xi32>) {
  // expected-error @+1 {{'nn.embedding_grad' op grad_output must have shape ids.shape + [D] = [8] + [D], got [8]}}
  %0 = nn.embedding_grad %dy, %ids : (tensor<8xf32>, tensor<8xi32>) -> tensor<100x1xf32>
  return
}

// -----

func.func @embedding_grad_result_shape(%dy: tensor<8x16xf32>, %ids: tensor<8xi32>) {
  // expected-error @+1 {{'nn.embedding_grad' op result must be the table shape [V, 16], got [100, 8]}}
  %0 = nn.embedding_grad %dy, %ids : (tensor<8x16xf32>, tensor<8xi32>) -> tensor<100x8xf32>
  return
}

// -----

func.func @embedding_grad_f16_to_bf16(%dy: tensor<8x16xf16>, %ids: tensor<8xi32>) {
  // expected-error @+1 {{'nn.embedding_grad' op result element type must be 'f16' or f32 (f32 accumulation), got 'bf16'}}
  %0 = nn.embedding_grad %dy, %ids : (tensor<8x16xf16>, tensor<8xi32>) -> tensor<100x16xbf16>
  return
}

// -----

func.func @mse_loss_shapes(%p: tensor<4x8xf32>, %t: tensor<8x4xf32>) {
  // expected-error @+1 {{pred and target must have the same shape, got [4, 8] and [8, 4]}}
  %0 = nn.mse_loss %p, %t : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<f32>
  return
}

// -----

func.func @mse_loss_element_types(%p: tensor<4x8xf16>, %t: tensor<4x8xf32>) {
  // expected-error @+1 {{pred and target must have the same element type, got 'f16' and 'f32'}}
  %0 = nn.mse_loss %p, %t : (tensor<4x8xf16>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @mse_loss_f16_result(%p: tensor<4x8xf16>) {
  // expected-error @+1 {{'nn.mse_loss' op result #0 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0 = nn.mse_loss %p, %p : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f16>
  return
}

// -----

func.func @mse_loss_grad_shapes(%g: tensor<f32>, %p: tensor<4x8xf32>, %t: tensor<4x1xf32>) {
  // expected-error @+2 {{pred and target must have the same shape, got [4, 8] and [4, 1]}}
  // expected-error @+1 {{'nn.mse_loss_grad' op failed to infer returned types}}
  %0 = nn.mse_loss_grad %g, %p, %t : (tensor<f32>, tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @mse_loss_grad_non_scalar_seed(%g: tensor<1xf32>, %p: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.mse_loss_grad' op operand #0 must be 0D tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<1xf32>'}}
  %0 = nn.mse_loss_grad %g, %p, %p : (tensor<1xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @l1_loss_shapes(%p: tensor<4x8xf32>, %t: tensor<4x1xf32>) {
  // expected-error @+1 {{pred and target must have the same shape, got [4, 8] and [4, 1]}}
  %0 = nn.l1_loss %p, %t : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<f32>
  return
}

// -----

func.func @bce_with_logits_loss_element_types(%p: tensor<4x8xbf16>, %t: tensor<4x8xf32>) {
  // expected-error @+1 {{pred and target must have the same element type, got 'bf16' and 'f32'}}
  %0 = nn.bce_with_logits_loss %p, %t : (tensor<4x8xbf16>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @loss_reduction_none(%p: tensor<4x8xf32>) {
  // expected-error @+1 {{custom op 'nn.mse_loss' expected string or keyword containing one of the following enum values for attribute 'reduction' [mean, sum]}}
  %0 = nn.mse_loss %p, %p reduction none : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @huber_loss_zero_delta(%p: tensor<4x8xf32>) {
  // expected-error @+1 {{delta must be finite and > 0, got 0}}
  %0 = nn.huber_loss %p, %p {delta = 0.0 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @huber_loss_infinite_delta(%p: tensor<4x8xf32>) {
  // expected-error @+1 {{delta must be finite and > 0, got INF}}
  %0 = nn.huber_loss %p, %p {delta = 0x7F800000 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

func.func @huber_loss_grad_negative_delta(%g: tensor<f32>, %p: tensor<4x8xf32>) {
  // expected-error @+2 {{delta must be finite and > 0, got -1}}
  // expected-error @+1 {{'nn.huber_loss_grad' op failed to infer returned types}}
  %0 = nn.huber_loss_grad %g, %p, %p {delta = -1.0 : f32} : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @bce_with_logits_loss_grad_result(%g: tensor<f32>, %p: tensor<4x8xf16>) {
  // expected-error @+2 {{'nn.bce_with_logits_loss_grad' op inferred type(s) 'tensor<4x8xf16>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{'nn.bce_with_logits_loss_grad' op failed to infer returned types}}
  %0 = nn.bce_with_logits_loss_grad %g, %p, %p : (tensor<f32>, tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

// -----

func.func @sgd_grad_type(%p: tensor<8xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'nn.sgd_update' op failed to verify that all of {param, grad} have same type}}
  %0 = "nn.sgd_update"(%p, %g) {lr = 0.1 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf16>) -> tensor<8xf32>
  return
}

// -----

func.func @sgd_buffer_type(%p: tensor<8xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op failed to verify that momentum_buffer has the param's type}}
  %0:2 = "nn.sgd_update"(%p, %p, %m) {lr = 0.1 : f32, momentum = 0.9 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @lr_schedule_needs_total(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op cosine schedules need total_steps}}
  %f, %n = nn.lr_schedule cosine %c {warmup_steps = 10 : i64}
  return
}

// -----

func.func @lr_schedule_total_not_after_warmup(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op total_steps must be greater than warmup_steps (10), got 10}}
  %f, %n = nn.lr_schedule linear %c {warmup_steps = 10 : i64, total_steps = 10 : i64}
  return
}

// -----

func.func @lr_schedule_final_factor_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op final_factor must be in [0, 1]}}
  %f, %n = nn.lr_schedule cosine %c {total_steps = 10 : i64, final_factor = 1.5 : f32}
  return
}

// -----

func.func @lr_schedule_final_factor_kind(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op final_factor applies to linear, cosine and polynomial schedules only, not step}}
  %f, %n = nn.lr_schedule step %c {step_size = 2 : i64, gamma = 0.5 : f32, final_factor = 0.5 : f32}
  return
}

// -----

func.func @lr_schedule_total_kind(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op total_steps applies to linear, cosine and polynomial schedules only, not exponential}}
  %f, %n = nn.lr_schedule exponential %c {gamma = 0.5 : f32, total_steps = 10 : i64}
  return
}

// -----

func.func @lr_schedule_needs_step_size(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op step schedules need step_size}}
  %f, %n = nn.lr_schedule step %c {gamma = 0.5 : f32}
  return
}

// -----

func.func @lr_schedule_step_size_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op step_size must be >= 1, got 0}}
  %f, %n = nn.lr_schedule step %c {step_size = 0 : i64, gamma = 0.5 : f32}
  return
}

// -----

func.func @lr_schedule_needs_gamma(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op exponential schedules need gamma}}
  %f, %n = nn.lr_schedule exponential %c
  return
}

// -----

func.func @lr_schedule_gamma_kind(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op gamma applies to step, exponential and multistep schedules only, not constant}}
  %f, %n = nn.lr_schedule constant %c {gamma = 0.5 : f32}
  return
}

// -----

func.func @lr_schedule_gamma_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op gamma must be positive and finite}}
  %f, %n = nn.lr_schedule exponential %c {gamma = 0.0 : f32}
  return
}

// -----

func.func @lr_schedule_polynomial_needs_total(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op polynomial schedules need total_steps}}
  %f, %n = nn.lr_schedule polynomial %c {power = 2.0 : f32}
  return
}

// -----

func.func @lr_schedule_power_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op power must be positive and finite}}
  %f, %n = nn.lr_schedule polynomial %c {total_steps = 10 : i64, power = 0.0 : f32}
  return
}

// -----

func.func @lr_schedule_power_kind(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op power applies to polynomial schedules only, not linear}}
  %f, %n = nn.lr_schedule linear %c {total_steps = 10 : i64, power = 2.0 : f32}
  return
}

// -----

func.func @lr_schedule_needs_milestones(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op multistep schedules need milestones}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32}
  return
}

// -----

func.func @lr_schedule_milestones_kind(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones applies to multistep schedules only, not step}}
  %f, %n = nn.lr_schedule step %c {step_size = 2 : i64, gamma = 0.1 : f32, milestones = array<i64: 3>}
  return
}

// -----

func.func @lr_schedule_milestones_empty(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones must hold 1 to 16 steps, got 0}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32, milestones = array<i64>}
  return
}

// -----

func.func @lr_schedule_milestones_too_many(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones must hold 1 to 16 steps, got 17}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32, milestones = array<i64: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17>}
  return
}

// -----

func.func @lr_schedule_milestones_order(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones must be increasing steps >= 0, got 30 after 60}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32, milestones = array<i64: 60, 30>}
  return
}

// -----

func.func @lr_schedule_milestones_largest(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones must be increasing steps >= 0, got 9223372036854775807 after 9223372036854775807}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32, milestones = array<i64: 9223372036854775807, 9223372036854775807>}
  return
}

// -----

func.func @lr_schedule_milestones_negative(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op milestones must be increasing steps >= 0, got -5}}
  %f, %n = nn.lr_schedule multistep %c {gamma = 0.1 : f32, milestones = array<i64: -5, 3>}
  return
}

// -----

func.func @lr_schedule_warmup_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op warmup_steps must be >= 0, got -1}}
  %f, %n = nn.lr_schedule constant %c {warmup_steps = -1 : i64}
  return
}

// -----

func.func @lr_schedule_warmup_start_range(%c: tensor<f32>) {
  // expected-error @+1 {{'nn.lr_schedule' op warmup_start_factor must be in [0, 1]}}
  %f, %n = nn.lr_schedule constant %c {warmup_steps = 2 : i64, warmup_start_factor = -0.5 : f32}
  return
}

// -----

func.func @lr_schedule_count_type(%c: tensor<i64>) {
  // expected-error @+1 {{'nn.lr_schedule' op operand #0 must be 0D tensor of 32-bit float values, but got 'tensor<i64>'}}
  %f, %n = "nn.lr_schedule"(%c) {kind = 0 : i32} : (tensor<i64>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @sgd_lr_factor_type(%p: tensor<8xf32>, %f: tensor<1xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op operand #2 must be 0D tensor of 32-bit float values, but got 'tensor<1xf32>'}}
  %0 = "nn.sgd_update"(%p, %p, %f) {lr = 0.1 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<8xf32>, tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sgd_missing_buffer_result(%p: tensor<8xf32>) {
  // expected-error @+2 {{'nn.sgd_update' op inferred type(s) 'tensor<8xf32>', 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'nn.sgd_update' op failed to infer returned types}}
  %0 = "nn.sgd_update"(%p, %p, %p) {lr = 0.1 : f32, momentum = 0.9 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sgd_negative_lr(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op lr must be a finite value >= 0, got -0.1}}
  %0 = nn.sgd_update %p, %p {lr = -0.1 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_infinite_lr(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op lr must be a finite value >= 0, got inf}}
  %0 = nn.sgd_update %p, %p {lr = 0x7F800000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_negative_momentum(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op momentum must be a finite value >= 0, got -0.9}}
  %0 = nn.sgd_update %p, %p {lr = 0.1 : f32, momentum = -0.9 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_dampening_above_one(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op dampening must be in [0, 1], got 1.5}}
  %0:2 = nn.sgd_update %p, %p, %p {lr = 0.1 : f32, momentum = 0.9 : f32, dampening = 1.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_nan_weight_decay(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op weight_decay must be a finite value >= 0, got nan}}
  %0 = nn.sgd_update %p, %p {lr = 0.1 : f32, weight_decay = 0x7FC00000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_buffer_without_momentum(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op has a momentum buffer but momentum = 0; drop the buffer or set momentum > 0}}
  %0:2 = nn.sgd_update %p, %p, %p {lr = 0.1 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_momentum_without_buffer(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op momentum > 0 requires a momentum buffer operand}}
  %0 = nn.sgd_update %p, %p {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8xf32>
  return
}

// -----

func.func @sgd_nesterov_without_momentum(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op nesterov requires momentum > 0 and dampening = 0}}
  %0 = nn.sgd_update %p, %p {lr = 0.1 : f32, nesterov} : tensor<8xf32>
  return
}

// -----

func.func @sgd_nesterov_with_dampening(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.sgd_update' op nesterov requires momentum > 0 and dampening = 0}}
  %0:2 = nn.sgd_update %p, %p, %p {lr = 0.1 : f32, momentum = 0.9 : f32, dampening = 0.1 : f32, nesterov} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_momentum_without_buffer(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op momentum > 0 requires a momentum buffer operand}}
  %0:2 = nn.rmsprop_update %p, %p, %p {lr = 0.01 : f32, momentum = 0.9 : f32} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_buffer_without_momentum(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op has a momentum buffer but momentum = 0; drop the buffer or set momentum > 0}}
  %0:3 = nn.rmsprop_update %p, %p, %p momentum_buffer(%p) {lr = 0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_centered_without_grad_avg(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op centered requires a grad_avg operand}}
  %0:2 = nn.rmsprop_update %p, %p, %p {lr = 0.01 : f32, centered} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_grad_avg_not_centered(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op has a grad_avg operand without centered; drop it or set centered}}
  %0:3 = nn.rmsprop_update %p, %p, %p grad_avg(%p) {lr = 0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @radam_beta2_one(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.radam_update' op beta2 must be in [0, 1), got 1}}
  %0:4 = nn.radam_update %p, %p, %p, %p, %t {lr = 1.0e-3 : f32, beta2 = 1.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @radam_moment_type(%p: tensor<8xf32>, %m: tensor<8xbf16>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.radam_update' op failed to verify that all of {param, grad, exp_avg, exp_avg_sq} have same type}}
  %0:4 = "nn.radam_update"(%p, %p, %m, %p, %t) {lr = 1.0e-3 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xbf16>, tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xbf16>, tensor<f32>)
  return
}

// -----

func.func @adam_amsgrad_without_max(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op amsgrad requires a max_exp_avg_sq operand}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %t {lr = 1.0e-3 : f32, amsgrad} : tensor<8xf32>
  return
}

// -----

func.func @adam_max_without_amsgrad(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op has a max_exp_avg_sq operand without amsgrad; drop it or set amsgrad}}
  %0:5 = nn.adam_update %p, %p, %p, %p, %t max_exp_avg_sq(%p) {lr = 1.0e-3 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_max_type(%p: tensor<8xf32>, %x: tensor<8xf16>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op failed to verify that max_exp_avg_sq has the param's type}}
  %0:5 = "nn.adam_update"(%p, %p, %p, %p, %t, %x) {lr = 1.0e-3 : f32, amsgrad, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f32>, tensor<8xf16>)
  return
}

// -----

func.func @adagrad_lr_decay_without_step(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.adagrad_update' op lr_decay > 0 requires a step operand}}
  %0:2 = nn.adagrad_update %p, %p, %p {lr = 0.01 : f32, lr_decay = 0.1 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adagrad_step_without_lr_decay(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adagrad_update' op has a step operand without lr_decay > 0; drop it or set lr_decay > 0}}
  %0:3 = nn.adagrad_update %p, %p, %p step(%t) {lr = 0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adagrad_negative_lr_decay(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adagrad_update' op lr_decay must be a finite value >= 0, got -0.1}}
  %0:3 = nn.adagrad_update %p, %p, %p step(%t) {lr = 0.01 : f32, lr_decay = -0.1 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adagrad_f16_step(%p: tensor<8xf32>, %t: tensor<f16>) {
  // expected-error @+1 {{'nn.adagrad_update' op operand #3 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0:3 = "nn.adagrad_update"(%p, %p, %p, %t) {lr = 0.01 : f32, lr_decay = 0.1 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<f16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<f16>)
  return
}

// -----

func.func @adafactor_matrix_whole(%p: tensor<8x4xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op factors a param of rank >= 2: it needs row_var and col_var (factored(...)), not variance}}
  %0:3 = nn.adafactor_update %p, %p variance(%p) step(%t) {lr = 0.01 : f32} : tensor<8x4xf32>
  return
}

// -----

func.func @adafactor_vector_factored(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op keeps the whole second moment of a param of rank 0 or 1: it needs variance(...), not factored(...)}}
  %0:4 = nn.adafactor_update %p, %p factored(%p, %p) step(%t) {lr = 0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adafactor_no_state(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op keeps the whole second moment of a param of rank 0 or 1: it needs variance(...), not factored(...)}}
  %0:2 = nn.adafactor_update %p, %p step(%t) {lr = 0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adafactor_both_states(%p: tensor<8x4xf32>, %r: tensor<8x1xf32>, %c: tensor<1x4xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op has both factored(...) and variance(...)}}
  %0:5 = nn.adafactor_update %p, %p factored(%r, %c) variance(%p) step(%t) {lr = 0.01 : f32} : tensor<8x4xf32>
  return
}

// -----

func.func @adafactor_row_without_col(%p: tensor<8x4xf32>, %r: tensor<8x1xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op needs both row_var and col_var, or neither}}
  %0:3 = "nn.adafactor_update"(%p, %p, %r, %t) {lr = 0.01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0>} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x1xf32>, tensor<f32>) -> (tensor<8x4xf32>, tensor<8x1xf32>, tensor<f32>)
  return
}

// -----

func.func @adafactor_row_var_shape(%p: tensor<8x4xf32>, %c: tensor<1x4xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op failed to verify that row_var has the param's type with its last dimension 1}}
  %0:4 = "nn.adafactor_update"(%p, %p, %c, %c, %t) {lr = 0.01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0>} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<f32>) -> (tensor<8x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<f32>)
  return
}

// -----

func.func @adafactor_empty_param(%p: tensor<0xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op needs a param with elements (Adafactor scales by its root mean square)}}
  %0:3 = nn.adafactor_update %p, %p variance(%p) step(%t) {lr = 0.01 : f32} : tensor<0xf32>
  return
}

// -----

func.func @adafactor_positive_beta2_decay(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op beta2_decay must be a finite value <= 0, got 0.5}}
  %0:3 = nn.adafactor_update %p, %p variance(%p) step(%t) {lr = 0.01 : f32, beta2_decay = 0.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adafactor_d_below_one(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op d must be a finite value >= 1, got 0.5}}
  %0:3 = nn.adafactor_update %p, %p variance(%p) step(%t) {lr = 0.01 : f32, d = 0.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adafactor_negative_eps2(%p: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error @+1 {{'nn.adafactor_update' op eps2 must be a finite value >= 0, got -0.001}}
  %0:3 = nn.adafactor_update %p, %p variance(%p) step(%t) {lr = 0.01 : f32, eps2 = -1.0e-3 : f32} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_alpha_above_one(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op alpha must be in [0, 1], got 1.5}}
  %0:2 = nn.rmsprop_update %p, %p, %p {lr = 0.01 : f32, alpha = 1.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_negative_eps(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.rmsprop_update' op eps must be a finite value >= 0, got -1e-08}}
  %0:2 = nn.rmsprop_update %p, %p, %p {lr = 0.01 : f32, eps = -1.0e-8 : f32} : tensor<8xf32>
  return
}

// -----

func.func @rmsprop_square_avg_type(%p: tensor<8xf32>, %v: tensor<8xf16>) {
  // expected-error @+1 {{'nn.rmsprop_update' op failed to verify that all of {param, grad, square_avg} have same type}}
  %0:2 = "nn.rmsprop_update"(%p, %p, %v) {lr = 0.01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf16>)
  return
}

// -----

func.func @rmsprop_grad_avg_type(%p: tensor<8xf32>, %a: tensor<8xf16>) {
  // expected-error @+1 {{'nn.rmsprop_update' op failed to verify that grad_avg has the param's type}}
  %0:3 = "nn.rmsprop_update"(%p, %p, %p, %a) {lr = 0.01 : f32, centered, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf16>)
  return
}

// -----

func.func @adagrad_state_sum_type(%p: tensor<8xf32>, %s: tensor<8xbf16>) {
  // expected-error @+1 {{'nn.adagrad_update' op failed to verify that all of {param, grad, state_sum} have same type}}
  %0:2 = "nn.adagrad_update"(%p, %p, %s) {lr = 0.01 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xbf16>) -> (tensor<8xf32>, tensor<8xbf16>)
  return
}

// -----

func.func @adagrad_negative_weight_decay(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.adagrad_update' op weight_decay must be a finite value >= 0, got -0.1}}
  %0:2 = nn.adagrad_update %p, %p, %p {lr = 0.01 : f32, weight_decay = -0.1 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adagrad_infinite_lr(%p: tensor<8xf32>) {
  // expected-error @+1 {{'nn.adagrad_update' op lr must be a finite value >= 0, got inf}}
  %0:2 = nn.adagrad_update %p, %p, %p {lr = 0x7F800000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_state_type(%p: tensor<8xf32>, %m: tensor<8xf16>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op failed to verify that all of {param, grad, exp_avg, exp_avg_sq} have same type}}
  %0:4 = "nn.adam_update"(%p, %p, %m, %p, %step) {lr = 1.0e-3 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf16>, tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf16>, tensor<f32>)
  return
}

// -----

func.func @adam_negative_lr(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op lr must be a finite value >= 0, got -0.001}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %step {lr = -1.0e-3 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_beta1_one(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op beta1 must be in [0, 1), got 1}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %step {lr = 1.0e-3 : f32, beta1 = 1.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_negative_beta2(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op beta2 must be in [0, 1), got -0.5}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %step {lr = 1.0e-3 : f32, beta2 = -0.5 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_negative_eps(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op eps must be a finite value >= 0, got -1e-08}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %step {lr = 1.0e-3 : f32, eps = -1.0e-8 : f32} : tensor<8xf32>
  return
}

// -----

func.func @adam_negative_weight_decay(%p: tensor<8xf32>, %step: tensor<f32>) {
  // expected-error @+1 {{'nn.adam_update' op weight_decay must be a finite value >= 0, got -0.01}}
  %0:4 = nn.adam_update %p, %p, %p, %p, %step {lr = 1.0e-3 : f32, weight_decay = -0.01 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_no_grads() {
  // expected-error @+2 {{expects at least one gradient}}
  // expected-error @+1 {{'nn.clip_grad_norm' op failed to infer returned types}}
  %0 = "nn.clip_grad_norm"() {max_norm = 1.0 : f32} : () -> tensor<f32>
  return
}

// -----

func.func @clip_zero_max_norm(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_norm' op max_norm must be > 0, got 0}}
  %0:2 = nn.clip_grad_norm %g {max_norm = 0.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_nan_max_norm(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_norm' op max_norm must be > 0, got nan}}
  %0:2 = nn.clip_grad_norm %g {max_norm = 0x7FC00000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_wrong_results(%g: tensor<8xf32>, %h: tensor<4xf16>) {
  // expected-error @+2 {{'nn.clip_grad_norm' op inferred type(s) 'tensor<8xf32>', 'tensor<4xf16>', 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<8xf32>', 'tensor<4xf32>', 'tensor<f32>'}}
  // expected-error @+1 {{'nn.clip_grad_norm' op failed to infer returned types}}
  %0:3 = "nn.clip_grad_norm"(%g, %h) {max_norm = 1.0 : f32} : (tensor<8xf32>, tensor<4xf16>) -> (tensor<8xf32>, tensor<4xf32>, tensor<f32>)
  return
}

// -----

func.func @clip_zero_norm_type(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_norm' op norm_type must be > 0, got 0}}
  %0:2 = nn.clip_grad_norm %g {max_norm = 1.0 : f32, norm_type = 0.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_negative_infinite_norm_type(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_norm' op norm_type must be > 0, got -inf}}
  %0:2 = nn.clip_grad_norm %g {max_norm = 1.0 : f32, norm_type = 0xFF800000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_nan_norm_type(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_norm' op norm_type must be > 0, got nan}}
  %0:2 = nn.clip_grad_norm %g {max_norm = 1.0 : f32, norm_type = 0x7FC00000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_value_no_grads() {
  // expected-error @+2 {{expects at least one gradient}}
  // expected-error @+1 {{'nn.clip_grad_value' op failed to infer returned types}}
  "nn.clip_grad_value"() {clip_value = 1.0 : f32} : () -> ()
  return
}

// -----

func.func @clip_value_zero(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_value' op clip_value must be > 0, got 0}}
  %0 = nn.clip_grad_value %g {clip_value = 0.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_value_negative(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_value' op clip_value must be > 0, got -1}}
  %0 = nn.clip_grad_value %g {clip_value = -1.0 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_value_nan(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_value' op clip_value must be > 0, got nan}}
  %0 = nn.clip_grad_value %g {clip_value = 0x7FC00000 : f32} : tensor<8xf32>
  return
}

// -----

func.func @clip_value_missing(%g: tensor<8xf32>) {
  // expected-error @+1 {{'nn.clip_grad_value' op requires attribute 'clip_value'}}
  %0 = nn.clip_grad_value %g : tensor<8xf32>
  return
}

// -----

func.func @ema_no_averages(%w: tensor<f32>) {
  // expected-error @+1 {{'nn.ema_update' op expects at least one average}}
  "nn.ema_update"(%w) {operandSegmentSizes = array<i32: 0, 0, 1>} : (tensor<f32>) -> ()
  return
}

// -----

func.func @ema_fewer_values(%a: tensor<8xf32>, %b: tensor<4xf32>, %w: tensor<f32>) {
  // expected-error @+1 {{custom op 'nn.ema_update' number of operands and types do not match: got 1 operands and 2 types}}
  %0:2 = nn.ema_update %a, %b toward %a weight(%w) : tensor<8xf32>, tensor<4xf32>
  return
}

// -----

func.func @ema_value_type(%a: tensor<8xf32>, %v: tensor<8xf16>, %w: tensor<f32>) {
  // expected-error @+1 {{'nn.ema_update' op failed to verify that all of {averages, values, new_averages} have same type}}
  %0 = "nn.ema_update"(%a, %v, %w) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8xf32>, tensor<8xf16>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @ema_weight_f16(%a: tensor<8xf32>, %w: tensor<f16>) {
  // expected-error @+1 {{'nn.ema_update' op operand #2 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0 = "nn.ema_update"(%a, %a, %w) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8xf32>, tensor<8xf32>, tensor<f16>) -> tensor<8xf32>
  return
}

// -----

func.func @ema_integer(%a: tensor<8xi64>, %w: tensor<f32>) {
  // expected-error @+1 {{'nn.ema_update' op operand #0 must be variadic of statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<8xi64>'}}
  %0 = "nn.ema_update"(%a, %a, %w) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8xi64>, tensor<8xi64>, tensor<f32>) -> tensor<8xi64>
  return
}

// -----

func.func @clip_value_wrong_results(%g: tensor<8xf32>) {
  // expected-error @+2 {{'nn.clip_grad_value' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<8xf16>'}}
  // expected-error @+1 {{'nn.clip_grad_value' op failed to infer returned types}}
  %0 = "nn.clip_grad_value"(%g) {clip_value = 1.0 : f32} : (tensor<8xf32>) -> tensor<8xf16>
  return
}

//===----------------------------------------------------------------------===//
// Dialect attributes
//===----------------------------------------------------------------------===//

// -----

// The string form of earlier versions gets the new spelling.
// expected-error @+1 {{'nn.role' on argument #0 is the string "param"; roles are enum attributes now: write nn.role = #nn.role<param>}}
func.func @role_old_string_form(%w: tensor<4xf32> {nn.role = "param"}) {
  return
}

// -----

// expected-error @+1 {{'nn.role' on result #0 is the string "loss_scale"; roles are enum attributes now: write nn.role = #nn.role<loss_scale>}}
func.func @result_role_old_string_form(%w: tensor<f32>) -> (tensor<f32> {nn.role = "loss_scale"}) {
  return %w : tensor<f32>
}

// -----

// expected-error @+1 {{unknown nn.role "weights" on argument #0; expected one of #nn.role<param>, #nn.role<opt_state>, #nn.role<input>, #nn.role<label>, #nn.role<loss>, #nn.role<loss_scale>, #nn.role<growth_tracker>, #nn.role<hysteresis_tracker>, #nn.role<found_inf>}}
func.func @unknown_role(%w: tensor<4xf32> {nn.role = "weights"}) {
  return
}

// -----

// expected-error @+1 {{unknown nn.role "output" on result #1; expected one of}}
func.func @unknown_result_role(%w: tensor<4xf32>) -> (tensor<4xf32> {nn.role = #nn.role<param>}, tensor<4xf32> {nn.role = "output"}) {
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}

// -----

// An unknown spelling of the enum is a parse error that lists the roles.
// expected-error @+2 {{expected ::amp::nn::Role to be one of: param, opt_state, input, label, loss, loss_scale, growth_tracker, hysteresis_tracker, found_inf}}
// expected-error @+1 {{failed to parse NN_RoleAttr parameter 'value'}}
func.func @unknown_role_spelling(%w: tensor<4xf32> {nn.role = #nn.role<weights>}) {
  return
}

// -----

// expected-error @+1 {{'nn.role' on argument #1 must be one of #nn.role<param>, #nn.role<opt_state>, #nn.role<input>, #nn.role<label>, #nn.role<loss>, #nn.role<loss_scale>, #nn.role<growth_tracker>, #nn.role<hysteresis_tracker>, #nn.role<found_inf>, #nn.role<buffer>, #nn.role<schedule_state>, #nn.role<lr>, #nn.role<grad_norm>, #nn.role<rng_state>, #nn.role<ema>, #nn.role<ema_count>, got 1 : i64}}
func.func @role_not_an_enum(%a: tensor<4xf32>, %b: tensor<4xf32> {nn.role = 1}) {
  return
}

// -----

// expected-error @+1 {{unknown nn attribute 'nn.rol' on argument #0}}
func.func @unknown_argument_attribute(%a: tensor<4xf32> {nn.rol = "param"}) {
  return
}

// -----

// expected-error @+1 {{unknown nn attribute 'nn.precision' on result #0}}
func.func @unknown_result_attribute(%a: tensor<4xf32>) -> (tensor<4xf32> {nn.precision = "f16"}) {
  return %a : tensor<4xf32>
}

// -----

func.func @role_on_an_op(%a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.role' belongs on function arguments and results, not on an operation}}
  %0 = nn.relu %a {nn.role = #nn.role<param>} : tensor<4xf32>
  return
}

// -----

func.func @unknown_op_attribute(%a: tensor<4xf32>) {
  // expected-error @+1 {{unknown nn attribute 'nn.fused' on an operation}}
  %0 = nn.relu %a {nn.fused} : tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{'nn.init' on argument #0 must be a number or a bool, got "big"}}
func.func @init_not_a_number(%s: tensor<f32> {nn.init = "big", nn.role = #nn.role<loss_scale>}) {
  return
}

// -----

// expected-error @+1 {{'nn.init' on result #0 must be a number or a bool, got [1.000000e+00]}}
func.func @init_array_on_result(%s: tensor<f32>) -> (tensor<f32> {nn.init = [1.0]}) {
  return %s : tensor<f32>
}

// -----

func.func @init_on_an_op(%a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.init' belongs on function arguments and results, not on an operation}}
  %0 = nn.relu %a {nn.init = 1.0 : f32} : tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{'nn.check_range' on argument #0 must be [lo, hi] with finite numbers lo < hi, got [2.000000e+00, 1.000000e+00]}}
func.func @check_range_reversed(%x: tensor<4xf32> {nn.check_range = [2.0, 1.0]}) {
  return
}

// -----

// expected-error @+1 {{'nn.check_range' on argument #0 must be [lo, hi] with finite numbers lo < hi, got [1.000000e+00]}}
func.func @check_range_one_number(%x: tensor<4xf32> {nn.check_range = [1.0]}) {
  return
}

// -----

// expected-error @+1 {{'nn.check_range' on argument #0 must be [lo, hi] with finite numbers lo < hi, got [0, "one"]}}
func.func @check_range_not_numbers(%x: tensor<4xf32> {nn.check_range = [0, "one"]}) {
  return
}

// -----

// expected-error @+1 {{'nn.check_range' on result #0: it belongs on function arguments}}
func.func @check_range_on_result(%x: tensor<4xf32>) -> (tensor<4xf32> {nn.check_range = [0.0, 1.0]}) {
  return %x : tensor<4xf32>
}

// -----

func.func @check_range_on_an_op(%a: tensor<4xf32>) {
  // expected-error @+1 {{'nn.check_range' belongs on function arguments, not on an operation}}
  %0 = nn.relu %a {nn.check_range = [0.0, 1.0]} : tensor<4xf32>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  %0 = nn.cumsum %x {axis = 2 : i64} : tensor<2x3xf32>
  return
}

// -----

func.func @cumsum_negative_axis(%x: tensor<2x3xi64>) {
  // expected-error @+1 {{axis -3 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  %0 = nn.cumsum %x {axis = -3 : i64} : tensor<2x3xi64>
  return
}

// -----

func.func @cumsum_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{axis 0 is out of range for a rank-0 tensor (expected 0 <= axis < 0)}}
  %0 = nn.cumsum %x {axis = 0 : i64} : tensor<f32>
  return
}

// -----

func.func @cumsum_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'nn.cumsum' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = nn.cumsum %x {axis = 0 : i64} : tensor<4xi1>
  return
}

// -----

func.func @cumsum_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{'nn.cumsum' op requires the same type for all operands and results}}
  %0 = "nn.cumsum"(%x) {axis = 0 : i64} : (tensor<4xi32>) -> tensor<4xi64>
  return
}

// -----

func.func @cumsum_no_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{'nn.cumsum' op requires attribute 'axis'}}
  %0 = "nn.cumsum"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis -3 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.argmax' op failed to infer returned types}}
  %0 = nn.argmax %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @argmax_empty_axis(%x: tensor<2x0xf32>) {
  // expected-error @+2 {{argmax along axis 1, which is empty}}
  // expected-error @+1 {{'nn.argmax' op failed to infer returned types}}
  %0 = nn.argmax %x {axis = 1 : i64} : (tensor<2x0xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @argmax_result_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'nn.argmax' op result #0 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<2xi32>'}}
  %0 = nn.argmax %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @argmax_keep_dims_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'nn.argmax' op inferred type(s) 'tensor<2x1xi64>' are incompatible with return type(s) of operation 'tensor<2xi64>'}}
  // expected-error @+1 {{'nn.argmax' op failed to infer returned types}}
  %0 = nn.argmax %x {axis = 1 : i64, keep_dims} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @argmax_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'nn.argmax' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2x3xi1>'}}
  %0 = nn.argmax %x {axis = 1 : i64} : (tensor<2x3xi1>) -> tensor<2xi64>
  return
}

// -----

func.func @topk_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for a rank-2 tensor (expected -2 <= axis < 2)}}
  // expected-error @+1 {{'nn.topk' op failed to infer returned types}}
  %0 = nn.topk %x {axis = 2 : i64, k = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}

// -----

func.func @topk_k_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{topk of k = 4 along axis 1 of size 3; k must be in [0, 3]}}
  // expected-error @+1 {{'nn.topk' op failed to infer returned types}}
  %0 = nn.topk %x {axis = 1 : i64, k = 4 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  return
}

// -----

func.func @topk_negative_k(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{topk of k = -1 along axis 0 of size 2; k must be in [0, 2]}}
  // expected-error @+1 {{'nn.topk' op failed to infer returned types}}
  %0 = nn.topk %x {axis = -2 : i64, k = -1 : i64} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return
}

// -----

func.func @topk_shape(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'nn.topk' op inferred type(s) 'tensor<2x2xi64>' are incompatible with return type(s) of operation 'tensor<2x3xi64>'}}
  // expected-error @+1 {{'nn.topk' op failed to infer returned types}}
  %0 = nn.topk %x {axis = 1 : i64, k = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  return
}

// -----

func.func @topk_result_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'nn.topk' op result #0 must be statically shaped tensor of 64-bit signless integer values, but got 'tensor<2x1xi32>'}}
  %0 = nn.topk %x {axis = 1 : i64, k = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return
}

// -----

func.func @topk_no_k(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'nn.topk' op requires attribute 'k'}}
  %0 = "nn.topk"(%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}
