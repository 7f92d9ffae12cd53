// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt | FileCheck %s

// Ops that must not fuse: the consumed value has another user that the
// GEMM cannot serve, shapes or types the runtime's epilogues do not take,
// an epilogue in the wrong order, or a different block. Where part of a
// chain can fuse it does, and the rest stays.

// The matmul result is also used elsewhere: the sum with the bias cannot
// replace it.
// CHECK-LABEL: func @product_used_elsewhere
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: %[[H:.*]] = nn.add %[[D]], %arg2
// CHECK-NEXT: %[[T:.*]] = nn.tanh %[[D]]
// CHECK-NEXT: return %[[H]], %[[T]]
func.func @product_used_elsewhere(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %2 = nn.tanh %0 : tensor<32x128xf16>
  return %1, %2 : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// A bias must be 1-D of length N: not [1, N], not a column [M, 1], not a
// broadcast scalar [1].
// CHECK-LABEL: func @bias_wrong_shape
// CHECK-COUNT-3: nn.add
// CHECK-NOT: epilogue
func.func @bias_wrong_shape(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %row: tensor<1x128xf16>, %col: tensor<32x1xf16>, %one: tensor<1xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.add %0, %row : (tensor<32x128xf16>, tensor<1x128xf16>) -> tensor<32x128xf16>
  %2 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %3 = nn.add %2, %col : (tensor<32x128xf16>, tensor<32x1xf16>) -> tensor<32x128xf16>
  %4 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %5 = nn.add %one, %4 : (tensor<1xf16>, tensor<32x128xf16>) -> tensor<32x128xf16>
  return %1, %3, %5 : tensor<32x128xf16>, tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// The pre-activation has a user that needs it (not a sign test): the bias
// fuses, the relu stays.
// CHECK-LABEL: func @relu_input_needed
// CHECK-NEXT: %[[H:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = bias :
// CHECK-NEXT: %[[A:.*]] = nn.relu %[[H]]
// CHECK-NEXT: %[[T:.*]] = nn.tanh %[[H]]
// CHECK-NEXT: return %[[A]], %[[T]]
func.func @relu_input_needed(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %h = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %a = nn.relu %h : tensor<32x128xf16>
  %t = nn.tanh %h : tensor<32x128xf16>
  return %a, %t : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// relu_grad reads the pre-activation as its output gradient, not as the
// input it tests: that needs the value itself.
// CHECK-LABEL: func @relu_input_as_grad
// CHECK-NEXT: %[[H:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: %[[A:.*]] = nn.relu %[[H]]
// CHECK-NEXT: %[[G:.*]] = nn.relu_grad %[[H]], %arg2
// CHECK-NEXT: return %[[A]], %[[G]]
func.func @relu_input_as_grad(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %y: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %h = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %a = nn.relu %h : tensor<32x128xf16>
  %g = nn.relu_grad %h, %y : tensor<32x128xf16>
  return %a, %g : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// f32 matmuls stay as they are (f32-gemm=false), and so does what follows.
// CHECK-LABEL: func @f32_untouched
// CHECK-NEXT: nn.matmul
// CHECK-NEXT: nn.add
// CHECK-NEXT: nn.relu
// CHECK-NOT: amp.gemm
func.func @f32_untouched(%x: tensor<32x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %1 = nn.add %0, %b : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %2 = nn.relu %1 : tensor<32x128xf32>
  return %2 : tensor<32x128xf32>
}

// -----

// Epilogues apply in one order: alpha, C, bias, then the activation. A
// bias or a C after an activation, or a scale after a bias, stay.
// CHECK-LABEL: func @wrong_order
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[A:.*]] = amp.gemm %arg0, %arg1 epilogue = relu :
// CHECK-NEXT: %[[Y:.*]] = nn.add %[[A]], %arg2
// CHECK-NEXT: %[[G:.*]] = amp.gemm %arg0, %arg1 epilogue = gelu :
// CHECK-NEXT: %[[Z:.*]] = nn.add %[[G]], %arg3
// CHECK-NEXT: %[[B:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = bias :
// CHECK-NEXT: %[[S:.*]] = nn.mul %[[B]]
// CHECK-NEXT: return %[[Y]], %[[Z]], %[[S]]
func.func @wrong_order(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>, %r: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>, tensor<32x128xf16>) {
  %two = arith.constant dense<2.0> : tensor<f16>
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.relu %0 : tensor<32x128xf16>
  %2 = nn.add %1, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %3 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %4 = nn.gelu %3 : tensor<32x128xf16>
  %5 = nn.add %4, %r : (tensor<32x128xf16>, tensor<32x128xf16>) -> tensor<32x128xf16>
  %6 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %7 = nn.add %6, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %8 = nn.mul %7, %two : (tensor<32x128xf16>, tensor<f16>) -> tensor<32x128xf16>
  return %2, %5, %8 : tensor<32x128xf16>, tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// A bias before relu_grad is not a backward epilogue: the bias fuses, the
// relu_grad stays.
// CHECK-LABEL: func @bias_before_relu_grad
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg3) epilogue = bias {transpose_b}
// CHECK-NEXT: nn.relu_grad %[[D]], %arg2
func.func @bias_before_relu_grad(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %1 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %2 = nn.relu_grad %1, %h : tensor<32x128xf16>
  return %2 : tensor<32x128xf16>
}

// -----

// The data gradient is also used elsewhere: no drelu.
// CHECK-LABEL: func @dx_used_elsewhere
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 {transpose_b}
// CHECK-NEXT: nn.gelu_grad %[[D]], %arg2
func.func @dx_used_elsewhere(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %1 = nn.gelu_grad %0, %h : tensor<32x128xf16>
  return %0, %1 : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// Sums the weight-gradient GEMM cannot produce: kept dims, the wrong axis
// (the bias gradient sums over tokens, the GEMM's K), another element type
// than the GEMM's result, and a batched weight gradient.
// CHECK-LABEL: func @not_a_bias_grad
// CHECK-NOT: bgrad
// CHECK-COUNT-4: nn.reduce_sum
// CHECK-NOT: bgrad
func.func @not_a_bias_grad(%x: tensor<32x64xf16>, %dy: tensor<32x128xf16>, %x3: tensor<2x16x64xf16>, %dy3: tensor<2x16x128xf16>) -> (tensor<64x128xf32>, tensor<1x128xf32>, tensor<32xf32>, tensor<128xf16>, tensor<2x64x128xf32>, tensor<2x128xf32>) {
  %dw = nn.matmul %x, %dy {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  %0 = nn.reduce_sum %dy [0] keep_dims : (tensor<32x128xf16>) -> tensor<1x128xf32>
  %1 = nn.reduce_sum %dy [1] : (tensor<32x128xf16>) -> tensor<32xf32>
  %2 = nn.reduce_sum %dy [0] : (tensor<32x128xf16>) -> tensor<128xf16>
  %dw3 = nn.matmul %x3, %dy3 {transpose_a} : (tensor<2x16x64xf16>, tensor<2x16x128xf16>) -> tensor<2x64x128xf32>
  %3 = nn.reduce_sum %dy3 [1] : (tensor<2x16x128xf16>) -> tensor<2x128xf32>
  return %dw, %0, %1, %2, %dw3, %3 : tensor<64x128xf32>, tensor<1x128xf32>, tensor<32xf32>, tensor<128xf16>, tensor<2x64x128xf32>, tensor<2x128xf32>
}

// -----

// The bias gradient of an f32 value whose f16 cast the GEMM reads would sum
// rounded values: not by default (see bgrad-through-cast in options.mlir).
// CHECK-LABEL: func @bgrad_through_cast
// CHECK-NEXT: %[[DY:.*]] = amp.cast %arg1
// CHECK-NEXT: amp.gemm %arg0, %[[DY]] {transpose_a}
// CHECK-NEXT: nn.reduce_sum %arg1 [0]
func.func @bgrad_through_cast(%x: tensor<32x64xf16>, %dy32: tensor<32x128xf32>) -> (tensor<64x128xf32>, tensor<128xf32>) {
  %dy = amp.cast %dy32 : tensor<32x128xf32> to tensor<32x128xf16>
  %dw = nn.matmul %x, %dy {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dy32 [0] : (tensor<32x128xf32>) -> tensor<128xf32>
  return %dw, %db : tensor<64x128xf32>, tensor<128xf32>
}

// -----

// The GEMM and its consumer are in different blocks: fusing would move the
// GEMM into (or out of) the region.
// CHECK-LABEL: func @other_block
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: amp.autocast
// CHECK-NEXT: nn.add %[[D]], %arg2
func.func @other_block(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = amp.autocast -> tensor<32x128xf16> {
    %2 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
    amp.yield %2 : tensor<32x128xf16>
  }
  return %1 : tensor<32x128xf16>
}

// -----

// Only a splat constant is a scale.
// CHECK-LABEL: func @scale_not_splat
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: nn.mul %[[D]]
// CHECK-NEXT: %[[E:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: nn.mul %[[E]], %arg2
func.func @scale_not_splat(%x: tensor<4x8xf16>, %w: tensor<8x2xf16>, %s: tensor<f16>) -> (tensor<4x2xf16>, tensor<4x2xf16>) {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %0 = nn.matmul %x, %w : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  %1 = nn.mul %0, %c : (tensor<4x2xf16>, tensor<2xf16>) -> tensor<4x2xf16>
  %2 = nn.matmul %x, %w : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  %3 = nn.mul %2, %s : (tensor<4x2xf16>, tensor<f16>) -> tensor<4x2xf16>
  return %1, %3 : tensor<4x2xf16>, tensor<4x2xf16>
}

// -----

// An empty matmul has no runtime GEMM.
// CHECK-LABEL: func @empty
// CHECK-NEXT: nn.matmul
func.func @empty(%x: tensor<4x0xf16>, %w: tensor<0x2xf16>) -> tensor<4x2xf16> {
  %0 = nn.matmul %x, %w : (tensor<4x0xf16>, tensor<0x2xf16>) -> tensor<4x2xf16>
  return %0 : tensor<4x2xf16>
}

// -----

// The exact GELU and its gradient have no GEMM epilogue (cuBLASLt's GELU is
// the tanh form): they stay after the GEMM.
// CHECK-LABEL: func @gelu_erf_not_fused
// CHECK-NEXT: %[[G:.*]] = amp.gemm %arg0, %arg1 :
// CHECK-NEXT: %[[Y:.*]] = nn.gelu_erf %[[G]]
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg2, %arg3 {transpose_b} :
// CHECK-NEXT: %[[DX:.*]] = nn.gelu_erf_grad %[[D]], %arg4
// CHECK-NEXT: return %[[Y]], %[[DX]]
func.func @gelu_erf_not_fused(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %dy: tensor<32x10xf16>, %w2: tensor<128x10xf16>, %h: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.gelu_erf %0 : tensor<32x128xf16>
  %2 = nn.matmul %dy, %w2 {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %3 = nn.gelu_erf_grad %2, %h : tensor<32x128xf16>
  return %1, %3 : tensor<32x128xf16>, tensor<32x128xf16>
}
