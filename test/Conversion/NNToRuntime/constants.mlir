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
// whose payload must survive) keep one element in a global: it is copied
// into a one-element buffer (4 bytes) and broadcast to the shape, so the
// module holds 4 bytes at any size (AMP_DTYPE_I32 = 3, F32 = 0).
// CHECK-DAG: llvm.mlir.global internal constant @[[BIG:__amp_const_[0-9_]+]]("\01\00\00\01")
// CHECK-DAG: llvm.mlir.global internal constant @[[NAN:__amp_const_[0-9_]+]]("\01\00\C0\7F")
// CHECK-DAG: llvm.mlir.global internal constant @[[SHAPE:__amp_i64_100000000]](
// CHECK-DAG: llvm.mlir.global internal constant @[[SHAPE2:__amp_i64_2_4294967296]](
// CHECK-LABEL: func.func @not_fillable(
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[E:.*]] = llvm.call @amp_alloc(%[[FOUR]], %{{.*}})
// CHECK: %[[G:.*]] = llvm.mlir.addressof @[[BIG]] : !llvm.ptr
// CHECK: llvm.call @amp_memcpy(%[[E]], %[[G]], %[[FOUR]], %{{.*}})
// CHECK: %[[DIMS:.*]] = llvm.mlir.addressof @[[SHAPE]]
// CHECK: %[[I32:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @amp_broadcast_to(%[[E]], %{{.*}}, %{{.*}}, %{{.*}}, %[[DIMS]], %{{.*}}, %[[I32]], %{{.*}})
// CHECK: %[[N:.*]] = llvm.call @amp_alloc(%[[FOUR]], %{{.*}})
// CHECK: %[[GN:.*]] = llvm.mlir.addressof @[[NAN]] : !llvm.ptr
// CHECK: llvm.call @amp_memcpy(%[[N]], %[[GN]], %[[FOUR]], %{{.*}})
// CHECK: %[[DIMS2:.*]] = llvm.mlir.addressof @[[SHAPE2]]
// CHECK: llvm.call @amp_broadcast_to(%[[N]], %{{.*}}, %{{.*}}, %{{.*}}, %[[DIMS2]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: llvm.call @amp_fill
// CHECK: return
func.func @not_fillable() -> (tensor<100000000xi32>, tensor<2x4294967296xf32>) {
  %c = arith.constant dense<16777217> : tensor<100000000xi32>
  %n = arith.constant dense<0x7FC00001> : tensor<2x4294967296xf32>
  return %c, %n : tensor<100000000xi32>, tensor<2x4294967296xf32>
}

// -----

// A single element is its bytes, copied.
// CHECK: llvm.mlir.global internal constant @[[ONE:__amp_const_[0-9_]+]]("\01\00\00\01")
// CHECK-LABEL: func.func @one_element(
// CHECK: llvm.call @amp_memcpy(%{{.*}}, %{{.*}}, {{.*}})
// CHECK-NOT: llvm.call @amp_broadcast_to
// CHECK: return
func.func @one_element() -> tensor<1xi32> {
  %c = arith.constant dense<16777217> : tensor<1xi32>
  return %c : tensor<1xi32>
}
