// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime -verify-diagnostics

// expected-error @+1 {{argument #0: 'amp.aliasing_output' must be an integer (the result the argument's buffer is donated to), got "0"}}
func.func @not_an_integer(%w: tensor<4xf32> {amp.aliasing_output = "0"}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #1: 'amp.aliasing_output' = 1 names no result (the function has 1)}}
func.func @no_such_result(%g: tensor<4xf32>, %w: tensor<4xf32> {amp.aliasing_output = 1 : i64}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #0: 'amp.aliasing_output' = -1 names no result (the function has 1)}}
func.func @negative(%w: tensor<4xf32> {amp.aliasing_output = -1 : i64}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #0 of type 'tensor<4xf32>' cannot be donated to result #0 of type 'tensor<4xf16>'}}
func.func @other_type(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64}) -> tensor<4xf16> {
  %c = amp.cast %w : tensor<4xf32> to tensor<4xf16>
  return %c : tensor<4xf16>
}

// -----

// expected-error @+1 {{arguments #0 and #1 are both donated to result #0}}
func.func @donated_twice(%a: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                         %b: tensor<4xf32> {amp.aliasing_output = 0 : i64}) -> tensor<4xf32> {
  %s = nn.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown amp argument attribute 'amp.aliasing_outputs'; the only one is 'amp.aliasing_output', on a function's argument}}
func.func @misspelled(%w: tensor<4xf32> {amp.aliasing_outputs = 0 : i64}) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

// -----

// expected-error @+1 {{'amp.results_in_arguments' must be an array<i64> of argument indices or -1, on a function, got array<i64: -2>}}
func.func @bad_record(%w: tensor<4xf32>) -> tensor<4xf32> attributes {amp.results_in_arguments = array<i64: -2>} {
  return %w : tensor<4xf32>
}
