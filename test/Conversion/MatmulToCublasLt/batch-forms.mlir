// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt | FileCheck %s

// nn.matmul in every transpose and batch form becomes one amp.gemm with the
// same operands, attributes and result; no nn.matmul is left.

// CHECK-LABEL: func @transposes
// CHECK-NEXT: amp.gemm %arg0, %arg1 : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT: amp.gemm %arg2, %arg1 {transpose_a} : (tensor<8x4xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
// CHECK-NEXT: amp.gemm %arg0, %arg3 {transpose_b} : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x16xf16>
// CHECK-NEXT: amp.gemm %arg2, %arg3 {transpose_a, transpose_b} : (tensor<8x4xf16>, tensor<16x8xf16>) -> tensor<4x16xf32>
// CHECK-NOT: nn.matmul
func.func @transposes(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %at: tensor<8x4xf16>, %bt: tensor<16x8xf16>) -> (tensor<4x16xf16>, tensor<4x16xf32>, tensor<4x16xf16>, tensor<4x16xf32>) {
  %0 = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %1 = nn.matmul %at, %b {transpose_a} : (tensor<8x4xf16>, tensor<8x16xf16>) -> tensor<4x16xf32>
  %2 = nn.matmul %a, %bt {transpose_b} : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x16xf16>
  %3 = nn.matmul %at, %bt {transpose_a, transpose_b} : (tensor<8x4xf16>, tensor<16x8xf16>) -> tensor<4x16xf32>
  return %0, %1, %2, %3 : tensor<4x16xf16>, tensor<4x16xf32>, tensor<4x16xf16>, tensor<4x16xf32>
}

// -----

// Batched forms: a rank-3 activation times a 2-D weight (one flattened GEMM
// in the descriptor), batched times batched, a 2-D operand times a batched
// one, 4-D attention-style with transpose_b, and leading ones.
// CHECK-LABEL: func @batches
// CHECK-NEXT: amp.gemm %arg0, %arg1 : (tensor<2x16x64xbf16>, tensor<64x128xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: amp.gemm %arg0, %arg2 : (tensor<2x16x64xbf16>, tensor<2x64x8xbf16>) -> tensor<2x16x8xf32>
// CHECK-NEXT: amp.gemm %arg3, %arg2 : (tensor<16x64xbf16>, tensor<2x64x8xbf16>) -> tensor<2x16x8xbf16>
// CHECK-NEXT: amp.gemm %arg4, %arg4 {transpose_b} : (tensor<2x4x16x16xbf16>, tensor<2x4x16x16xbf16>) -> tensor<2x4x16x16xf32>
// CHECK-NEXT: amp.gemm %arg5, %arg1 : (tensor<1x1x16x64xbf16>, tensor<64x128xbf16>) -> tensor<1x1x16x128xbf16>
// CHECK-NOT: nn.matmul
func.func @batches(%x: tensor<2x16x64xbf16>, %w: tensor<64x128xbf16>, %y: tensor<2x64x8xbf16>, %x2: tensor<16x64xbf16>, %q: tensor<2x4x16x16xbf16>, %x1: tensor<1x1x16x64xbf16>) -> (tensor<2x16x128xbf16>, tensor<2x16x8xf32>, tensor<2x16x8xbf16>, tensor<2x4x16x16xf32>, tensor<1x1x16x128xbf16>) {
  %0 = nn.matmul %x, %w : (tensor<2x16x64xbf16>, tensor<64x128xbf16>) -> tensor<2x16x128xbf16>
  %1 = nn.matmul %x, %y : (tensor<2x16x64xbf16>, tensor<2x64x8xbf16>) -> tensor<2x16x8xf32>
  %2 = nn.matmul %x2, %y : (tensor<16x64xbf16>, tensor<2x64x8xbf16>) -> tensor<2x16x8xbf16>
  %3 = nn.matmul %q, %q {transpose_b} : (tensor<2x4x16x16xbf16>, tensor<2x4x16x16xbf16>) -> tensor<2x4x16x16xf32>
  %4 = nn.matmul %x1, %w : (tensor<1x1x16x64xbf16>, tensor<64x128xbf16>) -> tensor<1x1x16x128xbf16>
  return %0, %1, %2, %3, %4 : tensor<2x16x128xbf16>, tensor<2x16x8xf32>, tensor<2x16x8xbf16>, tensor<2x4x16x16xf32>, tensor<1x1x16x128xbf16>
}

// -----

// Batch dims that broadcast partly ([2,1] with [1,3], or [3] with [2,3])
// cannot be addressed with one batch stride: the partly broadcast operand
// is materialized with nn.broadcast_to; one that holds one matrix per batch
// or a single matrix is not.
// CHECK-LABEL: func @partial_broadcast
// CHECK-NEXT: %[[A:.*]] = nn.broadcast_to %arg0 : tensor<2x1x4x8xf16> -> tensor<2x3x4x8xf16>
// CHECK-NEXT: %[[B:.*]] = nn.broadcast_to %arg1 : tensor<1x3x8x16xf16> -> tensor<2x3x8x16xf16>
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] : (tensor<2x3x4x8xf16>, tensor<2x3x8x16xf16>) -> tensor<2x3x4x16xf16>
// CHECK-NEXT: %[[C:.*]] = nn.broadcast_to %arg2 : tensor<3x4x8xf16> -> tensor<2x3x4x8xf16>
// CHECK-NEXT: amp.gemm %[[C]], %arg3 : (tensor<2x3x4x8xf16>, tensor<2x3x8x16xf16>) -> tensor<2x3x4x16xf16>
// CHECK-NEXT: amp.gemm %arg4, %arg3 : (tensor<1x1x4x8xf16>, tensor<2x3x8x16xf16>) -> tensor<2x3x4x16xf16>
// CHECK-NOT: nn.
func.func @partial_broadcast(%a: tensor<2x1x4x8xf16>, %b: tensor<1x3x8x16xf16>, %c: tensor<3x4x8xf16>, %d: tensor<2x3x8x16xf16>, %e: tensor<1x1x4x8xf16>) -> (tensor<2x3x4x16xf16>, tensor<2x3x4x16xf16>, tensor<2x3x4x16xf16>) {
  %0 = nn.matmul %a, %b : (tensor<2x1x4x8xf16>, tensor<1x3x8x16xf16>) -> tensor<2x3x4x16xf16>
  %1 = nn.matmul %c, %d : (tensor<3x4x8xf16>, tensor<2x3x8x16xf16>) -> tensor<2x3x4x16xf16>
  %2 = nn.matmul %e, %d : (tensor<1x1x4x8xf16>, tensor<2x3x8x16xf16>) -> tensor<2x3x4x16xf16>
  return %0, %1, %2 : tensor<2x3x4x16xf16>, tensor<2x3x4x16xf16>, tensor<2x3x4x16xf16>
}
