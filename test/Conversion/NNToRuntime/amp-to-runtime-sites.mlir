// RUN: amp-opt %s -split-input-file --amp-to-runtime | FileCheck %s

// The sites' strings are one constant global, in the order of the calls,
// each once; a call passes its site's offset there (an i64 constant, one
// per function and offset) to its checked wrapper, which stores the
// string's address in @__amp_error_site when the call fails. The arena's
// allocation is the first site (0), the two relus at "first" share one (23),
// "second" is at 29; the arena's free is at the arena's site.
// CHECK: llvm.mlir.global internal constant @__amp_sites("buffer arena of @sites\00first\00second\00")
// CHECK-NOT: llvm.mlir.global internal constant @__amp_sites
// CHECK-LABEL: llvm.func @sites(
// CHECK-DAG: %[[SECOND:.*]] = llvm.mlir.constant(29 : i64) : i64
// CHECK-DAG: %[[FIRST:.*]] = llvm.mlir.constant(23 : i64) : i64
// CHECK-DAG: %[[ARENA:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @__amp_checked_amp_alloc(%{{[^,]*}}, %[[ARENA]],
// CHECK: llvm.call @__amp_checked_amp_unary(%{{[^,]*}}, %[[FIRST]],
// CHECK: llvm.call @__amp_checked_amp_unary(%{{[^,]*}}, %[[SECOND]],
// CHECK: llvm.call @__amp_checked_amp_unary(%{{[^,]*}}, %[[FIRST]],
// CHECK: llvm.call @__amp_checked_amp_free(%{{[^,]*}}, %[[ARENA]],
func.func @sites(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = nn.relu %x : tensor<4xf32> loc("first")
  %b = nn.relu %a : tensor<4xf32> loc("second")
  %c = nn.relu %b : tensor<4xf32> loc("first")
  return %c : tensor<4xf32>
}

// -----

// Functions share the module's strings (and the wrappers): @g's relu is at
// @f's site.
// CHECK: llvm.mlir.global internal constant @__amp_sites("shared\00")
// CHECK-LABEL: llvm.func @f(
// CHECK: %[[F:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @__amp_checked_amp_unary(%{{[^,]*}}, %[[F]],
// CHECK-LABEL: llvm.func @g(
// CHECK: %[[G:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.call @__amp_checked_amp_unary(%{{[^,]*}}, %[[G]],
// CHECK-COUNT-1: llvm.func private @__amp_checked_amp_unary(
// CHECK-NOT: llvm.func private @__amp_checked_amp_unary
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = nn.relu %x : tensor<4xf32> loc("shared")
  return %a : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = nn.relu %x : tensor<4xf32> loc("shared")
  return %a : tensor<4xf32>
}

// -----

// A module with no runtime call has no strings, no wrappers and no status.
// CHECK: // -----
// CHECK-NOT: @__amp_sites
// CHECK-LABEL: llvm.func @empty(
// CHECK-NOT: llvm.alloca
// CHECK-NOT: __amp_checked
func.func @empty() {
  return
}
