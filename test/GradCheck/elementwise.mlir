// Gradient checks of the elementwise ops, each alone through the scalar loss
// sum(op(p) * w) with a random weight input w, so that no gradient is
// symmetric or all ones. log, sqrt and rsqrt draw their inputs from
// [0.5, 2] (nn.check_range); div's divisor too.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9) for every op here.
// Measured max abs error 1.2e-9 (8.9e-9 over seeds 0-2, relative 2.1e-9:
// atanh near 0.9, whose derivative reaches 5), the f64 rounding of the loss
// over 2h and the central difference's h^2 term; relu passes like the smooth ops because its
// kink is crossed only when |x| < h, which no seeded value here is.
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 | FileCheck %s

// CHECK-LABEL: @neg: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @neg(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.neg %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @exp: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @exp(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.exp %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @log: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @log(%p: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.log %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @sqrt: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @sqrt(%p: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sqrt %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @rsqrt: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @rsqrt(%p: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.rsqrt %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @tanh: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @tanh(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.tanh %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @sigmoid: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @sigmoid(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sigmoid %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @relu: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @relu(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.relu %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @gelu: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @gelu(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.gelu %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @gelu_erf: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @gelu_erf(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.gelu_erf %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// sin, cos and erf, each of a param (erf's argument scaled so that its
// derivative varies over the elements).
// CHECK-LABEL: @sin_cos_erf: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %q [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %r [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @sin_cos_erf(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                       %q: tensor<3x4xf32> {nn.role = #nn.role<param>},
                       %r: tensor<3x4xf32> {nn.role = #nn.role<param>},
                       %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %s = nn.sin %p : tensor<3x4xf32>
  %c = nn.cos %q : tensor<3x4xf32>
  %e = nn.erf %r : tensor<3x4xf32>
  %sc = nn.mul %s, %c : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %sce = nn.add %sc, %e : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = nn.mul %sce, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// tan, asin, acos and atan, each of a param; asin's and acos's inputs in
// [-0.9, 0.9], inside their domains and away from the poles of their
// derivatives at +-1.
// CHECK-LABEL: @trig_inverse: loss {{.*}}: ok
// CHECK-NEXT:    %p0 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p1 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p2 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p3 [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @trig_inverse(%p0: tensor<3x4xf32> {nn.role = #nn.role<param>},
                        %p1: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-0.9, 0.9]},
                        %p2: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-0.9, 0.9]},
                        %p3: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-3.0, 3.0]},
                        %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y0 = nn.tan %p0 : tensor<3x4xf32>
  %y1 = nn.asin %p1 : tensor<3x4xf32>
  %y2 = nn.acos %p2 : tensor<3x4xf32>
  %y3 = nn.atan %p3 : tensor<3x4xf32>
  %s1 = nn.add %y0, %y1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s2 = nn.add %s1, %y2 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s3 = nn.add %s2, %y3 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = nn.mul %s3, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// sinh, cosh, asinh, acosh and atanh; acosh's input in [1.2, 3] (its
// domain is x >= 1, its derivative infinite at 1), atanh's in [-0.9, 0.9].
// CHECK-LABEL: @hyperbolic: loss {{.*}}: ok
// CHECK-NEXT:    %p0 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p1 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p2 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p3 [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %p4 [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @hyperbolic(%p0: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-2.0, 2.0]},
                      %p1: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-2.0, 2.0]},
                      %p2: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-3.0, 3.0]},
                      %p3: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [1.2, 3.0]},
                      %p4: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-0.9, 0.9]},
                      %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y0 = nn.sinh %p0 : tensor<3x4xf32>
  %y1 = nn.cosh %p1 : tensor<3x4xf32>
  %y2 = nn.asinh %p2 : tensor<3x4xf32>
  %y3 = nn.acosh %p3 : tensor<3x4xf32>
  %y4 = nn.atanh %p4 : tensor<3x4xf32>
  %s1 = nn.add %y0, %y1 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s2 = nn.add %s1, %y2 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s3 = nn.add %s2, %y3 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s4 = nn.add %s3, %y4 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = nn.mul %s4, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %y [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// floor, ceil, round and sign are locally constant, so only the outer
// factor p carries a gradient: (floor(3p) + ceil(3p) + round(3p) * sign(p))
// * p. The central differences cross no step at the seeded values (none
// within h of one).
// CHECK-LABEL: @step_functions: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @step_functions(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                          %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %three = arith.constant dense<3.0> : tensor<f32>
  %p3 = nn.mul %p, %three : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %a = nn.floor %p3 : tensor<3x4xf32>
  %b = nn.ceil %p3 : tensor<3x4xf32>
  %c = nn.round %p3 : tensor<3x4xf32>
  %d = nn.sign %p : tensor<3x4xf32>
  %ab = nn.add %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %cd = nn.mul %c, %d : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = nn.add %ab, %cd : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %y = nn.mul %s, %p : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Numpy broadcasting: the gradient of the broadcast operand is summed back.
// CHECK-LABEL: @add_bias: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4]: 4 of 4 elements, {{.*}}: ok
func.func @add_bias(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %b: tensor<4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.add %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @sub_row: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [1x4]: 4 of 4 elements, {{.*}}: ok
func.func @sub_row(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                   %b: tensor<1x4xf32> {nn.role = #nn.role<param>},
                   %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.sub %a, %b : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @mul_column: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3x1]: 3 of 3 elements, {{.*}}: ok
func.func @mul_column(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                      %b: tensor<3x1xf32> {nn.role = #nn.role<param>},
                      %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %a, %b : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A 0-d operand broadcasts over everything.
// CHECK-LABEL: @mul_scalar: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %s []: 1 of 1 elements, {{.*}}: ok
func.func @mul_scalar(%a: tensor<3x4xf32> {nn.role = #nn.role<param>},
                      %s: tensor<f32> {nn.role = #nn.role<param>},
                      %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.mul %a, %s : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// The broadcast operand on the left; the divisor in [0.5, 2].
// CHECK-LABEL: @div: loss {{.*}}: ok
// CHECK-NEXT:    %a [4]: 4 of 4 elements, {{.*}}: ok
// CHECK-NEXT:    %b [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @div(%a: tensor<4xf32> {nn.role = #nn.role<param>},
               %b: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
               %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.div %a, %b : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A tensor exponent broadcast over the rows, both operands params: the
// base in [0.5, 2] (log(base) in the exponent's derivative), the exponent
// in [-1.5, 2.5].
// CHECK-LABEL: @powf: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4]: 4 of 4 elements, {{.*}}: ok
func.func @powf(%a: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
                %b: tensor<4xf32> {nn.role = #nn.role<param>, nn.check_range = [-1.5, 2.5]},
                %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.powf %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Both remainders of a dividend in [-6, 6] by a divisor in [0.7, 1.9]
// broadcast over the rows (negative quotients, so fmod's trunc and
// remainder's floor differ); the central differences cross no jump at the
// seeded values (none within h of a multiple of the divisor).
// CHECK-LABEL: @remainders: loss {{.*}}: ok
// CHECK-NEXT:    %a [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %b [4]: 4 of 4 elements, {{.*}}: ok
func.func @remainders(%a: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [-6.0, 6.0]},
                      %b: tensor<4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.7, 1.9]},
                      %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %m = nn.mod %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %f = nn.mod %a, %b {fmod} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %f3 = nn.mul %f, %three : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %y = nn.add %m, %f3 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK: summary: 21 functions, 37 params, 384 elements ({{.*}}): all passed
