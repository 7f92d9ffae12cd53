// RUN: amp-opt %s -test-nn-infer-types -verify-diagnostics -o /dev/null

// Result-type inference of the amp ops that implement InferTypeOpInterface:
// each remark lists the types inferred from the operands alone.

func.func @loss_scaling(%loss: tensor<f32>, %l16: tensor<2xf16>, %scale: tensor<f32>,
                        %g0: tensor<8xf16>, %g1: tensor<4x4xbf16>, %g2: tensor<3xf32>) {
  // The seed has the loss's type, whatever the (f32) scale.
  // expected-remark @+1 {{inferred: 'tensor<f32>'}}
  %0 = amp.scaled_grad_seed %loss, %scale : tensor<f32>
  // expected-remark @+1 {{inferred: 'tensor<2xf16>'}}
  %1 = amp.scaled_grad_seed %l16, %scale : tensor<2xf16>
  // One unscaled gradient per gradient, of its type, then an i1 flag.
  // expected-remark @+1 {{inferred: 'tensor<8xf16>', 'tensor<4x4xbf16>', 'tensor<3xf32>', 'tensor<i1>'}}
  %2:4 = amp.unscale_and_check %scale, %g0, %g1, %g2 : tensor<8xf16>, tensor<4x4xbf16>, tensor<3xf32>
  return
}

// amp.cast, amp.update_scale and the region ops state their result types.
func.func @not_inferred(%x: tensor<4xf32>, %scale: tensor<f32>, %t: tensor<i32>, %f: tensor<i1>) {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf16>
  %1:2 = amp.update_scale %scale, %t, %f : tensor<f32>, tensor<i32>
  %2 = amp.autocast -> tensor<4xf32> {
    amp.yield %x : tensor<4xf32>
  }
  %3 = amp.skip_step_if %f keep(%x : tensor<4xf32>) {
    amp.yield %x : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
