// RUN: amp-opt %s -split-input-file -verify-diagnostics

// One case per verifier (and parser) error of amp.gemm: the runtime's dtype
// combinations, shapes and batch strides, and which operands and results
// each epilogue has.

func.func @rank1(%a: tensor<8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op operands a and b must have rank >= 2, got 'tensor<8xf16>' and 'tensor<8x4xf16>'}}
  %d = amp.gemm %a, %b : (tensor<8xf16>, tensor<8x4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @mixed_operands(%a: tensor<4x8xf16>, %b: tensor<8x4xbf16>) {
  // expected-error @+1 {{'amp.gemm' op a and b must have one element type, got 'f16' and 'bf16'}}
  %d = amp.gemm %a, %b : (tensor<4x8xf16>, tensor<8x4xbf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @bf16_to_f16(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>) {
  // expected-error @+1 {{'amp.gemm' op result element type must be 'bf16' or 'f32' for 'bf16' operands, got 'f16'}}
  %d = amp.gemm %a, %b : (tensor<4x8xbf16>, tensor<8x4xbf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @f32_to_f16(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'amp.gemm' op result element type must be 'f32' for 'f32' operands, got 'f16'}}
  %d = amp.gemm %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf16>
  return
}

// -----

func.func @contraction(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) {
  // expected-error @+1 {{'amp.gemm' op op(a) is 4x8 and op(b) is 4x8: the contraction dimensions differ}}
  %d = amp.gemm %a, %b : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @batch_broadcast(%a: tensor<2x4x8xf16>, %b: tensor<3x8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op batch dimensions 2 and 3 do not broadcast}}
  %d = amp.gemm %a, %b : (tensor<2x4x8xf16>, tensor<3x8x4xf16>) -> tensor<2x4x4xf16>
  return
}

// -----

func.func @result_shape(%a: tensor<4x8xf16>, %b: tensor<16x8xf16>) {
  // expected-error @+1 {{'amp.gemm' op result must have shape 4x16, got 4x8}}
  %d = amp.gemm %a, %b {transpose_b} : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

func.func @empty(%a: tensor<4x0xf16>, %b: tensor<0x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op dimensions must be >= 1: the runtime GEMM has no empty case}}
  %d = amp.gemm %a, %b : (tensor<4x0xf16>, tensor<0x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

// [2,1] and [1,3] broadcast to [2,3], but a batch index b = 3i + j does not
// address a with one stride.
func.func @batch_stride(%a: tensor<2x1x4x8xf16>, %b: tensor<1x3x8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op operand a holds 2 matrices but the result holds 6: with one batch stride per operand, an operand holds one matrix or one per batch (broadcast it with nn.broadcast_to)}}
  %d = amp.gemm %a, %b : (tensor<2x1x4x8xf16>, tensor<1x3x8x4xf16>) -> tensor<2x3x4x4xf16>
  return
}

// -----

func.func @bias_missing(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue relu_bias needs a bias}}
  %d = amp.gemm %a, %b epilogue = relu_bias : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @bias_unused(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %bias: tensor<4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue relu takes no bias}}
  %d = amp.gemm %a, %b bias(%bias) epilogue = relu : (tensor<4x8xf16>, tensor<8x4xf16>, tensor<4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @bias_length(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %bias: tensor<4xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias must be 'tensor<16xf16>' (length N, the result's element type), got 'tensor<4xf16>'}}
  %d = amp.gemm %a, %b bias(%bias) epilogue = bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4xf16>) -> tensor<4x16xf16>
  return
}

// -----

func.func @bias_type(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %bias: tensor<16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias must be 'tensor<16xf32>' (length N, the result's element type), got 'tensor<16xf16>'}}
  %d = amp.gemm %a, %b bias(%bias) epilogue = bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf32>
  return
}

// -----

// The bias is one vector for every row (and batch).
func.func @bias_2d(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %bias: tensor<1x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias must be 'tensor<16xf16>' (length N, the result's element type), got 'tensor<1x16xf16>'}}
  %d = amp.gemm %a, %b bias(%bias) epilogue = bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
  return
}

// -----

func.func @aux_missing(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue dgelu needs an aux input}}
  %d = amp.gemm %a, %b epilogue = dgelu : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @aux_unused(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %x: tensor<4x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue none takes no aux input}}
  %d = amp.gemm %a, %b aux(%x) : (tensor<4x8xf16>, tensor<8x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @aux_type(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %x: tensor<4x4xf32>) {
  // expected-error @+1 {{'amp.gemm' op aux must have the result type 'tensor<4x4xf16>', got 'tensor<4x4xf32>'}}
  %d = amp.gemm %a, %b aux(%x) epilogue = drelu : (tensor<4x8xf16>, tensor<8x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf16>
  return
}

// -----

func.func @aux_out_missing(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue gelu_aux needs an aux_out result}}
  %d = amp.gemm %a, %b epilogue = gelu_aux : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @aux_out_unused(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue gelu has no aux_out result}}
  %d, %pre = amp.gemm %a, %b epilogue = gelu : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>, aux_out tensor<4x4xf16>
  return
}

// -----

func.func @aux_out_type(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op aux_out must have the result type 'tensor<4x4xf32>', got 'tensor<4x4xf16>'}}
  %d, %pre = amp.gemm %a, %b epilogue = gelu_aux : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf32>, aux_out tensor<4x4xf16>
  return
}

// -----

func.func @c_type(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op c must have the result type 'tensor<4x4xf32>', got 'tensor<4x4xf16>'}}
  %d = amp.gemm %a, %b c(%c) : (tensor<4x8xf16>, tensor<8x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @beta_zero(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op beta = 0 would ignore c; drop the c operand}}
  %d = amp.gemm %a, %b c(%c) {beta = 0.0 : f32} : (tensor<4x8xf16>, tensor<8x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @beta_without_c(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op beta scales c, but there is no c operand}}
  %d = amp.gemm %a, %b {beta = 2.0 : f32} : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

// 0x7F800000 is +inf.
func.func @alpha_inf(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'amp.gemm' op alpha and beta must be finite}}
  %d = amp.gemm %a, %b {alpha = 0x7F800000 : f32} : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @bias_grad_missing(%a: tensor<4x8xf16>, %b: tensor<4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue bgradb needs a bias_grad result}}
  %d = amp.gemm %a, %b epilogue = bgradb {transpose_a} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<8x16xf32>
  return
}

// -----

func.func @bias_grad_unused(%a: tensor<4x8xf16>, %b: tensor<4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue none has no bias_grad result}}
  %d, %g = amp.gemm %a, %b {transpose_a} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<8x16xf32>, bias_grad tensor<16xf32>
  return
}

// -----

func.func @bias_grad_length(%a: tensor<4x8xf16>, %b: tensor<4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias_grad must be 'tensor<8xf32>' (length M, the result's element type), got 'tensor<16xf32>'}}
  %d, %g = amp.gemm %a, %b epilogue = bgrada {transpose_a} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<8x16xf32>, bias_grad tensor<16xf32>
  return
}

// -----

func.func @bias_grad_type(%a: tensor<4x8xf16>, %b: tensor<4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias_grad must be 'tensor<16xf32>' (length N, the result's element type), got 'tensor<16xf16>'}}
  %d, %g = amp.gemm %a, %b epilogue = bgradb {transpose_a} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<8x16xf32>, bias_grad tensor<16xf16>
  return
}

// -----

// The pass only fuses bias gradients of single GEMMs.
func.func @bias_grad_batched(%a: tensor<2x4x8xf16>, %b: tensor<2x4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op epilogue bgradb needs a single GEMM (batch_count 1), got 2 batches}}
  %d, %g = amp.gemm %a, %b epilogue = bgradb {transpose_a} : (tensor<2x4x8xf16>, tensor<2x4x16xf16>) -> tensor<2x8x16xf32>, bias_grad tensor<16xf32>
  return
}

// -----

// A 2x4x8 activation times a 2-D weight is one 8-row GEMM (getLayout), so
// drelu_bgrad is legal and sums into N = 16 columns.
func.func @bias_grad_flattened(%a: tensor<2x4x8xf16>, %b: tensor<8x16xf16>, %x: tensor<2x4x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias_grad must be 'tensor<16xf16>' (length N, the result's element type), got 'tensor<8xf16>'}}
  %d, %g = amp.gemm %a, %b aux(%x) epilogue = drelu_bgrad : (tensor<2x4x8xf16>, tensor<8x16xf16>, tensor<2x4x16xf16>) -> tensor<2x4x16xf16>, bias_grad tensor<8xf16>
  return
}

// -----

// ... and bgrada sums op(a) over K into M = 2 * 4 = 8 rows.
func.func @bias_grad_flattened_bgrada(%a: tensor<2x4x8xf16>, %b: tensor<8x16xf16>) {
  // expected-error @+1 {{'amp.gemm' op bias_grad must be 'tensor<8xf16>' (length M, the result's element type), got 'tensor<4xf16>'}}
  %d, %g = amp.gemm %a, %b epilogue = bgrada : (tensor<2x4x8xf16>, tensor<8x16xf16>) -> tensor<2x4x16xf16>, bias_grad tensor<4xf16>
  return
}

// -----

func.func @unknown_epilogue(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{custom op 'amp.gemm' expected string or keyword containing one of the following enum values for attribute 'epilogue' [none, bias, relu, relu_bias, gelu, gelu_bias, gelu_aux, gelu_aux_bias, drelu, drelu_bgrad, dgelu, dgelu_bgrad, bgrada, bgradb]}}
  %d = amp.gemm %a, %b epilogue = silu : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>
  return
}

// -----

func.func @unknown_extra_result(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{custom op 'amp.gemm' expected 'aux_out' or 'bias_grad'}}
  %d, %g = amp.gemm %a, %b : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>, aux tensor<4x4xf16>
  return
}

// -----

func.func @extra_result_twice(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{custom op 'amp.gemm' 'aux_out' given twice}}
  %d, %g, %h = amp.gemm %a, %b epilogue = gelu_aux : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<4x4xf16>, aux_out tensor<4x4xf16>, aux_out tensor<4x4xf16>
  return
}
