// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime | FileCheck %s
// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime=in-place=false | FileCheck %s --check-prefix=OFF

// amp.unscale_and_check unscales each gradient that dies there in its own
// buffer (the kernel allows unscaled[i] == grads[i]): the two pointer
// arrays hold the same buffers, and no buffer is allocated for the results.
// With in-place=false each result has a buffer of its own.
// OFF-LABEL: func.func @unscale(
// OFF-COUNT-4: llvm.call @amp_alloc(
// OFF-NOT: llvm.call @amp_alloc(
// OFF: return
// CHECK-LABEL: func.func @unscale(
// CHECK: %[[GA:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[GA]],
// CHECK: %[[GB:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[GB]],
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: llvm.store %[[GA]],
// CHECK: llvm.store %[[GB]],
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: llvm.store %[[GA]],
// CHECK: llvm.store %[[GB]],
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: llvm.call @amp_unscale_and_check(%{{.*}}, %[[IN]], %[[OUT]],
// CHECK: llvm.call @amp_reduce(%{{.*}}, %[[GA]],
// CHECK: llvm.call @amp_reduce(%{{.*}}, %[[GB]],
func.func @unscale(%scale: tensor<f32>, %a: tensor<4xf32>, %b: tensor<8xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<i1>) {
  %ga = nn.neg %a : tensor<4xf32>
  %gb = nn.neg %b : tensor<8xf32>
  %u:2, %found = amp.unscale_and_check %scale, %ga, %gb : tensor<4xf32>, tensor<8xf32>
  %x = nn.reduce_sum %u#0 [0] : (tensor<4xf32>) -> tensor<f32>
  %y = nn.reduce_sum %u#1 [0] : (tensor<8xf32>) -> tensor<f32>
  return %x, %y, %found : tensor<f32>, tensor<f32>, tensor<i1>
}

// -----

// Not in place: a gradient read after the call (%ga), an argument (the
// caller's buffer, %b), a gradient passed twice (%gc: the outputs of
// different buffers must not overlap) and a constant: each of those
// results gets a buffer of its own. A gradient seen through a reshape that
// dies (%n) is unscaled in place.
// CHECK-LABEL: func.func @not_in_place(
// CHECK: %[[GA:.*]] = llvm.call @amp_alloc(
// CHECK: %[[GC:.*]] = llvm.call @amp_alloc(
// CHECK: %[[GD:.*]] = llvm.call @amp_alloc(
// CHECK: %[[CST:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_memcpy(%[[CST]],
// CHECK: %[[U0:.*]] = llvm.call @amp_alloc(
// CHECK: %[[U1:.*]] = llvm.call @amp_alloc(
// CHECK: %[[U2:.*]] = llvm.call @amp_alloc(
// CHECK: %[[U3:.*]] = llvm.call @amp_alloc(
// CHECK: %[[U5:.*]] = llvm.call @amp_alloc(
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
// CHECK: llvm.store %[[U0]],
// CHECK: llvm.store %[[U1]],
// CHECK: llvm.store %[[U2]],
// CHECK: llvm.store %[[U3]],
// CHECK: llvm.store %[[GD]],
// CHECK: llvm.store %[[U5]],
// CHECK: llvm.call @amp_unscale_and_check(%{{.*}}, %[[IN]], %[[OUT]],
func.func @not_in_place(%scale: tensor<f32>, %a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i1>) {
  %ga = nn.neg %a : tensor<4xf32>
  %gc = nn.neg %b : tensor<4xf32>
  %n = nn.neg %a : tensor<4xf32>
  %gd = nn.reshape %n : tensor<4xf32> -> tensor<2x2xf32>
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %u:6, %found = amp.unscale_and_check %scale, %ga, %b, %gc, %gc, %gd, %cst : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>
  %x = nn.reduce_sum %ga [0] : (tensor<4xf32>) -> tensor<f32>
  %s0 = nn.reduce_sum %u#0 [0] : (tensor<4xf32>) -> tensor<f32>
  %s1 = nn.reduce_sum %u#1 [0] : (tensor<4xf32>) -> tensor<f32>
  %s2 = nn.reduce_sum %u#2 [0] : (tensor<4xf32>) -> tensor<f32>
  %s3 = nn.reduce_sum %u#3 [0] : (tensor<4xf32>) -> tensor<f32>
  %s4 = nn.reduce_sum %u#4 [0, 1] : (tensor<2x2xf32>) -> tensor<f32>
  %s5 = nn.reduce_sum %u#5 [0] : (tensor<4xf32>) -> tensor<f32>
  return %s0, %s1, %s2, %s3, %x, %s4, %s5, %found : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i1>
}

// -----

// nn.clip_grad_norm scales each gradient that dies there in place
// (clipped[i] == grads[i]); the total norm is returned in its slot.
// CHECK-LABEL: func.func @clip(
// CHECK: %[[G:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[G]],
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x ptr>
// CHECK: llvm.store %[[G]],
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x ptr>
// CHECK: llvm.store %[[G]],
// CHECK: llvm.call @amp_clip_grad_norm(%{{.*}}, %[[IN]], %[[OUT]],
// CHECK: llvm.call @amp_reduce(%{{.*}}, %[[G]],
func.func @clip(%a: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %g = nn.neg %a : tensor<4xf32>
  %c, %norm = nn.clip_grad_norm %g {max_norm = 1.0 : f32} : tensor<4xf32>
  %s = nn.reduce_sum %c [0] : (tensor<4xf32>) -> tensor<f32>
  return %s, %norm : tensor<f32>, tensor<f32>
}

// -----

// nn.clip_grad_value clamps in place too, and the nn.clip_grad_norm after
// it scales the clamped values in the same buffer; each call gets its bound
// and the norm its norm_type (inf).
// CHECK-LABEL: func.func @clip_value_then_norm(
// CHECK: %[[G:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[G]],
// CHECK-NOT: llvm.call @amp_alloc
// CHECK-DAG: %[[CV:.*]] = llvm.mlir.constant(2.500000e-01 : f32) : f32
// CHECK: llvm.call @amp_clip_grad_value(%{{.*}}, %[[VIN:.*]], %[[VOUT:.*]], %{{.*}}, %{{.*}}, %[[CV]], %{{.*}}) :
// CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-DAG: %[[P:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
// CHECK: llvm.call @amp_clip_grad_norm(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MAX]], %[[P]], %{{.*}}, %{{.*}}) :
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: llvm.call @amp_reduce(%{{.*}}, %[[G]],
func.func @clip_value_then_norm(%a: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %g = nn.neg %a : tensor<4xf32>
  %v = nn.clip_grad_value %g {clip_value = 0.25 : f32} : tensor<4xf32>
  %c, %norm = nn.clip_grad_norm %v {max_norm = 1.0 : f32, norm_type = 0x7F800000 : f32} : tensor<4xf32>
  %s = nn.reduce_sum %c [0] : (tensor<4xf32>) -> tensor<f32>
  return %s, %norm : tensor<f32>, tensor<f32>
}

// -----

// Elementwise ops, softmax and its gradient reuse an operand of the
// result's type that dies there: nn.add takes %n's buffer (the broadcast
// %b never), nn.softmax too; nn.exp cannot take %s's (read later), so %e
// gets a new one, over which nn.softmax_grad writes dx (over dy) and
// nn.relu its result. The returned nn.mul is computed in its result slot,
// not in place.
// OFF-LABEL: func.func @chain(
// OFF-COUNT-6: llvm.call @amp_alloc(
// OFF-NOT: llvm.call @amp_alloc(
// OFF: return
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr)
// CHECK: %[[N:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[N]],
// CHECK: llvm.call @amp_binary(%{{.*}}, %[[N]], %{{.*}}, %[[N]],
// CHECK: llvm.call @amp_softmax(%[[N]], %[[N]],
// CHECK: %[[E:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[N]], %[[E]],
// CHECK: llvm.call @amp_softmax_grad(%[[E]], %[[N]], %[[E]],
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[E]], %[[E]],
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[BUFS]][2]
// CHECK: %[[OUT:.*]] = llvm.load %[[P2]]
// CHECK: llvm.call @amp_binary(%{{.*}}, %[[E]], %[[N]], %[[OUT]],
// CHECK-NOT: llvm.call @amp_alloc
// CHECK: return
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %n = nn.neg %x : tensor<4x8xf32>
  %a = nn.add %n, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %s = nn.softmax %a {axis = -1 : i64} : tensor<4x8xf32>
  %e = nn.exp %s : tensor<4x8xf32>
  %g = nn.softmax_grad %e, %s {axis = -1 : i64} : tensor<4x8xf32>
  %r = nn.relu %g : tensor<4x8xf32>
  %m = nn.mul %r, %s : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// A broadcast lhs is never the output; the full-shape rhs is when it dies.
// An operand of another dtype is never reused (amp.cast), nor an operand
// of an op without a declared pair (nn.transpose).
// CHECK-LABEL: func.func @operands_of_other_shapes(
// CHECK: %[[R:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[R]],
// CHECK: llvm.call @amp_binary(%{{.*}}, %{{.*}}, %[[R]], %[[R]],
// CHECK: %[[C:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_cast(%[[R]], %[[C]],
// CHECK: llvm.call @amp_transpose(%[[C]], %[[T:[^,]*]],
func.func @operands_of_other_shapes(%b: tensor<8xf32>, %x: tensor<4x8xf32>) -> tensor<8x4xf16> {
  %r = nn.neg %x : tensor<4x8xf32>
  %a = nn.add %b, %r : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = amp.cast %a : tensor<4x8xf32> to tensor<4x8xf16>
  %t = nn.transpose %c [1, 0] : tensor<4x8xf16> -> tensor<8x4xf16>
  return %t : tensor<8x4xf16>
}

// -----

// In a loop body, a value defined outside is never reused (the body runs
// again and reads it again), nor the loop-carried block argument; a value
// made in the body and dying there is.
// CHECK-LABEL: func.func @loop(
// CHECK: %[[M:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[M]],
// CHECK: %[[N:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[N]],
// CHECK: scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}})
// CHECK:   %[[E:.*]] = llvm.call @amp_alloc(
// CHECK:   llvm.call @amp_unary(%{{.*}}, %[[N]], %[[E]],
// CHECK:   llvm.call @amp_binary(%{{.*}}, %[[A]], %[[E]], %[[E]],
// CHECK:   scf.yield %[[E]]
func.func @loop(%x: tensor<4xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = nn.neg %x : tensor<4xf32>
  %n = nn.neg %x : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %m) -> (tensor<4xf32>) {
    %e = nn.exp %n : tensor<4xf32>
    %s = nn.add %a, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  %t = nn.reduce_sum %r [0] : (tensor<4xf32>) -> tensor<f32>
  return %t : tensor<f32>
}
