// RUN: amp-opt %s | FileCheck %s
// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt %s --mlir-print-op-generic | amp-opt | FileCheck %s

// amp.gemm in every epilogue and batch form prints back as it was written;
// the defaults (epilogue none, alpha 1, beta 1) are not printed.

// CHECK-LABEL: func @plain
// CHECK-NEXT: amp.gemm %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT: amp.gemm %{{.*}}, %{{.*}} {transpose_a, transpose_b} : (tensor<8x4xbf16>, tensor<16x8xbf16>) -> tensor<4x16xf32>
// CHECK-NEXT: amp.gemm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @plain(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %at: tensor<8x4xbf16>, %bt: tensor<16x8xbf16>, %a32: tensor<4x8xf32>, %b32: tensor<8x16xf32>) -> (tensor<4x16xf16>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = amp.gemm %a, %b epilogue = none {alpha = 1.0 : f32} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %1 = amp.gemm %at, %bt {transpose_a, transpose_b} : (tensor<8x4xbf16>, tensor<16x8xbf16>) -> tensor<4x16xf32>
  %2 = amp.gemm %a32, %b32 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0, %1, %2 : tensor<4x16xf16>, tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func @forward
// CHECK-NEXT: amp.gemm %[[A:.*]], %[[B:.*]] bias(%[[BIAS:.*]]) epilogue = bias :
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] epilogue = relu :
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] bias(%[[BIAS]]) epilogue = relu_bias :
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] epilogue = gelu :
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] bias(%[[BIAS]]) epilogue = gelu_bias :
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] epilogue = gelu_aux : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>, aux_out tensor<4x16xf16>
// CHECK-NEXT: amp.gemm %[[A]], %[[B]] bias(%[[BIAS]]) epilogue = gelu_aux_bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>, aux_out tensor<4x16xf16>
func.func @forward(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %bias: tensor<16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) {
  %0 = amp.gemm %a, %b bias(%bias) epilogue = bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  %1 = amp.gemm %a, %b epilogue = relu : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %2 = amp.gemm %a, %b bias(%bias) epilogue = relu_bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  %3 = amp.gemm %a, %b epilogue = gelu : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  %4 = amp.gemm %a, %b bias(%bias) epilogue = gelu_bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>
  %5, %p5 = amp.gemm %a, %b epilogue = gelu_aux : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>, aux_out tensor<4x16xf16>
  %6, %p6 = amp.gemm %a, %b bias(%bias) epilogue = gelu_aux_bias : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf16>) -> tensor<4x16xf16>, aux_out tensor<4x16xf16>
  return %0, %1, %2, %3, %4, %5, %p5, %6, %p6 : tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>
}

// CHECK-LABEL: func @backward
// CHECK-NEXT: amp.gemm %[[DY:.*]], %[[W:.*]] aux(%[[H:.*]]) epilogue = drelu {transpose_b} :
// CHECK-NEXT: amp.gemm %[[DY]], %[[W]] aux(%[[H]]) epilogue = drelu_bgrad {transpose_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, bias_grad tensor<8xf32>
// CHECK-NEXT: amp.gemm %[[DY]], %[[W]] aux(%[[H]]) epilogue = dgelu {transpose_b} :
// CHECK-NEXT: amp.gemm %[[DY]], %[[W]] aux(%[[H]]) epilogue = dgelu_bgrad {transpose_b} :
// CHECK-NEXT: amp.gemm %[[DY]], %[[X:.*]] epilogue = bgrada {transpose_a} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>, bias_grad tensor<16xf32>
// CHECK-NEXT: amp.gemm %[[X]], %[[DY]] epilogue = bgradb {transpose_a} : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>, bias_grad tensor<16xf32>
func.func @backward(%dy: tensor<4x16xf32>, %w: tensor<8x16xf32>, %h: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<16xf32>) {
  %0 = amp.gemm %dy, %w aux(%h) epilogue = drelu {transpose_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1, %g1 = amp.gemm %dy, %w aux(%h) epilogue = drelu_bgrad {transpose_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, bias_grad tensor<8xf32>
  %2 = amp.gemm %dy, %w aux(%h) epilogue = dgelu {transpose_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3, %g3 = amp.gemm %dy, %w aux(%h) epilogue = dgelu_bgrad {transpose_b} : (tensor<4x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, bias_grad tensor<8xf32>
  %4, %g4 = amp.gemm %dy, %x epilogue = bgrada {transpose_a} : (tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<16x8xf32>, bias_grad tensor<16xf32>
  %5, %g5 = amp.gemm %x, %dy epilogue = bgradb {transpose_a} : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>, bias_grad tensor<16xf32>
  return %0, %1, %g1, %2, %3, %g3, %4, %g4, %5, %g5 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<16x8xf32>, tensor<16xf32>, tensor<8x16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func @scalars_and_c
// CHECK-NEXT: amp.gemm %{{.*}}, %{{.*}} c(%{{.*}}) : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: amp.gemm %{{.*}}, %{{.*}} bias(%{{.*}}) c(%{{.*}}) epilogue = relu_bias {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32} :
func.func @scalars_and_c(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>, %bias: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = amp.gemm %a, %b c(%c) {beta = 1.0 : f32} : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = amp.gemm %a, %b bias(%bias) c(%c) epilogue = relu_bias {alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<4x16xf32>
}

// Batch forms: one matrix per batch, a broadcast 2-D weight (flattened to
// one GEMM when a is not transposed), a broadcast 2-D activation, and
// leading dims of 1.
// CHECK-LABEL: func @batches
// CHECK-NEXT: amp.gemm {{.*}} : (tensor<2x3x4x8xbf16>, tensor<2x3x8x16xbf16>) -> tensor<2x3x4x16xbf16>
// CHECK-NEXT: amp.gemm {{.*}} : (tensor<2x4x8xbf16>, tensor<8x16xbf16>) -> tensor<2x4x16xbf16>
// CHECK-NEXT: amp.gemm {{.*}} {transpose_a} : (tensor<2x8x4xbf16>, tensor<8x16xbf16>) -> tensor<2x4x16xbf16>
// CHECK-NEXT: amp.gemm {{.*}} : (tensor<4x8xbf16>, tensor<2x8x16xbf16>) -> tensor<2x4x16xbf16>
// CHECK-NEXT: amp.gemm {{.*}} : (tensor<1x6x4x8xbf16>, tensor<6x8x16xbf16>) -> tensor<1x6x4x16xbf16>
func.func @batches(%a4: tensor<2x3x4x8xbf16>, %b4: tensor<2x3x8x16xbf16>, %a3: tensor<2x4x8xbf16>, %a3t: tensor<2x8x4xbf16>, %w: tensor<8x16xbf16>, %a2: tensor<4x8xbf16>, %b3: tensor<2x8x16xbf16>, %a1: tensor<1x6x4x8xbf16>, %b6: tensor<6x8x16xbf16>) -> (tensor<2x3x4x16xbf16>, tensor<2x4x16xbf16>, tensor<2x4x16xbf16>, tensor<2x4x16xbf16>, tensor<1x6x4x16xbf16>) {
  %0 = amp.gemm %a4, %b4 : (tensor<2x3x4x8xbf16>, tensor<2x3x8x16xbf16>) -> tensor<2x3x4x16xbf16>
  %1 = amp.gemm %a3, %w : (tensor<2x4x8xbf16>, tensor<8x16xbf16>) -> tensor<2x4x16xbf16>
  %2 = amp.gemm %a3t, %w {transpose_a} : (tensor<2x8x4xbf16>, tensor<8x16xbf16>) -> tensor<2x4x16xbf16>
  %3 = amp.gemm %a2, %b3 : (tensor<4x8xbf16>, tensor<2x8x16xbf16>) -> tensor<2x4x16xbf16>
  %4 = amp.gemm %a1, %b6 : (tensor<1x6x4x8xbf16>, tensor<6x8x16xbf16>) -> tensor<1x6x4x16xbf16>
  return %0, %1, %2, %3, %4 : tensor<2x3x4x16xbf16>, tensor<2x4x16xbf16>, tensor<2x4x16xbf16>, tensor<2x4x16xbf16>, tensor<1x6x4x16xbf16>
}
