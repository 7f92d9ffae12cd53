func.func @f(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = nn.slice %x {offsets = array<i64: 0, 2>, strides = array<index 1>, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
