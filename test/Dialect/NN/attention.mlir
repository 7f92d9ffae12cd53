// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt %s --mlir-print-op-generic | amp-opt | FileCheck %s
// RUN: amp-opt %s -emit-bytecode | amp-opt | FileCheck %s

// nn.attention and nn.attention_grad: every operand and attribute form
// round-trips through the custom form, the generic form and bytecode.

// CHECK-LABEL: func.func @attention_plain(
// CHECK:         %{{.*}}, %{{.*}} = nn.attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x8x16xf16>, tensor<2x12x16xf16>, tensor<2x12x32xf16>) -> (tensor<2x8x32xf16>, tensor<2x8xf32>)
func.func @attention_plain(%q: tensor<2x8x16xf16>, %k: tensor<2x12x16xf16>, %v: tensor<2x12x32xf16>) -> tensor<2x8x32xf16> {
  %o, %lse = nn.attention %q, %k, %v : (tensor<2x8x16xf16>, tensor<2x12x16xf16>, tensor<2x12x32xf16>) -> (tensor<2x8x32xf16>, tensor<2x8xf32>)
  return %o : tensor<2x8x32xf16>
}

// CHECK-LABEL: func.func @attention_mask_scale_causal(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} {causal, scale = 1.250000e-01 : f32} : (tensor<2x4x8x64xbf16>, tensor<2x4x8x64xbf16>, tensor<2x4x8x64xbf16>, tensor<2x1x1x8xf32>) -> (tensor<2x4x8x64xbf16>, tensor<2x4x8xf32>)
func.func @attention_mask_scale_causal(%q: tensor<2x4x8x64xbf16>, %m: tensor<2x1x1x8xf32>) -> tensor<2x4x8x64xbf16> {
  %o, %lse = nn.attention %q, %q, %q mask %m {causal, scale = 0.125 : f32} : (tensor<2x4x8x64xbf16>, tensor<2x4x8x64xbf16>, tensor<2x4x8x64xbf16>, tensor<2x1x1x8xf32>) -> (tensor<2x4x8x64xbf16>, tensor<2x4x8xf32>)
  return %o : tensor<2x4x8x64xbf16>
}

// A mask of lower rank broadcasts from the end; one of the query's type.
// CHECK-LABEL: func.func @attention_low_rank_mask(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} : (tensor<3x5x4xf16>, tensor<3x6x4xf16>, tensor<3x6x4xf16>, tensor<5x6xf16>)
func.func @attention_low_rank_mask(%q: tensor<3x5x4xf16>, %k: tensor<3x6x4xf16>, %m: tensor<5x6xf16>) -> tensor<3x5x4xf16> {
  %o, %lse = nn.attention %q, %k, %k mask %m : (tensor<3x5x4xf16>, tensor<3x6x4xf16>, tensor<3x6x4xf16>, tensor<5x6xf16>) -> (tensor<3x5x4xf16>, tensor<3x5xf32>)
  return %o : tensor<3x5x4xf16>
}

// Dropout of the probabilities, with a mask: both optional operands.
// CHECK-LABEL: func.func @attention_mask_dropout(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} dropout %{{.*}} {dropout_rate = 1.000000e-01 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x1x8xf32>, tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8xf32>)
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} dropout %{{.*}} {causal, dropout_rate = 5.000000e-01 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8xf32>)
// CHECK:         nn.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} dropout %{{.*}} {dropout_rate = 1.000000e-01 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8xf32>, tensor<2x1x8xf32>, tensor<i64>)
func.func @attention_mask_dropout(%q: tensor<2x8x16xf16>, %m: tensor<2x1x8xf32>, %seed: tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>) {
  %o, %lse = nn.attention %q, %q, %q mask %m dropout %seed {dropout_rate = 0.1 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x1x8xf32>, tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8xf32>)
  %o2, %lse2 = nn.attention %q, %q, %q dropout %seed {causal, dropout_rate = 0.5 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8xf32>)
  %dq, %dk, %dv = nn.attention_grad %o, %q, %q, %q, %o, %lse mask %m dropout %seed {dropout_rate = 0.1 : f32} : (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8xf32>, tensor<2x1x8xf32>, tensor<i64>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>)
  return %o2, %dq, %dv : tensor<2x8x16xf16>, tensor<2x8x16xf16>, tensor<2x8x16xf16>
}

// CHECK-LABEL: func.func @attention_grad(
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}} = nn.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} {causal, scale = 5.000000e-01 : f32} : (tensor<4x3xf32>, tensor<4x2xf32>, tensor<6x2xf32>, tensor<6x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<6x2xf32>, tensor<6x3xf32>)
func.func @attention_grad(%dy: tensor<4x3xf32>, %q: tensor<4x2xf32>, %k: tensor<6x2xf32>, %v: tensor<6x3xf32>,
                          %o: tensor<4x3xf32>, %lse: tensor<4xf32>, %m: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %dq, %dk, %dv = nn.attention_grad %dy, %q, %k, %v, %o, %lse mask %m {causal, scale = 0.5 : f32} : (tensor<4x3xf32>, tensor<4x2xf32>, tensor<6x2xf32>, tensor<6x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4x6xf32>) -> (tensor<4x2xf32>, tensor<6x2xf32>, tensor<6x3xf32>)
  return %dq : tensor<4x2xf32>
}
