// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime -verify-diagnostics | FileCheck %s

// A step becomes `i32 @f(ptr)` over an array of buffers (arguments, then
// results); intermediates come from amp_alloc and are freed after their last
// use; the returned value is computed into its result buffer; every status is
// checked.
// CHECK-LABEL: llvm.func @step(
// CHECK-SAME: %[[BUFS:.*]]: !llvm.ptr) -> i32
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[BUFS]][0]
// CHECK: %[[X:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[BUFS]][1]
// CHECK: %[[OUT:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[TMP:.*]] = llvm.call @amp_alloc(%{{.*}}, %{{.*}}) : (i64, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @amp_cast(%[[X]], %[[TMP]], {{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i32, i32, !llvm.ptr) -> i32
// CHECK: llvm.cond_br
// CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.return
// CHECK: llvm.call @amp_unary(%{{.*}}, %[[TMP]], %[[OUT]], {{.*}})
// CHECK: llvm.call @amp_free(%[[TMP]], %{{.*}})
// CHECK-NOT: amp_free(%[[OUT]]
// CHECK: llvm.return %{{.*}} : i32
func.func @step(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  %h = amp.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %r = nn.relu %h : tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

// A matmul becomes amp_gemm with a filled descriptor; a reshape aliases.
// CHECK-LABEL: llvm.func @gemm
// CHECK: llvm.insertvalue {{.*}} : !llvm.struct<(ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i32, i32, i32, i32, i32, i32)>
// CHECK: llvm.call @amp_gemm(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK-NOT: amp_reshape
func.func @gemm(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<8xf32> {
  %m = nn.matmul %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf32>
  %r = nn.reshape %m : tensor<4x2xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Inside amp.skip_step_if the optimizer gets the found_inf buffer; outside
// it gets null.
// CHECK-LABEL: llvm.func @skip
// CHECK: %[[P1:.*]] = llvm.getelementptr %{{.*}}[1]
// CHECK: %[[FLAG:.*]] = llvm.load %[[P1]]
// CHECK: llvm.call @amp_sgd_update({{.*}}, %[[FLAG]], %{{.*}}) : {{.*}} -> i32
func.func @skip(%w: tensor<4xf32>, %inf: tensor<i1>, %g: tensor<4xf32>) -> tensor<4xf32> {
  %r = amp.skip_step_if %inf keep(%w : tensor<4xf32>) {
    %w1 = nn.sgd_update %w, %g {lr = 0.1 : f32} : tensor<4xf32>
    amp.yield %w1 : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A returned argument is copied into its result buffer.
// CHECK-LABEL: llvm.func @passthrough
// CHECK: llvm.call @amp_memcpy
func.func @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{amp-lower-to-runtime does not lower control flow on tensors yet}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @below {{amp-lower-to-runtime: function arguments and results must be static tensors of f32, f16, bf16, i32, i64 or i1, got 'f32'}}
func.func @scalar(%x: f32) -> f32 {
  return %x : f32
}
