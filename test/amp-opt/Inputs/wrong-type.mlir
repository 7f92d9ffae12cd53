// A value used with a type other than its own.
func.func @wrong_type(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = nn.relu %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
