// RUN: amp-opt %s -split-input-file --amp-loss-scaling -verify-diagnostics
// RUN: amp-opt %s -split-input-file --amp-loss-scaling="mode=static" -verify-diagnostics

// Training steps loss scaling cannot rewrite safely are errors.

func.func @no_seed(%w: tensor<4xf32>, %g: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @above {{has optimizer updates but no nn.grad_seed: loss scaling needs to know where the backward pass starts}}
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  return %w1 : tensor<4xf32>
}

// -----

func.func @no_update(%x: tensor<4xf32>) -> tensor<f32> {
  %loss = nn.reduce_sum %x [0] : (tensor<4xf32>) -> tensor<f32>
  // expected-error @below {{no optimizer update consumes the gradients of this backward pass: loss-scaled gradients would never be unscaled}}
  %seed = nn.grad_seed %loss : tensor<f32>
  return %loss : tensor<f32>
}

// -----

func.func @gradient_not_from_seed(%w: tensor<4xf32>, %g: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %loss = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  // expected-error @below {{the gradient of this update does not come from nn.grad_seed: loss scaling would unscale a gradient that was never scaled}}
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  return %w1, %seed : tensor<4xf32>, tensor<f32>
}

// -----

func.func @scaled_value_returned(%w: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %loss = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
  // expected-error @below {{result #1 is computed from nn.grad_seed but does not go through an optimizer update: with loss scaling it would be returned scaled}}
  return %w1, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @update_in_region(%w: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %loss = nn.reduce_sum %w [0] : (tensor<4xf32>) -> tensor<f32>
  %seed = nn.grad_seed %loss : tensor<f32>
  %g = nn.broadcast_to %seed : tensor<f32> -> tensor<4xf32>
  %r = scf.if %c -> tensor<4xf32> {
    // expected-error @below {{loss scaling expects optimizer updates and gradient clipping at the top level of the training step, not inside a region}}
    %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
    scf.yield %w1 : tensor<4xf32>
  } else {
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
