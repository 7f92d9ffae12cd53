// Several inputs for -split-input-file: a valid one, then one error per
// case. Diagnostics keep the line numbers of this file.
func.func @valid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_precision(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.relu %x {amp.precision = "fp8"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_role(%w: tensor<4xf32> {nn.role = "weight"}) {
  return
}

// -----

func.func @bad_matmul(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = nn.matmul %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @bad_type(%x: tensor<4xf17>) {
  return
}

// -----

func.func @bad_optimizer(%p: tensor<8xf32>) -> tensor<8xf32> {
  %0 = nn.sgd_update %p, %p {lr = -1.0 : f32} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
