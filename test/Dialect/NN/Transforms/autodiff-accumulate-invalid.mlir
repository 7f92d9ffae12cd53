// RUN: amp-opt %s -split-input-file -verify-diagnostics --nn-autodiff="accumulate-steps=2"

// Every input and label must have the same static batch (dimension 0) for
// accumulate-steps to split it into micro-batches.

// expected-error @+1 {{nn-autodiff: accumulate-steps=2 splits the batch of @two_batches: argument #2 has batch 3, argument #1 has 4}}
func.func @two_batches(%w: tensor<2x3xf32> {nn.role = #nn.role<param>},
                       %x: tensor<4x2xf32> {nn.role = #nn.role<input>},
                       %labels: tensor<3xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %h = nn.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s = nn.slice %h {offsets = array<i64: 0, 0>} : tensor<4x3xf32> -> tensor<3x3xf32>
  %loss = nn.cross_entropy %s, %labels : (tensor<3x3xf32>, tensor<3xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// expected-error @+1 {{nn-autodiff: accumulate-steps=2 splits the batch of @scalar_input: argument #1 has no static batch dimension (dimension 0)}}
func.func @scalar_input(%w: tensor<3xf32> {nn.role = #nn.role<param>},
                        %t: tensor<f32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %w, %t : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %loss = nn.reduce_sum %y [0] : (tensor<3xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// expected-error @+1 {{nn-autodiff: accumulate-steps=2 splits the batch of @no_data: it has no input or label arguments}}
func.func @no_data(%w: tensor<3xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %loss = nn.reduce_sum %w [0] : (tensor<3xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// A training dropout's seed is offset per micro-batch: it must be a
// constant.
func.func @seed_computed(%w: tensor<2x3xf32> {nn.role = #nn.role<param>},
                         %x: tensor<4x2xf32> {nn.role = #nn.role<input>},
                         %labels: tensor<4xi32> {nn.role = #nn.role<label>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %c = arith.constant dense<7> : tensor<i64>
  %seed = arith.addi %c, %c : tensor<i64>
  %h = nn.matmul %x, %w : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // expected-error @+1 {{'nn.dropout' op nn-autodiff: accumulate-steps offsets a training dropout's seed per micro-batch, which needs a constant seed}}
  %d = nn.dropout %h, %seed {rate = 0.5 : f32, training} : tensor<4x3xf32>
  %loss = nn.cross_entropy %d, %labels : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
