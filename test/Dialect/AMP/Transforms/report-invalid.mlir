// RUN: amp-opt %s -split-input-file -verify-diagnostics --amp-precision-report="file=%t.json"

// The report needs the rule amp-assign-precision records (record-rules)
// for every op with a precision.
func.func @no_rule(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{amp-precision-report: this op has 'amp.precision' but no 'amp.precision_rule'; run amp-assign-precision with record-rules=true before the report}}
  %0 = nn.relu %x {amp.precision = f16} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Region ops carry one precision per result and are no entry of their own.
func.func @group_without_rule(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.autocast -> tensor<4xf32> {
    // expected-error @+1 {{amp-precision-report: this op has 'amp.precision' but no 'amp.precision_rule'}}
    %1 = nn.relu %x {amp.precision = f32} : tensor<4xf32>
    amp.yield %1 : tensor<4xf32>
  } {amp.precision = [f32]}
  return %0 : tensor<4xf32>
}
