// RUN: amp-opt %s -split-input-file --amp-verify-runtime-contract -verify-diagnostics | FileCheck %s

// What amp-to-runtime produces passes unchanged.
// CHECK-LABEL: llvm.func @ok
// CHECK: llvm.call @amp_fill
llvm.func @amp_fill(!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
llvm.func @ok(%bufs: !llvm.ptr) -> i32 {
  %p = llvm.load %bufs : !llvm.ptr -> !llvm.ptr
  %n = llvm.mlir.constant(4 : i64) : i64
  %d = llvm.mlir.constant(0 : i32) : i32
  %v = llvm.mlir.constant(1.0 : f32) : f32
  %s = llvm.mlir.zero : !llvm.ptr
  %st = llvm.call @amp_fill(%p, %n, %d, %v, %s) : (!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
  llvm.return %st : i32
}

// -----

func.func @left(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{amp-verify-runtime-contract: 'nn.relu' is not part of what the runtime ABI runs}}
  %y = nn.relu %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @below {{amp-verify-runtime-contract: '@malloc' is declared but is not a runtime function}}
llvm.func @malloc(i64) -> !llvm.ptr

// -----

// expected-error @below {{amp-verify-runtime-contract: '@amp_fill' is declared as '!llvm.func<i32 (ptr, i32, i32, f32, ptr)>' but the runtime ABI has '!llvm.func<i32 (ptr, i64, i32, f32, ptr)>'}}
llvm.func @amp_fill(!llvm.ptr, i32, i32, f32, !llvm.ptr) -> i32

// -----

llvm.func @indirect(%f: !llvm.ptr) -> i32 {
  // expected-error @below {{amp-verify-runtime-contract: indirect calls are not part of the runtime ABI}}
  %r = llvm.call %f() : !llvm.ptr, () -> i32
  llvm.return %r : i32
}
