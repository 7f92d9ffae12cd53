// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt %s --mlir-print-op-generic | amp-opt | FileCheck %s
// RUN: amp-opt %s -emit-bytecode | amp-opt | FileCheck %s

// Round trip of every nn op and attribute form: custom form, generic form
// and bytecode all print back to the same custom form.

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.add %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @add_broadcast_rank_extending(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<2x4x8xf32>
// CHECK:         %[[V0:.*]] = nn.add %[[A]], %[[B]] : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @add_broadcast_rank_extending(%a: tensor<2x4x8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %0 = nn.add %a, %b : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @add_broadcast_both_sides(
// CHECK-SAME:    %[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.add %[[A]], %[[B]] : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @add_broadcast_both_sides(%a: tensor<4x1xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.add %a, %b : (tensor<4x1xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @add_broadcast_lhs_lower_rank(
// CHECK-SAME:    %[[A:.*]]: tensor<1x8xf32>, %[[B:.*]]: tensor<3x4x1xf32>) -> tensor<3x4x8xf32>
// CHECK:         %[[V0:.*]] = nn.add %[[A]], %[[B]] : (tensor<1x8xf32>, tensor<3x4x1xf32>) -> tensor<3x4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @add_broadcast_lhs_lower_rank(%a: tensor<1x8xf32>, %b: tensor<3x4x1xf32>) -> tensor<3x4x8xf32> {
  %0 = nn.add %a, %b : (tensor<1x8xf32>, tensor<3x4x1xf32>) -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// CHECK-LABEL: func.func @sub_scalar(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<f32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.sub %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @sub_scalar(%a: tensor<4x8xf32>, %b: tensor<f32>) -> tensor<4x8xf32> {
  %0 = nn.sub %a, %b : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @mul_f16(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.mul %[[A]], %[[B]] : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @mul_f16(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = nn.mul %a, %b : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @div_bf16(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<4x1xbf16>) -> tensor<4x8xbf16>
// CHECK:         %[[V0:.*]] = nn.div %[[A]], %[[B]] : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @div_bf16(%a: tensor<4x8xbf16>, %b: tensor<4x1xbf16>) -> tensor<4x8xbf16> {
  %0 = nn.div %a, %b : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @powf(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.powf %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @powf(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = nn.powf %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @neg(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.neg %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @neg(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.neg %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @exp(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.exp %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @log(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.log %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @log(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.log %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sqrt(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.sqrt %[[X]] : tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @sqrt(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = nn.sqrt %x : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @rsqrt(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK:         %[[V0:.*]] = nn.rsqrt %[[X]] : tensor<4x8xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @rsqrt(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = nn.rsqrt %x : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @tanh(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.tanh %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.tanh %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sigmoid(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.sigmoid %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @sigmoid(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.sigmoid %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @relu(
// CHECK-SAME:    %[[X:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.relu %[[X]] : tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @relu(%x: tensor<f32>) -> tensor<f32> {
  %0 = nn.relu %x : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @gelu(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf16>) -> tensor<2x3x4xf16>
// CHECK:         %[[V0:.*]] = nn.gelu %[[X]] : tensor<2x3x4xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @gelu(%x: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %0 = nn.gelu %x : tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// CHECK-LABEL: func.func @gelu_erf(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
// CHECK:         %[[V0:.*]] = nn.gelu_erf %[[X]] : tensor<2x3x4xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @gelu_erf(%x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %0 = nn.gelu_erf %x : tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// CHECK-LABEL: func.func @sin_cos_erf(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf16>) -> (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>)
// CHECK:         %[[S:.*]] = nn.sin %[[X]] : tensor<2x3xf16>
// CHECK-NEXT:    %[[C:.*]] = nn.cos %[[X]] : tensor<2x3xf16>
// CHECK-NEXT:    %[[E:.*]] = nn.erf %[[X]] : tensor<2x3xf16>
// CHECK-NEXT:    return %[[S]], %[[C]], %[[E]]
func.func @sin_cos_erf(%x: tensor<2x3xf16>) -> (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>) {
  %0 = nn.sin %x : tensor<2x3xf16>
  %1 = nn.cos %x : tensor<2x3xf16>
  %2 = nn.erf %x : tensor<2x3xf16>
  return %0, %1, %2 : tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>
}

// CHECK-LABEL: func.func @mod_and_integer_div(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3xi64>, %[[B:.*]]: tensor<3xi64>, %[[X:.*]]: tensor<2x3xbf16>)
// CHECK:         %[[M:.*]] = nn.mod %[[A]], %[[B]] : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %[[F:.*]] = nn.mod %[[M]], %[[B]] {fmod} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %[[D:.*]] = nn.div %[[F]], %[[B]] : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %[[R:.*]] = nn.mod %[[X]], %[[X]] {fmod} : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    return %[[D]], %[[R]]
func.func @mod_and_integer_div(%a: tensor<2x3xi64>, %b: tensor<3xi64>, %x: tensor<2x3xbf16>) -> (tensor<2x3xi64>, tensor<2x3xbf16>) {
  %0 = nn.mod %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %1 = nn.mod %0, %b {fmod} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %2 = nn.div %1, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %3 = nn.mod %x, %x {fmod} : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  return %2, %3 : tensor<2x3xi64>, tensor<2x3xbf16>
}

// CHECK-LABEL: func.func @trig_hyperbolic(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf16>)
// CHECK:      %[[V0:.*]] = nn.tan %[[X]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V1:.*]] = nn.asin %[[V0]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V2:.*]] = nn.acos %[[V1]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V3:.*]] = nn.atan %[[V2]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V4:.*]] = nn.sinh %[[V3]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V5:.*]] = nn.cosh %[[V4]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V6:.*]] = nn.asinh %[[V5]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V7:.*]] = nn.acosh %[[V6]] : tensor<2x3xf16>
// CHECK-NEXT: %[[V8:.*]] = nn.atanh %[[V7]] : tensor<2x3xf16>
// CHECK-NEXT:    return %[[V8]]
func.func @trig_hyperbolic(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = nn.tan %x : tensor<2x3xf16>
  %1 = nn.asin %0 : tensor<2x3xf16>
  %2 = nn.acos %1 : tensor<2x3xf16>
  %3 = nn.atan %2 : tensor<2x3xf16>
  %4 = nn.sinh %3 : tensor<2x3xf16>
  %5 = nn.cosh %4 : tensor<2x3xf16>
  %6 = nn.asinh %5 : tensor<2x3xf16>
  %7 = nn.acosh %6 : tensor<2x3xf16>
  %8 = nn.atanh %7 : tensor<2x3xf16>
  return %8 : tensor<2x3xf16>
}

// CHECK-LABEL: func.func @step_functions(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xbf16>)
// CHECK:         %[[F:.*]] = nn.floor %[[X]] : tensor<2x3xbf16>
// CHECK-NEXT:    %[[C:.*]] = nn.ceil %[[F]] : tensor<2x3xbf16>
// CHECK-NEXT:    %[[R:.*]] = nn.round %[[C]] : tensor<2x3xbf16>
// CHECK-NEXT:    %[[S:.*]] = nn.sign %[[R]] : tensor<2x3xbf16>
// CHECK-NEXT:    return %[[S]]
func.func @step_functions(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = nn.floor %x : tensor<2x3xbf16>
  %1 = nn.ceil %0 : tensor<2x3xbf16>
  %2 = nn.round %1 : tensor<2x3xbf16>
  %3 = nn.sign %2 : tensor<2x3xbf16>
  return %3 : tensor<2x3xbf16>
}

// CHECK-LABEL: func.func @maximum(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.maximum %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @maximum(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.maximum %a, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @minimum_f16_both_sides(
// CHECK-SAME:    %[[A:.*]]: tensor<4x1xf16>, %[[B:.*]]: tensor<1x8xf16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.minimum %[[A]], %[[B]] : (tensor<4x1xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @minimum_f16_both_sides(%a: tensor<4x1xf16>, %b: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %v0 = nn.minimum %a, %b : (tensor<4x1xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
  return %v0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @abs(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.abs %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @abs(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.abs %x : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @pow_bf16(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK:         %[[V0:.*]] = nn.pow %[[X]] {exponent = 3.000000e+00 : f32} : tensor<4x8xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @pow_bf16(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %v0 = nn.pow %x {exponent = 3.000000e+00 : f32} : tensor<4x8xbf16>
  return %v0 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @clamp(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.clamp %[[X]] {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @clamp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.clamp %x {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_min_only(
// CHECK-SAME:    %[[X:.*]]: tensor<f16>) -> tensor<f16>
// CHECK:         %[[V0:.*]] = nn.clamp %[[X]] {min = -1.000000e+00 : f32} : tensor<f16>
// CHECK-NEXT:    return %[[V0]]
func.func @clamp_min_only(%x: tensor<f16>) -> tensor<f16> {
  %v0 = nn.clamp %x {min = -1.000000e+00 : f32} : tensor<f16>
  return %v0 : tensor<f16>
}

// CHECK-LABEL: func.func @clamp_equal_bounds(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.clamp %[[X]] {max = 1.000000e+00 : f32, min = 1.000000e+00 : f32} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @clamp_equal_bounds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.clamp %x {max = 1.000000e+00 : f32, min = 1.000000e+00 : f32} : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @where(
// CHECK-SAME:    %[[C:.*]]: tensor<4x8xi1>, %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.where %[[C]], %[[A]], %[[B]] : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @where(%c: tensor<4x8xi1>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.where %c, %a, %b : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @where_broadcast_all(
// CHECK-SAME:    %[[C:.*]]: tensor<8xi1>, %[[A:.*]]: tensor<4x1xf16>, %[[B:.*]]: tensor<f16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.where %[[C]], %[[A]], %[[B]] : (tensor<8xi1>, tensor<4x1xf16>, tensor<f16>) -> tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @where_broadcast_all(%c: tensor<8xi1>, %a: tensor<4x1xf16>, %b: tensor<f16>) -> tensor<4x8xf16> {
  %v0 = nn.where %c, %a, %b : (tensor<8xi1>, tensor<4x1xf16>, tensor<f16>) -> tensor<4x8xf16>
  return %v0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @where_masks(
// CHECK-SAME:    %[[C:.*]]: tensor<4x8xi1>, %[[A:.*]]: tensor<4x8xi1>, %[[B:.*]]: tensor<i1>) -> tensor<4x8xi1>
// CHECK:         %[[V0:.*]] = nn.where %[[C]], %[[A]], %[[B]] : (tensor<4x8xi1>, tensor<4x8xi1>, tensor<i1>) -> tensor<4x8xi1>
// CHECK-NEXT:    return %[[V0]]
func.func @where_masks(%c: tensor<4x8xi1>, %a: tensor<4x8xi1>, %b: tensor<i1>) -> tensor<4x8xi1> {
  %v0 = nn.where %c, %a, %b : (tensor<4x8xi1>, tensor<4x8xi1>, tensor<i1>) -> tensor<4x8xi1>
  return %v0 : tensor<4x8xi1>
}

// CHECK-LABEL: func.func @compare(
// CHECK-SAME:    %[[IDS:.*]]: tensor<4x8xi64>, %[[Z:.*]]: tensor<i64>, %[[X:.*]]: tensor<4x1xf16>, %[[Y:.*]]: tensor<8xf16>, %[[M:.*]]: tensor<8xi1>, %[[N:.*]]: tensor<4x8xi32>)
// CHECK:         nn.compare eq, %[[IDS]], %[[Z]] : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
// CHECK-NEXT:    nn.compare ne, %[[IDS]], %[[Z]] : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
// CHECK-NEXT:    nn.compare lt, %[[X]], %[[Y]] : (tensor<4x1xf16>, tensor<8xf16>) -> tensor<4x8xi1>
// CHECK-NEXT:    nn.compare le, %[[X]], %[[Y]] : (tensor<4x1xf16>, tensor<8xf16>) -> tensor<4x8xi1>
// CHECK-NEXT:    nn.compare gt, %[[M]], %[[M]] : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
// CHECK-NEXT:    nn.compare ge, %[[N]], %[[N]] : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
func.func @compare(%ids: tensor<4x8xi64>, %z: tensor<i64>, %x: tensor<4x1xf16>, %y: tensor<8xf16>, %m: tensor<8xi1>, %n: tensor<4x8xi32>) -> (tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<8xi1>, tensor<4x8xi1>) {
  %0 = nn.compare eq, %ids, %z : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
  %1 = nn.compare ne, %ids, %z : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
  %2 = nn.compare lt, %x, %y : (tensor<4x1xf16>, tensor<8xf16>) -> tensor<4x8xi1>
  %3 = nn.compare le, %x, %y : (tensor<4x1xf16>, tensor<8xf16>) -> tensor<4x8xi1>
  %4 = nn.compare gt, %m, %m : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  %5 = nn.compare ge, %n, %n : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<4x8xi1>, tensor<8xi1>, tensor<4x8xi1>
}

// CHECK-LABEL: func.func @convert(
// CHECK-SAME:    %[[M:.*]]: tensor<4x8xi64>, %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xi1>)
// CHECK:         nn.convert %[[M]] : tensor<4x8xi64> to tensor<4x8xf32>
// CHECK-NEXT:    nn.convert %[[X]] : tensor<4x8xf32> to tensor<4x8xi1>
// CHECK-NEXT:    nn.convert %[[M]] : tensor<4x8xi64> to tensor<4x8xi32>
// CHECK-NEXT:    nn.convert %[[B]] : tensor<4x8xi1> to tensor<4x8xbf16>
// CHECK-NEXT:    nn.convert %[[X]] : tensor<4x8xf32> to tensor<4x8xi64>
func.func @convert(%m: tensor<4x8xi64>, %x: tensor<4x8xf32>, %b: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xbf16>, tensor<4x8xi64>) {
  %0 = nn.convert %m : tensor<4x8xi64> to tensor<4x8xf32>
  %1 = nn.convert %x : tensor<4x8xf32> to tensor<4x8xi1>
  %2 = nn.convert %m : tensor<4x8xi64> to tensor<4x8xi32>
  %3 = nn.convert %b : tensor<4x8xi1> to tensor<4x8xbf16>
  %4 = nn.convert %x : tensor<4x8xf32> to tensor<4x8xi64>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xi32>, tensor<4x8xbf16>, tensor<4x8xi64>
}

// The shape ops move ids and masks too.
// CHECK-LABEL: func.func @shape_ops_of_ids_and_masks(
// CHECK-SAME:    %[[IDS:.*]]: tensor<4x8xi64>, %[[M:.*]]: tensor<4x8xi1>)
// CHECK:         nn.reshape %[[IDS]] : tensor<4x8xi64> -> tensor<4x1x1x8xi64>
// CHECK-NEXT:    nn.transpose %[[M]] [1, 0] : tensor<4x8xi1> -> tensor<8x4xi1>
// CHECK-NEXT:    nn.broadcast_to %[[M]] : tensor<4x8xi1> -> tensor<2x4x8xi1>
// CHECK-NEXT:    nn.concat %[[IDS]], %[[IDS]] {axis = 0 : i64} : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<8x8xi64>
// CHECK-NEXT:    nn.slice %[[M]] {offsets = array<i64: 0, 1>} : tensor<4x8xi1> -> tensor<4x7xi1>
func.func @shape_ops_of_ids_and_masks(%ids: tensor<4x8xi64>, %m: tensor<4x8xi1>) -> (tensor<4x1x1x8xi64>, tensor<8x4xi1>, tensor<2x4x8xi1>, tensor<8x8xi64>, tensor<4x7xi1>) {
  %0 = nn.reshape %ids : tensor<4x8xi64> -> tensor<4x1x1x8xi64>
  %1 = nn.transpose %m [1, 0] : tensor<4x8xi1> -> tensor<8x4xi1>
  %2 = nn.broadcast_to %m : tensor<4x8xi1> -> tensor<2x4x8xi1>
  %3 = nn.concat %ids, %ids {axis = 0 : i64} : (tensor<4x8xi64>, tensor<4x8xi64>) -> tensor<8x8xi64>
  %4 = nn.slice %m {offsets = array<i64: 0, 1>} : tensor<4x8xi1> -> tensor<4x7xi1>
  return %0, %1, %2, %3, %4 : tensor<4x1x1x8xi64>, tensor<8x4xi1>, tensor<2x4x8xi1>, tensor<8x8xi64>, tensor<4x7xi1>
}

// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[SEED:.*]]: tensor<i64>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.dropout %[[X]], %[[SEED]] {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @dropout(%x: tensor<4x8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  %v0 = nn.dropout %x, %seed {rate = 1.000000e-01 : f32, training} : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// Without training it is the identity; rate = 0 is allowed.
// CHECK-LABEL: func.func @dropout_eval(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xbf16>, %[[SEED:.*]]: tensor<i64>) -> tensor<2x3x4xbf16>
// CHECK:         %[[V0:.*]] = nn.dropout %[[X]], %[[SEED]] {rate = 5.000000e-01 : f32} : tensor<2x3x4xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @dropout_eval(%x: tensor<2x3x4xbf16>, %seed: tensor<i64>) -> tensor<2x3x4xbf16> {
  %v0 = nn.dropout %x, %seed {rate = 5.000000e-01 : f32} : tensor<2x3x4xbf16>
  return %v0 : tensor<2x3x4xbf16>
}

// CHECK-LABEL: func.func @dropout_rate_zero(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[SEED:.*]]: tensor<i64>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.dropout %[[X]], %[[SEED]] {rate = 0.000000e+00 : f32, training} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @dropout_rate_zero(%x: tensor<4x8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  %v0 = nn.dropout %x, %seed {rate = 0.000000e+00 : f32, training} : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_transpose_a(
// CHECK-SAME:    %[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] {transpose_a} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_transpose_a(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = nn.matmul %a, %b {transpose_a} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_transpose_b(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_transpose_b(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = nn.matmul %a, %b {transpose_b} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_transpose_both(
// CHECK-SAME:    %[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] {transpose_a, transpose_b} : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_transpose_both(%a: tensor<8x4xf32>, %b: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %0 = nn.matmul %a, %b {transpose_a, transpose_b} : (tensor<8x4xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_batched(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4x8xf32>, %[[B:.*]]: tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_batched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {
  %0 = nn.matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// CHECK-LABEL: func.func @matmul_broadcast_batch(
// CHECK-SAME:    %[[A:.*]]: tensor<3x2x4x8xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<3x2x4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<3x2x4x8xf32>, tensor<8x16xf32>) -> tensor<3x2x4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_broadcast_batch(%a: tensor<3x2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<3x2x4x16xf32> {
  %0 = nn.matmul %a, %b : (tensor<3x2x4x8xf32>, tensor<8x16xf32>) -> tensor<3x2x4x16xf32>
  return %0 : tensor<3x2x4x16xf32>
}

// CHECK-LABEL: func.func @matmul_broadcast_batch_both(
// CHECK-SAME:    %[[A:.*]]: tensor<3x1x4x8xf32>, %[[B:.*]]: tensor<2x8x16xf32>) -> tensor<3x2x4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<3x1x4x8xf32>, tensor<2x8x16xf32>) -> tensor<3x2x4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_broadcast_batch_both(%a: tensor<3x1x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<3x2x4x16xf32> {
  %0 = nn.matmul %a, %b : (tensor<3x1x4x8xf32>, tensor<2x8x16xf32>) -> tensor<3x2x4x16xf32>
  return %0 : tensor<3x2x4x16xf32>
}

// CHECK-LABEL: func.func @matmul_batched_transpose_b(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4x8xbf16>, %[[B:.*]]: tensor<16x8xbf16>) -> tensor<2x4x16xbf16>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] {transpose_b} : (tensor<2x4x8xbf16>, tensor<16x8xbf16>) -> tensor<2x4x16xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_batched_transpose_b(%a: tensor<2x4x8xbf16>, %b: tensor<16x8xbf16>) -> tensor<2x4x16xbf16> {
  %0 = nn.matmul %a, %b {transpose_b} : (tensor<2x4x8xbf16>, tensor<16x8xbf16>) -> tensor<2x4x16xbf16>
  return %0 : tensor<2x4x16xbf16>
}

// CHECK-LABEL: func.func @matmul_f16_f32_result(
// CHECK-SAME:    %[[A:.*]]: tensor<32x64xf16>, %[[B:.*]]: tensor<128x64xf16>) -> tensor<32x128xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] {transpose_b} : (tensor<32x64xf16>, tensor<128x64xf16>) -> tensor<32x128xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_f16_f32_result(%a: tensor<32x64xf16>, %b: tensor<128x64xf16>) -> tensor<32x128xf32> {
  %0 = nn.matmul %a, %b {transpose_b} : (tensor<32x64xf16>, tensor<128x64xf16>) -> tensor<32x128xf32>
  return %0 : tensor<32x128xf32>
}

// CHECK-LABEL: func.func @matmul_bf16_f32_result(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<8x16xbf16>) -> tensor<4x16xf32>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_bf16_f32_result(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<4x16xf32> {
  %0 = nn.matmul %a, %b : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_bf16(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xbf16>, %[[B:.*]]: tensor<8x16xbf16>) -> tensor<4x16xbf16>
// CHECK:         %[[V0:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @matmul_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<4x16xbf16> {
  %0 = nn.matmul %a, %b : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xbf16>
  return %0 : tensor<4x16xbf16>
}

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME:    %[[X:.*]]: tensor<8x3x32x32xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d(%x: tensor<8x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32> {
  %0 = nn.conv2d %x, %w : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
  return %0 : tensor<8x16x30x30xf32>
}

// CHECK-LABEL: func.func @conv2d_strides_padding(
// CHECK-SAME:    %[[X:.*]]: tensor<8x3x32x32xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_strides_padding(%x: tensor<8x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32> {
  %0 = nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32>
  return %0 : tensor<8x16x16x16xf32>
}

// CHECK-LABEL: func.func @conv2d_asymmetric(
// CHECK-SAME:    %[[X:.*]]: tensor<1x3x10x12xf32>, %[[W:.*]]: tensor<4x3x3x5xf32>) -> tensor<1x4x5x4xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] {padding = array<i64: 0, 1, 1, 2>, strides = array<i64: 2, 3>} : (tensor<1x3x10x12xf32>, tensor<4x3x3x5xf32>) -> tensor<1x4x5x4xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_asymmetric(%x: tensor<1x3x10x12xf32>, %w: tensor<4x3x3x5xf32>) -> tensor<1x4x5x4xf32> {
  %0 = nn.conv2d %x, %w {padding = array<i64: 0, 1, 1, 2>, strides = array<i64: 2, 3>} : (tensor<1x3x10x12xf32>, tensor<4x3x3x5xf32>) -> tensor<1x4x5x4xf32>
  return %0 : tensor<1x4x5x4xf32>
}

// CHECK-LABEL: func.func @conv2d_dilation(
// CHECK-SAME:    %[[X:.*]]: tensor<1x3x16x16xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>) -> tensor<1x4x12x12xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] {dilation = array<i64: 2, 2>} : (tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x12x12xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_dilation(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x12x12xf32> {
  %0 = nn.conv2d %x, %w {dilation = array<i64: 2, 2>} : (tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x12x12xf32>
  return %0 : tensor<1x4x12x12xf32>
}

// CHECK-LABEL: func.func @conv2d_groups(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8x8x8xf32>, %[[W:.*]]: tensor<16x2x3x3xf32>) -> tensor<2x16x8x8xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x8x8x8xf32>, tensor<16x2x3x3xf32>) -> tensor<2x16x8x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_groups(%x: tensor<2x8x8x8xf32>, %w: tensor<16x2x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %0 = nn.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, 1, 1, 1>} : (tensor<2x8x8x8xf32>, tensor<16x2x3x3xf32>) -> tensor<2x16x8x8xf32>
  return %0 : tensor<2x16x8x8xf32>
}

// CHECK-LABEL: func.func @conv2d_depthwise(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8x8x8xf16>, %[[W:.*]]: tensor<8x1x3x3xf16>) -> tensor<2x8x6x6xf16>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] {groups = 8 : i64} : (tensor<2x8x8x8xf16>, tensor<8x1x3x3xf16>) -> tensor<2x8x6x6xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_depthwise(%x: tensor<2x8x8x8xf16>, %w: tensor<8x1x3x3xf16>) -> tensor<2x8x6x6xf16> {
  %0 = nn.conv2d %x, %w {groups = 8 : i64} : (tensor<2x8x8x8xf16>, tensor<8x1x3x3xf16>) -> tensor<2x8x6x6xf16>
  return %0 : tensor<2x8x6x6xf16>
}

// CHECK-LABEL: func.func @conv2d_f16_f32_result(
// CHECK-SAME:    %[[X:.*]]: tensor<8x3x32x32xf16>, %[[W:.*]]: tensor<16x3x3x3xf16>) -> tensor<8x16x30x30xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] : (tensor<8x3x32x32xf16>, tensor<16x3x3x3xf16>) -> tensor<8x16x30x30xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_f16_f32_result(%x: tensor<8x3x32x32xf16>, %w: tensor<16x3x3x3xf16>) -> tensor<8x16x30x30xf32> {
  %0 = nn.conv2d %x, %w : (tensor<8x3x32x32xf16>, tensor<16x3x3x3xf16>) -> tensor<8x16x30x30xf32>
  return %0 : tensor<8x16x30x30xf32>
}

// CHECK-LABEL: func.func @conv2d_kernel_equals_input(
// CHECK-SAME:    %[[X:.*]]: tensor<1x1x5x5xf32>, %[[W:.*]]: tensor<2x1x5x5xf32>) -> tensor<1x2x1x1xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d %[[X]], %[[W]] : (tensor<1x1x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<1x2x1x1xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_kernel_equals_input(%x: tensor<1x1x5x5xf32>, %w: tensor<2x1x5x5xf32>) -> tensor<1x2x1x1xf32> {
  %0 = nn.conv2d %x, %w : (tensor<1x1x5x5xf32>, tensor<2x1x5x5xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @max_pool2d(
// CHECK-SAME:    %[[X:.*]]: tensor<8x16x32x32xf32>) -> tensor<8x16x16x16xf32>
// CHECK:         %[[V0:.*]] = nn.max_pool2d %[[X]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x32x32xf32>) -> tensor<8x16x16x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @max_pool2d(%x: tensor<8x16x32x32xf32>) -> tensor<8x16x16x16xf32> {
  %v0 = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x32x32xf32>) -> tensor<8x16x16x16xf32>
  return %v0 : tensor<8x16x16x16xf32>
}

// CHECK-LABEL: func.func @max_pool2d_padding_dilation(
// CHECK-SAME:    %[[X:.*]]: tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16>
// CHECK:         %[[V0:.*]] = nn.max_pool2d %[[X]] {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @max_pool2d_padding_dilation(%x: tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16> {
  %v0 = nn.max_pool2d %x {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf16>) -> tensor<1x3x6x6xf16>
  return %v0 : tensor<1x3x6x6xf16>
}

// CHECK-LABEL: func.func @max_pool2d_kernel_equals_input(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x5x5xbf16>) -> tensor<2x4x1x1xbf16>
// CHECK:         %[[V0:.*]] = nn.max_pool2d %[[X]] {kernel = array<i64: 5, 5>} : (tensor<2x4x5x5xbf16>) -> tensor<2x4x1x1xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @max_pool2d_kernel_equals_input(%x: tensor<2x4x5x5xbf16>) -> tensor<2x4x1x1xbf16> {
  %v0 = nn.max_pool2d %x {kernel = array<i64: 5, 5>} : (tensor<2x4x5x5xbf16>) -> tensor<2x4x1x1xbf16>
  return %v0 : tensor<2x4x1x1xbf16>
}

// CHECK-LABEL: func.func @avg_pool2d(
// CHECK-SAME:    %[[X:.*]]: tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
// CHECK:         %[[V0:.*]] = nn.avg_pool2d %[[X]] {count_include_pad, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @avg_pool2d(%x: tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32> {
  %v0 = nn.avg_pool2d %x {count_include_pad, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
  return %v0 : tensor<8x16x32x32xf32>
}

// CHECK-LABEL: func.func @avg_pool2d_asymmetric_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16>
// CHECK:         %[[V0:.*]] = nn.avg_pool2d %[[X]] {kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 2, 1>} : (tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @avg_pool2d_asymmetric_f16(%x: tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16> {
  %v0 = nn.avg_pool2d %x {kernel = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>, strides = array<i64: 2, 1>} : (tensor<2x4x9x9xf16>) -> tensor<2x4x5x8xf16>
  return %v0 : tensor<2x4x5x8xf16>
}

// CHECK-LABEL: func.func @global_avg_pool(
// CHECK-SAME:    %[[X:.*]]: tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16>
// CHECK:         %[[V0:.*]] = nn.global_avg_pool %[[X]] : (tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @global_avg_pool(%x: tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16> {
  %v0 = nn.global_avg_pool %x : (tensor<8x512x7x7xbf16>) -> tensor<8x512x1x1xbf16>
  return %v0 : tensor<8x512x1x1xbf16>
}

//===----------------------------------------------------------------------===//
// Normalization and softmax
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<8x16x4x4xf32>, %[[S:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[INVSTD:.*]] = nn.batch_norm %[[X]], %[[S]], %[[B]] : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[INVSTD]]
func.func @batch_norm(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %b: tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return %y, %mean, %invstd : tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>
}

// f16 data with an f32 scale and an f16 bias; statistics are f32.
// CHECK-LABEL: func.func @batch_norm_epsilon_2d_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<32x10xf16>, %[[S:.*]]: tensor<10xf32>, %[[B:.*]]: tensor<10xf16>) -> (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[INVSTD:.*]] = nn.batch_norm %[[X]], %[[S]], %[[B]] {epsilon = 1.000000e-03 : f32} : (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf16>) -> (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[INVSTD]]
func.func @batch_norm_epsilon_2d_f16(%x: tensor<32x10xf16>, %s: tensor<10xf32>, %b: tensor<10xf16>) -> (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %b {epsilon = 1.000000e-03 : f32} : (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf16>) -> (tensor<32x10xf16>, tensor<10xf32>, tensor<10xf32>)
  return %y, %mean, %invstd : tensor<32x10xf16>, tensor<10xf32>, tensor<10xf32>
}

// CHECK-LABEL: func.func @running_stats_update(
// CHECK-SAME:    %[[X:.*]]: tensor<8x16x4x4xf32>, %[[S:.*]]: tensor<16xf32>, %[[RM:.*]]: tensor<16xf32>, %[[RV:.*]]: tensor<16xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[INVSTD:.*]] = nn.batch_norm %[[X]], %[[S]], %[[S]]
// CHECK-NEXT:    %[[NM:.*]], %[[NV:.*]] = nn.running_stats_update %[[RM]], %[[RV]], %[[MEAN]], %[[INVSTD]] {count = 128 : i64} : tensor<16xf32>
// CHECK-NEXT:    %[[NM2:.*]], %[[NV2:.*]] = nn.running_stats_update %[[NM]], %[[NV]], %[[RM]], %[[RV]] {count = 1 : i64, epsilon = 1.000000e-03 : f32, momentum = 1.000000e+00 : f32, unbiased = false} : tensor<16xf32>
// CHECK-NEXT:    return %[[NM2]], %[[NV2]]
func.func @running_stats_update(%x: tensor<8x16x4x4xf32>, %s: tensor<16xf32>, %rm: tensor<16xf32>, %rv: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %y, %mean, %invstd = nn.batch_norm %x, %s, %s : (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  %m1, %v1 = nn.running_stats_update %rm, %rv, %mean, %invstd {count = 128 : i64, momentum = 0.1 : f32} : tensor<16xf32>
  // Statistics from elsewhere are not tied to a batch norm's count and epsilon.
  %m2, %v2 = nn.running_stats_update %m1, %v1, %rm, %rv {count = 1 : i64, epsilon = 1.0e-3 : f32, momentum = 1.0 : f32, unbiased = false} : tensor<16xf32>
  return %m2, %v2 : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<4x16x32xf32>, %[[S:.*]]: tensor<32xf32>, %[[B:.*]]: tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = nn.layer_norm %[[X]], %[[S]], %[[B]] : (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm(%x: tensor<4x16x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %y, %mean, %rstd = nn.layer_norm %x, %s, %b : (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
  return %y, %mean, %rstd : tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @layer_norm_axis_epsilon(
// CHECK-SAME:    %[[X:.*]]: tensor<4x16x32xbf16>, %[[S:.*]]: tensor<16x32xbf16>, %[[B:.*]]: tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = nn.layer_norm %[[X]], %[[S]], %[[B]] {axis = 1 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<4x16x32xbf16>, tensor<16x32xbf16>, tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm_axis_epsilon(%x: tensor<4x16x32xbf16>, %s: tensor<16x32xbf16>, %b: tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %y, %mean, %rstd = nn.layer_norm %x, %s, %b {axis = 1 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<4x16x32xbf16>, tensor<16x32xbf16>, tensor<16x32xf32>) -> (tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>)
  return %y, %mean, %rstd : tensor<4x16x32xbf16>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @layer_norm_negative_axis(
// CHECK-SAME:    %[[X:.*]]: tensor<4x16x32xf32>, %[[S:.*]]: tensor<16x32xf32>, %[[B:.*]]: tensor<16x32xf32>) -> (tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[Y:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = nn.layer_norm %[[X]], %[[S]], %[[B]] {axis = -2 : i64} : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    return %[[Y]], %[[MEAN]], %[[RSTD]]
func.func @layer_norm_negative_axis(%x: tensor<4x16x32xf32>, %s: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> (tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y, %mean, %rstd = nn.layer_norm %x, %s, %b {axis = -2 : i64} : (tensor<4x16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>)
  return %y, %mean, %rstd : tensor<4x16x32xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf32>) -> tensor<4x10xf32>
// CHECK:         %[[V0:.*]] = nn.softmax %[[X]] : tensor<4x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = nn.softmax %x : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @softmax_axis(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf16>) -> tensor<4x10xf16>
// CHECK:         %[[V0:.*]] = nn.softmax %[[X]] {axis = 0 : i64} : tensor<4x10xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @softmax_axis(%x: tensor<4x10xf16>) -> tensor<4x10xf16> {
  %0 = nn.softmax %x {axis = 0 : i64} : tensor<4x10xf16>
  return %0 : tensor<4x10xf16>
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf32>) -> tensor<4x10xf32>
// CHECK:         %[[V0:.*]] = nn.log_softmax %[[X]] : tensor<4x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @log_softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = nn.log_softmax %x : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @log_softmax_axis(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x10xbf16>) -> tensor<2x4x10xbf16>
// CHECK:         %[[V0:.*]] = nn.log_softmax %[[X]] {axis = -2 : i64} : tensor<2x4x10xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @log_softmax_axis(%x: tensor<2x4x10xbf16>) -> tensor<2x4x10xbf16> {
  %0 = nn.log_softmax %x {axis = -2 : i64} : tensor<2x4x10xbf16>
  return %0 : tensor<2x4x10xbf16>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME:    %[[X:.*]]: tensor<32x10xf32>) -> tensor<10xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_sum %[[X]] [0] : (tensor<32x10xf32>) -> tensor<10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_sum(%x: tensor<32x10xf32>) -> tensor<10xf32> {
  %0 = nn.reduce_sum %x [0] : (tensor<32x10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[IDS:.*]]: tensor<2x16xi64>) -> (tensor<4x8xf32>, tensor<2x16xi64>)
// CHECK:         %[[V0:.*]] = nn.cumsum %[[X]] {axis = 1 : i64} : tensor<4x8xf32>
// CHECK-NEXT:    %[[V1:.*]] = nn.cumsum %[[IDS]] {axis = -1 : i64, exclusive, reverse} : tensor<2x16xi64>
// CHECK-NEXT:    return %[[V0]], %[[V1]]
func.func @cumsum(%x: tensor<4x8xf32>, %ids: tensor<2x16xi64>) -> (tensor<4x8xf32>, tensor<2x16xi64>) {
  %0 = nn.cumsum %x {axis = 1 : i64} : tensor<4x8xf32>
  %1 = nn.cumsum %ids {axis = -1 : i64, exclusive, reverse} : tensor<2x16xi64>
  return %0, %1 : tensor<4x8xf32>, tensor<2x16xi64>
}

// CHECK-LABEL: func.func @argmax(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xi64>, %[[Y:.*]]: tensor<4x8xf16>) -> (tensor<4xi64>, tensor<1x8xi64>)
// CHECK:         %[[V0:.*]] = nn.argmax %[[X]] {axis = -1 : i64} : (tensor<4x8xi64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[V1:.*]] = nn.argmax %[[Y]] {axis = 0 : i64, keep_dims, select_last} : (tensor<4x8xf16>) -> tensor<1x8xi64>
// CHECK-NEXT:    return %[[V0]], %[[V1]]
func.func @argmax(%x: tensor<4x8xi64>, %y: tensor<4x8xf16>) -> (tensor<4xi64>, tensor<1x8xi64>) {
  %0 = nn.argmax %x {axis = -1 : i64} : (tensor<4x8xi64>) -> tensor<4xi64>
  %1 = nn.argmax %y {axis = 0 : i64, keep_dims, select_last} : (tensor<4x8xf16>) -> tensor<1x8xi64>
  return %0, %1 : tensor<4xi64>, tensor<1x8xi64>
}

// CHECK-LABEL: func.func @topk(
// CHECK-SAME:    %[[X:.*]]: tensor<16x8xf32>, %[[Y:.*]]: tensor<4x8xi32>) -> (tensor<16x2xi64>, tensor<1x8xi64>)
// CHECK:         %[[V0:.*]] = nn.topk %[[X]] {axis = -1 : i64, k = 2 : i64} : (tensor<16x8xf32>) -> tensor<16x2xi64>
// CHECK-NEXT:    %[[V1:.*]] = nn.topk %[[Y]] {axis = 0 : i64, k = 1 : i64, smallest} : (tensor<4x8xi32>) -> tensor<1x8xi64>
// CHECK-NEXT:    return %[[V0]], %[[V1]]
func.func @topk(%x: tensor<16x8xf32>, %y: tensor<4x8xi32>) -> (tensor<16x2xi64>, tensor<1x8xi64>) {
  %0 = nn.topk %x {axis = -1 : i64, k = 2 : i64} : (tensor<16x8xf32>) -> tensor<16x2xi64>
  %1 = nn.topk %y {axis = 0 : i64, k = 1 : i64, smallest} : (tensor<4x8xi32>) -> tensor<1x8xi64>
  return %0, %1 : tensor<16x2xi64>, tensor<1x8xi64>
}

// CHECK-LABEL: func.func @integer_arithmetic(
// CHECK-SAME:    %[[A:.*]]: tensor<2x8xi64>, %[[B:.*]]: tensor<i64>, %[[C:.*]]: tensor<8xi32>)
// CHECK:         nn.add %[[A]], %[[B]] : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi64>
// CHECK-NEXT:    nn.sub %[[A]], %[[B]] : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi64>
// CHECK-NEXT:    nn.mul %[[A]], %[[A]] : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
// CHECK-NEXT:    nn.maximum %[[C]], %[[C]] : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
// CHECK-NEXT:    nn.minimum %[[C]], %[[C]] : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
func.func @integer_arithmetic(%a: tensor<2x8xi64>, %b: tensor<i64>, %c: tensor<8xi32>) -> (tensor<2x8xi64>, tensor<2x8xi64>, tensor<2x8xi64>, tensor<8xi32>, tensor<8xi32>) {
  %0 = nn.add %a, %b : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi64>
  %1 = nn.sub %a, %b : (tensor<2x8xi64>, tensor<i64>) -> tensor<2x8xi64>
  %2 = nn.mul %a, %a : (tensor<2x8xi64>, tensor<2x8xi64>) -> tensor<2x8xi64>
  %3 = nn.maximum %c, %c : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %4 = nn.minimum %c, %c : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %0, %1, %2, %3, %4 : tensor<2x8xi64>, tensor<2x8xi64>, tensor<2x8xi64>, tensor<8xi32>, tensor<8xi32>
}

// CHECK-LABEL: func.func @reduce_sum_keep_dims(
// CHECK-SAME:    %[[X:.*]]: tensor<32x10xf32>) -> tensor<1x10xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_sum %[[X]] [0] keep_dims : (tensor<32x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_sum_keep_dims(%x: tensor<32x10xf32>) -> tensor<1x10xf32> {
  %0 = nn.reduce_sum %x [0] keep_dims : (tensor<32x10xf32>) -> tensor<1x10xf32>
  return %0 : tensor<1x10xf32>
}

// CHECK-LABEL: func.func @reduce_sum_all_to_scalar(
// CHECK-SAME:    %[[X:.*]]: tensor<32x10xf32>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.reduce_sum %[[X]] [0, 1] : (tensor<32x10xf32>) -> tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_sum_all_to_scalar(%x: tensor<32x10xf32>) -> tensor<f32> {
  %0 = nn.reduce_sum %x [0, 1] : (tensor<32x10xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @reduce_mean(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_mean %[[X]] [1] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = nn.reduce_mean %x [1] : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @reduce_mean_keep_dims_negative_axes(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_mean %[[X]] [-1, 0] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_mean_keep_dims_negative_axes(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = nn.reduce_mean %x [-1, 0] keep_dims : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xbf16>) -> tensor<2x3xbf16>
// CHECK:         %[[V0:.*]] = nn.reduce_max %[[X]] [2] : (tensor<2x3x4xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_max(%x: tensor<2x3x4xbf16>) -> tensor<2x3xbf16> {
  %0 = nn.reduce_max %x [2] : (tensor<2x3x4xbf16>) -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// CHECK-LABEL: func.func @reduce_sum_f16_f32_result(
// CHECK-SAME:    %[[X:.*]]: tensor<32x10xf16>) -> tensor<10xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_sum %[[X]] [0] : (tensor<32x10xf16>) -> tensor<10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_sum_f16_f32_result(%x: tensor<32x10xf16>) -> tensor<10xf32> {
  %0 = nn.reduce_sum %x [0] : (tensor<32x10xf16>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<2x16xf32>
// CHECK:         %[[V0:.*]] = nn.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reshape(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = nn.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// CHECK-LABEL: func.func @reshape_to_scalar(
// CHECK-SAME:    %[[X:.*]]: tensor<1x1xf16>) -> tensor<f16>
// CHECK:         %[[V0:.*]] = nn.reshape %[[X]] : tensor<1x1xf16> -> tensor<f16>
// CHECK-NEXT:    return %[[V0]]
func.func @reshape_to_scalar(%x: tensor<1x1xf16>) -> tensor<f16> {
  %0 = nn.reshape %x : tensor<1x1xf16> -> tensor<f16>
  return %0 : tensor<f16>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK:         %[[V0:.*]] = nn.transpose %[[X]] [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = nn.transpose %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @transpose_rank3(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16>
// CHECK:         %[[V0:.*]] = nn.transpose %[[X]] [2, 0, 1] : tensor<2x3x4xbf16> -> tensor<4x2x3xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @transpose_rank3(%x: tensor<2x3x4xbf16>) -> tensor<4x2x3xbf16> {
  %0 = nn.transpose %x [2, 0, 1] : tensor<2x3x4xbf16> -> tensor<4x2x3xbf16>
  return %0 : tensor<4x2x3xbf16>
}

// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME:    %[[X:.*]]: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.broadcast_to %[[X]] : tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @broadcast_to(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = nn.broadcast_to %x : tensor<8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_to_ones(
// CHECK-SAME:    %[[X:.*]]: tensor<4x1xf16>) -> tensor<2x4x8xf16>
// CHECK:         %[[V0:.*]] = nn.broadcast_to %[[X]] : tensor<4x1xf16> -> tensor<2x4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @broadcast_to_ones(%x: tensor<4x1xf16>) -> tensor<2x4x8xf16> {
  %0 = nn.broadcast_to %x : tensor<4x1xf16> -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x2xf32>) -> tensor<4x10xf32>
// CHECK:         %[[V0:.*]] = nn.concat %[[A]], %[[B]] {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @concat(%a: tensor<4x8xf32>, %b: tensor<4x2xf32>) -> tensor<4x10xf32> {
  %v0 = nn.concat %a, %b {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  return %v0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @concat_three_negative_axis(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4x8xf16>, %[[B:.*]]: tensor<1x4x8xf16>, %[[C:.*]]: tensor<3x4x8xf16>) -> tensor<6x4x8xf16>
// CHECK:         %[[V0:.*]] = nn.concat %[[A]], %[[B]], %[[C]] {axis = -3 : i64} : (tensor<2x4x8xf16>, tensor<1x4x8xf16>, tensor<3x4x8xf16>) -> tensor<6x4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @concat_three_negative_axis(%a: tensor<2x4x8xf16>, %b: tensor<1x4x8xf16>, %c: tensor<3x4x8xf16>) -> tensor<6x4x8xf16> {
  %v0 = nn.concat %a, %b, %c {axis = -3 : i64} : (tensor<2x4x8xf16>, tensor<1x4x8xf16>, tensor<3x4x8xf16>) -> tensor<6x4x8xf16>
  return %v0 : tensor<6x4x8xf16>
}

// CHECK-LABEL: func.func @concat_one_input(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.concat %[[A]] {axis = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @concat_one_input(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.concat %a {axis = 0 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<2x3xf32>
// CHECK:         %[[V0:.*]] = nn.slice %[[X]] {offsets = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @slice(%x: tensor<4x8xf32>) -> tensor<2x3xf32> {
  %v0 = nn.slice %x {offsets = array<i64: 1, 2>} : tensor<4x8xf32> -> tensor<2x3xf32>
  return %v0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice_strided_backwards(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK:         %[[V0:.*]] = nn.slice %[[X]] {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>} : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @slice_strided_backwards(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %v0 = nn.slice %x {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>} : tensor<4x8xf32> -> tensor<4x4xf32>
  return %v0 : tensor<4x4xf32>
}

// A dimension of size 0 reads nothing: its offset is not checked.
// CHECK-LABEL: func.func @slice_empty_dim(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<0x2xf32>
// CHECK:         %[[V0:.*]] = nn.slice %[[X]] {offsets = array<i64: 0, 0>, strides = array<i64: 1, 5>} : tensor<4x8xf32> -> tensor<0x2xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @slice_empty_dim(%x: tensor<4x8xf32>) -> tensor<0x2xf32> {
  %v0 = nn.slice %x {offsets = array<i64: 0, 0>, strides = array<i64: 1, 5>} : tensor<4x8xf32> -> tensor<0x2xf32>
  return %v0 : tensor<0x2xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x11xf32>
// CHECK:         %[[V0:.*]] = nn.pad %[[X]] {high = array<i64: 0, 2>, low = array<i64: 0, 1>} : tensor<4x8xf32> -> tensor<4x11xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @pad(%x: tensor<4x8xf32>) -> tensor<4x11xf32> {
  %v0 = nn.pad %x {high = array<i64: 0, 2>, low = array<i64: 0, 1>} : tensor<4x8xf32> -> tensor<4x11xf32>
  return %v0 : tensor<4x11xf32>
}

// CHECK-LABEL: func.func @pad_value_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<1x3x4x4xf16>) -> tensor<1x3x6x6xf16>
// CHECK:         %[[V0:.*]] = nn.pad %[[X]] {high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 1, 1>, value = -1.000000e+00 : f32} : tensor<1x3x4x4xf16> -> tensor<1x3x6x6xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @pad_value_f16(%x: tensor<1x3x4x4xf16>) -> tensor<1x3x6x6xf16> {
  %v0 = nn.pad %x {high = array<i64: 0, 0, 1, 1>, low = array<i64: 0, 0, 1, 1>, value = -1.000000e+00 : f32} : tensor<1x3x4x4xf16> -> tensor<1x3x6x6xf16>
  return %v0 : tensor<1x3x6x6xf16>
}

//===----------------------------------------------------------------------===//
// Embedding and loss
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @embedding(
// CHECK-SAME:    %[[T:.*]]: tensor<100x16xf32>, %[[IDS:.*]]: tensor<8xi32>) -> tensor<8x16xf32>
// CHECK:         %[[V0:.*]] = nn.embedding %[[T]], %[[IDS]] : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @embedding(%t: tensor<100x16xf32>, %ids: tensor<8xi32>) -> tensor<8x16xf32> {
  %0 = nn.embedding %t, %ids : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @embedding_i64_ids_rank2(
// CHECK-SAME:    %[[T:.*]]: tensor<100x16xbf16>, %[[IDS:.*]]: tensor<4x8xi64>) -> tensor<4x8x16xbf16>
// CHECK:         %[[V0:.*]] = nn.embedding %[[T]], %[[IDS]] : (tensor<100x16xbf16>, tensor<4x8xi64>) -> tensor<4x8x16xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @embedding_i64_ids_rank2(%t: tensor<100x16xbf16>, %ids: tensor<4x8xi64>) -> tensor<4x8x16xbf16> {
  %0 = nn.embedding %t, %ids : (tensor<100x16xbf16>, tensor<4x8xi64>) -> tensor<4x8x16xbf16>
  return %0 : tensor<4x8x16xbf16>
}

// padding_idx and scale_grad_by_freq: the lookup is unchanged; the gradient
// leaves the padding row out, and divides by the ids' counts.
// CHECK-LABEL: func.func @embedding_padding(
// CHECK:         nn.embedding %{{.*}}, %{{.*}} {padding_idx = 0 : i64} : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
// CHECK:         nn.embedding_grad %{{.*}}, %{{.*}} {padding_idx = 99 : i64} : (tensor<8x16xf16>, tensor<8xi32>) -> tensor<100x16xf32>
// CHECK:         nn.embedding %{{.*}}, %{{.*}} {padding_idx = 0 : i64, scale_grad_by_freq} : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
// CHECK:         nn.embedding_grad %{{.*}}, %{{.*}} {scale_grad_by_freq} : (tensor<8x16xf16>, tensor<8xi32>) -> tensor<100x16xf32>
func.func @embedding_padding(%t: tensor<100x16xf32>, %ids: tensor<8xi32>, %dy: tensor<8x16xf16>) -> (tensor<8x16xf32>, tensor<100x16xf32>, tensor<8x16xf32>, tensor<100x16xf32>) {
  %0 = nn.embedding %t, %ids {padding_idx = 0 : i64} : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
  %1 = nn.embedding_grad %dy, %ids {padding_idx = 99 : i64} : (tensor<8x16xf16>, tensor<8xi32>) -> tensor<100x16xf32>
  %2 = nn.embedding %t, %ids {padding_idx = 0 : i64, scale_grad_by_freq} : (tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
  %3 = nn.embedding_grad %dy, %ids {scale_grad_by_freq} : (tensor<8x16xf16>, tensor<8xi32>) -> tensor<100x16xf32>
  return %0, %1, %2, %3 : tensor<8x16xf32>, tensor<100x16xf32>, tensor<8x16xf32>, tensor<100x16xf32>
}

// An integer table: a gather of ids.
// CHECK-LABEL: func.func @embedding_integer_table(
// CHECK:         nn.embedding %{{.*}}, %{{.*}} : (tensor<8x1xi64>, tensor<2xi32>) -> tensor<2x1xi64>
func.func @embedding_integer_table(%t: tensor<8x1xi64>, %ids: tensor<2xi32>) -> tensor<2x1xi64> {
  %0 = nn.embedding %t, %ids : (tensor<8x1xi64>, tensor<2xi32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// CHECK-LABEL: func.func @cross_entropy(
// CHECK-SAME:    %[[L:.*]]: tensor<32x10xf32>, %[[Y:.*]]: tensor<32xi32>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.cross_entropy %[[L]], %[[Y]] : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @cross_entropy(%l: tensor<32x10xf32>, %y: tensor<32xi32>) -> tensor<f32> {
  %0 = nn.cross_entropy %l, %y : (tensor<32x10xf32>, tensor<32xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @cross_entropy_f16_rank3_i64(
// CHECK-SAME:    %[[L:.*]]: tensor<4x8x10xf16>, %[[Y:.*]]: tensor<4x8xi64>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.cross_entropy %[[L]], %[[Y]] : (tensor<4x8x10xf16>, tensor<4x8xi64>) -> tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @cross_entropy_f16_rank3_i64(%l: tensor<4x8x10xf16>, %y: tensor<4x8xi64>) -> tensor<f32> {
  %0 = nn.cross_entropy %l, %y : (tensor<4x8x10xf16>, tensor<4x8xi64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @cross_entropy_ignore_index(
// CHECK:         nn.cross_entropy %{{.*}}, %{{.*}} {ignore_index = -100 : i64} : (tensor<4x8x10xf32>, tensor<4x8xi32>) -> tensor<f32>
// CHECK:         nn.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = -100 : i64} : (tensor<f32>, tensor<4x8x10xf32>, tensor<4x8xi32>) -> tensor<4x8x10xf32>
func.func @cross_entropy_ignore_index(%l: tensor<4x8x10xf32>, %y: tensor<4x8xi32>) -> (tensor<f32>, tensor<4x8x10xf32>) {
  %0 = nn.cross_entropy %l, %y {ignore_index = -100 : i64} : (tensor<4x8x10xf32>, tensor<4x8xi32>) -> tensor<f32>
  %1 = nn.cross_entropy_grad %0, %l, %y {ignore_index = -100 : i64} : (tensor<f32>, tensor<4x8x10xf32>, tensor<4x8xi32>) -> tensor<4x8x10xf32>
  return %0, %1 : tensor<f32>, tensor<4x8x10xf32>
}

// CHECK-LABEL: func.func @mse_loss(
// CHECK-SAME:    %[[P:.*]]: tensor<32x1xf32>, %[[T:.*]]: tensor<32x1xf32>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.mse_loss %[[P]], %[[T]] : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @mse_loss(%p: tensor<32x1xf32>, %t: tensor<32x1xf32>) -> tensor<f32> {
  %v0 = nn.mse_loss %p, %t : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// CHECK-LABEL: func.func @mse_loss_f16(
// CHECK-SAME:    %[[P:.*]]: tensor<4x8xf16>, %[[T:.*]]: tensor<4x8xf16>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.mse_loss %[[P]], %[[T]] : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @mse_loss_f16(%p: tensor<4x8xf16>, %t: tensor<4x8xf16>) -> tensor<f32> {
  %v0 = nn.mse_loss %p, %t : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<f32>
  return %v0 : tensor<f32>
}

// CHECK-LABEL: func.func @elementwise_losses(
// CHECK-SAME:    %[[P:.*]]: tensor<4x8xbf16>, %[[T:.*]]: tensor<4x8xbf16>)
// CHECK:         nn.l1_loss %[[P]], %[[T]] : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
// CHECK-NEXT:    nn.huber_loss %[[P]], %[[T]] : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
// CHECK-NEXT:    nn.huber_loss %[[P]], %[[T]] {delta = 2.500000e-01 : f32} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
// CHECK-NEXT:    nn.bce_with_logits_loss %[[P]], %[[T]] : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
// The default reduction (mean) is not printed; sum is.
// CHECK-NEXT:    nn.l1_loss %[[P]], %[[T]] : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
// CHECK-NEXT:    nn.huber_loss %[[P]], %[[T]] reduction sum {delta = 2.500000e-01 : f32} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
func.func @elementwise_losses(%p: tensor<4x8xbf16>, %t: tensor<4x8xbf16>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = nn.l1_loss %p, %t : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  %1 = nn.huber_loss %p, %t : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  %2 = nn.huber_loss %p, %t {delta = 0.25 : f32} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  %3 = nn.bce_with_logits_loss %p, %t : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  %4 = nn.l1_loss %p, %t reduction mean : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  %5 = nn.huber_loss %p, %t reduction sum {delta = 0.25 : f32} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

//===----------------------------------------------------------------------===//
// Backward ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @grad_seed(
// CHECK-SAME:    %[[LOSS:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:         %[[V0:.*]] = nn.grad_seed %[[LOSS]] : tensor<f32>
// CHECK-NEXT:    return %[[V0]]
func.func @grad_seed(%loss: tensor<f32>) -> tensor<f32> {
  %0 = nn.grad_seed %loss : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @relu_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.relu_grad %[[DY]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @relu_grad(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.relu_grad %dy, %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @gelu_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf16>, %[[X:.*]]: tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.gelu_grad %[[DY]], %[[X]] : tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @gelu_grad(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = nn.gelu_grad %dy, %x : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @gelu_erf_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.gelu_erf_grad %[[DY]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @gelu_erf_grad(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.gelu_erf_grad %dy, %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @erf_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xbf16>, %[[X:.*]]: tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK:         %[[V0:.*]] = nn.erf_grad %[[DY]], %[[X]] : tensor<4x8xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @erf_grad(%dy: tensor<4x8xbf16>, %x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = nn.erf_grad %dy, %x : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// CHECK-LABEL: func.func @softmax_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<4x10xf32>) -> tensor<4x10xf32>
// CHECK:         %[[V0:.*]] = nn.softmax_grad %[[DY]], %[[Y]] : tensor<4x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @softmax_grad(%dy: tensor<4x10xf32>, %y: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = nn.softmax_grad %dy, %y : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @softmax_grad_axis(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<4x10xf32>) -> tensor<4x10xf32>
// CHECK:         %[[V0:.*]] = nn.softmax_grad %[[DY]], %[[Y]] {axis = 0 : i64} : tensor<4x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @softmax_grad_axis(%dy: tensor<4x10xf32>, %y: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = nn.softmax_grad %dy, %y {axis = 0 : i64} : tensor<4x10xf32>
  return %0 : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @layer_norm_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x16x32xf32>, %[[X:.*]]: tensor<4x16x32xf32>, %[[MEAN:.*]]: tensor<4x16xf32>, %[[RSTD:.*]]: tensor<4x16xf32>, %[[S:.*]]: tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>)
// CHECK:         %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = nn.layer_norm_grad %[[DY]], %[[X]], %[[MEAN]], %[[RSTD]], %[[S]] : (tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>)
// CHECK-NEXT:    return %[[DX]], %[[DS]], %[[DB]]
func.func @layer_norm_grad(%dy: tensor<4x16x32xf32>, %x: tensor<4x16x32xf32>, %mean: tensor<4x16xf32>, %rstd: tensor<4x16xf32>, %s: tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>) {
  %dx, %ds, %db = nn.layer_norm_grad %dy, %x, %mean, %rstd, %s : (tensor<4x16x32xf32>, tensor<4x16x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<32xf32>) -> (tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>)
  return %dx, %ds, %db : tensor<4x16x32xf32>, tensor<32xf32>, tensor<32xf32>
}

// CHECK-LABEL: func.func @layer_norm_grad_axis(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x16x32xf16>, %[[X:.*]]: tensor<4x16x32xf16>, %[[MEAN:.*]]: tensor<4xf32>, %[[RSTD:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<16x32xf32>) -> (tensor<4x16x32xf16>, tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK:         %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = nn.layer_norm_grad %[[DY]], %[[X]], %[[MEAN]], %[[RSTD]], %[[S]] {axis = 1 : i64} : (tensor<4x16x32xf16>, tensor<4x16x32xf16>, tensor<4xf32>, tensor<4xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xf16>, tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK-NEXT:    return %[[DX]], %[[DS]], %[[DB]]
func.func @layer_norm_grad_axis(%dy: tensor<4x16x32xf16>, %x: tensor<4x16x32xf16>, %mean: tensor<4xf32>, %rstd: tensor<4xf32>, %s: tensor<16x32xf32>) -> (tensor<4x16x32xf16>, tensor<16x32xf32>, tensor<16x32xf32>) {
  %dx, %ds, %db = nn.layer_norm_grad %dy, %x, %mean, %rstd, %s {axis = 1 : i64} : (tensor<4x16x32xf16>, tensor<4x16x32xf16>, tensor<4xf32>, tensor<4xf32>, tensor<16x32xf32>) -> (tensor<4x16x32xf16>, tensor<16x32xf32>, tensor<16x32xf32>)
  return %dx, %ds, %db : tensor<4x16x32xf16>, tensor<16x32xf32>, tensor<16x32xf32>
}

// CHECK-LABEL: func.func @batch_norm_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x4x4xf32>, %[[X:.*]]: tensor<8x16x4x4xf32>, %[[MEAN:.*]]: tensor<16xf32>, %[[INVSTD:.*]]: tensor<16xf32>, %[[S:.*]]: tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK:         %[[DX:.*]], %[[DS:.*]], %[[DB:.*]] = nn.batch_norm_grad %[[DY]], %[[X]], %[[MEAN]], %[[INVSTD]], %[[S]] : (tensor<8x16x4x4xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT:    return %[[DX]], %[[DS]], %[[DB]]
func.func @batch_norm_grad(%dy: tensor<8x16x4x4xf32>, %x: tensor<8x16x4x4xf32>, %mean: tensor<16xf32>, %invstd: tensor<16xf32>, %s: tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>) {
  %dx, %ds, %db = nn.batch_norm_grad %dy, %x, %mean, %invstd, %s : (tensor<8x16x4x4xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>)
  return %dx, %ds, %db : tensor<8x16x4x4xf32>, tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @conv2d_grad_input(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x30x30xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>) -> tensor<8x3x32x32xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d_grad_input %[[DY]], %[[W]] : (tensor<8x16x30x30xf32>, tensor<16x3x3x3xf32>) -> tensor<8x3x32x32xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_grad_input(%dy: tensor<8x16x30x30xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<8x3x32x32xf32> {
  %0 = nn.conv2d_grad_input %dy, %w : (tensor<8x16x30x30xf32>, tensor<16x3x3x3xf32>) -> tensor<8x3x32x32xf32>
  return %0 : tensor<8x3x32x32xf32>
}

// With stride 2 the input extent (32 or 31) is only known from the result
// type; the f16 operands store an f32 result.
// CHECK-LABEL: func.func @conv2d_grad_input_strided(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x16x16xf16>, %[[W:.*]]: tensor<16x3x3x3xf16>) -> tensor<8x3x32x32xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d_grad_input %[[DY]], %[[W]] {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf16>, tensor<16x3x3x3xf16>) -> tensor<8x3x32x32xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_grad_input_strided(%dy: tensor<8x16x16x16xf16>, %w: tensor<16x3x3x3xf16>) -> tensor<8x3x32x32xf32> {
  %0 = nn.conv2d_grad_input %dy, %w {padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf16>, tensor<16x3x3x3xf16>) -> tensor<8x3x32x32xf32>
  return %0 : tensor<8x3x32x32xf32>
}

// CHECK-LABEL: func.func @conv2d_grad_filter(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x30x30xf32>, %[[X:.*]]: tensor<8x3x32x32xf32>) -> tensor<16x3x3x3xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d_grad_filter %[[DY]], %[[X]] : (tensor<8x16x30x30xf32>, tensor<8x3x32x32xf32>) -> tensor<16x3x3x3xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_grad_filter(%dy: tensor<8x16x30x30xf32>, %x: tensor<8x3x32x32xf32>) -> tensor<16x3x3x3xf32> {
  %0 = nn.conv2d_grad_filter %dy, %x : (tensor<8x16x30x30xf32>, tensor<8x3x32x32xf32>) -> tensor<16x3x3x3xf32>
  return %0 : tensor<16x3x3x3xf32>
}

// CHECK-LABEL: func.func @conv2d_grad_filter_groups_dilation(
// CHECK-SAME:    %[[DY:.*]]: tensor<2x16x4x4xbf16>, %[[X:.*]]: tensor<2x8x8x8xbf16>) -> tensor<16x2x3x3xf32>
// CHECK:         %[[V0:.*]] = nn.conv2d_grad_filter %[[DY]], %[[X]] {dilation = array<i64: 2, 2>, groups = 4 : i64} : (tensor<2x16x4x4xbf16>, tensor<2x8x8x8xbf16>) -> tensor<16x2x3x3xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @conv2d_grad_filter_groups_dilation(%dy: tensor<2x16x4x4xbf16>, %x: tensor<2x8x8x8xbf16>) -> tensor<16x2x3x3xf32> {
  %0 = nn.conv2d_grad_filter %dy, %x {dilation = array<i64: 2, 2>, groups = 4 : i64} : (tensor<2x16x4x4xbf16>, tensor<2x8x8x8xbf16>) -> tensor<16x2x3x3xf32>
  return %0 : tensor<16x2x3x3xf32>
}

// CHECK-LABEL: func.func @embedding_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16xf32>, %[[IDS:.*]]: tensor<8xi32>) -> tensor<100x16xf32>
// CHECK:         %[[V0:.*]] = nn.embedding_grad %[[DY]], %[[IDS]] : (tensor<8x16xf32>, tensor<8xi32>) -> tensor<100x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @embedding_grad(%dy: tensor<8x16xf32>, %ids: tensor<8xi32>) -> tensor<100x16xf32> {
  %0 = nn.embedding_grad %dy, %ids : (tensor<8x16xf32>, tensor<8xi32>) -> tensor<100x16xf32>
  return %0 : tensor<100x16xf32>
}

// CHECK-LABEL: func.func @embedding_grad_f16_f32_result(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8x16xf16>, %[[IDS:.*]]: tensor<4x8xi64>) -> tensor<100x16xf32>
// CHECK:         %[[V0:.*]] = nn.embedding_grad %[[DY]], %[[IDS]] : (tensor<4x8x16xf16>, tensor<4x8xi64>) -> tensor<100x16xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @embedding_grad_f16_f32_result(%dy: tensor<4x8x16xf16>, %ids: tensor<4x8xi64>) -> tensor<100x16xf32> {
  %0 = nn.embedding_grad %dy, %ids : (tensor<4x8x16xf16>, tensor<4x8xi64>) -> tensor<100x16xf32>
  return %0 : tensor<100x16xf32>
}

// PyTorch's CrossEntropyLoss(label_smoothing=0.1): printed when not 0.
// CHECK-LABEL: func.func @cross_entropy_label_smoothing(
// CHECK:         nn.cross_entropy %{{.*}}, %{{.*}} {ignore_index = -100 : i64, label_smoothing = 1.000000e-01 : f32} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
// CHECK:         nn.cross_entropy_grad %{{.*}}, %{{.*}}, %{{.*}} {label_smoothing = 1.000000e+00 : f32} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi32>) -> tensor<4x10xf32>
// CHECK:         nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
func.func @cross_entropy_label_smoothing(%l: tensor<4x10xf32>, %y: tensor<4xi32>) -> (tensor<f32>, tensor<4x10xf32>, tensor<f32>) {
  %0 = nn.cross_entropy %l, %y {ignore_index = -100 : i64, label_smoothing = 0.1 : f32} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
  %1 = nn.cross_entropy_grad %0, %l, %y {label_smoothing = 1.0 : f32} : (tensor<f32>, tensor<4x10xf32>, tensor<4xi32>) -> tensor<4x10xf32>
  %2 = nn.cross_entropy %l, %y {label_smoothing = 0.0 : f32} : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<4x10xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @cross_entropy_grad(
// CHECK-SAME:    %[[SEED:.*]]: tensor<f32>, %[[L:.*]]: tensor<32x10xf32>, %[[Y:.*]]: tensor<32xi32>) -> tensor<32x10xf32>
// CHECK:         %[[V0:.*]] = nn.cross_entropy_grad %[[SEED]], %[[L]], %[[Y]] : (tensor<f32>, tensor<32x10xf32>, tensor<32xi32>) -> tensor<32x10xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @cross_entropy_grad(%seed: tensor<f32>, %l: tensor<32x10xf32>, %y: tensor<32xi32>) -> tensor<32x10xf32> {
  %0 = nn.cross_entropy_grad %seed, %l, %y : (tensor<f32>, tensor<32x10xf32>, tensor<32xi32>) -> tensor<32x10xf32>
  return %0 : tensor<32x10xf32>
}

// An f32 (scaled) seed with f16 logits: the gradient has the logits' type.
// CHECK-LABEL: func.func @cross_entropy_grad_f16_logits(
// CHECK-SAME:    %[[SEED:.*]]: tensor<f32>, %[[L:.*]]: tensor<32x10xf16>, %[[Y:.*]]: tensor<32xi64>) -> tensor<32x10xf16>
// CHECK:         %[[V0:.*]] = nn.cross_entropy_grad %[[SEED]], %[[L]], %[[Y]] : (tensor<f32>, tensor<32x10xf16>, tensor<32xi64>) -> tensor<32x10xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @cross_entropy_grad_f16_logits(%seed: tensor<f32>, %l: tensor<32x10xf16>, %y: tensor<32xi64>) -> tensor<32x10xf16> {
  %0 = nn.cross_entropy_grad %seed, %l, %y : (tensor<f32>, tensor<32x10xf16>, tensor<32xi64>) -> tensor<32x10xf16>
  return %0 : tensor<32x10xf16>
}

// CHECK-LABEL: func.func @max_pool2d_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x16x16xf32>, %[[X:.*]]: tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
// CHECK:         %[[V0:.*]] = nn.max_pool2d_grad %[[DY]], %[[X]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf32>, tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @max_pool2d_grad(%dy: tensor<8x16x16x16xf32>, %x: tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32> {
  %v0 = nn.max_pool2d_grad %dy, %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf32>, tensor<8x16x32x32xf32>) -> tensor<8x16x32x32xf32>
  return %v0 : tensor<8x16x32x32xf32>
}

// CHECK-LABEL: func.func @max_pool2d_grad_padding_dilation(
// CHECK-SAME:    %[[DY:.*]]: tensor<1x3x6x6xf16>, %[[X:.*]]: tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16>
// CHECK:         %[[V0:.*]] = nn.max_pool2d_grad %[[DY]], %[[X]] {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf16>, tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @max_pool2d_grad_padding_dilation(%dy: tensor<1x3x6x6xf16>, %x: tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16> {
  %v0 = nn.max_pool2d_grad %dy, %x {dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x6x6xf16>, tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16>
  return %v0 : tensor<1x3x8x8xf16>
}

// CHECK-LABEL: func.func @avg_pool2d_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<8x16x16x16xf32>) -> tensor<8x16x32x32xf32>
// CHECK:         %[[V0:.*]] = nn.avg_pool2d_grad %[[DY]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf32>) -> tensor<8x16x32x32xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @avg_pool2d_grad(%dy: tensor<8x16x16x16xf32>) -> tensor<8x16x32x32xf32> {
  %v0 = nn.avg_pool2d_grad %dy {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<8x16x16x16xf32>) -> tensor<8x16x32x32xf32>
  return %v0 : tensor<8x16x32x32xf32>
}

// A stride > 1 leaves the input extent open (7 or 8 here): the result type decides.
// CHECK-LABEL: func.func @avg_pool2d_grad_odd_input(
// CHECK-SAME:    %[[DY:.*]]: tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16>
// CHECK:         %[[V0:.*]] = nn.avg_pool2d_grad %[[DY]] {count_include_pad, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @avg_pool2d_grad_odd_input(%dy: tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16> {
  %v0 = nn.avg_pool2d_grad %dy {count_include_pad, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xbf16>) -> tensor<1x2x8x8xbf16>
  return %v0 : tensor<1x2x8x8xbf16>
}

// CHECK-LABEL: func.func @slice_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.slice_grad %[[DY]] {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>} : tensor<4x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @slice_grad(%dy: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %v0 = nn.slice_grad %dy {offsets = array<i64: 0, 7>, strides = array<i64: 1, -2>} : tensor<4x4xf32> -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @maximum_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         %[[DL:.*]], %[[DR:.*]] = nn.maximum_grad %[[DY]], %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    return %[[DL]], %[[DR]]
func.func @maximum_grad(%dy: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %dl, %dr = nn.maximum_grad %dy, %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %dl, %dr : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @minimum_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf16>, %[[A:.*]]: tensor<4x1xf16>, %[[B:.*]]: tensor<1x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK:         %[[DL:.*]], %[[DR:.*]] = nn.minimum_grad %[[DY]], %[[A]], %[[B]] : (tensor<4x8xf16>, tensor<4x1xf16>, tensor<1x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK-NEXT:    return %[[DL]], %[[DR]]
func.func @minimum_grad(%dy: tensor<4x8xf16>, %a: tensor<4x1xf16>, %b: tensor<1x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %dl, %dr = nn.minimum_grad %dy, %a, %b : (tensor<4x8xf16>, tensor<4x1xf16>, tensor<1x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
  return %dl, %dr : tensor<4x8xf16>, tensor<4x8xf16>
}

// CHECK-LABEL: func.func @abs_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.abs_grad %[[DY]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @abs_grad(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.abs_grad %dy, %x : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @pow_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.pow_grad %[[DY]], %[[X]] {exponent = 5.000000e-01 : f32} : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @pow_grad(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.pow_grad %dy, %x {exponent = 5.000000e-01 : f32} : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @clamp_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf16>, %[[X:.*]]: tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK:         %[[V0:.*]] = nn.clamp_grad %[[DY]], %[[X]] {max = 6.000000e+00 : f32} : tensor<4x8xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @clamp_grad(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %v0 = nn.clamp_grad %dy, %x {max = 6.000000e+00 : f32} : tensor<4x8xf16>
  return %v0 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @where_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         %[[DL:.*]], %[[DR:.*]] = nn.where_grad %[[DY]], %[[C]] : (tensor<4x8xf32>, tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    return %[[DL]], %[[DR]]
func.func @where_grad(%dy: tensor<4x8xf32>, %c: tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %dl, %dr = nn.where_grad %dy, %c : (tensor<4x8xf32>, tensor<8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %dl, %dr : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @mse_loss_grad(
// CHECK-SAME:    %[[G:.*]]: tensor<f32>, %[[P:.*]]: tensor<32x1xf16>, %[[T:.*]]: tensor<32x1xf16>) -> tensor<32x1xf16>
// CHECK:         %[[V0:.*]] = nn.mse_loss_grad %[[G]], %[[P]], %[[T]] : (tensor<f32>, tensor<32x1xf16>, tensor<32x1xf16>) -> tensor<32x1xf16>
// CHECK-NEXT:    return %[[V0]]
func.func @mse_loss_grad(%g: tensor<f32>, %p: tensor<32x1xf16>, %t: tensor<32x1xf16>) -> tensor<32x1xf16> {
  %v0 = nn.mse_loss_grad %g, %p, %t : (tensor<f32>, tensor<32x1xf16>, tensor<32x1xf16>) -> tensor<32x1xf16>
  return %v0 : tensor<32x1xf16>
}

// CHECK-LABEL: func.func @elementwise_loss_grads(
// CHECK-SAME:    %[[G:.*]]: tensor<f16>, %[[P:.*]]: tensor<32x1xf32>, %[[T:.*]]: tensor<32x1xf32>)
// CHECK:         nn.l1_loss_grad %[[G]], %[[P]], %[[T]] : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
// CHECK-NEXT:    nn.huber_loss_grad %[[G]], %[[P]], %[[T]] {delta = 3.000000e+00 : f32} : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
// CHECK-NEXT:    nn.bce_with_logits_loss_grad %[[G]], %[[P]], %[[T]] reduction sum : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
func.func @elementwise_loss_grads(%g: tensor<f16>, %p: tensor<32x1xf32>, %t: tensor<32x1xf32>) -> (tensor<32x1xf32>, tensor<32x1xf32>, tensor<32x1xf32>) {
  %0 = nn.l1_loss_grad %g, %p, %t : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %1 = nn.huber_loss_grad %g, %p, %t {delta = 3.0 : f32} : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %2 = nn.bce_with_logits_loss_grad %g, %p, %t reduction sum : (tensor<f16>, tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  return %0, %1, %2 : tensor<32x1xf32>, tensor<32x1xf32>, tensor<32x1xf32>
}

// CHECK-LABEL: func.func @tanh_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.tanh_grad %[[DY]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @tanh_grad(%dy: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.tanh_grad %dy, %y : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sigmoid_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.sigmoid_grad %[[DY]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @sigmoid_grad(%dy: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.sigmoid_grad %dy, %y : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @sqrt_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.sqrt_grad %[[DY]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @sqrt_grad(%dy: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.sqrt_grad %dy, %y : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @rsqrt_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.rsqrt_grad %[[DY]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @rsqrt_grad(%dy: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = nn.rsqrt_grad %dy, %y : tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @reduce_max_grad(
// CHECK-SAME:    %[[DY:.*]]: tensor<4xf32>, %[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4xf32>) -> tensor<4x8xf32>
// CHECK:         %[[V0:.*]] = nn.reduce_max_grad %[[DY]], %[[X]], %[[Y]] [1] : (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_max_grad(%dy: tensor<4xf32>, %x: tensor<4x8xf32>, %y: tensor<4xf32>) -> tensor<4x8xf32> {
  %v0 = nn.reduce_max_grad %dy, %x, %y [1] : (tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %v0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @reduce_max_grad_keep_dims(
// CHECK-SAME:    %[[DY:.*]]: tensor<1x8x1xbf16>, %[[X:.*]]: tensor<2x8x3xbf16>, %[[Y:.*]]: tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16>
// CHECK:         %[[V0:.*]] = nn.reduce_max_grad %[[DY]], %[[X]], %[[Y]] [0, -1] keep_dims : (tensor<1x8x1xbf16>, tensor<2x8x3xbf16>, tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16>
// CHECK-NEXT:    return %[[V0]]
func.func @reduce_max_grad_keep_dims(%dy: tensor<1x8x1xbf16>, %x: tensor<2x8x3xbf16>, %y: tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16> {
  %v0 = nn.reduce_max_grad %dy, %x, %y [0, -1] keep_dims : (tensor<1x8x1xbf16>, tensor<2x8x3xbf16>, tensor<1x8x1xbf16>) -> tensor<2x8x3xbf16>
  return %v0 : tensor<2x8x3xbf16>
}

//===----------------------------------------------------------------------===//
// Optimizer ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @sgd_update(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>) -> tensor<64x128xf32>
// CHECK:         %[[NEW_PARAM:.*]] = nn.sgd_update %[[P]], %[[G]] {lr = 1.000000e-01 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[NEW_PARAM]]
func.func @sgd_update(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %new_param = nn.sgd_update %p, %g {lr = 1.000000e-01 : f32} : tensor<64x128xf32>
  return %new_param : tensor<64x128xf32>
}

// CHECK-LABEL: func.func @sgd_update_weight_decay(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>) -> tensor<64x128xf32>
// CHECK:         %[[NEW_PARAM:.*]] = nn.sgd_update %[[P]], %[[G]] {lr = 1.000000e-01 : f32, weight_decay = 5.000000e-04 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[NEW_PARAM]]
func.func @sgd_update_weight_decay(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %new_param = nn.sgd_update %p, %g {lr = 1.000000e-01 : f32, weight_decay = 5.000000e-04 : f32} : tensor<64x128xf32>
  return %new_param : tensor<64x128xf32>
}

// CHECK-LABEL: func.func @sgd_update_momentum(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>, %[[M:.*]]: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>)
// CHECK:         %[[NEW_PARAM:.*]], %[[NEW_MOMENTUM_BUFFER:.*]] = nn.sgd_update %[[P]], %[[G]], %[[M]] {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[NEW_PARAM]], %[[NEW_MOMENTUM_BUFFER]]
func.func @sgd_update_momentum(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>, %m: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %new_param, %new_momentum_buffer = nn.sgd_update %p, %g, %m {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<64x128xf32>
  return %new_param, %new_momentum_buffer : tensor<64x128xf32>, tensor<64x128xf32>
}

// CHECK-LABEL: func.func @sgd_update_momentum_dampening(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>, %[[M:.*]]: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>)
// CHECK:         %[[NEW_PARAM:.*]], %[[NEW_MOMENTUM_BUFFER:.*]] = nn.sgd_update %[[P]], %[[G]], %[[M]] {dampening = 1.000000e-01 : f32, lr = 0.00999999977 : f32, momentum = 0.899999976 : f32, weight_decay = 9.99999974E-5 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[NEW_PARAM]], %[[NEW_MOMENTUM_BUFFER]]
func.func @sgd_update_momentum_dampening(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>, %m: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %new_param, %new_momentum_buffer = nn.sgd_update %p, %g, %m {dampening = 1.000000e-01 : f32, lr = 0.00999999977 : f32, momentum = 0.899999976 : f32, weight_decay = 9.99999974E-5 : f32} : tensor<64x128xf32>
  return %new_param, %new_momentum_buffer : tensor<64x128xf32>, tensor<64x128xf32>
}

// CHECK-LABEL: func.func @sgd_update_nesterov(
// CHECK-SAME:    %[[P:.*]]: tensor<10xbf16>, %[[G:.*]]: tensor<10xbf16>, %[[M:.*]]: tensor<10xbf16>) -> (tensor<10xbf16>, tensor<10xbf16>)
// CHECK:         %[[NEW_PARAM:.*]], %[[NEW_MOMENTUM_BUFFER:.*]] = nn.sgd_update %[[P]], %[[G]], %[[M]] {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32, nesterov} : tensor<10xbf16>
// CHECK-NEXT:    return %[[NEW_PARAM]], %[[NEW_MOMENTUM_BUFFER]]
func.func @sgd_update_nesterov(%p: tensor<10xbf16>, %g: tensor<10xbf16>, %m: tensor<10xbf16>) -> (tensor<10xbf16>, tensor<10xbf16>) {
  %new_param, %new_momentum_buffer = nn.sgd_update %p, %g, %m {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32, nesterov} : tensor<10xbf16>
  return %new_param, %new_momentum_buffer : tensor<10xbf16>, tensor<10xbf16>
}

// CHECK-LABEL: func.func @adam_update(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>, %[[M:.*]]: tensor<64x128xf32>, %[[V:.*]]: tensor<64x128xf32>, %[[STEP:.*]]: tensor<f32>) -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>, tensor<f32>)
// CHECK:         %[[NEW_PARAM:.*]], %[[NEW_EXP_AVG:.*]], %[[NEW_EXP_AVG_SQ:.*]], %[[NEW_STEP:.*]] = nn.adam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] {lr = 1.000000e-03 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[NEW_PARAM]], %[[NEW_EXP_AVG]], %[[NEW_EXP_AVG_SQ]], %[[NEW_STEP]]
func.func @adam_update(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>, %m: tensor<64x128xf32>, %v: tensor<64x128xf32>, %step: tensor<f32>) -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>, tensor<f32>) {
  %new_param, %new_exp_avg, %new_exp_avg_sq, %new_step = nn.adam_update %p, %g, %m, %v, %step {lr = 1.000000e-03 : f32} : tensor<64x128xf32>
  return %new_param, %new_exp_avg, %new_exp_avg_sq, %new_step : tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>, tensor<f32>
}

// torch.optim.Adam: L2 weight decay, the attribute printed as it is not
// the default.
// CHECK-LABEL: func.func @adam_update_l2(
// CHECK: nn.adam_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {decoupled_weight_decay = false, lr = 1.000000e-03 : f32, weight_decay = 9.99999974E-5 : f32} : tensor<8xf32>
// CHECK-NEXT: nn.adam_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {lr = 1.000000e-03 : f32} : tensor<8xf32>
func.func @adam_update_l2(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %step: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a:4 = nn.adam_update %p, %g, %m, %v, %step {lr = 1.0e-3 : f32, weight_decay = 1.0e-4 : f32, decoupled_weight_decay = false} : tensor<8xf32>
  %b:4 = nn.adam_update %p, %g, %m, %v, %step {lr = 1.0e-3 : f32, decoupled_weight_decay = true} : tensor<8xf32>
  return %a#0, %b#0 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @adam_update_amsgrad(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>, %[[STEP:.*]]: tensor<f32>, %[[X:.*]]: tensor<8xf32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[X1:.*]] = nn.adam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] max_exp_avg_sq(%[[X]]) lr_factor(%[[F]]) {amsgrad, lr = 1.000000e-03 : f32} : tensor<8xf32>
// CHECK-NEXT:    return %[[X1]]
func.func @adam_update_amsgrad(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %step: tensor<f32>, %x: tensor<8xf32>, %f: tensor<f32>) -> tensor<8xf32> {
  %r:5 = nn.adam_update %p, %g, %m, %v, %step max_exp_avg_sq(%x) lr_factor(%f) {lr = 1.0e-3 : f32, amsgrad} : tensor<8xf32>
  return %r#4 : tensor<8xf32>
}

// CHECK-LABEL: func.func @radam_update(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>, %[[STEP:.*]]: tensor<f32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %{{.*}}, %{{.*}}, %[[T1:.*]] = nn.radam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] {lr = 1.000000e-03 : f32} : tensor<8xf32>
// CHECK-NEXT:    %[[P2:.*]], %{{.*}}, %{{.*}}, %{{.*}} = nn.radam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] lr_factor(%[[F]]) {beta2 = 9.900000e-01 : f32, decoupled_weight_decay, lr = 0.00999999977 : f32, weight_decay = 1.000000e-01 : f32} : tensor<8xf32>
// CHECK-NEXT:    return %[[P1]], %[[T1]], %[[P2]]
func.func @radam_update(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %step: tensor<f32>, %f: tensor<f32>) -> (tensor<8xf32>, tensor<f32>, tensor<8xf32>) {
  %a:4 = nn.radam_update %p, %g, %m, %v, %step {lr = 1.0e-3 : f32} : tensor<8xf32>
  %b:4 = nn.radam_update %p, %g, %m, %v, %step lr_factor(%f) {lr = 1.0e-2 : f32, beta2 = 0.99 : f32, weight_decay = 0.1 : f32, decoupled_weight_decay} : tensor<8xf32>
  return %a#0, %a#3, %b#0 : tensor<8xf32>, tensor<f32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @adam_update_all_attributes(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf16>, %[[G:.*]]: tensor<8xf16>, %[[M:.*]]: tensor<8xf16>, %[[V:.*]]: tensor<8xf16>, %[[STEP:.*]]: tensor<f32>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<f32>)
// CHECK:         %[[NEW_PARAM:.*]], %[[NEW_EXP_AVG:.*]], %[[NEW_EXP_AVG_SQ:.*]], %[[NEW_STEP:.*]] = nn.adam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] {beta1 = 8.000000e-01 : f32, beta2 = 9.900000e-01 : f32, eps = 9.99999997E-7 : f32, lr = 2.000000e-03 : f32, weight_decay = 0.000000e+00 : f32} : tensor<8xf16>
// CHECK-NEXT:    return %[[NEW_PARAM]], %[[NEW_EXP_AVG]], %[[NEW_EXP_AVG_SQ]], %[[NEW_STEP]]
func.func @adam_update_all_attributes(%p: tensor<8xf16>, %g: tensor<8xf16>, %m: tensor<8xf16>, %v: tensor<8xf16>, %step: tensor<f32>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<f32>) {
  %new_param, %new_exp_avg, %new_exp_avg_sq, %new_step = nn.adam_update %p, %g, %m, %v, %step {beta1 = 8.000000e-01 : f32, beta2 = 9.900000e-01 : f32, eps = 9.99999997E-7 : f32, lr = 2.000000e-03 : f32, weight_decay = 0.000000e+00 : f32} : tensor<8xf16>
  return %new_param, %new_exp_avg, %new_exp_avg_sq, %new_step : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<f32>
}

// Every kind, with the parameters it takes; warmup_steps and
// warmup_start_factor print when they differ from 0.
// CHECK-LABEL: func.func @lr_schedule(
// CHECK-SAME:    %[[C:.*]]: tensor<f32>)
// CHECK:         %[[F0:.*]], %[[N0:.*]] = nn.lr_schedule constant %[[C]] {warmup_start_factor = 0.333333343 : f32, warmup_steps = 4 : i64}
// CHECK-NEXT:    %[[F1:.*]], %{{.*}} = nn.lr_schedule linear %[[C]] {final_factor = 1.000000e-01 : f32, total_steps = 100 : i64, warmup_steps = 10 : i64}
// CHECK-NEXT:    %[[F2:.*]], %{{.*}} = nn.lr_schedule cosine %[[C]] {total_steps = 100 : i64}
// CHECK-NEXT:    %[[F3:.*]], %{{.*}} = nn.lr_schedule step %[[C]] {gamma = 5.000000e-01 : f32, step_size = 30 : i64}
// CHECK-NEXT:    %[[F4:.*]], %{{.*}} = nn.lr_schedule exponential %[[C]] {gamma = 0.949999988 : f32}
// CHECK-NEXT:    %[[F5:.*]], %{{.*}} = nn.lr_schedule polynomial %[[C]] {final_factor = 9.99999974E-5 : f32, power = 2.000000e+00 : f32, total_steps = 1000 : i64, warmup_steps = 100 : i64}
// CHECK-NEXT:    %[[F6:.*]], %{{.*}} = nn.lr_schedule polynomial %[[C]] {total_steps = 50 : i64}
// CHECK-NEXT:    %[[F7:.*]], %{{.*}} = nn.lr_schedule multistep %[[C]] {gamma = 1.000000e-01 : f32, milestones = array<i64: 30, 60, 90>}
// CHECK-NEXT:    return %[[F0]], %[[F1]], %[[F2]], %[[F3]], %[[F4]], %[[F5]], %[[F6]], %[[F7]], %[[N0]]
func.func @lr_schedule(%c: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %f0, %n0 = nn.lr_schedule constant %c {warmup_steps = 4 : i64, warmup_start_factor = 0.333333343 : f32}
  %f1, %n1 = nn.lr_schedule linear %c {warmup_steps = 10 : i64, total_steps = 100 : i64, final_factor = 0.1 : f32}
  %f2, %n2 = nn.lr_schedule cosine %c {total_steps = 100 : i64, warmup_steps = 0 : i64, warmup_start_factor = 0.0 : f32}
  %f3, %n3 = nn.lr_schedule step %c {step_size = 30 : i64, gamma = 0.5 : f32}
  %f4, %n4 = nn.lr_schedule exponential %c {gamma = 0.95 : f32}
  %f5, %n5 = nn.lr_schedule polynomial %c {warmup_steps = 100 : i64, total_steps = 1000 : i64, final_factor = 1.0e-4 : f32, power = 2.0 : f32}
  %f6, %n6 = nn.lr_schedule polynomial %c {total_steps = 50 : i64}
  %f7, %n7 = nn.lr_schedule multistep %c {milestones = array<i64: 30, 60, 90>, gamma = 0.1 : f32}
  return %f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7, %n0 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @updates_lr_factor(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>, %[[STEP:.*]]: tensor<f32>, %[[F:.*]]: tensor<f32>)
// CHECK:         nn.sgd_update %[[P]], %[[G]] lr_factor(%[[F]]) {lr = 1.000000e-01 : f32} : tensor<8xf32>
// CHECK-NEXT:    nn.sgd_update %[[P]], %[[G]], %[[M]] lr_factor(%[[F]]) {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<8xf32>
// CHECK-NEXT:    nn.adam_update %[[P]], %[[G]], %[[M]], %[[V]], %[[STEP]] lr_factor(%[[F]]) {lr = 1.000000e-03 : f32} : tensor<8xf32>
func.func @updates_lr_factor(%p: tensor<8xf32>, %g: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>, %step: tensor<f32>, %f: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %p1 = nn.sgd_update %p, %g lr_factor(%f) {lr = 0.1 : f32} : tensor<8xf32>
  %p2, %m2 = nn.sgd_update %p, %g, %m lr_factor(%f) {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8xf32>
  %p3, %m3, %v3, %s3 = nn.adam_update %p, %g, %m, %v, %step lr_factor(%f) {lr = 1.0e-3 : f32} : tensor<8xf32>
  return %p1, %p2, %p3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @rmsprop_update(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[V:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[A:.*]]: tensor<8xf32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %[[V1:.*]] = nn.rmsprop_update %[[P]], %[[G]], %[[V]] {lr = 0.00999999977 : f32} : tensor<8xf32>
// CHECK-NEXT:    %[[P2:.*]], %[[V2:.*]], %[[B2:.*]] = nn.rmsprop_update %[[P]], %[[G]], %[[V]] momentum_buffer(%[[B]]) {lr = 0.00999999977 : f32, momentum = 0.899999976 : f32} : tensor<8xf32>
// CHECK-NEXT:    %[[P3:.*]], %[[V3:.*]], %[[A3:.*]] = nn.rmsprop_update %[[P]], %[[G]], %[[V]] grad_avg(%[[A]]) {centered, lr = 0.00999999977 : f32} : tensor<8xf32>
// CHECK-NEXT:    %[[P4:.*]], %[[V4:.*]], %[[S4:.*]]:2 = nn.rmsprop_update %[[P]], %[[G]], %[[V]] momentum_buffer(%[[B]]) grad_avg(%[[A]]) lr_factor(%[[F]]) {alpha = 0.899999976 : f32, centered, eps = 9.99999997E-7 : f32, lr = 2.000000e-03 : f32, momentum = 5.000000e-01 : f32, weight_decay = 0.00999999977 : f32} : tensor<8xf32>
// CHECK-NEXT:    return %[[P1]], %[[V2]], %[[B2]], %[[A3]], %[[S4]]#0, %[[S4]]#1
func.func @rmsprop_update(%p: tensor<8xf32>, %g: tensor<8xf32>, %v: tensor<8xf32>, %b: tensor<8xf32>, %a: tensor<8xf32>, %f: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %p1, %v1 = nn.rmsprop_update %p, %g, %v {lr = 0.01 : f32} : tensor<8xf32>
  %p2, %v2, %b2 = nn.rmsprop_update %p, %g, %v momentum_buffer(%b) {lr = 0.01 : f32, momentum = 0.9 : f32} : tensor<8xf32>
  %p3, %v3, %a3 = nn.rmsprop_update %p, %g, %v grad_avg(%a) {lr = 0.01 : f32, centered} : tensor<8xf32>
  %p4, %v4, %s4:2 = nn.rmsprop_update %p, %g, %v momentum_buffer(%b) grad_avg(%a) lr_factor(%f) {lr = 2.0e-3 : f32, alpha = 0.9 : f32, eps = 1.0e-6 : f32, weight_decay = 0.01 : f32, momentum = 0.5 : f32, centered} : tensor<8xf32>
  return %p1, %v2, %b2, %a3, %s4#0, %s4#1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @adagrad_update(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<8xf32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %[[S1:.*]] = nn.adagrad_update %[[P]], %[[G]], %[[S]] {lr = 0.00999999977 : f32} : tensor<8xf32>
// CHECK-NEXT:    %[[P2:.*]], %[[S2:.*]] = nn.adagrad_update %[[P]], %[[G]], %[[S]] lr_factor(%[[F]]) {eps = 9.99999997E-7 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<8xf32>
// CHECK-NEXT:    return %[[P1]], %[[S2]]
func.func @adagrad_update(%p: tensor<8xf32>, %g: tensor<8xf32>, %s: tensor<8xf32>, %f: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %p1, %s1 = nn.adagrad_update %p, %g, %s {lr = 0.01 : f32} : tensor<8xf32>
  %p2, %s2 = nn.adagrad_update %p, %g, %s lr_factor(%f) {lr = 0.05 : f32, eps = 1.0e-6 : f32, weight_decay = 0.1 : f32} : tensor<8xf32>
  return %p1, %s2 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @adagrad_update_lr_decay(
// CHECK-SAME:    %[[P:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>, %[[S:.*]]: tensor<8xf32>, %[[T:.*]]: tensor<f32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %[[S1:.*]], %[[T1:.*]] = nn.adagrad_update %[[P]], %[[G]], %[[S]] step(%[[T]]) lr_factor(%[[F]]) {lr = 0.00999999977 : f32, lr_decay = 1.000000e-03 : f32} : tensor<8xf32>
// CHECK-NEXT:    return %[[P1]], %[[S1]], %[[T1]]
func.func @adagrad_update_lr_decay(%p: tensor<8xf32>, %g: tensor<8xf32>, %s: tensor<8xf32>, %t: tensor<f32>, %f: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<f32>) {
  %p1, %s1, %t1 = nn.adagrad_update %p, %g, %s step(%t) lr_factor(%f) {lr = 0.01 : f32, lr_decay = 1.0e-3 : f32} : tensor<8xf32>
  return %p1, %s1, %t1 : tensor<8xf32>, tensor<8xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @adafactor_update_factored(
// CHECK-SAME:    %[[P:.*]]: tensor<4x8x16xf32>, %[[G:.*]]: tensor<4x8x16xf32>, %[[R:.*]]: tensor<4x8x1xf32>, %[[C:.*]]: tensor<4x1x16xf32>, %[[T:.*]]: tensor<f32>, %[[F:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %[[S1:.*]]:2, %[[T1:.*]] = nn.adafactor_update %[[P]], %[[G]] factored(%[[R]], %[[C]]) step(%[[T]]) {lr = 0.00999999977 : f32} : tensor<4x8x16xf32>
// CHECK-NEXT:    %[[P2:.*]], %[[S2:.*]]:2, %[[T2:.*]] = nn.adafactor_update %[[P]], %[[G]] factored(%[[R]], %[[C]]) step(%[[T]]) lr_factor(%[[F]]) {beta2_decay = -5.000000e-01 : f32, d = 2.000000e+00 : f32, eps1 = 9.99999974E-5 : f32, eps2 = 0.00999999977 : f32, lr = 5.000000e-02 : f32, weight_decay = 1.000000e-01 : f32} : tensor<4x8x16xf32>
// CHECK-NEXT:    return %[[P1]], %[[S1]]#0, %[[S2]]#1, %[[T2]]
func.func @adafactor_update_factored(%p: tensor<4x8x16xf32>, %g: tensor<4x8x16xf32>, %r: tensor<4x8x1xf32>, %c: tensor<4x1x16xf32>, %t: tensor<f32>, %f: tensor<f32>) -> (tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<4x1x16xf32>, tensor<f32>) {
  %p1, %s1:2, %t1 = nn.adafactor_update %p, %g factored(%r, %c) step(%t) {lr = 0.01 : f32} : tensor<4x8x16xf32>
  %p2, %s2:2, %t2 = nn.adafactor_update %p, %g factored(%r, %c) step(%t) lr_factor(%f) {lr = 0.05 : f32, beta2_decay = -0.5 : f32, eps1 = 1.0e-4 : f32, eps2 = 1.0e-2 : f32, d = 2.0 : f32, weight_decay = 0.1 : f32} : tensor<4x8x16xf32>
  return %p1, %s1#0, %s2#1, %t2 : tensor<4x8x16xf32>, tensor<4x8x1xf32>, tensor<4x1x16xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @adafactor_update_whole(
// CHECK-SAME:    %[[P:.*]]: tensor<8xbf16>, %[[G:.*]]: tensor<8xbf16>, %[[V:.*]]: tensor<8xbf16>, %[[T:.*]]: tensor<f32>, %[[Q:.*]]: tensor<f32>)
// CHECK:         %[[P1:.*]], %[[V1:.*]], %[[T1:.*]] = nn.adafactor_update %[[P]], %[[G]] variance(%[[V]]) step(%[[T]]) {eps1 = 7.812500e-03 : f32, lr = 0.00999999977 : f32} : tensor<8xbf16>
// CHECK-NEXT:    %[[Q1:.*]], %[[W1:.*]], %[[U1:.*]] = nn.adafactor_update %[[Q]], %[[Q]] variance(%[[Q]]) step(%[[T]]) {lr = 0.00999999977 : f32} : tensor<f32>
// CHECK-NEXT:    return %[[P1]], %[[V1]], %[[T1]], %[[Q1]]
func.func @adafactor_update_whole(%p: tensor<8xbf16>, %g: tensor<8xbf16>, %v: tensor<8xbf16>, %t: tensor<f32>, %q: tensor<f32>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<f32>, tensor<f32>) {
  %p1, %v1, %t1 = nn.adafactor_update %p, %g variance(%v) step(%t) {lr = 0.01 : f32, eps1 = 0.0078125 : f32} : tensor<8xbf16>
  %q1, %w1, %u1 = nn.adafactor_update %q, %q variance(%q) step(%t) {lr = 0.01 : f32} : tensor<f32>
  return %p1, %v1, %t1, %q1 : tensor<8xbf16>, tensor<8xbf16>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @clip_grad_norm(
// CHECK-SAME:    %[[G:.*]]: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<f32>)
// CHECK:         %[[CLIPPED:.*]], %[[TOTAL_NORM:.*]] = nn.clip_grad_norm %[[G]] {max_norm = 1.000000e+00 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[CLIPPED]], %[[TOTAL_NORM]]
func.func @clip_grad_norm(%g: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<f32>) {
  %clipped, %total_norm = nn.clip_grad_norm %g {max_norm = 1.000000e+00 : f32} : tensor<64x128xf32>
  return %clipped, %total_norm : tensor<64x128xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @clip_grad_norm_several(
// CHECK-SAME:    %[[G0:.*]]: tensor<64x128xf32>, %[[G1:.*]]: tensor<128xf16>, %[[G2:.*]]: tensor<10x128xbf16>) -> (tensor<64x128xf32>, tensor<128xf16>, tensor<10x128xbf16>, tensor<f32>)
// CHECK:         %[[C:.*]]:3, %[[N:.*]] = nn.clip_grad_norm %[[G0]], %[[G1]], %[[G2]] {max_norm = 5.000000e+00 : f32} : tensor<64x128xf32>, tensor<128xf16>, tensor<10x128xbf16>
// CHECK-NEXT:    return %[[C]]#0, %[[C]]#1, %[[C]]#2, %[[N]]
func.func @clip_grad_norm_several(%g0: tensor<64x128xf32>, %g1: tensor<128xf16>, %g2: tensor<10x128xbf16>) -> (tensor<64x128xf32>, tensor<128xf16>, tensor<10x128xbf16>, tensor<f32>) {
  %clipped:3, %total_norm = nn.clip_grad_norm %g0, %g1, %g2 {max_norm = 5.000000e+00 : f32} : tensor<64x128xf32>, tensor<128xf16>, tensor<10x128xbf16>
  return %clipped#0, %clipped#1, %clipped#2, %total_norm : tensor<64x128xf32>, tensor<128xf16>, tensor<10x128xbf16>, tensor<f32>
}

// max_norm = inf only measures the norm.
// CHECK-LABEL: func.func @clip_grad_norm_infinite_max_norm(
// CHECK-SAME:    %[[G:.*]]: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<f32>)
// CHECK:         %[[CLIPPED:.*]], %[[TOTAL_NORM:.*]] = nn.clip_grad_norm %[[G]] {max_norm = 0x7F800000 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[CLIPPED]], %[[TOTAL_NORM]]
func.func @clip_grad_norm_infinite_max_norm(%g: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<f32>) {
  %clipped, %total_norm = nn.clip_grad_norm %g {max_norm = 0x7F800000 : f32} : tensor<64x128xf32>
  return %clipped, %total_norm : tensor<64x128xf32>, tensor<f32>
}

// norm_type: the default 2 is elided; 1, 3.5 and inf print.
// CHECK-LABEL: func.func @clip_grad_norm_types(
// CHECK-SAME:    %[[G:.*]]: tensor<64x128xf32>, %[[H:.*]]: tensor<8xbf16>)
// CHECK:         %[[C2:.*]]:2, %[[N2:.*]] = nn.clip_grad_norm %[[G]], %[[H]] {max_norm = 1.000000e+00 : f32} : tensor<64x128xf32>, tensor<8xbf16>
// CHECK-NEXT:    %[[C1:.*]]:2, %[[N1:.*]] = nn.clip_grad_norm %[[G]], %[[H]] {max_norm = 1.000000e+00 : f32, norm_type = 1.000000e+00 : f32} : tensor<64x128xf32>, tensor<8xbf16>
// CHECK-NEXT:    %[[CP:.*]]:2, %[[NP:.*]] = nn.clip_grad_norm %[[G]], %[[H]] {max_norm = 1.000000e+00 : f32, norm_type = 3.500000e+00 : f32} : tensor<64x128xf32>, tensor<8xbf16>
// CHECK-NEXT:    %[[CI:.*]]:2, %[[NI:.*]] = nn.clip_grad_norm %[[G]], %[[H]] {max_norm = 1.000000e+00 : f32, norm_type = 0x7F800000 : f32} : tensor<64x128xf32>, tensor<8xbf16>
// CHECK-NEXT:    return %[[N2]], %[[N1]], %[[NP]], %[[NI]]
func.func @clip_grad_norm_types(%g: tensor<64x128xf32>, %h: tensor<8xbf16>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %c2:2, %n2 = nn.clip_grad_norm %g, %h {max_norm = 1.0 : f32, norm_type = 2.0 : f32} : tensor<64x128xf32>, tensor<8xbf16>
  %c1:2, %n1 = nn.clip_grad_norm %g, %h {max_norm = 1.0 : f32, norm_type = 1.0 : f32} : tensor<64x128xf32>, tensor<8xbf16>
  %cp:2, %np = nn.clip_grad_norm %g, %h {max_norm = 1.0 : f32, norm_type = 3.5 : f32} : tensor<64x128xf32>, tensor<8xbf16>
  %ci:2, %ni = nn.clip_grad_norm %g, %h {max_norm = 1.0 : f32, norm_type = 0x7F800000 : f32} : tensor<64x128xf32>, tensor<8xbf16>
  return %n2, %n1, %np, %ni : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @clip_grad_value(
// CHECK-SAME:    %[[G0:.*]]: tensor<64x128xf32>, %[[G1:.*]]: tensor<128xf16>) -> (tensor<64x128xf32>, tensor<128xf16>)
// CHECK:         %[[C:.*]]:2 = nn.clip_grad_value %[[G0]], %[[G1]] {clip_value = 5.000000e-01 : f32} : tensor<64x128xf32>, tensor<128xf16>
// CHECK-NEXT:    return %[[C]]#0, %[[C]]#1
func.func @clip_grad_value(%g0: tensor<64x128xf32>, %g1: tensor<128xf16>) -> (tensor<64x128xf32>, tensor<128xf16>) {
  %c:2 = nn.clip_grad_value %g0, %g1 {clip_value = 0.5 : f32} : tensor<64x128xf32>, tensor<128xf16>
  return %c#0, %c#1 : tensor<64x128xf32>, tensor<128xf16>
}

// CHECK-LABEL: func.func @ema_update(
// CHECK-SAME:    %[[A:.*]]: tensor<64x128xf32>, %[[B:.*]]: tensor<128xbf16>, %[[P:.*]]: tensor<64x128xf32>, %[[Q:.*]]: tensor<128xbf16>, %[[W:.*]]: tensor<f32>)
// CHECK:         %[[N:.*]]:2 = nn.ema_update %[[A]], %[[B]] toward %[[P]], %[[Q]] weight(%[[W]]) : tensor<64x128xf32>, tensor<128xbf16>
// CHECK-NEXT:    return %[[N]]#0, %[[N]]#1
func.func @ema_update(%a: tensor<64x128xf32>, %b: tensor<128xbf16>, %p: tensor<64x128xf32>, %q: tensor<128xbf16>, %w: tensor<f32>) -> (tensor<64x128xf32>, tensor<128xbf16>) {
  %n:2 = nn.ema_update %a, %b toward %p, %q weight(%w) : tensor<64x128xf32>, tensor<128xbf16>
  return %n#0, %n#1 : tensor<64x128xf32>, tensor<128xbf16>
}

// clip_value = inf keeps every finite value.
// CHECK-LABEL: func.func @clip_grad_value_infinite(
// CHECK:         nn.clip_grad_value %{{.*}} {clip_value = 0x7F800000 : f32} : tensor<8xbf16>
func.func @clip_grad_value_infinite(%g: tensor<8xbf16>) -> tensor<8xbf16> {
  %c = nn.clip_grad_value %g {clip_value = 0x7F800000 : f32} : tensor<8xbf16>
  return %c : tensor<8xbf16>
}

//===----------------------------------------------------------------------===//
// Written forms
//===----------------------------------------------------------------------===//

// Attributes as a user writes them print in MLIR's float syntax.
// CHECK-LABEL: func.func @written_float_attributes(
// CHECK-SAME:    %[[P:.*]]: tensor<64x128xf32>, %[[G:.*]]: tensor<64x128xf32>, %[[M:.*]]: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>)
// CHECK:         %[[P1:.*]], %[[M1:.*]] = nn.sgd_update %[[P]], %[[G]], %[[M]] {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<64x128xf32>
// CHECK-NEXT:    return %[[P1]], %[[M1]]
func.func @written_float_attributes(%p: tensor<64x128xf32>, %g: tensor<64x128xf32>, %m: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %p1, %m1 = nn.sgd_update %p, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<64x128xf32>
  return %p1, %m1 : tensor<64x128xf32>, tensor<64x128xf32>
}

// Attributes equal to their defaults are not printed.
// CHECK-LABEL: func.func @default_attributes_elided(
// CHECK-SAME:    %[[X:.*]]: tensor<8x3x32x32xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>, %[[S:.*]]: tensor<3xf32>) -> (tensor<8x16x30x30xf32>, tensor<8x3x32x32xf32>)
// CHECK:         %[[C:.*]] = nn.conv2d %[[X]], %[[W]] : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
// CHECK-NEXT:    %[[BN:.*]], %{{.*}}, %{{.*}} = nn.batch_norm %[[X]], %[[S]], %[[S]] : (tensor<8x3x32x32xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3x32x32xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    return %[[C]], %[[BN]]
func.func @default_attributes_elided(%x: tensor<8x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %s: tensor<3xf32>) -> (tensor<8x16x30x30xf32>, tensor<8x3x32x32xf32>) {
  %0 = nn.conv2d %x, %w {strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<8x16x30x30xf32>
  %1:3 = nn.batch_norm %x, %s, %s {epsilon = 1.0e-5 : f32} : (tensor<8x3x32x32xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3x32x32xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0, %1#0 : tensor<8x16x30x30xf32>, tensor<8x3x32x32xf32>
}

//===----------------------------------------------------------------------===//
// nn.role, nn.init and nn.check_range
//===----------------------------------------------------------------------===//

// Every training-step role, on arguments and results.
// CHECK-LABEL: func.func @roles(
// CHECK-SAME:    %[[W:.*]]: tensor<64x128xf32> {nn.role = #nn.role<param>}, %[[M:.*]]: tensor<64x128xf32> {nn.role = #nn.role<opt_state>}, %[[X:.*]]: tensor<32x64xf32> {nn.role = #nn.role<input>}, %[[Y:.*]]: tensor<32xi32> {nn.role = #nn.role<label>}, %[[SCALE:.*]]: tensor<f32> {nn.role = #nn.role<loss_scale>}, %[[GROWTH:.*]]: tensor<i32> {nn.role = #nn.role<growth_tracker>}, %[[HYST:.*]]: tensor<i32> {nn.role = #nn.role<hysteresis_tracker>}, %[[FOUND:.*]]: tensor<i1> {nn.role = #nn.role<found_inf>}) -> (tensor<64x128xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>})
// CHECK-NEXT:    return %[[W]], %[[SCALE]]
func.func @roles(%w: tensor<64x128xf32> {nn.role = #nn.role<param>}, %m: tensor<64x128xf32> {nn.role = #nn.role<opt_state>}, %x: tensor<32x64xf32> {nn.role = #nn.role<input>}, %y: tensor<32xi32> {nn.role = #nn.role<label>}, %scale: tensor<f32> {nn.role = #nn.role<loss_scale>}, %growth: tensor<i32> {nn.role = #nn.role<growth_tracker>}, %hyst: tensor<i32> {nn.role = #nn.role<hysteresis_tracker>}, %found: tensor<i1> {nn.role = #nn.role<found_inf>}) -> (tensor<64x128xf32> {nn.role = #nn.role<param>}, tensor<f32> {nn.role = #nn.role<loss>}) {
  return %w, %scale : tensor<64x128xf32>, tensor<f32>
}

// nn.init: the value a runner initializes a state argument with (a float,
// an integer or a bool).
// CHECK-LABEL: func.func @init_values(
// CHECK-SAME:    %[[SCALE:.*]]: tensor<f32> {nn.init = 6.553600e+04 : f32, nn.role = #nn.role<loss_scale>}, %[[GROWTH:.*]]: tensor<i32> {nn.init = 0 : i32, nn.role = #nn.role<growth_tracker>}, %[[FOUND:.*]]: tensor<i1> {nn.init = false, nn.role = #nn.role<found_inf>}) -> (tensor<f32> {nn.init = 1.000000e+00 : f32, nn.role = #nn.role<loss_scale>})
// CHECK-NEXT:    return %[[SCALE]]
func.func @init_values(%scale: tensor<f32> {nn.init = 6.553600e+04 : f32, nn.role = #nn.role<loss_scale>}, %growth: tensor<i32> {nn.init = 0 : i32, nn.role = #nn.role<growth_tracker>}, %found: tensor<i1> {nn.init = false, nn.role = #nn.role<found_inf>}) -> (tensor<f32> {nn.init = 1.000000e+00 : f32, nn.role = #nn.role<loss_scale>}) {
  return %scale : tensor<f32>
}

// nn.check_range: where amp-grad-check draws an argument's values (floats
// or integers).
// CHECK-LABEL: func.func @check_ranges(
// CHECK-SAME:    %{{.*}}: tensor<4xf32> {nn.check_range = [5.000000e-01, 2.000000e+00], nn.role = #nn.role<param>}, %{{.*}}: tensor<4xi32> {nn.check_range = [0, 7], nn.role = #nn.role<input>})
func.func @check_ranges(%x: tensor<4xf32> {nn.check_range = [0.5, 2.0], nn.role = #nn.role<param>}, %ids: tensor<4xi32> {nn.check_range = [0, 7], nn.role = #nn.role<input>}) {
  return
}
