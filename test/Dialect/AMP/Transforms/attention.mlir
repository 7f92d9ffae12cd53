// RUN: amp-opt %s --split-input-file --nn-autodiff --amp-pipeline="compute-type=f16" | FileCheck %s
// RUN: amp-opt %s --split-input-file --nn-autodiff --amp-pipeline="compute-type=bf16" | FileCheck %s --check-prefix=BF16

// nn.attention is on the allow list (PyTorch's autocast runs
// scaled_dot_product_attention in f16/bf16): query, key and value are cast
// once and shared with nn.attention_grad, which follows its forward op. The
// mask keeps its f32 (the kernels read it as is) and the log-sum-exp stays
// f32; the three gradients are widened for the f32 masters.
// CHECK-LABEL: func.func @self_attention(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4x8xf32> {{.*}}, %[[V:[a-z0-9]+]]: tensor<2x4x8xf32> {{.*}}, %[[M:[a-z0-9]+]]: tensor<4x4xf32>
// CHECK:         %[[XH:.*]] = amp.cast %[[X]] : tensor<2x4x8xf32> to tensor<2x4x8xf16>
// CHECK:         %[[VH:.*]] = amp.cast %[[V]] : tensor<2x4x8xf32> to tensor<2x4x8xf16>
// CHECK:         %[[O:.*]], %[[LSE:.*]] = nn.attention %[[XH]], %[[XH]], %[[VH]] mask %[[M]] {amp.precision = f16} : ({{.*}}, tensor<4x4xf32>) -> (tensor<2x4x8xf16>, tensor<2x4xf32>)
// CHECK:         %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = nn.attention_grad %{{.*}}, %[[XH]], %[[XH]], %[[VH]], %[[O]], %[[LSE]] mask %[[M]] {amp.precision = f16} : (tensor<2x4x8xf16>, {{.*}}, tensor<2x4xf32>, tensor<4x4xf32>) -> (tensor<2x4x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>)
// CHECK-DAG:     amp.cast %[[DQ]] : tensor<2x4x8xf16> to tensor<2x4x8xf32>
// CHECK-DAG:     amp.cast %[[DK]] : tensor<2x4x8xf16> to tensor<2x4x8xf32>
// CHECK-DAG:     amp.cast %[[DV]] : tensor<2x4x8xf16> to tensor<2x4x8xf32>
// BF16-LABEL: func.func @self_attention(
// BF16:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} mask %{{.*}} {amp.precision = bf16} : ({{.*}}, tensor<4x4xf32>) -> (tensor<2x4x8xbf16>, tensor<2x4xf32>)
// BF16:         nn.attention_grad {{.*}} {amp.precision = bf16}
func.func @self_attention(%x: tensor<2x4x8xf32> {nn.role = #nn.role<param>}, %v: tensor<2x4x8xf32> {nn.role = #nn.role<param>},
                          %m: tensor<4x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %x, %x, %v mask %m : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  %l = nn.reduce_sum %o [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An override keeps the attention in f32 (with its gradient).
// CHECK-LABEL: func.func @attention_f32(
// CHECK:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} {amp.precision = f32} : {{.*}} -> (tensor<3x4xf32>, tensor<3xf32>)
// CHECK:         nn.attention_grad {{.*}} {amp.precision = f32} : {{.*}} -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>)
// BF16-LABEL: func.func @attention_f32(
// BF16:         nn.attention %{{.*}}, %{{.*}}, %{{.*}} {amp.precision = f32}
func.func @attention_f32(%x: tensor<3x4xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %x, %x, %x {amp.precision = f32} : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3xf32>)
  %l = nn.reduce_sum %o [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Grouped-query attention: the key and value, with half the query's heads,
// are cast once each and read by both ops; their gradients keep the key's
// and value's shapes.
// CHECK-LABEL: func.func @grouped_query(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<1x4x3x8xf32> {{.*}}, %[[K:[a-z0-9]+]]: tensor<1x2x5x8xf32> {{.*}}, %[[V:[a-z0-9]+]]: tensor<1x2x5x8xf32>
// CHECK-DAG:     %[[QH:.*]] = amp.cast %[[Q]] : tensor<1x4x3x8xf32> to tensor<1x4x3x8xf16>
// CHECK-DAG:     %[[KH:.*]] = amp.cast %[[K]] : tensor<1x2x5x8xf32> to tensor<1x2x5x8xf16>
// CHECK-DAG:     %[[VH:.*]] = amp.cast %[[V]] : tensor<1x2x5x8xf32> to tensor<1x2x5x8xf16>
// CHECK:         nn.attention %[[QH]], %[[KH]], %[[VH]] {amp.precision = f16} : (tensor<1x4x3x8xf16>, tensor<1x2x5x8xf16>, tensor<1x2x5x8xf16>) -> (tensor<1x4x3x8xf16>, tensor<1x4x3xf32>)
// CHECK:         nn.attention_grad %{{.*}}, %[[QH]], %[[KH]], %[[VH]], {{.*}} {amp.precision = f16} : {{.*}} -> (tensor<1x4x3x8xf16>, tensor<1x2x5x8xf16>, tensor<1x2x5x8xf16>)
// BF16-LABEL: func.func @grouped_query(
// BF16:         nn.attention {{.*}} {amp.precision = bf16} : (tensor<1x4x3x8xbf16>, tensor<1x2x5x8xbf16>, tensor<1x2x5x8xbf16>)
func.func @grouped_query(%q: tensor<1x4x3x8xf32> {nn.role = #nn.role<param>}, %k: tensor<1x2x5x8xf32> {nn.role = #nn.role<param>},
                         %v: tensor<1x2x5x8xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %o, %lse = nn.attention %q, %k, %v : (tensor<1x4x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> (tensor<1x4x3x8xf32>, tensor<1x4x3xf32>)
  %l = nn.reduce_sum %o [0, 1, 2, 3] : (tensor<1x4x3x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
