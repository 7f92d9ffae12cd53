// Splat constants that amp_fill cannot store exactly (a NaN with a payload,
// an integer beyond 2^24) are lowered as one element broadcast
// (amp-lower-to-runtime, test/Conversion/NNToRuntime/constants.mlir): run on
// each CPU backend, every element comes out bitwise equal to the constant.
// The .npy files end in the data: 15 f32 words, then 7 i32 words.
// RUN: for b in %host_backends; do \
// RUN:   amp-run %s --function consts --precision f32 --backend $b --output %t.$b.n.npy --output %t.$b.c.npy > /dev/null && \
// RUN:   tail -c 60 %t.$b.n.npy | od -A n -t x4 -v && echo "--" && \
// RUN:   tail -c 28 %t.$b.c.npy | od -A n -t x4 -v && echo "==" || exit 1; \
// RUN: done | FileCheck %s

// CHECK-COUNT-15: 7fc00001
// CHECK-NOT: {{[0-9a-f]}}
// CHECK: --
// CHECK-COUNT-7: 01000001
// CHECK-NOT: {{[0-9a-f]}}
// CHECK: ==
func.func @consts() -> (tensor<3x5xf32>, tensor<7xi32>) {
  %n = arith.constant dense<0x7FC00001> : tensor<3x5xf32>
  %c = arith.constant dense<16777217> : tensor<7xi32>
  return %n, %c : tensor<3x5xf32>, tensor<7xi32>
}
