// Gradient checks of the new elementwise ops, each alone through the
// scalar loss sum(op(...) * w) with a random weight input w: maximum and
// minimum (both operands params, rhs broadcast), abs, pow (an integer and a
// fractional exponent), clamp (both bounds, one bound), where (both
// branches params, rhs broadcast; the i1 condition drawn from [0, 2) by
// nn.check_range) and dropout (training, with the i64 seed drawn by
// nn.check_range, and not training). Every element is checked.
//
// Kinks: maximum/minimum at ties, abs at 0 and clamp at its bounds break
// the central difference only when a value lies within h of the kink: no
// seeded value here does (p and q are independent uniforms in [-1, 1); the
// clamp bounds +-0.5 sit inside that range so that both the clamped and
// the passed-through branches are checked). pow with exponent 2.5 draws its
// base from [0.5, 2] (nn.check_range), where x^1.5 is smooth.
//
// Tolerance: the defaults (h 1e-5, rtol 1e-6, atol 1e-9). Measured max abs
// error 1.0e-10 at seeds 0-2 (pow, whose x^3 has the largest third
// derivative; the piecewise linear ops stay below 5e-11).
// RUN: amp-grad-check %s --step 1e-5 --rtol 1e-6 --atol 1e-9 --max-checks-per-param 100 | FileCheck %s

// CHECK-LABEL: @maximum: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %q [4]: 4 of 4 elements, {{.*}}: ok
func.func @maximum(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                   %q: tensor<4xf32> {nn.role = #nn.role<param>},
                   %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.maximum %p, %q : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @minimum: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %q [3x1]: 3 of 3 elements, {{.*}}: ok
func.func @minimum(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                   %q: tensor<3x1xf32> {nn.role = #nn.role<param>},
                   %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.minimum %p, %q : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @abs: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @abs(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
               %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.abs %p : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @pow_cube: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @pow_cube(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                    %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.pow %p {exponent = 3.0 : f32} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @pow_fractional: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @pow_fractional(%p: tensor<3x4xf32> {nn.role = #nn.role<param>, nn.check_range = [0.5, 2.0]},
                          %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.pow %p {exponent = 2.5 : f32} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @clamp: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @clamp(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                 %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.clamp %p {min = -0.5 : f32, max = 0.5 : f32} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @clamp_min_only: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @clamp_min_only(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                          %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.clamp %p {min = 0.25 : f32} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @where: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
// CHECK-NEXT:    %q [4]: 4 of 4 elements, {{.*}}: ok
func.func @where(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                 %q: tensor<4xf32> {nn.role = #nn.role<param>},
                 %c: tensor<3x4xi1> {nn.role = #nn.role<input>, nn.check_range = [0.0, 2.0]},
                 %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.where %c, %p, %q : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @dropout_training: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @dropout_training(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                            %seed: tensor<i64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 1000.0]},
                            %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.dropout %p, %seed {rate = 0.25 : f32, training} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Seeds at the ends of i64 (an importer's seed is a hash of a name): the
// interpreter holds them as doubles, which round INT64_MAX up to 2^63; the
// seed saturates there instead of overflowing its conversion back.
// CHECK-LABEL: @dropout_extreme_seeds: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @dropout_extreme_seeds(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                                 %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %max = arith.constant dense<9223372036854775807> : tensor<i64>
  %min = arith.constant dense<-9223372036854775808> : tensor<i64>
  %y = nn.dropout %p, %max {rate = 0.25 : f32, training} : tensor<3x4xf32>
  %z = nn.dropout %y, %min {rate = 0.25 : f32, training} : tensor<3x4xf32>
  %zw = nn.mul %z, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %zw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: @dropout_eval: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @dropout_eval(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                        %seed: tensor<i64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 1000.0]},
                        %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %y = nn.dropout %p, %seed {rate = 0.25 : f32} : tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Masks: compare and convert carry no derivative (their result is i1, or
// depends only on i1), so p * (p > 0) has relu's gradient, and a padding
// mask from i64 ids (drawn from [0, 3) by nn.check_range) routes dy through
// nn.where as a constant condition.
// CHECK-LABEL: @masks: loss {{.*}}: ok
// CHECK-NEXT:    %p [3x4]: 12 of 12 elements, {{.*}}: ok
func.func @masks(%p: tensor<3x4xf32> {nn.role = #nn.role<param>},
                 %ids: tensor<3x4xi64> {nn.role = #nn.role<input>, nn.check_range = [0.0, 3.0]},
                 %w: tensor<3x4xf32> {nn.role = #nn.role<input>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %pos = nn.compare gt, %p, %zero : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xi1>
  %posf = nn.convert %pos : tensor<3x4xi1> to tensor<3x4xf32>
  %relu = nn.mul %p, %posf : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %zi = arith.constant dense<0> : tensor<i64>
  %pad = nn.compare eq, %ids, %zi : (tensor<3x4xi64>, tensor<i64>) -> tensor<3x4xi1>
  %y = nn.where %pad, %zero, %relu : (tensor<3x4xi1>, tensor<f32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %yw = nn.mul %y, %w : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = nn.reduce_sum %yw [0, 1] : (tensor<3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
