// RUN: amp-opt %s --amp-lower-matmul-to-cublaslt --mlir-print-debuginfo | FileCheck %s

// A fused GEMM carries the locations of every op it replaces, so a
// diagnostic about it names the source lines of the matmul and its
// epilogue.

// CHECK-LABEL: func @layer
// CHECK: amp.gemm %arg0, %arg1 bias(%arg2) epilogue = relu_bias {{.*}} loc(#[[LOC:loc[0-9]+]])
// CHECK-DAG: #[[MM:loc[0-9]+]] = loc("mm")
// CHECK-DAG: #[[BIAS:loc[0-9]+]] = loc("bias")
// CHECK-DAG: #[[RELU:loc[0-9]+]] = loc("relu")
// CHECK: #[[LOC]] = loc(fused[#[[MM]], #[[BIAS]], #[[RELU]]])
func.func @layer(%x: tensor<4x8xf16>, %w: tensor<8x16xf16>, %b: tensor<16xf16>) -> tensor<4x16xf16> {
  %0 = nn.matmul %x, %w : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16> loc("mm")
  %1 = nn.add %0, %b : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16> loc("bias")
  %2 = nn.relu %1 : tensor<4x16xf16> loc("relu")
  return %2 : tensor<4x16xf16>
}
