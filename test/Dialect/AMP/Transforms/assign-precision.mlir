// RUN: amp-opt %s -split-input-file --amp-assign-precision="remarks=true" -verify-diagnostics | FileCheck %s

// Every decision is pinned by its remark: "<precision> (<rule>)".

// CHECK-LABEL: func @allow_matmul
// CHECK: nn.matmul {{.*}}amp.precision = f16
func.func @allow_matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func @deny_softmax
// CHECK: nn.softmax {{.*}}amp.precision = f32
func.func @deny_softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f32 (deny)}}
  %0 = nn.softmax %a : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An infer op on a path between two allow ops is low precision.
func.func @infer_between_allow(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %1 = nn.add %0, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %2 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// An infer op after the last allow op has no allow op downstream: f32.
func.func @infer_after_allow(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (no-allow-path)}}
  %1 = nn.add %0, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An infer op between a deny op and an allow op turns f32, even though an
// allow op also feeds it: deny spreads first (TensorFlow's order).
func.func @infer_between_deny_and_allow(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.exp %x : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %2 = nn.mul %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Deny flows through clear ops into an infer op: the clear ops on that path
// become f32 too.
func.func @deny_through_clear_into_infer(%x: tensor<4x8xf32>, %w: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x32xf32> {
  // expected-remark @below {{f32 (deny)}}
  %0 = nn.log %x : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %1 = nn.reshape %0 : tensor<4x8xf32> -> tensor<32xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %2 = nn.reshape %1 : tensor<32xf32> -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  // expected-remark @below {{f16 (allow)}}
  %4 = nn.matmul %3, %w2 : (tensor<4x32xf32>, tensor<32x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %5 = nn.sub %4, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %6 = nn.matmul %5, %w : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  return %6 : tensor<4x32xf32>
}

// -----

// Deny does not spread into clear ops that lead only to an allow op: they
// follow the allow op instead.
func.func @deny_then_clear_then_allow(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-remark @below {{f32 (deny)}}
  %0 = nn.softmax %x : tensor<4x8xf32>
  // expected-remark @below {{f16 (follows-neighbour)}}
  %1 = nn.transpose %0 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // expected-remark @below {{f16 (allow)}}
  %2 = nn.matmul %1, %x : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Chains of clear ops are painted downstream of an allow op when they lead to
// low-precision consumers ...
func.func @clear_chain_downstream(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %1 = nn.relu %0 : tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %2 = nn.transpose %1 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %3 = nn.reshape %2 : tensor<8x4xf32> -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %4 = nn.matmul %3, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// ... but a chain whose consumers all stay f32 is f32 itself: the matmul then
// stores its f32 accumulator and no cast is needed at all.
// CHECK-LABEL: func @clear_chain_to_f32
// CHECK: nn.matmul {{.*}}amp.precision = f16
// CHECK: nn.relu {{.*}}amp.precision = f32
func.func @clear_chain_to_f32(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<32xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (f32-consumers)}}
  %1 = nn.relu %0 : tensor<4x8xf32>
  // expected-remark @below {{f32 (f32-consumers)}}
  %2 = nn.transpose %1 [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // expected-remark @below {{f32 (f32-consumers)}}
  %3 = nn.reshape %2 : tensor<8x4xf32> -> tensor<32xf32>
  return %3 : tensor<32xf32>
}

// -----

// ... and upstream of one.
func.func @clear_chain_upstream(%x: tensor<32xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (follows-neighbour)}}
  %0 = nn.reshape %x : tensor<32xf32> -> tensor<8x4xf32>
  // expected-remark @below {{f16 (follows-neighbour)}}
  %1 = nn.transpose %0 [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  // expected-remark @below {{f16 (follows-neighbour)}}
  %2 = nn.neg %1 : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// A clear op with no low-precision neighbour stays f32.
func.func @clear_alone(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f32 (no-low-neighbour)}}
  %0 = nn.relu %x : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.softmax %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// An infer op fed only by function arguments is f32 even before an allow op
// (it is not between two allow ops).
func.func @infer_before_allow_only(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f32 (no-allow-path)}}
  %0 = nn.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %1 = nn.matmul %0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// amp.precision pins an op whatever the policy says.
// CHECK-LABEL: func @pinned
// CHECK: nn.matmul {{.*}}amp.precision = f32
// CHECK: nn.tanh {{.*}}amp.precision = f16
func.func @pinned(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f32 (pinned)}}
  %0 = nn.matmul %x, %w {amp.precision = f32} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (pinned)}}
  %1 = nn.tanh %0 {amp.precision = f16} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A pinned-f32 op acts as deny: it turns a downstream infer op f32.
func.func @pinned_f32_spreads(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (pinned)}}
  %1 = nn.matmul %x, %w {amp.precision = f32} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny-propagated)}}
  %2 = nn.add %0, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// amp.autocast enabled = false keeps everything inside f32.
// CHECK-LABEL: func @autocast_disabled
// CHECK: amp.autocast
// CHECK: nn.matmul {{.*}}amp.precision = f32
// CHECK: amp.precision = [f32]
func.func @autocast_disabled(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = amp.autocast enabled = false -> tensor<4x8xf32> {
    // expected-remark @below {{f32 (autocast-disabled)}}
    %1 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    amp.yield %1 : tensor<4x8xf32>
  }
  // The disabled scope's f32 matmul acts as a deny op downstream.
  // expected-remark @below {{f32 (deny-propagated)}}
  %2 = nn.add %0, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// An autocast scope may set its own compute type; an enabled scope nested in
// a disabled one turns mixed precision back on.
// CHECK-LABEL: func @autocast_compute_type
// CHECK: nn.matmul {{.*}}amp.precision = bf16
// CHECK: nn.matmul {{.*}}amp.precision = f16
func.func @autocast_compute_type(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = amp.autocast compute_type = bf16 -> tensor<4x8xf32> {
    // expected-remark @below {{bf16 (allow)}}
    %1 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    amp.yield %1 : tensor<4x8xf32>
  }
  %2 = amp.autocast enabled = false -> tensor<4x8xf32> {
    %3 = amp.autocast -> tensor<4x8xf32> {
      // expected-remark @below {{f16 (allow)}}
      %4 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      amp.yield %4 : tensor<4x8xf32>
    }
    amp.yield %3 : tensor<4x8xf32>
  }
  return %0, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A backward op follows its forward op: this relu is pinned f32, so its
// relu_grad is f32 although its inputs come from f16 matmuls.
func.func @tied_relu_grad(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %h = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (pinned)}}
  %a = nn.relu %h {amp.precision = f32} : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %dy = nn.matmul %a, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %dh = nn.relu_grad %dy, %h : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %dx = nn.matmul %dh, %w {transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

// Without a pin, relu and relu_grad are painted together between matmuls.
func.func @tied_relu_grad_low(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %h = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %a = nn.relu %h : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %s = nn.softmax %a : tensor<4x8xf32>
  // expected-remark @below {{f16 (tied-to-forward)}}
  %dh = nn.relu_grad %s, %h : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %dx = nn.matmul %dh, %w {transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %s, %dx : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// softmax_grad shares softmax's precision (deny), through the tie.
func.func @tied_softmax_grad(%x: tensor<4x8xf32>, %dy: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f32 (deny)}}
  %y = nn.softmax %x : tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %dx = nn.softmax_grad %dy, %y : tensor<4x8xf32>
  return %dx : tensor<4x8xf32>
}

// -----

// A loop-carried value has one precision for its init, iter_arg, yield and
// result; here an allow op updates it in the loop, so it is f16, and the
// relu is between the matmul and itself through the back edge.
// CHECK-LABEL: func @loop_carried
// CHECK: scf.for
// CHECK: amp.precision = [f16]
func.func @loop_carried(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    // expected-remark @below {{f16 (allow)}}
    %m = nn.matmul %acc, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    // expected-remark @below {{f16 (between-allow)}}
    %a = nn.relu %m : tensor<4x4xf32>
    scf.yield %a : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A loop-carried value produced by a deny op but consumed by an allow op is a
// clear node next to an allow op: it is f16 (the softmax result is cast once
// per iteration, as the matmul would need anyway).
// CHECK-LABEL: func @loop_carried_deny_yield
// CHECK: amp.precision = [f16]
func.func @loop_carried_deny_yield(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    // expected-remark @below {{f16 (allow)}}
    %m = nn.matmul %acc, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    // expected-remark @below {{f32 (deny)}}
    %s = nn.softmax %m : tensor<4x4xf32>
    scf.yield %s : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// scf.if results have one precision: the then-branch matmul and the
// consumer matmul make the result f16; the else-branch mul, fed only by
// arguments, stays f32 and is cast when yielded.
// CHECK-LABEL: func @if_results
// CHECK: scf.if
// CHECK: amp.precision = [f16]
func.func @if_results(%c: i1, %x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.if %c -> tensor<4x4xf32> {
    // expected-remark @below {{f16 (allow)}}
    %m = nn.matmul %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  } else {
    // expected-remark @below {{f32 (no-allow-path)}}
    %n = nn.mul %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  }
  // expected-remark @below {{f16 (allow)}}
  %o = nn.matmul %r, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// -----

// An existing cast is looked through: the ops are colored as if it were not
// there (the softmax is still deny, the matmul still allow).
func.func @existing_cast_absorbed(%x: tensor<4x8xf32>, %w: tensor<8x8xf16>) -> tensor<4x8xf32> {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  // expected-remark @below {{f16 (allow)}}
  %m = nn.matmul %h, %w : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %f = amp.cast %m : tensor<4x8xf16> to tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %s = nn.softmax %f : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Interface ops that no list names stay f32, with a remark (always on).
func.func @unlisted(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{'math.sin' is in no precision list; it stays f32}}
  // expected-remark @below {{f32 (unlisted)}}
  %1 = math.sin %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Upstream ops take part through external models: arith.addf on tensors is
// infer, linalg.matmul is allow.
func.func @upstream_ops(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %1 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %2 = arith.addf %1, %1 : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %4 = math.powf %3, %0 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// A constant that does not fit f16 keeps its user in f32 (with a remark),
// and so does a non-zero constant that would flush to zero.
func.func @constant_out_of_range(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %big = arith.constant dense<1.0e+06> : tensor<4x8xf32>
  %tiny = arith.constant dense<1.0e-09> : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{operand #1 is a constant that does not fit f16; the op stays f32}}
  // expected-remark @below {{f32 (constant-out-of-range)}}
  %1 = nn.mul %0, %big : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{operand #1 is a constant that does not fit f16; the op stays f32}}
  // expected-remark @below {{f32 (constant-out-of-range)}}
  %2 = nn.add %0, %tiny : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %4 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Optimizer updates and losses are deny; the seed is a clear op next to the
// f32 loss, so it stays f32.
func.func @loss_and_optimizer(%x: tensor<4x8xf32>, %w: tensor<8x10xf32>, %l: tensor<4xi32>, %m: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %logits = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x10xf32>) -> tensor<4x10xf32>
  // expected-remark @below {{f32 (deny)}}
  %loss = nn.cross_entropy %logits, %l : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
  // expected-remark @below {{f32 (no-low-neighbour)}}
  %seed = nn.grad_seed %loss : tensor<f32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %dl = nn.cross_entropy_grad %seed, %logits, %l : (tensor<f32>, tensor<4x10xf32>, tensor<4xi32>) -> tensor<4x10xf32>
  // expected-remark @below {{f16 (allow)}}
  %dw = nn.matmul %x, %dl {transpose_a} : (tensor<4x8xf32>, tensor<4x10xf32>) -> tensor<8x10xf32>
  // expected-remark @below {{f32 (deny)}}
  %w1, %m1 = nn.sgd_update %w, %dw, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8x10xf32>
  return %w1, %m1 : tensor<8x10xf32>, tensor<8x10xf32>
}

// -----

// Layer norm and reductions are deny in f16; reduce_max is clear.
func.func @norms_and_reductions(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %y, %mean, %rstd = nn.layer_norm %0, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.reduce_sum %0 [0] : (tensor<4x8xf32>) -> tensor<8xf32>
  // reduce_max follows the matmul but only feeds the f32 result: f32.
  // expected-remark @below {{f32 (f32-consumers)}}
  %2 = nn.reduce_max %0 [0] : (tensor<4x8xf32>) -> tensor<8xf32>
  return %y, %1, %2 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Batch norm is infer (its statistics are f32 inside the op, as
// TensorFlow's FusedBatchNormV3): between two convolutions it runs in f16.
// CHECK-LABEL: func @batch_norm_between_convs
// CHECK: nn.batch_norm {{.*}}amp.precision = f16
func.func @batch_norm_between_convs(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %w2: tensor<4x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x8x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %c = nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %y, %m, %i = nn.batch_norm %c, %g, %b : (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>)
  // expected-remark @below {{f16 (between-allow)}}
  %r = nn.relu %y : tensor<2x4x8x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %c2 = nn.conv2d %r, %w2 {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x8x8xf32>
  return %c2 : tensor<2x4x8x8xf32>
}

// -----

// A CNN head: the pools and the reshape are clear ops between the conv and
// the classifier matmul, so the whole chain stays f16.
// CHECK-LABEL: func @cnn_pool_chain
// CHECK: nn.max_pool2d {{.*}}amp.precision = f16
// CHECK: nn.global_avg_pool {{.*}}amp.precision = f16
func.func @cnn_pool_chain(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %fc: tensor<4x10xf32>) -> tensor<2x10xf32> {
  // expected-remark @below {{f16 (allow)}}
  %c = nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %p = nn.max_pool2d %c {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %g = nn.global_avg_pool %p : (tensor<2x4x4x4xf32>) -> tensor<2x4x1x1xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %r = nn.reshape %g : tensor<2x4x1x1xf32> -> tensor<2x4xf32>
  // expected-remark @below {{f16 (allow)}}
  %y = nn.matmul %r, %fc : (tensor<2x4xf32>, tensor<4x10xf32>) -> tensor<2x10xf32>
  return %y : tensor<2x10xf32>
}

// -----

// max_pool2d_grad follows the max_pool2d of the same input and window.
func.func @tied_max_pool2d_grad(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %dp: tensor<2x4x4x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x3x8x8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %c = nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %p = nn.max_pool2d %c {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32>
  // expected-remark @below {{f16 (tied-to-forward)}}
  %dc = nn.max_pool2d_grad %dp, %c {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x4x4xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %dx = nn.conv2d_grad_input %dc, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<2x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x3x8x8xf32>
  return %p, %dx : tensor<2x4x4x4xf32>, tensor<2x3x8x8xf32>
}

// -----

// pow and mse_loss are deny even between matmuls, and their gradients
// follow them.
func.func @deny_pow_and_mse_loss(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %t: tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %1 = nn.pow %0 {exponent = 2.0 : f32} : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %2 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %l = nn.mse_loss %2, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  // expected-remark @below {{f32 (no-low-neighbour)}}
  %s = nn.grad_seed %l : tensor<f32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %d2 = nn.mse_loss_grad %s, %2, %t : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %d1 = nn.matmul %d2, %w {transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %d0 = nn.pow_grad %d1, %0 {exponent = 2.0 : f32} : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %dx = nn.matmul %d0, %w {transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %l, %dx : tensor<f32>, tensor<4x8xf32>
}

// -----

// The other elementwise losses are deny too (PyTorch's autocast runs
// l1_loss, huber_loss and binary_cross_entropy_with_logits in f32), and
// their gradients follow them.
func.func @deny_elementwise_losses(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %t: tensor<4x8xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %a = nn.l1_loss %0, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  // expected-remark @below {{f32 (deny)}}
  %b = nn.huber_loss %0, %t {delta = 0.5 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  // expected-remark @below {{f32 (deny)}}
  %c = nn.bce_with_logits_loss %0, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %da = nn.l1_loss_grad %a, %0, %t : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %db = nn.huber_loss_grad %b, %0, %t {delta = 0.5 : f32} : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %dc = nn.bce_with_logits_loss_grad %c, %0, %t : (tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a, %b, %c, %da, %db, %dc : tensor<f32>, tensor<f32>, tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// where and dropout are clear: between matmuls they are f16. Their integer
// operands (cond, seed) take no part in the coloring; where_grad follows the
// where of the same cond.
func.func @where_and_dropout(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %c: tensor<4x8xi1>, %z: tensor<8xf32>, %seed: tensor<i64>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %1 = nn.where %c, %0, %z : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %2 = nn.dropout %1, %seed {rate = 0.1 : f32, training} : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (tied-to-forward)}}
  %4:2 = nn.where_grad %3, %c : (tensor<4x8xf32>, tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  // expected-remark @below {{f16 (allow)}}
  %5 = nn.matmul %4#0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %5 : tensor<4x8xf32>
}

// -----

// compare is deny, so a comparison with a constant compares f32 values; its
// i1 result is no float edge, so the deny does not spread to the where
// between the matmuls. convert (an i1 mask to float) is clear and follows
// its f16 neighbour.
func.func @compare_and_convert(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %ids: tensor<4x8xi64>, %zero: tensor<i64>) -> tensor<4x8xf32> {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = arith.constant dense<1.000000e-01> : tensor<f32>
  // expected-remark @below {{f32 (deny)}}
  %c = nn.compare gt, %0, %t : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  // expected-remark @below {{f16 (between-allow)}}
  %1 = nn.where %c, %0, %t : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %pad = nn.compare eq, %ids, %zero : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x8xi1>
  // expected-remark @below {{f16 (follows-neighbour)}}
  %m = nn.convert %pad : tensor<4x8xi1> to tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %2 = nn.add %1, %m : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %3 = nn.matmul %2, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// The output-reading gradients follow their forward op through its result:
// tanh_grad is f16 with its tanh, rsqrt_grad f32 with its (deny) rsqrt, and
// reduce_max_grad follows its reduce_max.
func.func @tied_output_grads(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %t = nn.tanh %0 : tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %r = nn.rsqrt %0 : tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %m = nn.reduce_max %0 [1] keep_dims : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // expected-remark @below {{f16 (allow)}}
  %dy = nn.matmul %t, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (tied-to-forward)}}
  %dt = nn.tanh_grad %dy, %t : tensor<4x8xf32>
  // expected-remark @below {{f32 (tied-to-forward)}}
  %dr = nn.rsqrt_grad %dy, %r : tensor<4x8xf32>
  // expected-remark @below {{f16 (tied-to-forward)}}
  %dm = nn.reduce_max_grad %m, %0, %m [1] keep_dims : (tensor<4x1xf32>, tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %1 = nn.matmul %dt, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %2 = nn.matmul %dm, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %1, %dr, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
