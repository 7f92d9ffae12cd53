// A forward loss whose SGD step (lr 1) shows its dropout mask: with w = 0 and
// x = 1 the loss sum(dropout(w) * x) has the gradient dropout(x) =
// mask / (1 - rate), so the new w is -2 where the mask keeps and 0 where it
// drops (rate 0.5; dropout-masks.test).
func.func @probe(%w: tensor<4x8xf32> {nn.role = #nn.role<param>},
                 %x: tensor<4x8xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %seed = arith.constant dense<12345> : tensor<i64>
  %d = nn.dropout %w, %seed {rate = 0.5 : f32, training} : tensor<4x8xf32>
  %p = nn.mul %d, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = nn.reduce_sum %p [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
