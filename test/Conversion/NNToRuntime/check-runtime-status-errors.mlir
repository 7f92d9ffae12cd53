// RUN: amp-opt %s -split-input-file -verify-diagnostics --amp-check-runtime-status

// The status slot's failure is returned: a function that calls the runtime
// must return the i32 status.
llvm.func @amp_fill(!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
// expected-error @below {{amp-check-runtime-status: a function that calls the runtime must return the i32 status of the runner's calling convention (amp-lower-to-runtime), not '(!llvm.ptr, i64) -> ()'}}
func.func @no_status(%p: !llvm.ptr, %n: i64) {
  %dt = llvm.mlir.constant(0 : i32) : i32
  %v = llvm.mlir.constant(1.0 : f32) : f32
  %null = llvm.mlir.zero : !llvm.ptr
  %s = llvm.call @amp_fill(%p, %n, %dt, %v, %null) : (!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
  return
}

// -----

// Checks branch, so the calls must be in the function's body (after
// convert-scf-to-cf), not in a structured op's region.
llvm.func @amp_fill(!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
func.func @in_region(%p: !llvm.ptr, %n: i64, %c: i1) -> i32 {
  %dt = llvm.mlir.constant(0 : i32) : i32
  %v = llvm.mlir.constant(1.0 : f32) : f32
  %null = llvm.mlir.zero : !llvm.ptr
  scf.if %c {
    // expected-error @below {{amp-check-runtime-status: runtime calls must be in the function's body, not in a nested region (convert-scf-to-cf first)}}
    %s = llvm.call @amp_fill(%p, %n, %dt, %v, %null) : (!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
  }
  %ok = arith.constant 0 : i32
  return %ok : i32
}
