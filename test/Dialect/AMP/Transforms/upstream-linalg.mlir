// RUN: amp-opt %s -split-input-file --amp-assign-precision --amp-insert-casts | FileCheck %s
// The output is valid linalg/arith (the verifier runs on the re-parse):
// RUN: amp-opt %s -split-input-file --amp-assign-precision --amp-insert-casts | amp-opt -split-input-file > /dev/null
// RUN: amp-opt %s -split-input-file --amp-assign-precision="remarks=true" -verify-diagnostics > /dev/null

// Linalg on tensors as torch-mlir emits it. Casts are arith.truncf/extf on
// tensors, never amp.cast; payloads read the new types and compute as
// written; an empty init tensor is recreated in the low type.

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col = affine_map<(d0, d1) -> (d0)>

// An MLP: matmuls in f16 (f32 accumulators), bias add and relu in f16
// between them, softmax and a row sum in f32 read the second matmul's f32
// accumulator directly.
// CHECK-LABEL: func @linalg_mlp
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[W1:.*]]: tensor<16x32xf32>, %[[B1:.*]]: tensor<32xf32>, %[[W2:.*]]: tensor<32x4xf32>)
// CHECK-DAG: %[[X16:.*]] = arith.truncf %[[X]] : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK-DAG: %[[W116:.*]] = arith.truncf %[[W1]] : tensor<16x32xf32> to tensor<16x32xf16>
// CHECK-DAG: %[[B116:.*]] = arith.truncf %[[B1]] : tensor<32xf32> to tensor<32xf16>
// CHECK-DAG: %[[W216:.*]] = arith.truncf %[[W2]] : tensor<32x4xf32> to tensor<32x4xf16>
// CHECK-DAG: %[[E16:.*]] = tensor.empty() : tensor<8x32xf16>
// CHECK: %[[MM1:.*]] = linalg.matmul {{.*}}ins(%[[X16]], %[[W116]] : tensor<8x16xf16>, tensor<16x32xf16>) outs(%{{.*}} : tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK-NEXT: %[[MM116:.*]] = arith.truncf %[[MM1]] : tensor<8x32xf32> to tensor<8x32xf16>
// CHECK-NEXT: %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[MM116]], %[[B116]] : tensor<8x32xf16>, tensor<32xf16>) outs(%[[E16]] : tensor<8x32xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[IN0:.*]]: f16, %{{.*}}: f16):
// CHECK-DAG: arith.extf %[[IN]] : f16 to f32
// CHECK-DAG: arith.extf %[[IN0]] : f16 to f32
// CHECK: %[[SUM:.*]] = arith.addf {{.*}} : f32
// CHECK-NEXT: %[[SUM16:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[SUM16]] : f16
// CHECK: -> tensor<8x32xf16>
// CHECK-NEXT: %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<8x32xf16>) outs(%[[E16]] : tensor<8x32xf16>)
// CHECK: -> tensor<8x32xf16>
// CHECK: %[[MM2:.*]] = linalg.matmul {{.*}}ins(%[[RELU]], %[[W216]] : tensor<8x32xf16>, tensor<32x4xf16>) outs(%{{.*}} : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: linalg.softmax {{.*}}ins(%[[MM2]] : tensor<8x4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[MM2]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT: amp.cast
// CHECK-NOT: truncf
// CHECK: return
func.func @linalg_mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %z1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  // expected-remark @below {{f16 (allow)}}
  %mm1 = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %add = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%mm1, %b1 : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<8x32xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%add : tensor<8x32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %cst : f32
    %1 = arith.select %0, %in, %cst : f32
    linalg.yield %1 : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  // expected-remark @below {{f16 (allow)}}
  %mm2 = linalg.matmul ins(%relu, %w2 : tensor<8x32xf32>, tensor<32x4xf32>) outs(%z2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  // expected-remark @below {{f32 (deny)}}
  %sm = linalg.softmax dimension(1) ins(%mm2 : tensor<8x4xf32>) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %z3 = linalg.fill ins(%cst : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{f32 (deny)}}
  %sum = linalg.generic {indexing_maps = [#map, #col], iterator_types = ["parallel", "reduction"]} ins(%mm2 : tensor<8x4xf32>) outs(%z3 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %sm, %sum : tensor<8x4xf32>, tensor<8xf32>
}

// -----

// The coloring crosses the dialect boundary: nn.matmul -> linalg bias add
// -> nn.relu -> linalg.matmul is low precision throughout. Each cast is
// built by the dialect of the op it serves: amp.cast for nn, arith.truncf
// for linalg; nn.matmul's f16 result feeds the generic with no cast.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @mixed_nn_linalg
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK-DAG: %[[X16:.*]] = amp.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-DAG: %[[WAMP:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-DAG: %[[WARITH:.*]] = arith.truncf %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-DAG: %[[B16:.*]] = arith.truncf %[[B]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: %[[M:.*]] = nn.matmul %[[X16]], %[[WAMP]] {{.*}} -> tensor<4x8xf16>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[B16]] : tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK: -> tensor<4x8xf16>
// CHECK-NEXT: %[[R:.*]] = nn.relu %[[G]] {{.*}} : tensor<4x8xf16>
// CHECK: linalg.matmul {{.*}}ins(%[[R]], %[[WARITH]] : tensor<4x8xf16>, tensor<8x8xf16>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @mixed_nn_linalg(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %m = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %r = nn.relu %g : tensor<4x8xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %y = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A payload of math.exp is exp: denied in f16, so it reads the matmul's f32
// accumulator, while linalg.add reads its f16 copy (no round trip). Named
// elementwise ops are classified by name: linalg.add between two matmuls
// is low precision, linalg.exp is not.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @elementwise_classes
// CHECK: %[[M:.*]] = linalg.matmul {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: %[[M16:.*]] = arith.truncf %[[M]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[M]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK: math.exp %{{.*}} : f32
// CHECK-NOT: arith.extf {{.*}} : tensor
// CHECK: %[[A:.*]] = linalg.add {{.*}}ins(%[[M16]], %[[M16]] : tensor<4x8xf16>, tensor<4x8xf16>) outs(%{{.*}} : tensor<4x8xf16>) -> tensor<4x8xf16>
// CHECK: linalg.matmul {{.*}}ins(%[[A]], %{{.*}} : tensor<4x8xf16>, tensor<8x8xf16>)
// CHECK: linalg.exp {{.*}}ins(%[[M]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @elementwise_classes(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  // expected-remark @below {{f16 (between-allow)}}
  %a = linalg.add ins(%m, %m : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %m2 = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{f32 (deny)}}
  %e2 = linalg.exp ins(%m : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %exp, %m2, %e2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// batch_matmul and conv_2d_nchw_fchw are allow: f16 inputs, f32 init.
// CHECK-LABEL: func @contractions
// CHECK: linalg.batch_matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf16>, tensor<2x8x8xf16>) outs(%{{.*}} : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) outs(%{{.*}} : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
func.func @contractions(%a: tensor<2x4x8xf32>, %b: tensor<2x8x8xf32>, %c: tensor<2x4x8xf32>, %img: tensor<1x3x8x8xf32>, %f: tensor<4x3x3x3xf32>, %o: tensor<1x4x6x6xf32>) -> (tensor<2x4x8xf32>, tensor<1x4x6x6xf32>) {
  // expected-remark @below {{f16 (allow)}}
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x8xf32>) outs(%c : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  // expected-remark @below {{f16 (allow)}}
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %f : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %0, %1 : tensor<2x4x8xf32>, tensor<1x4x6x6xf32>
}

// -----

// A payload op in no precision list keeps the generic in f32, and the
// remark names the op.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @unlisted_payload
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
func.func @unlisted_payload(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{'linalg.generic' computes 'math.atan', which is in no precision list; it stays f32}}
  // expected-remark @below {{f32 (unlisted)}}
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.atan %in : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
