// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime | FileCheck %s

// amp.unscale_and_check unscales each gradient that dies there in its own
// buffer (the kernel allows unscaled[i] == grads[i]): the two pointer
// arrays hold the same buffers, and no buffer is allocated for the results.
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
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[GA]],
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[GB]],
func.func @unscale(%scale: tensor<f32>, %a: tensor<4xf32>, %b: tensor<8xf32>)
    -> (tensor<4xf32>, tensor<8xf32>, tensor<i1>) {
  %ga = nn.neg %a : tensor<4xf32>
  %gb = nn.neg %b : tensor<8xf32>
  %u:2, %found = amp.unscale_and_check %scale, %ga, %gb : tensor<4xf32>, tensor<8xf32>
  %x = nn.neg %u#0 : tensor<4xf32>
  %y = nn.neg %u#1 : tensor<8xf32>
  return %x, %y, %found : tensor<4xf32>, tensor<8xf32>, tensor<i1>
}

// -----

// Not in place: a gradient read after the call (%ga), an argument (the
// caller's buffer, %b), a gradient passed twice (%gc: the outputs of
// different buffers must not overlap) and a constant: each of those
// results is computed in its result slot (3, 4, 5, 6 and 9). A gradient
// seen through a reshape that dies (%n) is unscaled in place: it is
// computed in result slot 8 itself.
// CHECK-LABEL: func.func @not_in_place(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr)
// CHECK: %[[GA:.*]] = llvm.call @amp_alloc(
// CHECK: %[[GC:.*]] = llvm.call @amp_alloc(
// CHECK: %[[P8:.*]] = llvm.getelementptr %[[BUFS]][8]
// CHECK: %[[GD:.*]] = llvm.load %[[P8]]
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[GD]],
// CHECK: %[[CST:.*]] = llvm.call @amp_alloc(
// CHECK: llvm.call @amp_memcpy(%[[CST]],
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
// CHECK: llvm.store %[[GA]],
// CHECK: llvm.store %{{.*}},
// CHECK: llvm.store %[[GC]],
// CHECK: llvm.store %[[GC]],
// CHECK: llvm.store %[[GD]],
// CHECK: llvm.store %[[CST]],
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<6 x ptr>
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[BUFS]][3]
// CHECK: %[[U0:.*]] = llvm.load %[[P3]]
// CHECK: llvm.store %[[U0]],
// CHECK: %[[P4:.*]] = llvm.getelementptr %[[BUFS]][4]
// CHECK: %[[U1:.*]] = llvm.load %[[P4]]
// CHECK: llvm.store %[[U1]],
// CHECK: %[[P5:.*]] = llvm.getelementptr %[[BUFS]][5]
// CHECK: %[[U2:.*]] = llvm.load %[[P5]]
// CHECK: llvm.store %[[U2]],
// CHECK: %[[P6:.*]] = llvm.getelementptr %[[BUFS]][6]
// CHECK: %[[U3:.*]] = llvm.load %[[P6]]
// CHECK: llvm.store %[[U3]],
// CHECK: llvm.store %[[GD]],
// CHECK: %[[P9:.*]] = llvm.getelementptr %[[BUFS]][9]
// CHECK: %[[U5:.*]] = llvm.load %[[P9]]
// CHECK: llvm.store %[[U5]],
// CHECK: llvm.call @amp_unscale_and_check(%{{.*}}, %[[IN]], %[[OUT]],
func.func @not_in_place(%scale: tensor<f32>, %a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<i1>) {
  %ga = nn.neg %a : tensor<4xf32>
  %gc = nn.neg %b : tensor<4xf32>
  %n = nn.neg %a : tensor<4xf32>
  %gd = nn.reshape %n : tensor<4xf32> -> tensor<2x2xf32>
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %u:6, %found = amp.unscale_and_check %scale, %ga, %b, %gc, %gc, %gd, %cst : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>
  %x = nn.neg %ga : tensor<4xf32>
  return %u#0, %u#1, %u#2, %u#3, %x, %u#4, %u#5, %found : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<i1>
}

// -----

// nn.clip_grad_norm scales each gradient that dies there in place
// (clipped[i] == grads[i]): the gradient is computed in result slot 1, the
// clipped result's, and both pointer arrays hold it.
// CHECK-LABEL: func.func @clip(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr)
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[G:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @amp_unary(%{{.*}}, %{{.*}}, %[[G]],
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x ptr>
// CHECK: llvm.store %[[G]],
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x ptr>
// CHECK: llvm.store %[[G]],
// CHECK: llvm.call @amp_clip_grad_norm(%{{.*}}, %[[IN]], %[[OUT]],
func.func @clip(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %g = nn.neg %a : tensor<4xf32>
  %c, %norm = nn.clip_grad_norm %g {max_norm = 1.0 : f32} : tensor<4xf32>
  return %c, %norm : tensor<4xf32>, tensor<f32>
}
