// RUN: amp-opt %s -split-input-file --nn-recompute | FileCheck %s
// RUN: amp-opt %s -split-input-file --nn-recompute -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// A GELU's output, read by the weight gradient, is recomputed from its
// input, which gelu_grad reads anyway: the forward's copy dies at the
// second matmul.
// CHECK-LABEL: func.func @gelu(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x8xf32>, %[[W2:[a-z0-9]+]]: tensor<8x2xf32>, %[[Y:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK:         %[[H:.*]] = nn.matmul %[[X]], %[[W]]
// CHECK-NEXT:    %[[A:.*]] = nn.gelu %[[H]]
// CHECK-NEXT:    %[[P:.*]] = nn.matmul %[[A]], %[[W2]]
// CHECK-NEXT:    %[[L:.*]] = nn.mse_loss %[[P]], %[[Y]]
// CHECK-NEXT:    %[[S:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT:    %[[DP:.*]] = nn.mse_loss_grad %[[S]], %[[P]], %[[Y]]
// CHECK-NEXT:    %[[A2:.*]] = nn.gelu %[[H]]
// CHECK-NEXT:    %[[DW2:.*]] = nn.matmul %[[A2]], %[[DP]] {transpose_a}
// CHECK-NEXT:    %[[DA:.*]] = nn.matmul %[[DP]], %[[W2]] {transpose_b}
// CHECK-NEXT:    %[[DH:.*]] = nn.gelu_grad %[[DA]], %[[H]]
// CHECK-NEXT:    %[[DW:.*]] = nn.matmul %[[X]], %[[DH]] {transpose_a}
// CHECK-NEXT:    return %[[DW]], %[[DW2]], %[[L]]
// LOC-LABEL: func.func @gelu(
// LOC:         nn.gelu %{{.*}} : tensor<4x8xf32> loc(#[[FWD:loc[0-9]+]])
// LOC:         nn.gelu %{{.*}} : tensor<4x8xf32> loc(#[[RE:loc[0-9]+]])
// LOC-DAG:     #[[FWD]] = loc("gelu.mlir":1:1)
// LOC-DAG:     #[[RE]] = loc(fused<"recompute">[#[[FWD]]])
func.func @gelu(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %w2: tensor<8x2xf32>, %y: tensor<4x2xf32>) -> (tensor<8x8xf32>, tensor<8x2xf32>, tensor<f32>) {
  %h = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %a = nn.gelu %h : tensor<4x8xf32> loc("gelu.mlir":1:1)
  %p = nn.matmul %a, %w2 : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %l = nn.mse_loss %p, %y : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<f32>
  %s = nn.grad_seed %l : tensor<f32>
  %dp = nn.mse_loss_grad %s, %p, %y : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %dw2 = nn.matmul %a, %dp {transpose_a} : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %da = nn.matmul %dp, %w2 {transpose_b} : (tensor<4x2xf32>, tensor<8x2xf32>) -> tensor<4x8xf32>
  %dh = nn.gelu_grad %da, %h : tensor<4x8xf32>
  %dw = nn.matmul %x, %dh {transpose_a} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %dw, %dw2, %l : tensor<8x8xf32>, tensor<8x2xf32>, tensor<f32>
}

// -----

// The f16 copy of a layer norm's output (what AMP's matmul reads) is
// recomputed with the layer norm, whose input layer_norm_grad reads; the
// clone's statistics serve layer_norm_grad too. The f16 copy of the
// weight is recomputed from the param. After amp.scaled_grad_seed as
// after nn.grad_seed.
// CHECK-LABEL: func.func @layer_norm_cast(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[G:[a-z0-9]+]]: tensor<8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[W:[a-z0-9]+]]: tensor<8x8xf32>, %[[SC:[a-z0-9]+]]: tensor<f32>, %[[DZ:[a-z0-9]+]]: tensor<4x8xf16>
// CHECK:         %[[WH:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NEXT:    %[[N:.*]], %{{.*}}, %{{.*}} = nn.layer_norm %[[X]], %[[G]], %[[B]]
// CHECK-NEXT:    %[[NH:.*]] = amp.cast %[[N]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT:    %[[Z:.*]] = nn.matmul %[[NH]], %[[WH]]
// CHECK-NEXT:    %[[L:.*]] = nn.reduce_sum %[[Z]]
// CHECK-NEXT:    %[[S:.*]] = amp.scaled_grad_seed %[[L]], %[[SC]]
// CHECK-NEXT:    %[[N2:.*]], %[[M2:.*]], %[[R2:.*]] = nn.layer_norm %[[X]], %[[G]], %[[B]]
// CHECK-NEXT:    %[[NH2:.*]] = amp.cast %[[N2]] : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK-NEXT:    %[[DW:.*]] = nn.matmul %[[NH2]], %[[DZ]] {transpose_a}
// CHECK-NEXT:    %[[WH2:.*]] = amp.cast %[[W]] : tensor<8x8xf32> to tensor<8x8xf16>
// CHECK-NEXT:    %[[DN:.*]] = nn.matmul %[[DZ]], %[[WH2]] {transpose_b}
// CHECK-NEXT:    %[[DNF:.*]] = amp.cast %[[DN]]
// CHECK-NEXT:    %[[DX:.*]], %{{.*}}, %{{.*}} = nn.layer_norm_grad %[[DNF]], %[[X]], %[[M2]], %[[R2]], %[[G]]
// CHECK-NEXT:    return %[[DW]], %[[DX]], %[[S]]
func.func @layer_norm_cast(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x8xf32>, %scale: tensor<f32>, %dz: tensor<4x8xf16>) -> (tensor<8x8xf32>, tensor<4x8xf32>, tensor<f32>) {
  %wh = amp.cast %w : tensor<8x8xf32> to tensor<8x8xf16>
  %n, %mean, %rstd = nn.layer_norm %x, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  %nh = amp.cast %n : tensor<4x8xf32> to tensor<4x8xf16>
  %z = nn.matmul %nh, %wh : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %l = nn.reduce_sum %z [0, 1] : (tensor<4x8xf16>) -> tensor<f32>
  %s = amp.scaled_grad_seed %l, %scale : tensor<f32>
  %dw = nn.matmul %nh, %dz {transpose_a} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf32>
  %dn = nn.matmul %dz, %wh {transpose_b} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %dnf = amp.cast %dn : tensor<4x8xf16> to tensor<4x8xf32>
  %dx, %dg, %db = nn.layer_norm_grad %dnf, %x, %mean, %rstd, %g : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %dw, %dx, %s : tensor<8x8xf32>, tensor<4x8xf32>, tensor<f32>
}

// -----

// Kept: a matmul's result (ComputeBound), a relu's output (the GEMM
// lowering serves relu_grad from it), an exp whose input the backward
// pass does not keep (recomputing it would keep that input longer), and a
// value the function returns.
// CHECK-LABEL: func.func @kept(
// CHECK:         nn.matmul %arg0, %arg1 :
// CHECK-NEXT:    nn.relu
// CHECK-NEXT:    nn.matmul %arg0, %arg1 {transpose_b}
// CHECK-NEXT:    nn.exp
// CHECK-NEXT:    nn.tanh
// CHECK:         nn.grad_seed
// CHECK-NOT:     nn.matmul
// CHECK-NOT:     = nn.relu %
// CHECK-NOT:     = nn.exp %
// CHECK-NOT:     = nn.tanh %
// CHECK:         return
func.func @kept(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = nn.relu %h : tensor<4x8xf32>
  %k = nn.matmul %x, %w {transpose_b} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %e = nn.exp %k : tensor<4x8xf32>
  %t = nn.tanh %x : tensor<4x8xf32>
  %l = nn.reduce_sum %e [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  %s = nn.grad_seed %l : tensor<f32>
  %m = nn.mul %h, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %dh = nn.relu_grad %m, %h : tensor<4x8xf32>
  %d2 = nn.mul %r, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %d3 = nn.mul %t, %e : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %dh, %d2, %d3, %t, %m : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Chains: the f16 copy of neg(neg(neg(neg(x)))) is recomputed, four ops
// deep to an argument; one more op and it is kept.
// CHECK-LABEL: func.func @chain(
// CHECK:         nn.grad_seed
// CHECK-NEXT:    %[[N1:.*]] = nn.neg %arg0
// CHECK-NEXT:    %[[N2:.*]] = nn.neg %[[N1]]
// CHECK-NEXT:    %[[N3:.*]] = nn.neg %[[N2]]
// CHECK-NEXT:    %[[N4:.*]] = nn.neg %[[N3]]
// CHECK-NEXT:    %[[C:.*]] = amp.cast %[[N4]]
// CHECK-NEXT:    nn.mul %[[C]], %arg2
// CHECK-NEXT:    nn.mul %{{.*}}, %arg2
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @chain_too_long(
// CHECK:         %[[C:.*]] = amp.cast
// CHECK:         nn.grad_seed
// CHECK-NEXT:    nn.mul %[[C]], %arg2
// CHECK-NEXT:    return
func.func @chain(%x: tensor<4xf32>, %l: tensor<f32>, %d: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %n1 = nn.neg %x : tensor<4xf32>
  %n2 = nn.neg %n1 : tensor<4xf32>
  %n3 = nn.neg %n2 : tensor<4xf32>
  %n4 = nn.neg %n3 : tensor<4xf32>
  %c = amp.cast %n4 : tensor<4xf32> to tensor<4xf16>
  %f = nn.mul %c, %c : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %s = nn.grad_seed %l : tensor<f32>
  %g = nn.mul %c, %d : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %g2 = nn.mul %g, %d : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %f, %g2 : tensor<4xf16>, tensor<4xf16>
}
func.func @chain_too_long(%x: tensor<4xf32>, %l: tensor<f32>, %d: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %n0 = nn.neg %x : tensor<4xf32>
  %n1 = nn.neg %n0 : tensor<4xf32>
  %n2 = nn.neg %n1 : tensor<4xf32>
  %n3 = nn.neg %n2 : tensor<4xf32>
  %n4 = nn.neg %n3 : tensor<4xf32>
  %c = amp.cast %n4 : tensor<4xf32> to tensor<4xf16>
  %f = nn.mul %c, %c : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %s = nn.grad_seed %l : tensor<f32>
  %g = nn.mul %c, %d : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %f, %g : tensor<4xf16>, tensor<4xf16>
}

// -----

// A dropout is recomputed with its seed, so it draws the same mask. An op
// with no use before the seed moves after it.
// CHECK-LABEL: func.func @dropout_and_move(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[SEED:[a-z0-9]+]]: tensor<i64>
// CHECK-NEXT:    %[[D:.*]] = nn.dropout %[[X]], %[[SEED]] {rate = 1.000000e-01 : f32, training}
// CHECK-NEXT:    %[[L:.*]] = nn.reduce_sum %[[D]]
// CHECK-NEXT:    %[[S:.*]] = nn.grad_seed %[[L]]
// CHECK-NEXT:    %[[T:.*]] = nn.tanh %[[X]]
// CHECK-NEXT:    %[[D2:.*]] = nn.dropout %[[X]], %[[SEED]] {rate = 1.000000e-01 : f32, training}
// CHECK-NEXT:    %[[G:.*]] = nn.mul %[[D2]], %[[T]]
// CHECK-NEXT:    %[[G2:.*]] = nn.dropout %[[G]], %[[SEED]] {rate = 1.000000e-01 : f32, training}
// CHECK-NEXT:    return %[[G2]], %[[S]]
func.func @dropout_and_move(%x: tensor<4x8xf32>, %seed: tensor<i64>) -> (tensor<4x8xf32>, tensor<f32>) {
  %d = nn.dropout %x, %seed {rate = 0.1 : f32, training} : tensor<4x8xf32>
  %t = nn.tanh %x : tensor<4x8xf32>
  %l = nn.reduce_sum %d [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  %s = nn.grad_seed %l : tensor<f32>
  %g = nn.mul %d, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g2 = nn.dropout %g, %seed {rate = 0.1 : f32, training} : tensor<4x8xf32>
  return %g2, %s : tensor<4x8xf32>, tensor<f32>
}

// -----

// Gradient accumulation: the f16 weight copy that both micro-batches'
// forward passes read is recomputed before its first use after the first
// seed, and the second micro-batch reads the clone. A function without a
// seed (the forward pass kept for evaluation) is left as it is.
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME:    %[[W:[a-z0-9]+]]: tensor<8x8xf32>, %[[X1:[a-z0-9]+]]: tensor<4x8xf16>, %[[X2:[a-z0-9]+]]: tensor<4x8xf16>
// CHECK-NEXT:    %[[WH:.*]] = amp.cast %[[W]]
// CHECK-NEXT:    %[[Y1:.*]] = nn.matmul %[[X1]], %[[WH]]
// CHECK-NEXT:    %[[L1:.*]] = nn.reduce_sum %[[Y1]]
// CHECK-NEXT:    %[[S1:.*]] = nn.grad_seed %[[L1]]
// CHECK-NEXT:    %[[WH2:.*]] = amp.cast %[[W]]
// CHECK-NEXT:    %[[G1:.*]] = nn.matmul %[[X1]], %[[WH2]] {transpose_b}
// CHECK-NEXT:    %[[Y2:.*]] = nn.matmul %[[X2]], %[[WH2]]
// CHECK-NEXT:    %[[L2:.*]] = nn.reduce_sum %[[Y2]]
// CHECK-NEXT:    %[[S2:.*]] = nn.grad_seed %[[L2]]
// CHECK-NEXT:    %[[G2:.*]] = nn.matmul %[[X2]], %[[WH2]] {transpose_b}
// CHECK-NEXT:    return %[[G1]], %[[G2]]
// CHECK-LABEL: func.func @no_seed(
// CHECK-NEXT:    amp.cast
// CHECK-NEXT:    nn.matmul
// CHECK-NEXT:    nn.matmul
// CHECK-NEXT:    return
func.func @accumulate(%w: tensor<8x8xf32>, %x1: tensor<4x8xf16>, %x2: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<f32>, tensor<f32>) {
  %wh = amp.cast %w : tensor<8x8xf32> to tensor<8x8xf16>
  %y1 = nn.matmul %x1, %wh : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %l1 = nn.reduce_sum %y1 [0, 1] : (tensor<4x8xf16>) -> tensor<f32>
  %s1 = nn.grad_seed %l1 : tensor<f32>
  %g1 = nn.matmul %x1, %wh {transpose_b} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %y2 = nn.matmul %x2, %wh : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %l2 = nn.reduce_sum %y2 [0, 1] : (tensor<4x8xf16>) -> tensor<f32>
  %s2 = nn.grad_seed %l2 : tensor<f32>
  %g2 = nn.matmul %x2, %wh {transpose_b} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  return %g1, %g2, %s1, %s2 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<f32>, tensor<f32>
}
func.func @no_seed(%w: tensor<8x8xf32>, %x1: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %wh = amp.cast %w : tensor<8x8xf32> to tensor<8x8xf16>
  %y1 = nn.matmul %x1, %wh : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %g1 = nn.matmul %x1, %wh {transpose_b} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  return %g1 : tensor<4x8xf16>
}

// -----

// A layer norm whose statistics the function returns is not recomputed
// (they live to the end anyway), so neither is the f16 copy of its output,
// which would keep that output alive to the backward pass.
// CHECK-LABEL: func.func @returned_producer(
// CHECK:         %[[N:.*]], %[[M:.*]], %{{.*}} = nn.layer_norm
// CHECK-NEXT:    %[[NH:.*]] = amp.cast %[[N]]
// CHECK-NEXT:    nn.grad_seed
// CHECK-NEXT:    %[[D:.*]] = nn.mul %[[NH]], %arg3
// CHECK-NEXT:    return %[[D]], %[[M]]
func.func @returned_producer(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %d: tensor<4x8xf16>, %l: tensor<f32>) -> (tensor<4x8xf16>, tensor<4xf32>) {
  %n, %mean, %rstd = nn.layer_norm %x, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
  %nh = amp.cast %n : tensor<4x8xf32> to tensor<4x8xf16>
  %s = nn.grad_seed %l : tensor<f32>
  %dd = nn.mul %nh, %d : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return %dd, %mean : tensor<4x8xf16>, tensor<4xf32>
}
