// RUN: amp-opt %s -split-input-file --amp-master-weights -verify-diagnostics | FileCheck %s

// Duplicate working copies of a param merge into one at the top of the step,
// shared by forward and backward.
// CHECK-LABEL: func @merge_copies
// CHECK-SAME: (%[[W:.*]]: tensor<8x8xf32> {nn.role = #nn.role<param>}, %[[X:.*]]: tensor<4x8xf16> {nn.role = #nn.role<input>})
// CHECK-NEXT: %[[W16:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NEXT: nn.matmul %[[X]], %[[W16]]
// CHECK-NEXT: nn.matmul %{{.*}}, %[[W16]] {transpose_b}
// CHECK-NOT: amp.cast
func.func @merge_copies(%w: tensor<8x8xf32> {nn.role = #nn.role<param>}, %x: tensor<4x8xf16> {nn.role = #nn.role<input>}) -> tensor<4x8xf16> {
  %w1 = amp.cast %w : tensor<8x8xf32> to tensor<8x8xf16>
  %y = nn.matmul %x, %w1 : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %w2 = amp.cast %w : tensor<8x8xf32> to tensor<8x8xf16>
  %dx = nn.matmul %y, %w2 {transpose_b} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  return %dx : tensor<4x8xf16>
}

// -----

// A weight gradient cast to f32 for the update becomes an f32 GEMM result.
// CHECK-LABEL: func @fuse_grad_cast
// CHECK: %[[DW:.*]] = nn.matmul {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf32>
// CHECK-NEXT: nn.sgd_update %{{.*}}, %[[DW]]
// CHECK-NOT: amp.cast
func.func @fuse_grad_cast(%w: tensor<8x8xf32> {nn.role = #nn.role<param>}, %x: tensor<4x8xf16> {nn.role = #nn.role<input>}, %dy: tensor<4x8xf16> {nn.role = #nn.role<input>}) -> tensor<8x8xf32> {
  %dw16 = nn.matmul %x, %dy {transpose_a} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  %dw = amp.cast %dw16 : tensor<8x8xf16> to tensor<8x8xf32>
  %w1 = nn.sgd_update %w, %dw {lr = 0.1 : f32} : tensor<8x8xf32>
  return %w1 : tensor<8x8xf32>
}

// -----

// So does an RMSprop's and an Adagrad's (every update, through
// OptimizerUpdateOpInterface).
// CHECK-LABEL: func @fuse_grad_cast_rmsprop_adagrad
// CHECK: %[[DW:.*]] = nn.matmul {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[DV:.*]] = nn.matmul {{.*}} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf32>
// CHECK-NEXT: nn.rmsprop_update %{{.*}}, %[[DW]], %{{.*}} {lr
// CHECK-NEXT: nn.adagrad_update %{{.*}}, %[[DV]], %{{.*}} {lr
// CHECK-NOT: amp.cast
func.func @fuse_grad_cast_rmsprop_adagrad(%w: tensor<8x8xf32> {nn.role = #nn.role<param>}, %v: tensor<8x8xf32> {nn.role = #nn.role<param>},
    %sq: tensor<8x8xf32> {nn.role = #nn.role<opt_state>}, %sum: tensor<8x8xf32> {nn.role = #nn.role<opt_state>},
    %x: tensor<4x8xf16> {nn.role = #nn.role<input>}, %dy: tensor<4x8xf16> {nn.role = #nn.role<input>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %dw16 = nn.matmul %x, %dy {transpose_a} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  %dv16 = nn.matmul %dy, %x {transpose_a} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  %dw = amp.cast %dw16 : tensor<8x8xf16> to tensor<8x8xf32>
  %dv = amp.cast %dv16 : tensor<8x8xf16> to tensor<8x8xf32>
  %w1, %sq1 = nn.rmsprop_update %w, %dw, %sq {lr = 0.01 : f32} : tensor<8x8xf32>
  %v1, %sum1 = nn.adagrad_update %v, %dv, %sum {lr = 0.01 : f32} : tensor<8x8xf32>
  return %w1, %v1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A gradient cast whose source has other uses, or does not accumulate, stays.
// CHECK-LABEL: func @keep_grad_cast
// CHECK: %[[T:.*]] = nn.tanh
// CHECK-NEXT: %[[C:.*]] = amp.cast %[[T]]
// CHECK-NEXT: nn.sgd_update %{{.*}}, %[[C]]
func.func @keep_grad_cast(%w: tensor<8xf32> {nn.role = #nn.role<param>}, %g: tensor<8xf16> {nn.role = #nn.role<input>}) -> tensor<8xf32> {
  %t = nn.tanh %g : tensor<8xf16>
  %c = amp.cast %t : tensor<8xf16> to tensor<8xf32>
  %w1 = nn.sgd_update %w, %c {lr = 0.1 : f32} : tensor<8xf32>
  return %w1 : tensor<8xf32>
}

// -----

// expected-error @below {{argument #0 (param) must be an f32 tensor: params, buffers and optimizer state are f32 masters, got 'tensor<8xf16>'}}
func.func @f16_param(%w: tensor<8xf16> {nn.role = #nn.role<param>}) -> tensor<8xf16> {
  return %w : tensor<8xf16>
}

// -----

// expected-error @below {{result #0 (opt_state) must be an f32 tensor: params, buffers and optimizer state are f32 masters, got 'tensor<8xbf16>'}}
func.func @bf16_state(%m: tensor<8xbf16>) -> (tensor<8xbf16> {nn.role = #nn.role<opt_state>}) {
  return %m : tensor<8xbf16>
}

// -----

func.func @f16_update(%w: tensor<8xf16>, %g: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @below {{optimizer updates must read f32 masters, state and gradients, got 'tensor<8xf16>'}}
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<8xf16>
  return %w1 : tensor<8xf16>
}

// -----

func.func @f16_adagrad_update(%w: tensor<8xf16>, %g: tensor<8xf16>, %sum: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @below {{optimizer updates must read f32 masters, state and gradients, got 'tensor<8xf16>'}}
  %w1, %sum1 = nn.adagrad_update %w, %g, %sum {lr = 0.01 : f32} : tensor<8xf16>
  return %w1 : tensor<8xf16>
}

// -----

// expected-error @below {{argument #0 (buffer) must be an f32 tensor: params, buffers and optimizer state are f32 masters, got 'tensor<8xf16>'}}
func.func @f16_buffer(%rm: tensor<8xf16> {nn.role = #nn.role<buffer>}) -> tensor<8xf16> {
  return %rm : tensor<8xf16>
}
