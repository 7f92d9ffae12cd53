// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt | FileCheck %s

// Forward epilogues: bias, relu, gelu (with the pre-activation kept for
// backward when something else reads it), a C accumulator and alpha.

// CHECK-LABEL: func @bias
// CHECK-SAME: (%[[X:.*]]: tensor<32x64xf16>, %[[W:.*]]: tensor<64x128xf16>, %[[B:.*]]: tensor<128xf16>)
// CHECK-NEXT: %[[D:.*]] = amp.gemm %[[X]], %[[W]] bias(%[[B]]) epilogue = bias : (tensor<32x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
// CHECK-NEXT: return %[[D]]
func.func @bias(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// The bias may be the first operand of the add.
// CHECK-LABEL: func @bias_first
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = bias {transpose_b}
// CHECK-NEXT: return %[[D]]
func.func @bias_first(%x: tensor<32x64xf16>, %w: tensor<128x64xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w {transpose_b} : (tensor<32x64xf16>, tensor<128x64xf16>) -> tensor<32x128xf16>
  %1 = nn.add %b, %0 : (tensor<128xf16>, tensor<32x128xf16>) -> tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// An f32 result takes an f32 bias (f16 -> f32 is a runtime combination).
// CHECK-LABEL: func @bias_f32_result
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = bias : (tensor<32x64xf16>, tensor<64x10xf16>, tensor<10xf32>) -> tensor<32x10xf32>
// CHECK-NEXT: return %[[D]]
func.func @bias_f32_result(%x: tensor<32x64xf16>, %w: tensor<64x10xf16>, %b: tensor<10xf32>) -> tensor<32x10xf32> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x10xf16>) -> tensor<32x10xf32>
  %1 = nn.add %0, %b : (tensor<32x10xf32>, tensor<10xf32>) -> tensor<32x10xf32>
  return %1 : tensor<32x10xf32>
}

// -----

// A rank-3 activation: the bias applies to every row of every batch.
// CHECK-LABEL: func @bias_rank3
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = bias : (tensor<2x16x64xbf16>, tensor<64x128xbf16>, tensor<128xbf16>) -> tensor<2x16x128xbf16>
// CHECK-NEXT: return %[[D]]
func.func @bias_rank3(%x: tensor<2x16x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<128xbf16>) -> tensor<2x16x128xbf16> {
  %0 = nn.matmul %x, %w : (tensor<2x16x64xbf16>, tensor<64x128xbf16>) -> tensor<2x16x128xbf16>
  %1 = nn.add %0, %b : (tensor<2x16x128xbf16>, tensor<128xbf16>) -> tensor<2x16x128xbf16>
  return %1 : tensor<2x16x128xbf16>
}

// -----

// A bias defined between the matmul and the add: the fused GEMM goes where
// the add was.
// CHECK-LABEL: func @bias_defined_late
// CHECK-NEXT: %[[B:.*]] = amp.cast %arg2
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%[[B]]) epilogue = bias
// CHECK-NEXT: return %[[D]]
func.func @bias_defined_late(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b32: tensor<128xf32>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %b = amp.cast %b32 : tensor<128xf32> to tensor<128xf16>
  %1 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// CHECK-LABEL: func @relu
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 epilogue = relu :
// CHECK-NEXT: return %[[D]]
func.func @relu(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.relu %0 : tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// CHECK-LABEL: func @relu_bias
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = relu_bias :
// CHECK-NEXT: return %[[D]]
func.func @relu_bias(%x: tensor<32x64xbf16>, %w: tensor<64x128xbf16>, %b: tensor<128xbf16>) -> tensor<32x128xbf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
  %1 = nn.add %0, %b : (tensor<32x128xbf16>, tensor<128xbf16>) -> tensor<32x128xbf16>
  %2 = nn.relu %1 : tensor<32x128xbf16>
  return %2 : tensor<32x128xbf16>
}

// -----

// The pre-activation also feeds relu_grad, which only tests its sign: it
// reads the ReLU output instead.
// CHECK-LABEL: func @relu_bias_with_relu_grad
// CHECK-SAME: %[[DY:[a-z0-9]+]]: tensor<32x128xf16>)
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = relu_bias :
// CHECK-NEXT: %[[G:.*]] = nn.relu_grad %[[DY]], %[[D]] : tensor<32x128xf16>
// CHECK-NEXT: return %[[D]], %[[G]]
func.func @relu_bias_with_relu_grad(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>, %dy: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %h = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %a = nn.relu %h : tensor<32x128xf16>
  %g = nn.relu_grad %dy, %h : tensor<32x128xf16>
  return %a, %g : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// The relu_grad comes before the relu: the fused GEMM stays where the
// matmul was, so it still dominates it.
// CHECK-LABEL: func @relu_grad_before_relu
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 epilogue = relu :
// CHECK-NEXT: %[[G:.*]] = nn.relu_grad %arg2, %[[D]]
// CHECK-NEXT: return %[[D]], %[[G]]
func.func @relu_grad_before_relu(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %dy: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %h = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %g = nn.relu_grad %dy, %h : tensor<32x128xf16>
  %a = nn.relu %h : tensor<32x128xf16>
  return %a, %g : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// CHECK-LABEL: func @gelu
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 epilogue = gelu :
// CHECK-NEXT: return %[[D]]
func.func @gelu(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.gelu %0 : tensor<32x128xf16>
  return %1 : tensor<32x128xf16>
}

// -----

// CHECK-LABEL: func @gelu_bias
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = gelu_bias : (tensor<32x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
// CHECK-NEXT: return %[[D]]
func.func @gelu_bias(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>) -> tensor<32x128xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %1 = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %2 = nn.gelu %1 : tensor<32x128xf16>
  return %2 : tensor<32x128xf16>
}

// -----

// Backward needs the pre-activation: gelu_aux_bias writes it as aux_out,
// which gelu_grad reads.
// CHECK-LABEL: func @gelu_aux_bias
// CHECK-SAME: %[[DY:[a-z0-9]+]]: tensor<32x128xf16>)
// CHECK-NEXT: %[[D:.*]], %[[PRE:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = gelu_aux_bias : (tensor<32x64xf16>, tensor<64x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>, aux_out tensor<32x128xf16>
// CHECK-NEXT: %[[G:.*]] = nn.gelu_grad %[[DY]], %[[PRE]] : tensor<32x128xf16>
// CHECK-NEXT: return %[[D]], %[[G]]
func.func @gelu_aux_bias(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>, %dy: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %h = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %a = nn.gelu %h : tensor<32x128xf16>
  %g = nn.gelu_grad %dy, %h : tensor<32x128xf16>
  return %a, %g : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// The GELU again in the backward pass (nn-recompute's clone, before the
// weight gradient that reads it): the first GELU is fused and writes the
// pre-activation, from which the clone and gelu_grad read it, whichever
// GELU the rewriter visits first.
// CHECK-LABEL: func @gelu_recomputed
// CHECK-SAME: %[[DY:[a-z0-9]+]]: tensor<32x128xf16>)
// CHECK-NEXT: %[[D:.*]], %[[PRE:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = gelu_aux_bias :
// CHECK-NEXT: %[[A:.*]] = nn.gelu %[[PRE]] : tensor<32x128xf16>
// CHECK-NEXT: %[[DW:.*]] = amp.gemm %[[A]], %[[DY]] {transpose_a}
// CHECK-NEXT: %[[G:.*]] = nn.gelu_grad %[[DY]], %[[PRE]] : tensor<32x128xf16>
// CHECK-NEXT: return %[[D]], %[[DW]], %[[G]]
func.func @gelu_recomputed(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>, %b: tensor<128xf16>, %dy: tensor<32x128xf16>) -> (tensor<32x128xf16>, tensor<128x128xf32>, tensor<32x128xf16>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %h = nn.add %0, %b : (tensor<32x128xf16>, tensor<128xf16>) -> tensor<32x128xf16>
  %a = nn.gelu %h : tensor<32x128xf16>
  %a2 = nn.gelu %h : tensor<32x128xf16>
  %dw = nn.matmul %a2, %dy {transpose_a} : (tensor<32x128xf16>, tensor<32x128xf16>) -> tensor<128x128xf32>
  %g = nn.gelu_grad %dy, %h : tensor<32x128xf16>
  return %a, %dw, %g : tensor<32x128xf16>, tensor<128x128xf32>, tensor<32x128xf16>
}

// -----

// Without a bias, and with a user that is not a gradient: any reader of
// the pre-activation can read aux_out.
// CHECK-LABEL: func @gelu_aux
// CHECK-NEXT: %[[D:.*]], %[[PRE:.*]] = amp.gemm %arg0, %arg1 epilogue = gelu_aux :
// CHECK-NEXT: %[[T:.*]] = nn.tanh %[[PRE]]
// CHECK-NEXT: return %[[D]], %[[T]]
func.func @gelu_aux(%x: tensor<32x64xf16>, %w: tensor<64x128xf16>) -> (tensor<32x128xf16>, tensor<32x128xf16>) {
  %h = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x128xf16>) -> tensor<32x128xf16>
  %a = nn.gelu %h : tensor<32x128xf16>
  %t = nn.tanh %h : tensor<32x128xf16>
  return %a, %t : tensor<32x128xf16>, tensor<32x128xf16>
}

// -----

// A residual of the result's type becomes C (beta = 1, not printed).
// CHECK-LABEL: func @residual
// CHECK-SAME: (%[[X:.*]]: tensor<32x64xf16>, %[[W:.*]]: tensor<64x64xf16>, %[[R:.*]]: tensor<32x64xf32>)
// CHECK-NEXT: %[[D:.*]] = amp.gemm %[[X]], %[[W]] c(%[[R]]) : (tensor<32x64xf16>, tensor<64x64xf16>, tensor<32x64xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: return %[[D]]
func.func @residual(%x: tensor<32x64xf16>, %w: tensor<64x64xf16>, %r: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf32>
  %1 = nn.add %r, %0 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}

// -----

// Bias then residual (a transformer block's output projection): both fuse.
// CHECK-LABEL: func @bias_then_residual
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) c(%arg3) epilogue = bias :
// CHECK-NEXT: return %[[D]]
func.func @bias_then_residual(%x: tensor<32x64xf16>, %w: tensor<64x64xf16>, %b: tensor<64xf32>, %r: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf32>
  %1 = nn.add %0, %b : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  %2 = nn.add %r, %1 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}

// -----

// ... and in the other order, and then an activation, which applies to
// T = AB + C + bias.
// CHECK-LABEL: func @residual_bias_relu
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) c(%arg3) epilogue = relu_bias :
// CHECK-NEXT: return %[[D]]
func.func @residual_bias_relu(%x: tensor<32x64xf16>, %w: tensor<64x64xf16>, %b: tensor<64xf16>, %r: tensor<32x64xf16>) -> tensor<32x64xf16> {
  %0 = nn.matmul %x, %w : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf16>
  %1 = nn.add %0, %r : (tensor<32x64xf16>, tensor<32x64xf16>) -> tensor<32x64xf16>
  %2 = nn.add %1, %b : (tensor<32x64xf16>, tensor<64xf16>) -> tensor<32x64xf16>
  %3 = nn.relu %2 : tensor<32x64xf16>
  return %3 : tensor<32x64xf16>
}

// -----

// Sums of GEMMs accumulate in program order: the first GEMM is computed
// alone and each later one takes the running sum as C, so ((d0 + d1) + d2)
// rounds as written.
// CHECK-LABEL: func @accumulate
// CHECK-NEXT: %[[D0:.*]] = amp.gemm %arg0, %arg1 {transpose_b}
// CHECK-NEXT: %[[D1:.*]] = amp.gemm %arg2, %arg3 c(%[[D0]]) {transpose_b}
// CHECK-NEXT: %[[D2:.*]] = amp.gemm %arg4, %arg5 c(%[[D1]]) {transpose_b}
// CHECK-NEXT: return %[[D2]]
func.func @accumulate(%dq: tensor<32x64xf16>, %wq: tensor<64x64xf16>, %dk: tensor<32x64xf16>, %wk: tensor<64x64xf16>, %dv: tensor<32x64xf16>, %wv: tensor<64x64xf16>) -> tensor<32x64xf32> {
  %0 = nn.matmul %dq, %wq {transpose_b} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf32>
  %1 = nn.matmul %dk, %wk {transpose_b} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf32>
  %2 = nn.matmul %dv, %wv {transpose_b} : (tensor<32x64xf16>, tensor<64x64xf16>) -> tensor<32x64xf32>
  %3 = nn.add %0, %1 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %4 = nn.add %3, %2 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %4 : tensor<32x64xf32>
}

// -----

// A splat scale (attention's 1/sqrt(d)) becomes alpha, on batched GEMMs
// too; a bias after it still fuses.
// CHECK-LABEL: func @scale
// CHECK-NEXT: %[[D:.*]] = amp.gemm %arg0, %arg1 {alpha = 2.500000e-01 : f32, transpose_b} : (tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>) -> tensor<2x4x16x16xf32>
// CHECK-NEXT: %[[E:.*]] = amp.gemm %arg2, %arg3 bias(%arg4) epilogue = bias {alpha = -2.000000e+00 : f32}
// CHECK-NEXT: return %[[D]], %[[E]]
func.func @scale(%q: tensor<2x4x16x16xf16>, %k: tensor<2x4x16x16xf16>, %x: tensor<8x16xbf16>, %w: tensor<16x16xbf16>, %b: tensor<16xbf16>) -> (tensor<2x4x16x16xf32>, tensor<8x16xbf16>) {
  %cst = arith.constant dense<2.500000e-01> : tensor<f32>
  %0 = nn.matmul %q, %k {transpose_b} : (tensor<2x4x16x16xf16>, tensor<2x4x16x16xf16>) -> tensor<2x4x16x16xf32>
  %1 = nn.mul %0, %cst : (tensor<2x4x16x16xf32>, tensor<f32>) -> tensor<2x4x16x16xf32>
  %m2 = arith.constant dense<-2.0> : tensor<16xbf16>
  %2 = nn.matmul %x, %w : (tensor<8x16xbf16>, tensor<16x16xbf16>) -> tensor<8x16xbf16>
  %3 = nn.mul %m2, %2 : (tensor<16xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16>
  %4 = nn.add %3, %b : (tensor<8x16xbf16>, tensor<16xbf16>) -> tensor<8x16xbf16>
  return %1, %4 : tensor<2x4x16x16xf32>, tensor<8x16xbf16>
}
