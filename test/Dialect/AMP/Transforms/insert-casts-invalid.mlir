// RUN: amp-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(amp-insert-casts{keep-io-types=false}))"

// keep-io-types=false changes signatures, which needs the callers: only the
// module sees them, so on a single function it is an error.
// expected-error @+1 {{amp-insert-casts: keep-io-types=false changes function signatures, which needs the callers: run it on the module, not on each function}}
func.func @lower_io(%x: tensor<4xf32> {nn.role = #nn.role<input>}) -> tensor<4xf32> {
  %t = nn.tanh %x {amp.precision = f16} : tensor<4xf32>
  return %t : tensor<4xf32>
}
