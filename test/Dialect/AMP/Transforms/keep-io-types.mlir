// RUN: amp-opt %s --amp-insert-casts="keep-io-types=false" | FileCheck %s
// RUN: amp-opt %s --amp-insert-casts | FileCheck %s --check-prefix=KEEP

// With keep-io-types=false an input used only in f16 becomes an f16
// argument, and a result produced in f16 is returned as f16. Params keep
// their f32 type.
// CHECK-LABEL: func @lower_io
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf16> {nn.role = #nn.role<input>}, %[[W:.*]]: tensor<8x8xf32> {nn.role = #nn.role<param>}) -> tensor<4x8xf16>
// CHECK-NEXT: %[[W16:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NEXT: %[[M:.*]] = nn.matmul %[[X]], %[[W16]]
// CHECK-NEXT: %[[T:.*]] = nn.tanh %[[M]]
// CHECK-NEXT: return %[[T]] : tensor<4x8xf16>
// KEEP-LABEL: func @lower_io
// KEEP-SAME: -> tensor<4x8xf32>
// KEEP: amp.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
func.func @lower_io(%x: tensor<4x8xf32> {nn.role = #nn.role<input>}, %w: tensor<8x8xf32> {nn.role = #nn.role<param>}) -> tensor<4x8xf32> {
  %m = nn.matmul %x, %w {amp.precision = f16} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = nn.tanh %m {amp.precision = f16} : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// A function with callers keeps its signature.
// CHECK-LABEL: @called
// CHECK-SAME: (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @called(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = nn.tanh %x {amp.precision = f16} : tensor<4xf32>
  return %t : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @called(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
