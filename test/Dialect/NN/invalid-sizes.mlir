// RUN: amp-opt %s -split-input-file -verify-diagnostics

// Every nn op's tensors have a size in bytes that int64 can count
// (TensorSizesFitInt64, amp_runtime/checked_size.h): shapes beyond it are
// rejected with the op's types, never with a wrapped element count. Zero
// classes are rejected by the losses.

// The reshape of issue #11: 4611686018427387908 * 4 elements wrap to 16.
func.func @reshape_count_overflow(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'nn.reshape' op result #0 of type 'tensor<4611686018427387908x4xf32>' is too large: its size in bytes does not fit in int64 (op types: (tensor<4x4xf32>) -> tensor<4611686018427387908x4xf32>)}}
  %0 = nn.reshape %x : tensor<4x4xf32> -> tensor<4611686018427387908x4xf32>
  return
}

// -----

// The element count fits int64 (2^61) but its bytes (2^63) do not.
func.func @reshape_byte_overflow(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'nn.reshape' op result #0 of type 'tensor<2305843009213693952xf32>' is too large}}
  %0 = nn.reshape %x : tensor<4x4xf32> -> tensor<2305843009213693952xf32>
  return
}

// -----

// The largest f32 tensor is 2^61 - 1 elements: reshaping one is checked on
// its element count, which fits.
func.func @reshape_largest(%x: tensor<2305843009213693951xf32>) {
  // expected-error @+1 {{'nn.reshape' op cannot reshape [2305843009213693951] (2305843009213693951 elements) to [4, 4] (16 elements)}}
  %0 = nn.reshape %x : tensor<2305843009213693951xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @operand_overflow(%x: tensor<4294967296x4294967296xf16>) {
  // expected-error @+1 {{'nn.relu' op operand #0 of type 'tensor<4294967296x4294967296xf16>' is too large: its size in bytes does not fit in int64 (op types: (tensor<4294967296x4294967296xf16>) -> tensor<4294967296x4294967296xf16>)}}
  %0 = nn.relu %x : tensor<4294967296x4294967296xf16>
  return
}

// -----

// Zero elements, but the strides of the non-zero dims (2^62 * 2^62) do not
// fit.
func.func @zero_size_stride_overflow(%x: tensor<0x4611686018427387904x4611686018427387904xf32>) {
  // expected-error @+1 {{'nn.exp' op operand #0 of type 'tensor<0x4611686018427387904x4611686018427387904xf32>' is too large}}
  %0 = nn.exp %x : tensor<0x4611686018427387904x4611686018427387904xf32>
  return
}

// -----

// Operands of 2^33 bytes each; the [2^31, 2^31] f32 product has 2^64 bytes.
func.func @matmul_result_overflow(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) {
  // expected-error @+1 {{'nn.matmul' op result #0 of type 'tensor<2147483648x2147483648xf32>' is too large: its size in bytes does not fit in int64 (op types: (tensor<2147483648x1xf32>, tensor<1x2147483648xf32>) -> tensor<2147483648x2147483648xf32>)}}
  %0 = nn.matmul %a, %b : (tensor<2147483648x1xf32>, tensor<1x2147483648xf32>) -> tensor<2147483648x2147483648xf32>
  return
}

// -----

// Batch dims [2^32, 1] and [1, 2^32] broadcast to [2^32, 2^32].
func.func @matmul_batch_overflow(%a: tensor<4294967296x1x1x2xf32>, %b: tensor<1x4294967296x2x1xf32>) {
  // expected-error @+1 {{'nn.matmul' op result #0 of type 'tensor<4294967296x4294967296x1x1xf32>' is too large}}
  %0 = nn.matmul %a, %b : (tensor<4294967296x1x1x2xf32>, tensor<1x4294967296x2x1xf32>) -> tensor<4294967296x4294967296x1x1xf32>
  return
}

// -----

func.func @broadcast_binary_overflow(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) {
  // expected-error @+1 {{'nn.add' op result #0 of type 'tensor<2147483648x2147483648xf32>' is too large}}
  %0 = nn.add %a, %b : (tensor<2147483648x1xf32>, tensor<1x2147483648xf32>) -> tensor<2147483648x2147483648xf32>
  return
}

// -----

func.func @broadcast_to_overflow(%x: tensor<1x1xf32>) {
  // expected-error @+1 {{'nn.broadcast_to' op result #0 of type 'tensor<4294967296x2147483648xf32>' is too large: its size in bytes does not fit in int64 (op types: (tensor<1x1xf32>) -> tensor<4294967296x2147483648xf32>)}}
  %0 = nn.broadcast_to %x : tensor<1x1xf32> -> tensor<4294967296x2147483648xf32>
  return
}

// -----

// Each extent fits (2^30 x 2^30 pixels, 2^62 bytes of input), the 16-channel
// output does not.
func.func @conv_result_overflow(%x: tensor<1x1x1073741824x1073741824xf32>, %w: tensor<16x1x1x1xf32>) {
  // expected-error @+1 {{'nn.conv2d' op result #0 of type 'tensor<1x16x1073741824x1073741824xf32>' is too large}}
  %0 = nn.conv2d %x, %w : (tensor<1x1x1073741824x1073741824xf32>, tensor<16x1x1x1xf32>) -> tensor<1x16x1073741824x1073741824xf32>
  return
}

// -----

// Padding makes a 1x1 input 2^41 + 1 wide in both spatial dimensions.
func.func @pool_result_overflow(%x: tensor<1x1x1x1xf32>) {
  // expected-error @+1 {{'nn.max_pool2d' op result #0 of type 'tensor<1x1x2199023255553x2199023255553xf32>' is too large}}
  %0 = nn.max_pool2d %x {kernel = array<i64: 1, 1>, strides = array<i64: 1, 1>, padding = array<i64: 1099511627776, 1099511627776, 1099511627776, 1099511627776>} : (tensor<1x1x1x1xf32>) -> tensor<1x1x2199023255553x2199023255553xf32>
  return
}

// -----

func.func @pad_result_overflow(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'nn.pad' op result #0 of type 'tensor<4294967300x4294967300xf32>' is too large}}
  %0 = nn.pad %x {low = array<i64: 4294967296, 4294967296>, high = array<i64: 0, 0>} : tensor<4x4xf32> -> tensor<4294967300x4294967300xf32>
  return
}

// -----

func.func @cross_entropy_zero_classes(%l: tensor<4x0xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{logits 'tensor<4x0xf32>' have no classes: the class dimension C must be >= 1}}
  %0 = nn.cross_entropy %l, %y : (tensor<4x0xf32>, tensor<4xi32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_grad_zero_classes(%s: tensor<f32>, %l: tensor<4x0xf32>, %y: tensor<4xi32>) {
  // expected-error @+2 {{logits 'tensor<4x0xf32>' have no classes: the class dimension C must be >= 1}}
  // expected-error @+1 {{'nn.cross_entropy_grad' op failed to infer returned types}}
  %0 = nn.cross_entropy_grad %s, %l, %y : (tensor<f32>, tensor<4x0xf32>, tensor<4xi32>) -> tensor<4x0xf32>
  return
}

// -----

// Zero-size tensors whose strides fit are valid.
func.func @zero_size_ok(%x: tensor<0x8xf32>, %l: tensor<0x10xf32>, %y: tensor<0xi32>) -> (tensor<8x0xf32>, tensor<f32>) {
  %0 = nn.relu %x : tensor<0x8xf32>
  %1 = nn.reshape %0 : tensor<0x8xf32> -> tensor<8x0xf32>
  %2 = nn.cross_entropy %l, %y : (tensor<0x10xf32>, tensor<0xi32>) -> tensor<f32>
  return %1, %2 : tensor<8x0xf32>, tensor<f32>
}
