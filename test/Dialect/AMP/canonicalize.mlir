// RUN: amp-opt %s --canonicalize | FileCheck %s
// RUN: amp-opt %s --canonicalize --mlir-print-elementsattrs-with-hex-if-larger=1 | FileCheck %s --check-prefix=HEX
// RUN: amp-opt %s --cse | FileCheck %s --check-prefix=CSE

// Folds of amp.cast: identity casts, round trips through a wider type,
// chains whose first step is exact, and casts of constants (converted with
// round-to-nearest-even). The HEX run prints constants as raw little-endian
// bytes to pin their exact bits; the CSE run shows that identical casts
// dedupe.

//===----------------------------------------------------------------------===//
// Casts of values
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @identity(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK-NOT:     amp.cast
// CHECK:         return %[[X]]
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @f16_f32_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf16>)
// CHECK-NOT:     amp.cast
// CHECK:         return %[[X]]
func.func @f16_f32_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = amp.cast %x : tensor<4x8xf16> to tensor<4x8xf32>
  %1 = amp.cast %0 : tensor<4x8xf32> to tensor<4x8xf16>
  return %1 : tensor<4x8xf16>
}

// CHECK-LABEL: func.func @bf16_f32_bf16(
// CHECK-SAME:    %[[X:.*]]: tensor<8xbf16>)
// CHECK-NOT:     amp.cast
// CHECK:         return %[[X]]
func.func @bf16_f32_bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = amp.cast %x : tensor<8xbf16> to tensor<8xf32>
  %1 = amp.cast %0 : tensor<8xf32> to tensor<8xbf16>
  return %1 : tensor<8xbf16>
}

// Narrowing first loses information: f32 -> f16 -> f32 rounds, so both
// casts stay.
// CHECK-LABEL: func.func @f32_f16_f32_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[H:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT:    %[[F:.*]] = amp.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[F]]
func.func @f32_f16_f32_not_folded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  %1 = amp.cast %0 : tensor<4xf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: func.func @f32_bf16_f32_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[B:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xbf16>
// CHECK-NEXT:    %[[F:.*]] = amp.cast %[[B]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[F]]
func.func @f32_bf16_f32_not_folded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = amp.cast %0 : tensor<4xbf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// The widening to f32 is exact, so f16 -> f32 -> bf16 is one f16 -> bf16
// cast (a single rounding either way).
// CHECK-LABEL: func.func @f16_f32_bf16(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT:    %[[R:.*]] = amp.cast %[[X]] : tensor<4xf16> to tensor<4xbf16>
// CHECK-NEXT:    return %[[R]]
func.func @f16_f32_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = amp.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = amp.cast %0 : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @bf16_f32_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<2x2xbf16>)
// CHECK-NEXT:    %[[R:.*]] = amp.cast %[[X]] : tensor<2x2xbf16> to tensor<2x2xf16>
// CHECK-NEXT:    return %[[R]]
func.func @bf16_f32_f16(%x: tensor<2x2xbf16>) -> tensor<2x2xf16> {
  %0 = amp.cast %x : tensor<2x2xbf16> to tensor<2x2xf32>
  %1 = amp.cast %0 : tensor<2x2xf32> to tensor<2x2xf16>
  return %1 : tensor<2x2xf16>
}

// f32 -> f16 -> bf16 rounds twice (and clamps to the f16 range): not the
// same as f32 -> bf16, so both casts stay.
// CHECK-LABEL: func.func @f32_f16_bf16_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[H:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT:    %[[B:.*]] = amp.cast %[[H]] : tensor<4xf16> to tensor<4xbf16>
// CHECK-NEXT:    return %[[B]]
func.func @f32_f16_bf16_not_folded(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  %1 = amp.cast %0 : tensor<4xf16> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// bf16 -> f16 is lossy (f16 has less range), so bf16 -> f16 -> f32 stays.
// CHECK-LABEL: func.func @bf16_f16_f32_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    %[[H:.*]] = amp.cast %[[X]] : tensor<4xbf16> to tensor<4xf16>
// CHECK-NEXT:    %[[F:.*]] = amp.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    return %[[F]]
func.func @bf16_f16_f32_not_folded(%x: tensor<4xbf16>) -> tensor<4xf32> {
  %0 = amp.cast %x : tensor<4xbf16> to tensor<4xf16>
  %1 = amp.cast %0 : tensor<4xf16> to tensor<4xf32>
  return %1 : tensor<4xf32>
}

// The widened value keeps its other use; only the round trip folds.
// CHECK-LABEL: func.func @widened_value_used_elsewhere(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT:    %[[W:.*]] = amp.cast %[[X]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = nn.exp %[[W]] : tensor<4xf32>
// CHECK-NEXT:    return %[[E]], %[[X]]
func.func @widened_value_used_elsewhere(%x: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = amp.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = nn.exp %0 : tensor<4xf32>
  %2 = amp.cast %0 : tensor<4xf32> to tensor<4xf16>
  return %1, %2 : tensor<4xf32>, tensor<4xf16>
}

// A chain of exact steps collapses completely.
// CHECK-LABEL: func.func @long_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<4xbf16>)
// CHECK-NOT:     amp.cast
// CHECK:         return %[[X]]
func.func @long_chain(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = amp.cast %x : tensor<4xbf16> to tensor<4xf32>
  %1 = amp.cast %0 : tensor<4xf32> to tensor<4xf32>
  %2 = amp.cast %1 : tensor<4xf32> to tensor<4xbf16>
  %3 = amp.cast %2 : tensor<4xbf16> to tensor<4xf32>
  %4 = amp.cast %3 : tensor<4xf32> to tensor<4xbf16>
  return %4 : tensor<4xbf16>
}

// An op between the casts blocks the fold.
// CHECK-LABEL: func.func @op_between_casts(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT:    %[[W:.*]] = amp.cast %[[X]] : tensor<4xf16> to tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = nn.relu %[[W]] : tensor<4xf32>
// CHECK-NEXT:    %[[N:.*]] = amp.cast %[[R]] : tensor<4xf32> to tensor<4xf16>
// CHECK-NEXT:    return %[[N]]
func.func @op_between_casts(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = amp.cast %x : tensor<4xf16> to tensor<4xf32>
  %1 = nn.relu %0 : tensor<4xf32>
  %2 = amp.cast %1 : tensor<4xf32> to tensor<4xf16>
  return %2 : tensor<4xf16>
}

//===----------------------------------------------------------------------===//
// Casts of constants
//===----------------------------------------------------------------------===//

// f32 -> f16 with round-to-nearest-even:
//   1 + 2^-11          halfway between 0x3C00 and 0x3C01 -> 0x3C00 (even)
//   1 + 3 * 2^-11      halfway between 0x3C01 and 0x3C02 -> 0x3C02 (even)
//   65519              below the halfway point to 2^16    -> 65504 (0x7BFF)
//   65520              halfway between 65504 and 2^16     -> inf (0x7C00)
//   1e5, -1e5          beyond the range                   -> +-inf
//   2^-24              the smallest subnormal             -> 0x0001
//   2^-25              halfway between 0 and 2^-24        -> 0 (even)
//   3 * 2^-25          halfway between 0x0001 and 0x0002  -> 0x0002 (even)
//   -0.0               keeps its sign                     -> 0x8000
// CHECK-LABEL: func.func @constant_f32_to_f16(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 1.001950e+00, 6.550400e+04, 0x7C00, 0x7C00, 0xFC00, 5.960460e-08, 0.000000e+00, 1.192090e-07, -0.000000e+00]> : tensor<10xf16>
// CHECK-NEXT:    return %[[C]]
// HEX-LABEL:   func.func @constant_f32_to_f16(
// HEX-NEXT:      arith.constant dense<"0x003C023CFF7B007C007C00FC0100000002000080"> : tensor<10xf16>
func.func @constant_f32_to_f16() -> tensor<10xf16> {
  %0 = arith.constant dense<[1.00048828125, 1.00146484375, 65519.0, 65520.0, 1.0e5, -1.0e5,
                             5.9604644775390625E-8, 2.98023223876953125E-8, 8.94069671630859375E-8, -0.0]> : tensor<10xf32>
  %1 = amp.cast %0 : tensor<10xf32> to tensor<10xf16>
  return %1 : tensor<10xf16>
}

// f32 -> bf16 with round-to-nearest-even:
//   1 + 2^-8       halfway between 0x3F80 and 0x3F81 -> 0x3F80 (even)
//   1 + 3 * 2^-8   halfway between 0x3F81 and 0x3F82 -> 0x3F82 (even)
//   3e38           within bf16's f32-like range      -> 0x7F62
//   NaN            stays NaN                         -> 0x7FC0
// CHECK-LABEL: func.func @constant_f32_to_bf16(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 1.015630e+00, 3.004060e+38, 0x7FC0]> : tensor<4xbf16>
// CHECK-NEXT:    return %[[C]]
// HEX-LABEL:   func.func @constant_f32_to_bf16(
// HEX-NEXT:      arith.constant dense<"0x803F823F627FC07F"> : tensor<4xbf16>
func.func @constant_f32_to_bf16() -> tensor<4xbf16> {
  %0 = arith.constant dense<[1.00390625, 1.01171875, 3.0e38, 0x7FC00000]> : tensor<4xf32>
  %1 = amp.cast %0 : tensor<4xf32> to tensor<4xbf16>
  return %1 : tensor<4xbf16>
}

// A splat stays a splat: 0.1 rounds to 0x2E66 = 0.0999755859375 (a splat
// prints in decimal in the HEX run too).
// CHECK-LABEL: func.func @constant_splat(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<9.997550e-02> : tensor<2x3xf16>
// CHECK-NEXT:    return %[[C]]
// HEX-LABEL:   func.func @constant_splat(
// HEX-NEXT:      arith.constant dense<9.997550e-02> : tensor<2x3xf16>
func.func @constant_splat() -> tensor<2x3xf16> {
  %0 = arith.constant dense<0.1> : tensor<2x3xf32>
  %1 = amp.cast %0 : tensor<2x3xf32> to tensor<2x3xf16>
  return %1 : tensor<2x3xf16>
}

// Widening is exact, including inf and subnormals.
// CHECK-LABEL: func.func @constant_f16_to_f32(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[0.333251953, 0x7F800000, 5.96046448E-8]> : tensor<3xf32>
// CHECK-NEXT:    return %[[C]]
// HEX-LABEL:   func.func @constant_f16_to_f32(
// HEX-NEXT:      arith.constant dense<"0x00A0AA3E0000807F00008033"> : tensor<3xf32>
func.func @constant_f16_to_f32() -> tensor<3xf32> {
  %0 = arith.constant dense<[0x3555, 0x7C00, 0x0001]> : tensor<3xf16>
  %1 = amp.cast %0 : tensor<3xf16> to tensor<3xf32>
  return %1 : tensor<3xf32>
}

// f16 -> bf16 rounds too: 0x3C01 = 1 + 2^-10 is below bf16's half ulp.
// CHECK-LABEL: func.func @constant_f16_to_bf16(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 6.553600e+04]> : tensor<2xbf16>
// CHECK-NEXT:    return %[[C]]
// HEX-LABEL:   func.func @constant_f16_to_bf16(
// HEX-NEXT:      arith.constant dense<"0x803F8047"> : tensor<2xbf16>
func.func @constant_f16_to_bf16() -> tensor<2xbf16> {
  %0 = arith.constant dense<[0x3C01, 0x7BFF]> : tensor<2xf16>
  %1 = amp.cast %0 : tensor<2xf16> to tensor<2xbf16>
  return %1 : tensor<2xbf16>
}

// A 0-d NaN becomes the f16 quiet NaN.
// CHECK-LABEL: func.func @constant_nan_scalar(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<0x7E00> : tensor<f16>
// CHECK-NEXT:    return %[[C]]
func.func @constant_nan_scalar() -> tensor<f16> {
  %0 = arith.constant dense<0x7FC00000> : tensor<f32>
  %1 = amp.cast %0 : tensor<f32> to tensor<f16>
  return %1 : tensor<f16>
}

// A constant round trip through f32 gives the original constant back.
// CHECK-LABEL: func.func @constant_round_trip(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 1.000980e+00]> : tensor<2xf16>
// CHECK-NEXT:    return %[[C]]
func.func @constant_round_trip() -> tensor<2xf16> {
  %0 = arith.constant dense<[0x3C00, 0x3C01]> : tensor<2xf16>
  %1 = amp.cast %0 : tensor<2xf16> to tensor<2xf32>
  %2 = amp.cast %1 : tensor<2xf32> to tensor<2xf16>
  return %2 : tensor<2xf16>
}

//===----------------------------------------------------------------------===//
// CSE
//===----------------------------------------------------------------------===//

// Two identical casts of one value are one cast; a cast to another type is
// not the same cast.
// CSE-LABEL: func.func @identical_casts_dedupe(
// CSE-SAME:    %[[X:.*]]: tensor<4xf32>)
// CSE-NEXT:    %[[H:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xf16>
// CSE-NEXT:    %[[B:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xbf16>
// CSE-NEXT:    return %[[H]], %[[H]], %[[B]]
func.func @identical_casts_dedupe(%x: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>) {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  %1 = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  %2 = amp.cast %x : tensor<4xf32> to tensor<4xbf16>
  return %0, %1, %2 : tensor<4xf16>, tensor<4xf16>, tensor<4xbf16>
}
