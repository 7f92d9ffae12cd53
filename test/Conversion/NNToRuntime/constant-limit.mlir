// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime=max-constant-bytes=16 -verify-diagnostics | FileCheck %s

// A constant with distinct elements that the lowering would embed must be at
// most max-constant-bytes (256 MiB by default, 16 bytes here): 20 is an
// error naming the option.
func.func @too_large() -> tensor<5xi32> {
  // expected-error @below {{amp-lower-to-runtime: a constant of 20 bytes is larger than the 16 bytes the lowering embeds in a step (max-constant-bytes); pass it as an argument instead}}
  %c = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  return %c : tensor<5xi32>
}

// -----

// 16 bytes are embedded; splats of any size are not limited (a fill, or one
// element broadcast).
// CHECK-LABEL: func.func @at_the_limit(
// CHECK: llvm.call @amp_memcpy
// CHECK: llvm.call @amp_fill
// CHECK: llvm.call @amp_broadcast_to
func.func @at_the_limit() -> (tensor<4xi32>, tensor<1000xi32>, tensor<1000xf32>) {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = arith.constant dense<7> : tensor<1000xi32>
  %n = arith.constant dense<0x7FC00001> : tensor<1000xf32>
  return %c, %s, %n : tensor<4xi32>, tensor<1000xi32>, tensor<1000xf32>
}
