// Gradient checks of nn.attention (through nn.attention_grad, evaluated by
// the f64 interpreter) against central differences: query, key and value,
// with Sq != Sk and D != Dv, an additive broadcast mask, the causal mask, the
// default scale (1/sqrt(D)), self-attention, dropout and grouped-query
// attention. Loss: sum(o * w).
// The tool samples at most 32 elements per param.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @attention_qkv: loss {{.*}}: ok
// CHECK-NEXT:    %q [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %k [2x5x4]: 32 of 40 elements, {{.*}}: ok
// CHECK-NEXT:    %v [2x5x3]: 30 of 30 elements, {{.*}}: ok
func.func @attention_qkv(%q: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                         %k: tensor<2x5x4xf32> {nn.role = #nn.role<param>},
                         %v: tensor<2x5x3xf32> {nn.role = #nn.role<param>},
                         %w: tensor<2x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v {scale = 0.7 : f32} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %ow = nn.mul %o, %w : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %l = nn.reduce_sum %ow [0, 1, 2] : (tensor<2x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @attention_mask: loss {{.*}}: ok
// CHECK-NEXT:    %q [2x2x3x4]: 32 of 48 elements, {{.*}}: ok
// CHECK-NEXT:    %k [2x2x4x4]: 32 of 64 elements, {{.*}}: ok
// CHECK-NEXT:    %v [2x2x4x2]: 32 of 32 elements, {{.*}}: ok
func.func @attention_mask(%q: tensor<2x2x3x4xf32> {nn.role = #nn.role<param>},
                          %k: tensor<2x2x4x4xf32> {nn.role = #nn.role<param>},
                          %v: tensor<2x2x4x2xf32> {nn.role = #nn.role<param>},
                          %m: tensor<2x1x1x4xf32> {nn.role = #nn.role<input>},
                          %w: tensor<2x2x3x2xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v mask %m : (tensor<2x2x3x4xf32>, tensor<2x2x4x4xf32>, tensor<2x2x4x2xf32>, tensor<2x1x1x4xf32>) -> (tensor<2x2x3x2xf32>, tensor<2x2x3xf32>)
  %ow = nn.mul %o, %w : (tensor<2x2x3x2xf32>, tensor<2x2x3x2xf32>) -> tensor<2x2x3x2xf32>
  %l = nn.reduce_sum %ow [0, 1, 2, 3] : (tensor<2x2x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @attention_causal: loss {{.*}}: ok
// CHECK-NEXT:    %q [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %k [4x3]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %v [4x3]: 12 of 12 elements, {{.*}}: ok
func.func @attention_causal(%q: tensor<4x3xf32> {nn.role = #nn.role<param>},
                            %k: tensor<4x3xf32> {nn.role = #nn.role<param>},
                            %v: tensor<4x3xf32> {nn.role = #nn.role<param>},
                            %w: tensor<4x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v {causal} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>)
  %ow = nn.mul %o, %w : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %l = nn.reduce_sum %ow [0, 1] : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// One input feeds query, key and value (self-attention): its gradient is
// the sum of the three.
// CHECK-LABEL: @attention_self: loss {{.*}}: ok
// CHECK-NEXT:    %x [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @attention_self(%x: tensor<3x4xf32> {nn.role = #nn.role<param>},
                          %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %x, %x, %x : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
  %ow = nn.mul %o, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %ow [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Dropout of the probabilities (rate 0.5, a constant seed: amp-grad-check
// keeps the seed's mask): the gradient drops with the forward's mask.
// CHECK-LABEL: @attention_dropout: loss {{.*}}: ok
// CHECK-NEXT:    %q [2x3x4]: 24 of 24 elements, {{.*}}: ok
// CHECK-NEXT:    %k [2x5x4]: 32 of 40 elements, {{.*}}: ok
// CHECK-NEXT:    %v [2x5x3]: 30 of 30 elements, {{.*}}: ok
func.func @attention_dropout(%q: tensor<2x3x4xf32> {nn.role = #nn.role<param>},
                             %k: tensor<2x5x4xf32> {nn.role = #nn.role<param>},
                             %v: tensor<2x5x3xf32> {nn.role = #nn.role<param>},
                             %w: tensor<2x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %seed = arith.constant dense<31> : tensor<i64>
  %o, %lse = nn.attention %q, %k, %v dropout %seed {dropout_rate = 0.5 : f32} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x5x3xf32>, tensor<i64>) -> (tensor<2x3x3xf32>, tensor<2x3xf32>)
  %ow = nn.mul %o, %w : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %l = nn.reduce_sum %ow [0, 1, 2] : (tensor<2x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Grouped-query attention: 4 query heads on 2 key/value heads, causal.
// Each key/value head's gradient sums over its two query heads.
// CHECK-LABEL: @attention_grouped_query: loss {{.*}}: ok
// CHECK-NEXT:    %q [1x4x3x4]: 32 of 48 elements, {{.*}}: ok
// CHECK-NEXT:    %k [1x2x5x4]: 32 of 40 elements, {{.*}}: ok
// CHECK-NEXT:    %v [1x2x5x3]: 30 of 30 elements, {{.*}}: ok
func.func @attention_grouped_query(%q: tensor<1x4x3x4xf32> {nn.role = #nn.role<param>},
                                   %k: tensor<1x2x5x4xf32> {nn.role = #nn.role<param>},
                                   %v: tensor<1x2x5x3xf32> {nn.role = #nn.role<param>},
                                   %w: tensor<1x4x3x3xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v {causal, scale = 0.6 : f32} : (tensor<1x4x3x4xf32>, tensor<1x2x5x4xf32>, tensor<1x2x5x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x4x3xf32>)
  %ow = nn.mul %o, %w : (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %l = nn.reduce_sum %ow [0, 1, 2, 3] : (tensor<1x4x3x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
