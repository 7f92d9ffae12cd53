// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime -verify-diagnostics | FileCheck %s

// Splats that amp_fill stores exactly are one fill of the element count with
// the dtype (AMP_DTYPE_F16 = 1, I32 = 3, I64 = 4, BOOL = 5): no bytes in the
// module, whatever the size.
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: func.func @splats(
// CHECK-DAG: %[[N4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG: %[[F16:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[HALF:.*]] = llvm.mlir.constant(-5.000000e-01 : f32) : f32
// CHECK: llvm.call @amp_fill(%{{.*}}, %[[N4]], %[[F16]], %[[HALF]], %{{.*}})
// CHECK-DAG: %[[I32:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-DAG: %[[SEVEN:.*]] = llvm.mlir.constant(7.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_fill(%{{.*}}, %[[N4]], %[[I32]], %[[SEVEN]], %{{.*}})
// CHECK-DAG: %[[I64:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[MAX:.*]] = llvm.mlir.constant(0xCB800000 : f32) : f32
// CHECK: llvm.call @amp_fill(%{{.*}}, %[[N4]], %[[I64]], %[[MAX]], %{{.*}})
// CHECK-DAG: %[[BOOL:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: llvm.call @amp_fill(%{{.*}}, %[[N4]], %[[BOOL]], %[[ONE]], %{{.*}})
// CHECK-DAG: %[[HUGE:.*]] = llvm.mlir.constant(4294967296 : i64) : i64
// CHECK: llvm.call @amp_fill(%{{.*}}, %[[HUGE]], %[[I32]], %{{.*}}, %{{.*}})
// CHECK-NOT: llvm.call @amp_memcpy
// CHECK: return
func.func @splats() -> (tensor<4xf16>, tensor<4xi32>, tensor<4xi64>, tensor<4xi1>, tensor<4294967296xi32>) {
  %h = arith.constant dense<-0.5> : tensor<4xf16>
  %i = arith.constant dense<7> : tensor<4xi32>
  %l = arith.constant dense<-16777216> : tensor<4xi64>
  %b = arith.constant dense<true> : tensor<4xi1>
  %z = arith.constant dense<0> : tensor<4294967296xi32>
  return %h, %i, %l, %b, %z : tensor<4xf16>, tensor<4xi32>, tensor<4xi64>, tensor<4xi1>, tensor<4294967296xi32>
}

// -----

// Splats that amp_fill cannot store exactly (an integer above 2^24, a NaN,
// whose payload must survive) are bytes in a global, copied with amp_memcpy.
// CHECK: llvm.mlir.global internal constant @[[BIG:__amp_const_[0-9_]+]]("\01\00\00\01\01\00\00\01")
// CHECK-LABEL: func.func @not_fillable(
// CHECK: %[[G:.*]] = llvm.mlir.addressof @[[BIG]] : !llvm.ptr
// CHECK: llvm.call @amp_memcpy(%{{.*}}, %[[G]], {{.*}})
// CHECK-NOT: llvm.call @amp_fill
// CHECK: return
func.func @not_fillable() -> tensor<2xi32> {
  %c = arith.constant dense<16777217> : tensor<2xi32>
  return %c : tensor<2xi32>
}

// -----

// A constant the lowering would embed must be at most 256 MiB: 400 MB here.
func.func @too_large() -> tensor<100000000xi32> {
  // expected-error @below {{amp-lower-to-runtime: a constant of 400000000 bytes is larger than the 268435456 bytes the lowering embeds in a step; pass it as an argument instead}}
  %c = arith.constant dense<16777217> : tensor<100000000xi32>
  return %c : tensor<100000000xi32>
}
