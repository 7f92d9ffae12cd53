// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt | FileCheck %s --check-prefix=DEFAULT
// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt=f32-gemm=true | FileCheck %s --check-prefix=F32
// RUN: amp-opt %s -split-input-file --amp-lower-matmul-to-cublaslt=bgrad-through-cast=true | FileCheck %s --check-prefix=CAST

// f32-gemm=true lowers f32 matmuls to an f32 GEMM and fuses their
// epilogues like the low-precision ones.
// DEFAULT-LABEL: func @f32_layer
// DEFAULT-NOT: amp.gemm
// F32-LABEL: func @f32_layer
// F32-NEXT: %[[A:.*]] = amp.gemm %arg0, %arg1 bias(%arg2) epilogue = relu_bias : (tensor<32x64xf32>, tensor<64x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
// F32-NEXT: %[[DH:.*]] = amp.gemm %arg3, %arg4 aux(%[[A]]) epilogue = drelu {transpose_b}
// F32-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg0, %[[DH]] epilogue = bgradb {transpose_a} : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>, bias_grad tensor<128xf32>
// F32-NEXT: return %[[A]], %[[DW]], %[[DB]]
func.func @f32_layer(%x: tensor<32x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>, %da: tensor<32x10xf32>, %w2: tensor<128x10xf32>) -> (tensor<32x128xf32>, tensor<64x128xf32>, tensor<128xf32>) {
  %0 = nn.matmul %x, %w : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %h = nn.add %0, %b : (tensor<32x128xf32>, tensor<128xf32>) -> tensor<32x128xf32>
  %a = nn.relu %h : tensor<32x128xf32>
  %1 = nn.matmul %da, %w2 {transpose_b} : (tensor<32x10xf32>, tensor<128x10xf32>) -> tensor<32x128xf32>
  %dh = nn.relu_grad %1, %h : tensor<32x128xf32>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf32>) -> tensor<128xf32>
  return %a, %dw, %db : tensor<32x128xf32>, tensor<64x128xf32>, tensor<128xf32>
}

// -----

// An f32 weight-gradient matmul reads the drelu result. Left alone by
// default, it cannot take the bias gradient, so drelu_bgrad does; lowered
// with f32-gemm, it takes it as bgradb.
// DEFAULT-LABEL: func @f32_weight_grad
// DEFAULT-NEXT: %[[DH:.*]], %[[DB:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = drelu_bgrad {transpose_b}
// DEFAULT-NEXT: %[[DW:.*]] = nn.matmul %arg3, %[[DH]] {transpose_a}
// DEFAULT-NEXT: return %[[DW]], %[[DB]]
// F32-LABEL: func @f32_weight_grad
// F32-NEXT: %[[DH:.*]] = amp.gemm %arg0, %arg1 aux(%arg2) epilogue = drelu {transpose_b}
// F32-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg3, %[[DH]] epilogue = bgradb {transpose_a}
// F32-NEXT: return %[[DW]], %[[DB]]
func.func @f32_weight_grad(%dy: tensor<32x10xf16>, %w: tensor<128x10xf16>, %h: tensor<32x128xf32>, %x: tensor<32x64xf32>) -> (tensor<64x128xf32>, tensor<128xf32>) {
  %0 = nn.matmul %dy, %w {transpose_b} : (tensor<32x10xf16>, tensor<128x10xf16>) -> tensor<32x128xf32>
  %dh = nn.relu_grad %0, %h : tensor<32x128xf32>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<32x64xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dh [0] : (tensor<32x128xf32>) -> tensor<128xf32>
  return %dw, %db : tensor<64x128xf32>, tensor<128xf32>
}

// -----

// bgrad-through-cast=true: the sum of the f32 gradient fuses into the GEMM
// that reads its f16 cast (the sum then adds the f16 values).
// DEFAULT-LABEL: func @through_cast
// DEFAULT: nn.reduce_sum
// CAST-LABEL: func @through_cast
// CAST-NEXT: %[[DY:.*]] = amp.cast %arg1 : tensor<32x128xf32> to tensor<32x128xf16>
// CAST-NEXT: %[[DW:.*]], %[[DB:.*]] = amp.gemm %arg0, %[[DY]] epilogue = bgradb {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>, bias_grad tensor<128xf32>
// CAST-NEXT: return %[[DW]], %[[DB]]
func.func @through_cast(%x: tensor<32x64xf16>, %dy32: tensor<32x128xf32>) -> (tensor<64x128xf32>, tensor<128xf32>) {
  %dy = amp.cast %dy32 : tensor<32x128xf32> to tensor<32x128xf16>
  %dw = nn.matmul %x, %dy {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dy32 [0] : (tensor<32x128xf32>) -> tensor<128xf32>
  return %dw, %db : tensor<64x128xf32>, tensor<128xf32>
}

// -----

// A cast from another low-precision type is not looked through.
// CAST-LABEL: func @through_cast_not_f32
// CAST: nn.reduce_sum
func.func @through_cast_not_f32(%x: tensor<32x64xf16>, %dyb: tensor<32x128xbf16>) -> (tensor<64x128xf32>, tensor<128xf32>) {
  %dy = amp.cast %dyb : tensor<32x128xbf16> to tensor<32x128xf16>
  %dw = nn.matmul %x, %dy {transpose_a} : (tensor<32x64xf16>, tensor<32x128xf16>) -> tensor<64x128xf32>
  %db = nn.reduce_sum %dyb [0] : (tensor<32x128xbf16>) -> tensor<128xf32>
  return %dw, %db : tensor<64x128xf32>, tensor<128xf32>
}
