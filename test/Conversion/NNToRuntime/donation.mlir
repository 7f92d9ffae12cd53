// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime | FileCheck %s

// An argument with amp.aliasing_output = N donates its buffer to result N.
// The update reads each element of the param and the momentum before it
// writes the new value: new_param is the param's buffer and new_momentum
// the momentum's, and the result slots (3 and 4) are not used.
// CHECK-LABEL: func.func @sgd(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1>}
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[W:.*]] = llvm.load %[[P0]]
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[M:.*]] = llvm.load %[[P1]]
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[BUFS]][2]
// CHECK: %[[G:.*]] = llvm.load %[[P2]]
// CHECK: llvm.call @amp_sgd_update(%[[W]], %[[G]], %[[M]], %[[W]], %[[M]],
// CHECK-NOT: getelementptr %[[BUFS]][3]
// CHECK-NOT: getelementptr %[[BUFS]][4]
// CHECK-NOT: llvm.call @amp_alloc
// CHECK-NOT: llvm.call @amp_memcpy
// CHECK: return
func.func @sgd(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
               %m: tensor<4xf32> {amp.aliasing_output = 1 : i64},
               %g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %nw, %nm = nn.sgd_update %w, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<4xf32>
  return %nw, %nm : tensor<4xf32>, tensor<4xf32>
}

// -----

// The same without the attribute: each result is computed in its own slot.
// CHECK-LABEL: func.func @sgd_not_donated(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 {
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[W:.*]] = llvm.load %[[P0]]
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[BUFS]][3]
// CHECK: %[[NW:.*]] = llvm.load %[[P3]]
// CHECK: %[[P4:.*]] = llvm.getelementptr %[[BUFS]][4]
// CHECK: %[[NM:.*]] = llvm.load %[[P4]]
// CHECK: llvm.call @amp_sgd_update(%[[W]], %{{.*}}, %{{.*}}, %[[NW]], %[[NM]],
func.func @sgd_not_donated(%w: tensor<4xf32>, %m: tensor<4xf32>, %g: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %nw, %nm = nn.sgd_update %w, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<4xf32>
  return %nw, %nm : tensor<4xf32>, tensor<4xf32>
}

// -----

// AdamW with AMSGrad inside amp.skip_step_if: the param, both moments, the
// step counter and the running maxima are updated in place (a skipped step
// leaves them as they were, with found_inf, slot 6, passed to the kernel).
// CHECK-LABEL: func.func @adam(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1, 2, 3, 4>}
// CHECK: %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[M:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[T:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P6:.*]] = llvm.getelementptr %[[BUFS]][6]
// CHECK: %[[FOUND:.*]] = llvm.load %[[P6]]
// CHECK: llvm.call @amp_adam_update(%[[W]], %[[G]], %[[M]], %[[V]], %[[T]], %[[X]], %[[W]], %[[M]], %[[V]], %[[T]], %[[X]], {{.*}}, %[[FOUND]], %{{.*}})
// CHECK-NOT: llvm.call @amp_alloc
func.func @adam(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                %m: tensor<4xf32> {amp.aliasing_output = 1 : i64},
                %v: tensor<4xf32> {amp.aliasing_output = 2 : i64},
                %t: tensor<f32> {amp.aliasing_output = 3 : i64},
                %x: tensor<4xf32> {amp.aliasing_output = 4 : i64},
                %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>) {
  %r:5 = amp.skip_step_if %found keep(%w, %m, %v, %t, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>) {
    %u:5 = nn.adam_update %w, %g, %m, %v, %t max_exp_avg_sq(%x) {lr = 1.0e-3 : f32, beta1 = 0.9 : f32, beta2 = 0.999 : f32, eps = 1.0e-8 : f32, weight_decay = 0.0 : f32, amsgrad} : tensor<4xf32>
    amp.yield %u#0, %u#1, %u#2, %u#3, %u#4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>
  } -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xf32>
}

// -----

// A centered RMSprop without momentum inside amp.skip_step_if: the param,
// square_avg and grad_avg are updated in place, in the kernel's order
// (param, grad, square_avg, momentum_buf, grad_avg, then the new ones), the
// absent momentum buffers NULL.
// CHECK-LABEL: func.func @rmsprop(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1, 2>}
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P4:.*]] = llvm.getelementptr %[[BUFS]][4]
// CHECK: %[[FOUND:.*]] = llvm.load %[[P4]]
// CHECK: llvm.call @amp_rmsprop_update(%[[W]], %[[G]], %[[V]], %[[NULL]], %[[A]], %[[W]], %[[V]], %[[NULL]], %[[A]], {{.*}}, %[[FOUND]], %{{.*}})
// CHECK-NOT: llvm.call @amp_alloc
func.func @rmsprop(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                   %v: tensor<4xf32> {amp.aliasing_output = 1 : i64},
                   %a: tensor<4xf32> {amp.aliasing_output = 2 : i64},
                   %g: tensor<4xf32>, %found: tensor<i1>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r:3 = amp.skip_step_if %found keep(%w, %v, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %u:3 = nn.rmsprop_update %w, %g, %v grad_avg(%a) {lr = 1.0e-2 : f32, centered} : tensor<4xf32>
    amp.yield %u#0, %u#1, %u#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  } -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0, %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A run of updates is one multi-tensor call at the first: the pointer
// array of the new params holds the params themselves.
// CHECK-LABEL: func.func @multi(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1>}
// CHECK: %[[PARAMS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: %[[W0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.store %[[W0]], %{{.*}}
// CHECK: %[[W1:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.store %[[W1]], %{{.*}}
// CHECK: %[[GRADS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: %[[NEW:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: %[[E0:.*]] = llvm.getelementptr %[[NEW]][0]
// CHECK-NEXT: llvm.store %[[W0]], %[[E0]]
// CHECK: %[[E1:.*]] = llvm.getelementptr %[[NEW]][1]
// CHECK-NEXT: llvm.store %[[W1]], %[[E1]]
// CHECK: llvm.call @amp_sgd_update_multi(%{{.*}}, %[[PARAMS]], %[[GRADS]], %{{.*}}, %[[NEW]],
// CHECK-NOT: llvm.call @amp_alloc
func.func @multi(%w0: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                 %w1: tensor<8xf32> {amp.aliasing_output = 1 : i64},
                 %g0: tensor<4xf32>, %g1: tensor<8xf32>)
    -> (tensor<4xf32>, tensor<8xf32>) {
  %a = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  %b = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<8xf32>
  return %a, %b : tensor<4xf32>, tensor<8xf32>
}

// -----

// The multi-tensor call computes %b at the first update, before nn.neg
// reads %w1: %b gets a buffer of its own (result slot 5), %a is in place.
// CHECK-LABEL: func.func @read_after_the_call(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, -1, -1>}
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[W1:.*]] = llvm.load %[[P1]]
// CHECK: %[[P5:.*]] = llvm.getelementptr %[[BUFS]][5]
// CHECK: %[[B:.*]] = llvm.load %[[P5]]
// CHECK: llvm.store %[[B]], %{{.*}}
// CHECK: llvm.call @amp_sgd_update_multi(
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[W1]],
func.func @read_after_the_call(%w0: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                               %w1: tensor<4xf32> {amp.aliasing_output = 1 : i64},
                               %g0: tensor<4xf32>, %g1: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = nn.sgd_update %w0, %g0 {lr = 0.1 : f32} : tensor<4xf32>
  %n = nn.neg %w1 : tensor<4xf32>
  %b = nn.sgd_update %w1, %g1 {lr = 0.1 : f32} : tensor<4xf32>
  return %a, %b, %n : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Not in place: a reshape of the param read after the update; the update
// returned as another result than the one the param is donated to; and a
// result returned twice, once as the one its operand is donated to (nn.neg
// has its own slot, copied to the other).
// CHECK-LABEL: func.func @not_in_place(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 {
// CHECK: llvm.call @amp_sgd_update_multi(
// CHECK: llvm.call @amp_unary(
func.func @not_in_place(%w0: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                        %w1: tensor<4xf32> {amp.aliasing_output = 2 : i64},
                        %s: tensor<4xf32> {amp.aliasing_output = 3 : i64},
                        %g: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r = nn.reshape %w0 : tensor<4xf32> -> tensor<2x2xf32>
  %a = nn.sgd_update %w0, %g {lr = 0.1 : f32} : tensor<4xf32>
  %b = nn.sgd_update %w1, %g {lr = 0.1 : f32} : tensor<4xf32>
  %n = nn.neg %s : tensor<4xf32>
  return %a, %r, %n, %n, %b : tensor<4xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// An argument returned unchanged as the result it is donated to is not
// copied; one returned as another result is.
// CHECK-LABEL: func.func @unchanged(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, -1>}
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[W:.*]] = llvm.load %[[P0]]
// CHECK: %[[P3:.*]] = llvm.getelementptr %[[BUFS]][3]
// CHECK: %[[R1:.*]] = llvm.load %[[P3]]
// CHECK: llvm.call @amp_memcpy(%[[R1]], %[[W]],
// CHECK-NOT: llvm.call @amp_memcpy
// CHECK: return
func.func @unchanged(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                     %v: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %w, %w : tensor<4xf32>, tensor<4xf32>
}

// -----

// Any op whose kernel may write a result over an operand computes it in a
// donated argument's buffer, as the optimizer updates do: nn-autodiff's
// moving average ema + w * (param - ema) is added into the average's
// buffer (slot 1), after the nn.sub that reads it. The average of %f is
// read after its nn.add (by the nn.mul), so it gets its own slot.
// CHECK-LABEL: func.func @ema(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1, -1>}
// CHECK: llvm.call @amp_sgd_update(
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[E:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @amp_binary(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[E]], %[[D:[a-z0-9]+]],
// CHECK: llvm.call @amp_binary(%{{[a-z0-9]+}}, %[[D]], %{{[a-z0-9]+}}, %[[T:[a-z0-9]+]],
// CHECK: llvm.call @amp_binary(%{{[a-z0-9]+}}, %[[E]], %[[T]], %[[E]],
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[BUFS]][2]
// CHECK: %[[F:.*]] = llvm.load %[[P2]]
// CHECK: %[[P6:.*]] = llvm.getelementptr %[[BUFS]][6]
// CHECK: %[[NF:.*]] = llvm.load %[[P6]]
// CHECK: llvm.call @amp_binary(%{{[a-z0-9]+}}, %[[F]], %{{[a-z0-9]+}}, %[[NF]],
func.func @ema(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
               %e: tensor<4xf32> {amp.aliasing_output = 1 : i64},
               %f: tensor<4xf32> {amp.aliasing_output = 2 : i64},
               %g: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nw = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  %weight = arith.constant dense<0.25> : tensor<f32>
  %d = nn.sub %nw, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %t = nn.mul %d, %weight : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %ne = nn.add %e, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %nf = nn.add %f, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %u = nn.mul %f, %weight : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %nw, %ne, %nf : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// nn-autodiff's nn.ema_update computes each new average in its donated
// average's buffer (slots 1 and 2): one amp_ema_update whose averages and
// new averages are the same pointers, and no buffer allocated.
// CHECK-LABEL: func.func @ema_update(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32 attributes {amp.results_in_arguments = array<i64: 0, 1, 2>}
// CHECK-NOT: llvm.call @amp_alloc(
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[E:.*]] = llvm.load %[[P1]]
// CHECK: llvm.store %[[E]],
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[BUFS]][2]
// CHECK: %[[F:.*]] = llvm.load %[[P2]]
// CHECK: llvm.store %[[F]],
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: llvm.store %[[E]],
// CHECK: llvm.store %[[F]],
// CHECK: %[[P5:.*]] = llvm.getelementptr %[[BUFS]][5]
// CHECK: %[[WEIGHT:.*]] = llvm.load %[[P5]]
// CHECK: llvm.call @amp_ema_update(%{{.*}}, %[[IN]], %{{.*}}, %[[OUT]], %{{.*}}, %{{.*}}, %[[WEIGHT]], %{{.*}})
// CHECK-NOT: llvm.call @amp_alloc(
// CHECK: return
func.func @ema_update(%w: tensor<4xf32> {amp.aliasing_output = 0 : i64},
                      %e: tensor<4xf32> {amp.aliasing_output = 1 : i64},
                      %f: tensor<3xf32> {amp.aliasing_output = 2 : i64},
                      %g: tensor<4xf32>, %b: tensor<3xf32>,
                      %weight: tensor<f32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<3xf32>) {
  %nw = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  %a:2 = nn.ema_update %e, %f toward %nw, %b weight(%weight) : tensor<4xf32>, tensor<3xf32>
  return %nw, %a#0, %a#1 : tensor<4xf32>, tensor<4xf32>, tensor<3xf32>
}
