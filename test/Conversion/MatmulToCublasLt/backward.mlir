// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt | FileCheck %s

// Backward epilogues. For y = act(x @ W + b) with x: tokens x in and
// W: in x out, the gradients are dh = act_grad(dy @ W^T, h) -> drelu/dgelu,
// and dW = x^T @ dh with db = reduce_sum(dh, [0]) -> bgradb (the sum over
// the tokens, which are the weight-gradient GEMM's K).

// CHECK-LABEL: func @drelu
// CHECK-SAME: (%[[DY:.*]]: tensor<32x10xf16>, %[[W:.*]]: tensor<128x10xf16>, %[[H:.*]]: tensor<32x128xf16>)
// CHECK-NEXT: %[[D:.*]] = amp.gemm %[[DY]], %[[W]] aux(%[[H]]) epilogue = drelu {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>, tensor<32x128xf16>) -> tensor<32x128xf16>
// CHECK-NEXT: return %[[D]]
func.func @drelu(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %1 = nn.relu_grad %0, %h : tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// CHECK-LABEL: func @dgelu
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = dgelu {transpose_b} : (tensor<32x64xbf16>, tensor<256x64xbf16>, tensor<32x256xbf16>) -> tensor<32x256xbf16>
// CHECK-NEXT: return %[[D]]
func.func @dgelu(%dy: tensor<32x64xbf16>, %w: tensor<256x64xbf16>, %h: tensor<32x256xbf16>) -> tensor<32x256xbf16> {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x64xbf16>, tensor<256x64xbf16>) -> tensor<32x256xbf16>
  %1 = nn.gelu_grad %0, %h : tensor<32x256xbf16>
  return %1 : tensor<32x256xbf16>
}

// -----

// The whole layer: the forward GEMM keeps its ReLU output for drelu, and
// the weight gradient yields the bias gradient.
// CHECK-LABEL: func @relu_layer
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<32x64xf16>, %[[W:[a-z0-9]+]]: tensor<64x128xf16>, %[[B:[a-z0-9]+]]: tensor<128xf16>, %[[DA:[a-z0-9]+]]: tensor<32x10xf16>, %[[W2:[a-z0-9]+]]: tensor<128x10xf16>)
// CHECK-NEXT: %[[A:.*]] = amp.gemm %[[X]], %[[W]] bias(%[[B]]) epilogue = relu_bias
// CHECK-NEXT: %[[DH:.*]] = amp.gemm %[[DA]], %[[W2]] aux(%[[A]]) epilogue = drelu {transpose_b}
// CHECK-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %[[X]], %[[DH]] epilogue = bgradb {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>, bias_grad tensor<128xf32>
// CHECK-NEXT: return %[[A]], %[[DW]], %[[DB]]
func.func @relu_layer(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>, %da: tensor<32x10xf16>, %w2: tensor<128x10xf16>) -> (tensor<32x128xf16>, tensor<64x128xf32>, tensor<128xf32>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %h = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %a = nn.relu %h : tensor<32x128xf16>
  %1 = nn.matmul %da, %w2 {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %dh = nn.relu_grad %1, %h : tensor<32x128xf16>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf16>) -> tensor<128xf32>
  return %a, %dw, %db : tensor<32x128xf16>, tensor<64x128xf32>, tensor<128xf32>
}

// -----

// dW^T = dY^T X: dY is a (transposed), so the sum over K is bgrada.
// CHECK-LABEL: func @bgrada
// CHECK-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 epilogue = bgrada {transpose_a} : (tensor<32x128xf16>, tensor<32x64xf16>) -> tensor<128x64xf32>, bias_grad tensor<128xf32>
// CHECK-NEXT: return %[[DW]], %[[DB]]
func.func @bgrada(%dy: tensor<32x128xf16>, %x: tensor<32x64xf16>) -> (tensor<128x64xf32>, tensor<128xf32>) {
  %db = nn.reduce_sum %dy [0] : (tensor<32x128xf16>) -> tensor<128xf32>
  %dw = nn.matmul %dy, %x {transpose_a} : (tensor<32x128xf16>, tensor<32x64xf16>) -> tensor<128x64xf32>
  return %dw, %db : tensor<128x64xf32>, tensor<128xf32>
}

// -----

// dY stored transposed (out x tokens) as b with transpose_b: K is its last
// axis, here written -1.
// CHECK-LABEL: func @bgradb_transposed
// CHECK-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 epilogue = bgradb {transpose_a, transpose_b} : (tensor<32x64xf16>, tensor<128x32xf16>) -> tensor<64x128xf16>, bias_grad tensor<128xf16>
// CHECK-NEXT: return %[[DW]], %[[DB]]
func.func @bgradb_transposed(%x: tensor<32x64xf16>, %dyt: tensor<128x32xf16>) -> (tensor<64x128xf16>, tensor<128xf16>) {
  %dw = nn.matmul %x, %dyt {transpose_a, transpose_b} : (tensor<32x64xf16>, tensor<128x32xf16>) -> tensor<64x128xf16>
  %db = nn.reduce_sum %dyt [-1] : (tensor<128x32xf16>) -> tensor<128xf16>
  return %dw, %db : tensor<64x128xf16>, tensor<128xf16>
}

// -----

// The sum is used before the GEMM: the fused GEMM goes where the sum was.
// CHECK-LABEL: func @bgrad_used_early
// CHECK-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 epilogue = bgradb {transpose_a}
// CHECK-NEXT: %[[N:.*]] = nn.neg %[[DB]]
// CHECK-NEXT: return %[[DW]], %[[N]]
func.func @bgrad_used_early(%x: tensor<32x64xf16>, %dy: tensor<32x128xf16>) -> (tensor<64x128xf32>, tensor<128xf32>) {
  %db = nn.reduce_sum %dy [0] : (tensor<32x128xf16>) -> tensor<128xf32>
  %n = nn.neg %db : tensor<128xf32>
  %dw = nn.matmul %x, %dy {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  return %dw, %n : tensor<64x128xf32>, tensor<128xf32>
}

// -----

// No GEMM reads the output gradient (a frozen weight), and the sum has the
// GEMM's result type: drelu_bgrad sums the GEMM's result over its rows.
// CHECK-LABEL: func @drelu_bgrad
// CHECK-NEXT: %[[DH:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = drelu_bgrad {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>, tensor<32x128xf32>) -> tensor<32x128xf32>, bias_grad tensor<128xf32>
// CHECK-NEXT: return %[[DH]], %[[DB]]
func.func @drelu_bgrad(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf32>) -> (tensor<32x128xf32>, tensor<128xf32>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf32>
  %dh = nn.relu_grad %0, %h : tensor<32x128xf32>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf32>) -> tensor<128xf32>
  return %dh, %db : tensor<32x128xf32>, tensor<128xf32>
}

// -----

// A rank-3 output gradient of a flattened GEMM: the sum over all rows of
// all batches.
// CHECK-LABEL: func @dgelu_bgrad_rank3
// CHECK-NEXT: %[[DH:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = dgelu_bgrad {transpose_b} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>, tensor<2x16x256xbf16>) -> tensor<2x16x256xbf16>, bias_grad tensor<256xbf16>
// CHECK-NEXT: return %[[DH]], %[[DB]]
func.func @dgelu_bgrad_rank3(%dy: tensor<2x16x64xbf16>, %w: tensor<256x64xbf16>, %h: tensor<2x16x256xbf16>) -> (tensor<2x16x256xbf16>, tensor<256xbf16>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<2x16x64xbf16>, tensor<256x64xbf16>) -> tensor<2x16x256xbf16>
  %dh = nn.gelu_grad %0, %h : tensor<2x16x256xbf16>
  %db = nn.reduce_sum %dh [1, 0] : (tensor<2x16x256xbf16>) -> tensor<256xbf16>
  return %dh, %db : tensor<2x16x256xbf16>, tensor<256xbf16>
}

// -----

// Both could take the sum; the weight-gradient GEMM does (bgradb), as the
// runtime's docs map a linear layer, whichever GEMM is visited first.
// CHECK-LABEL: func @weight_grad_preferred
// CHECK-NEXT: %[[DH:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = drelu {transpose_b}
// CHECK-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg3, %[[DH]] epilogue = bgradb {transpose_a}
// CHECK-NEXT: return %[[DW]], %[[DB]]
func.func @weight_grad_preferred(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>, %x: tensor<32x64xf16>) -> (tensor<64x128xf16>, tensor<128xf16>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %dh = nn.relu_grad %0, %h : tensor<32x128xf16>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf16>) -> tensor<128xf16>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf16>
  return %dw, %db : tensor<64x128xf16>, tensor<128xf16>
}

// -----

// The weight-gradient GEMM stores f32, the sum is f16: it cannot take it,
// so the drelu GEMM does.
// CHECK-LABEL: func @weight_grad_other_type
// CHECK-NEXT: %[[DH:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = drelu_bgrad {transpose_b}
// CHECK-NEXT: %[[DW:.*]] = amp.gemm %arg3, %[[DH]] {transpose_a} :
// CHECK-NEXT: return %[[DW]], %[[DB]]
func.func @weight_grad_other_type(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>, %x: tensor<32x64xf16>) -> (tensor<64x128xf32>, tensor<128xf16>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %dh = nn.relu_grad %0, %h : tensor<32x128xf16>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf16>) -> tensor<128xf16>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  return %dw, %db : tensor<64x128xf32>, tensor<128xf16>
}

// -----

// A C accumulator and alpha stay on the GEMM when drelu fuses.
// CHECK-LABEL: func @drelu_keeps_c_and_alpha
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 c(%arg3) aux(%arg2) epilogue = drelu {alpha = 5.000000e-01 : f32, transpose_b}
// CHECK-NEXT: return %[[D]]
func.func @drelu_keeps_c_and_alpha(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf16>, %r: tensor<32x128xf16>) -> tensor<32x128xf16> {
  %half = arith.constant dense<0.5> : tensor<f16>
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf16>
  %1 = nn.mul %0, %half : (tensor<32x128xf16>, tensor<f16>) -> tensor<32x128xf16>
  %2 = nn.add %1, %r : (tensor<32x128xf16>, tensor<32x128xf16>) -> tensor<32x128xf16>
  %3 = nn.relu_grad %2, %h : tensor<32x128xf16>
  return %3 : tensor<32x128xf16>
}

// -----

// Attention's backward: the scale of the scores' gradient moves through
// nn.softmax_grad into the GEMM of its output gradient (dP = dO @ V^T), and
// the mul is gone; either operand order.
// CHECK-LABEL: func @softmax_grad_scale
// CHECK-SAME: (%[[DO:[a-z0-9]+]]: tensor<2x4x16x8xf16>, %[[V:[a-z0-9]+]]: tensor<2x4x16x8xf16>, %[[P:[a-z0-9]+]]: tensor<2x4x16x16xf32>)
// CHECK-NEXT: %[[DP:.*]] = amp.gemm %[[DO]], %[[V]] {alpha = 1.250000e-01 : f32, transpose_b} : (tensor<2x4x16x8xf16>, tensor<2x4x16x8xf16>) -> tensor<2x4x16x16xf32>
// CHECK-NEXT: %[[DS:.*]] = nn.softmax_grad %[[DP]], %[[P]] : tensor<2x4x16x16xf32>
// CHECK-NEXT: %[[DP2:.*]] = amp.gemm %[[DO]], %[[V]] {alpha = -5.000000e-01 : f32, transpose_b}
// CHECK-NEXT: %[[DS2:.*]] = nn.softmax_grad %[[DP2]], %[[P]] : tensor<2x4x16x16xf32>
// CHECK-NEXT: return %[[DS]], %[[DS2]]
func.func @softmax_grad_scale(%do: tensor<2x4x16x8xf16>, %v: tensor<2x4x16x8xf16>, %p: tensor<2x4x16x16xf32>) -> (tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>) {
  %cst = arith.constant dense<1.250000e-01> : tensor<f32>
  %0 = nn.matmul %do, %v {transpose_b} : (tensor<2x4x16x8xf16>, tensor<2x4x16x8xf16>) -> tensor<2x4x16x16xf32>
  %1 = nn.softmax_grad %0, %p : tensor<2x4x16x16xf32>
  %2 = nn.mul %1, %cst : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
  %m = arith.constant dense<-5.000000e-01> : tensor<f32>
  %3 = nn.matmul %do, %v {transpose_b} : (tensor<2x4x16x8xf16>, tensor<2x4x16x8xf16>) -> tensor<2x4x16x16xf32>
  %4 = nn.softmax_grad %3, %p : tensor<2x4x16x16xf32>
  %5 = nn.mul %m, %4 : (tensor<f32>, tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  return %2, %5 : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32>
}

// -----

// Not moved: the unscaled gradient has another user; the GEMM's result
// has another user; the GEMM already has a bias; the factor is no splat.
// CHECK-LABEL: func @softmax_grad_scale_not_moved
// CHECK: amp.gemm %arg0, %arg1 {transpose_b}
// CHECK-NEXT: nn.softmax_grad
// CHECK-NEXT: nn.mul
// CHECK-NEXT: amp.gemm %arg0, %arg1 {transpose_b}
// CHECK-NEXT: nn.softmax_grad
// CHECK-NEXT: nn.mul
// CHECK-NEXT: amp.gemm %arg0, %arg1 bias(%arg3) epilogue = bias {transpose_b}
// CHECK-NEXT: nn.softmax_grad
// CHECK-NEXT: nn.mul
// CHECK-NEXT: amp.gemm %arg0, %arg1 {transpose_b}
// CHECK-NEXT: nn.softmax_grad
// CHECK-NEXT: nn.mul
// CHECK-NEXT: return
func.func @softmax_grad_scale_not_moved(%do: tensor<4x8xf16>, %v: tensor<4x8xf16>, %p: tensor<4x4xf32>, %b: tensor<4xf32>, %t: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %cst = arith.constant dense<1.250000e-01> : tensor<f32>
  %0 = nn.matmul %do, %v {transpose_b} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf32>
  %1 = nn.softmax_grad %0, %p : tensor<4x4xf32>
  %2 = nn.mul %1, %cst : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %3 = nn.matmul %do, %v {transpose_b} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf32>
  %4 = nn.softmax_grad %3, %p : tensor<4x4xf32>
  %5 = nn.mul %4, %cst : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %6 = nn.matmul %do, %v {transpose_b} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf32>
  %7 = nn.add %6, %b : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %8 = nn.softmax_grad %7, %p : tensor<4x4xf32>
  %9 = nn.mul %8, %cst : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  %10 = nn.matmul %do, %v {transpose_b} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x4xf32>
  %11 = nn.softmax_grad %10, %p : tensor<4x4xf32>
  %12 = nn.mul %11, %t : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return %1, %2, %3, %5, %9, %12 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
