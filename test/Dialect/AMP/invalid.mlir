// RUN: amp-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the amp dialect (AMPOps.cpp, AMPDialect.cpp
// and the ODS constraints of AMPOps.td).

//===----------------------------------------------------------------------===//
// amp.cast
//===----------------------------------------------------------------------===//

func.func @cast_shape_change(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.cast' op operand type 'tensor<4xf32>' and result type 'tensor<8xf16>' are cast incompatible}}
  %0 = amp.cast %x : tensor<4xf32> to tensor<8xf16>
  return
}

// -----

func.func @cast_rank_change(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'amp.cast' op operand type 'tensor<4x8xf32>' and result type 'tensor<32xf16>' are cast incompatible}}
  %0 = amp.cast %x : tensor<4x8xf32> to tensor<32xf16>
  return
}

// -----

func.func @cast_integer_operand(%x: tensor<4xi32>) {
  // expected-error @+1 {{'amp.cast' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi32>'}}
  %0 = amp.cast %x : tensor<4xi32> to tensor<4xf16>
  return
}

// -----

func.func @cast_integer_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.cast' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi8>'}}
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xi8>
  return
}

// -----

func.func @cast_f64(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.cast' op result #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xf64>'}}
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf64>
  return
}

// -----

func.func @cast_fp8(%x: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{'amp.cast' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = amp.cast %x : tensor<4xf8E4M3FN> to tensor<4xf16>
  return
}

// -----

func.func @cast_dynamic_shape(%x: tensor<?xf32>) {
  // expected-error @+1 {{'amp.cast' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<?xf32>'}}
  %0 = amp.cast %x : tensor<?xf32> to tensor<?xf16>
  return
}

// -----

func.func @cast_scalar(%x: f32) {
  // expected-error @+1 {{'amp.cast' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'f32'}}
  %0 = "amp.cast"(%x) : (f32) -> f16
  return
}

//===----------------------------------------------------------------------===//
// amp.autocast and amp.yield
//===----------------------------------------------------------------------===//

// -----

func.func @autocast_integer_compute_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op compute_type must be f16, bf16 or f32, got 'i32'}}
  %0 = amp.autocast compute_type = i32 -> tensor<4xf32> {
    amp.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @autocast_f64_compute_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op compute_type must be f16, bf16 or f32, got 'f64'}}
  amp.autocast compute_type = f64 {
  }
  return
}

// -----

func.func @autocast_compute_type_not_a_type() {
  // expected-error @+1 {{invalid properties {compute_type = 16 : i64} for op amp.autocast: Invalid attribute `compute_type` in property conversion: 16 : i64}}
  "amp.autocast"() <{compute_type = 16 : i64}> ({
    "amp.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @autocast_enabled_not_bool() {
  // expected-error @+1 {{invalid properties {enabled = 0 : i32} for op amp.autocast: Invalid attribute `enabled` in property conversion: 0 : i32}}
  "amp.autocast"() <{enabled = 0 : i32}> ({
    "amp.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @autocast_yield_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op region yields (tensor<4xf32>) but the op returns (tensor<4xf16>)}}
  %0 = amp.autocast -> tensor<4xf16> {
    amp.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @autocast_yield_too_few(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op region yields () but the op returns (tensor<4xf32>)}}
  %0 = amp.autocast enabled = false -> tensor<4xf32> {
    amp.yield
  }
  return
}

// -----

func.func @autocast_yield_too_many(%x: tensor<4xf32>, %y: tensor<2xf16>) {
  // expected-error @+1 {{'amp.autocast' op region yields (tensor<4xf32>, tensor<2xf16>) but the op returns (tensor<4xf32>)}}
  %0 = amp.autocast -> tensor<4xf32> {
    amp.yield %x, %y : tensor<4xf32>, tensor<2xf16>
  }
  return
}

// -----

func.func @autocast_block_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op body must not have arguments: the region uses values from above, got 1 argument(s)}}
  %0 = "amp.autocast"() ({
  ^bb0(%a: tensor<4xf32>):
    "amp.yield"(%a) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return
}

// -----

func.func @autocast_two_blocks(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.autocast' op expects region #0 to have 0 or 1 blocks}}
  "amp.autocast"() ({
    "amp.yield"() : () -> ()
  ^bb1:
    "amp.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @autocast_missing_terminator(%x: tensor<4xf32>) {
  "amp.autocast"() ({
    // expected-error @+1 {{block with no terminator}}
    %0 = nn.relu %x : tensor<4xf32>
  }) : () -> ()
  return
}

// -----

func.func @autocast_no_block() {
  // expected-error @+1 {{'amp.autocast' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "amp.autocast"() ({
  }) : () -> ()
  return
}

// -----

func.func @autocast_empty_block() {
  // expected-error @+1 {{'amp.autocast' op expects a non-empty block}}
  "amp.autocast"() ({
  ^bb0:
  }) : () -> ()
  return
}

// -----

func.func @yield_outside_autocast(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.yield' op expects parent op to be one of 'amp.autocast, amp.skip_step_if'}}
  amp.yield %x : tensor<4xf32>
}

// -----

func.func @yield_not_last(%x: tensor<4xf32>) {
  amp.autocast {
    // expected-error @+1 {{'amp.yield' op must be the last operation in the parent block}}
    "amp.yield"() : () -> ()
    %0 = nn.relu %x : tensor<4xf32>
  }
  return
}

//===----------------------------------------------------------------------===//
// amp.precision and other amp attributes
//===----------------------------------------------------------------------===//

// -----

func.func @precision_unknown_value(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be "f32", "f16" or "bf16", got "fp16"}}
  %0 = nn.relu %x {amp.precision = "fp16"} : tensor<4xf32>
  return
}

// -----

func.func @precision_case_sensitive(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be "f32", "f16" or "bf16", got "F16"}}
  %0 = nn.relu %x {amp.precision = "F16"} : tensor<4xf32>
  return
}

// -----

func.func @precision_type_not_string(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be "f32", "f16" or "bf16", got f16}}
  %0 = nn.relu %x {amp.precision = f16} : tensor<4xf32>
  return
}

// -----

func.func @precision_integer(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be "f32", "f16" or "bf16", got 16 : i64}}
  %0 = nn.relu %x {amp.precision = 16} : tensor<4xf32>
  return
}

// -----

func.func @unknown_amp_attribute(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown amp attribute 'amp.precison'; the only amp attribute is 'amp.precision'}}
  %0 = nn.relu %x {amp.precison = "f16"} : tensor<4xf32>
  return
}

// -----

// The attribute is checked on any op, not only nn ops.
func.func @precision_on_upstream_op(%x: f32) {
  // expected-error @+1 {{'amp.precision' must be "f32", "f16" or "bf16", got "f8"}}
  %0 = arith.addf %x, %x {amp.precision = "f8"} : f32
  return
}

