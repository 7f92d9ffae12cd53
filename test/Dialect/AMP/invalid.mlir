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
// Loss scaling
//===----------------------------------------------------------------------===//

// -----

func.func @scaled_grad_seed_type(%l: tensor<4xf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'amp.scaled_grad_seed' op failed to verify that all of {loss, result} have same type}}
  %0 = "amp.scaled_grad_seed"(%l, %s) : (tensor<4xf16>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @scaled_grad_seed_f16_scale(%l: tensor<4xf16>, %s: tensor<f16>) {
  // expected-error @+1 {{'amp.scaled_grad_seed' op operand #1 must be 0D tensor of 32-bit float values, but got 'tensor<f16>'}}
  %0 = "amp.scaled_grad_seed"(%l, %s) : (tensor<4xf16>, tensor<f16>) -> tensor<4xf16>
  return
}

// -----

func.func @unscale_no_grads(%s: tensor<f32>) {
  // expected-error @+1 {{'amp.unscale_and_check' op expects at least one gradient}}
  %0 = "amp.unscale_and_check"(%s) : (tensor<f32>) -> tensor<i1>
  return
}

// -----

// The unscaled gradients keep the gradients' types.
func.func @unscale_result_types(%s: tensor<f32>, %g: tensor<4xf16>) {
  // expected-error @+2 {{'amp.unscale_and_check' op inferred type(s) 'tensor<4xf16>', 'tensor<i1>' are incompatible with return type(s) of operation 'tensor<4xf32>', 'tensor<i1>'}}
  // expected-error @+1 {{'amp.unscale_and_check' op failed to infer returned types}}
  %0:2 = "amp.unscale_and_check"(%s, %g) : (tensor<f32>, tensor<4xf16>) -> (tensor<4xf32>, tensor<i1>)
  return
}

// -----

func.func @unscale_integer_grad(%s: tensor<f32>, %g: tensor<4xi32>) {
  // expected-error @+1 {{'amp.unscale_and_check' op operand #1 must be variadic of statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type values, but got 'tensor<4xi32>'}}
  %0:2 = amp.unscale_and_check %s, %g : tensor<4xi32>
  return
}

// -----

func.func @update_scale_growth_factor(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op growth_factor must be finite and > 1, got 1}}
  %0:2 = amp.update_scale %s, %t, %f {growth_factor = 1.0 : f64} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_infinite_growth_factor(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op growth_factor must be finite and > 1, got inf}}
  %0:2 = amp.update_scale %s, %t, %f {growth_factor = 0x7FF0000000000000 : f64} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_backoff_factor(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op backoff_factor must be in (0, 1), got 1}}
  %0:2 = amp.update_scale %s, %t, %f {backoff_factor = 1.0 : f64} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_growth_interval(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op growth_interval must be >= 1, got 0}}
  %0:2 = amp.update_scale %s, %t, %f {growth_interval = 0 : i32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_min_scale(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op min_scale must be finite and >= 0, got -1}}
  %0:2 = amp.update_scale %s, %t, %f {min_scale = -1.0 : f32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_max_below_min(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op max_scale must be > 0 and >= min_scale (4), got 2}}
  %0:2 = amp.update_scale %s, %t, %f {min_scale = 4.0 : f32, max_scale = 2.0 : f32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_hysteresis(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op hysteresis must be >= 1, got 0}}
  %0:2 = amp.update_scale %s, %t, %f {hysteresis = 0 : i32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_missing_tracker(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op hysteresis > 1 requires a hysteresis tracker}}
  %0:2 = amp.update_scale %s, %t, %f {hysteresis = 2 : i32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_unneeded_tracker(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op has a hysteresis tracker but hysteresis = 1}}
  %0:3 = amp.update_scale %s, %t, %f hysteresis_tracker(%t) : tensor<f32>, tensor<i32>, tensor<i32>
  return
}

// -----

func.func @update_scale_tracker_without_result(%s: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op hysteresis tracker operand and result must come together}}
  %0:2 = amp.update_scale %s, %t, %f hysteresis_tracker(%t) {hysteresis = 2 : i32} : tensor<f32>, tensor<i32>
  return
}

// -----

func.func @update_scale_i64_tracker(%s: tensor<f32>, %t: tensor<i64>, %f: tensor<i1>) {
  // expected-error @+1 {{'amp.update_scale' op operand #1 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0:2 = "amp.update_scale"(%s, %t, %f) : (tensor<f32>, tensor<i64>, tensor<i1>) -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @skip_step_keep_types(%f: tensor<i1>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'amp.skip_step_if' op keep operands (tensor<8xf32>) must have the result types (tensor<8xf16>)}}
  %0 = amp.skip_step_if %f keep(%p : tensor<8xf32>) {
    amp.yield %p : tensor<8xf32>
  } -> tensor<8xf16>
  return
}

// -----

func.func @skip_step_missing_keep(%f: tensor<i1>, %h: tensor<8xf16>) {
  // expected-error @+1 {{'amp.skip_step_if' op keep operands () must have the result types (tensor<8xf16>)}}
  %0 = amp.skip_step_if %f keep() {
    amp.yield %h : tensor<8xf16>
  } -> tensor<8xf16>
  return
}

// -----

func.func @skip_step_yield_types(%f: tensor<i1>, %p: tensor<8xf32>, %h: tensor<8xf16>) {
  // expected-error @+1 {{'amp.skip_step_if' op region yields (tensor<8xf16>) but the op returns (tensor<8xf32>)}}
  %0 = amp.skip_step_if %f keep(%p : tensor<8xf32>) {
    amp.yield %h : tensor<8xf16>
  } -> tensor<8xf32>
  return
}

// -----

func.func @skip_step_block_arguments(%f: tensor<i1>, %p: tensor<8xf32>) {
  // expected-error @+1 {{'amp.skip_step_if' op body must not have arguments: the region uses values from above, got 1 argument(s)}}
  %0 = "amp.skip_step_if"(%f, %p) ({
  ^bb0(%a: tensor<8xf32>):
    "amp.yield"(%a) : (tensor<8xf32>) -> ()
  }) : (tensor<i1>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// The last op is not mistaken for the yield.
func.func @skip_step_missing_terminator(%f: tensor<i1>, %p: tensor<8xf32>) {
  "amp.skip_step_if"(%f) ({
    // expected-error @+1 {{block with no terminator}}
    %1 = nn.relu %p : tensor<8xf32>
  }) : (tensor<i1>) -> ()
  return
}

// -----

func.func @skip_step_flag_shape(%f: tensor<1xi1>) {
  // expected-error @+1 {{'amp.skip_step_if' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<1xi1>'}}
  "amp.skip_step_if"(%f) ({
    "amp.yield"() : () -> ()
  }) : (tensor<1xi1>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// amp.precision and other amp attributes
//===----------------------------------------------------------------------===//

// -----

func.func @precision_unknown_value(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got "fp16"}}
  %0 = nn.relu %x {amp.precision = "fp16"} : tensor<4xf32>
  return
}

// -----

func.func @precision_case_sensitive(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got "F16"}}
  %0 = nn.relu %x {amp.precision = "F16"} : tensor<4xf32>
  return
}

// -----

// The string form of earlier versions gets the new spelling.
func.func @precision_old_string_form(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' is a type, not a string: write amp.precision = bf16, not "bf16"}}
  %0 = nn.relu %x {amp.precision = "bf16"} : tensor<4xf32>
  return
}

// -----

func.func @precision_other_float_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got f64}}
  %0 = nn.relu %x {amp.precision = f64} : tensor<4xf32>
  return
}

// -----

func.func @precision_integer_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got i32}}
  %0 = nn.relu %x {amp.precision = i32} : tensor<4xf32>
  return
}

// -----

func.func @precision_integer(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got 16 : i64}}
  %0 = nn.relu %x {amp.precision = 16} : tensor<4xf32>
  return
}

// -----

func.func @unknown_amp_attribute(%x: tensor<4xf32>) {
  // expected-error @+1 {{unknown amp attribute 'amp.precison'; the only amp attribute is 'amp.precision'}}
  %0 = nn.relu %x {amp.precison = f16} : tensor<4xf32>
  return
}

// -----

func.func @precision_rule_not_a_string(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision_rule' must be a string, got f16}}
  %0 = nn.relu %x {amp.precision = f16, amp.precision_rule = f16} : tensor<4xf32>
  return
}

// -----

// The attribute is checked on any op, not only nn ops.
func.func @precision_on_upstream_op(%x: f32) {
  // expected-error @+1 {{'amp.precision' must be f32, f16 or bf16, got f8E4M3FN}}
  %0 = arith.addf %x, %x {amp.precision = f8E4M3FN} : f32
  return
}

// -----

func.func @precision_array_size(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' as an array must hold one of f32, f16 or bf16 per result (1), got [f16, f16]}}
  %0 = nn.relu %x {amp.precision = [f16, f16]} : tensor<4xf32>
  return
}

// -----

func.func @precision_array_element(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' as an array must hold one of f32, f16 or bf16 per result (2), got [f16, f64]}}
  %0:2 = amp.autocast -> tensor<4xf32>, tensor<4xf32> {
    amp.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } {amp.precision = [f16, f64]}
  return
}

// -----

func.func @precision_array_old_string_form(%x: tensor<4xf32>) {
  // expected-error @+1 {{'amp.precision' as an array must hold one of f32, f16 or bf16 per result (1), got ["f16"]}}
  %0 = nn.relu %x {amp.precision = ["f16"]} : tensor<4xf32>
  return
}
