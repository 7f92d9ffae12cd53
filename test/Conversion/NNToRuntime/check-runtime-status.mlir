// RUN: amp-opt %s -split-input-file --amp-check-runtime-status | FileCheck %s

// A function's runtime calls share a sticky status, an i32 slot at the top
// of the function. Each call goes through its callee's checked wrapper with
// the slot and its site's offset in @__amp_sites. The block that branches
// reads the status first (its calls may have failed); the block without
// calls does not; the return returns the status when it holds a failure.
// CHECK: llvm.mlir.global internal constant @__amp_sites("alloc\00relu\00")
// CHECK: llvm.mlir.global external @__amp_error_site()
// CHECK-LABEL: func.func @calls(
// CHECK-SAME: %[[X:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i64, %[[C:[^:]*]]: i1) -> i32
// CHECK-DAG: %[[RELU:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK-DAG: %[[ALLOC:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[STATUS:.*]] = llvm.alloca %[[ONE]] x i32 : (i64) -> !llvm.ptr
// CHECK-NEXT: llvm.store %[[OK]], %[[STATUS]] : i32, !llvm.ptr
// CHECK: %[[Y:.*]] = llvm.call @__amp_checked_amp_alloc(%[[STATUS]], %[[ALLOC]], %[[N]], %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: llvm.call @__amp_checked_amp_unary(%[[STATUS]], %[[RELU]], %{{.*}}, %[[X]], %[[Y]], %[[N]], %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i32, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
// CHECK-NEXT: %[[S0:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[F0:.*]] = llvm.icmp "ne" %[[S0]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[F0]], ^[[FAIL:bb[0-9]+]], ^[[NEXT:bb[0-9]+]]
// CHECK-NEXT: ^[[NEXT]]:
// CHECK-NEXT: cf.cond_br %[[C]], ^[[A:bb[0-9]+]], ^[[B:bb[0-9]+]]
// CHECK-NEXT: ^[[A]]:
// CHECK-NEXT: cf.br ^[[B]]
// CHECK-NEXT: ^[[B]]:
// CHECK-NEXT: %[[RET:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[S1:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[F1:.*]] = llvm.icmp "ne" %[[S1]], %[[OK]] : i32
// CHECK-NEXT: %[[R:.*]] = llvm.select %[[F1]], %[[S1]], %[[RET]] : i1, i32
// CHECK-NEXT: return %[[R]] : i32
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT: %[[S2:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: return %[[S2]] : i32
// CHECK-NEXT: }

// amp_alloc's wrapper: after a failure it returns NULL without calling; a
// NULL from amp_alloc is AMP_STATUS_BACKEND_ERROR (3), stored in the status
// slot with the address of the site's string in @__amp_error_site.
// CHECK-LABEL: llvm.func private @__amp_checked_amp_alloc(
// CHECK-SAME: %[[ST:[^:]*]]: !llvm.ptr, %[[SITE:[^:]*]]: i64, %[[SIZE:[^:]*]]: i64, %[[STREAM:[^:]*]]: !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[BEFORE:.*]] = llvm.load %[[ST]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[FAILED:.*]] = llvm.icmp "ne" %[[BEFORE]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[FAILED]], ^[[SKIP:bb[0-9]+]], ^[[CALL:bb[0-9]+]]
// CHECK-NEXT: ^[[CALL]]:
// CHECK-NEXT: %[[P:.*]] = llvm.call @amp_alloc(%[[SIZE]], %[[STREAM]]) : (i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[ISNULL:.*]] = llvm.icmp "eq" %[[P]], %[[NULL]] : !llvm.ptr
// CHECK-NEXT: %[[OOM:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.cond_br %[[ISNULL]], ^[[RECORD:bb[0-9]+]], ^[[DONE:bb[0-9]+]]
// CHECK-NEXT: ^[[RECORD]]:
// CHECK-NEXT: llvm.store %[[OOM]], %[[ST]] : i32, !llvm.ptr
// CHECK-NEXT: %[[SITES:.*]] = llvm.mlir.addressof @__amp_sites : !llvm.ptr
// CHECK-NEXT: %[[TEXT:.*]] = llvm.getelementptr %[[SITES]][%[[SITE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[G:.*]] = llvm.mlir.addressof @__amp_error_site : !llvm.ptr
// CHECK-NEXT: llvm.store %[[TEXT]], %[[G]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.return %[[P]] : !llvm.ptr
// CHECK-NEXT: ^[[DONE]]:
// CHECK-NEXT: llvm.return %[[P]] : !llvm.ptr
// CHECK-NEXT: ^[[SKIP]]:
// CHECK-NEXT: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.return %[[NONE]] : !llvm.ptr

// A status function's wrapper returns the status it failed with, or the
// earlier failure's without calling.
// CHECK-LABEL: llvm.func private @__amp_checked_amp_unary(
// CHECK-SAME: %[[ST:[^:]*]]: !llvm.ptr, %[[SITE:[^:]*]]: i64, %[[A0:[^:]*]]: i32, %[[A1:[^:]*]]: !llvm.ptr, %[[A2:[^:]*]]: !llvm.ptr, %[[A3:[^:]*]]: i64, %[[A4:[^:]*]]: i32, %[[A5:[^:]*]]: !llvm.ptr) -> i32
// CHECK-NEXT: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[BEFORE:.*]] = llvm.load %[[ST]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[FAILED:.*]] = llvm.icmp "ne" %[[BEFORE]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[FAILED]], ^[[SKIP:bb[0-9]+]], ^[[CALL:bb[0-9]+]]
// CHECK-NEXT: ^[[CALL]]:
// CHECK-NEXT: %[[S:.*]] = llvm.call @amp_unary(%[[A0]], %[[A1]], %[[A2]], %[[A3]], %[[A4]], %[[A5]])
// CHECK-NEXT: %[[BAD:.*]] = llvm.icmp "ne" %[[S]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[BAD]], ^[[RECORD:bb[0-9]+]], ^[[DONE:bb[0-9]+]]
// CHECK-NEXT: ^[[RECORD]]:
// CHECK-NEXT: llvm.store %[[S]], %[[ST]] : i32, !llvm.ptr
// CHECK-NEXT: %[[SITES:.*]] = llvm.mlir.addressof @__amp_sites : !llvm.ptr
// CHECK-NEXT: %[[TEXT:.*]] = llvm.getelementptr %[[SITES]][%[[SITE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[G:.*]] = llvm.mlir.addressof @__amp_error_site : !llvm.ptr
// CHECK-NEXT: llvm.store %[[TEXT]], %[[G]] : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.return %[[S]] : i32
// CHECK-NEXT: ^[[DONE]]:
// CHECK-NEXT: llvm.return %[[S]] : i32
// CHECK-NEXT: ^[[SKIP]]:
// CHECK-NEXT: llvm.return %[[BEFORE]] : i32
llvm.func @amp_unary(i32, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
func.func @calls(%x: !llvm.ptr, %n: i64, %c: i1) -> i32 {
  %op = llvm.mlir.constant(7 : i32) : i32
  %dt = llvm.mlir.constant(0 : i32) : i32
  %null = llvm.mlir.zero : !llvm.ptr
  %y = llvm.call @amp_alloc(%n, %null) : (i64, !llvm.ptr) -> !llvm.ptr loc("alloc")
  %s = llvm.call @amp_unary(%op, %x, %y, %n, %dt, %null) : (i32, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32 loc("relu")
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^b
^b:
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// -----

// A call of a function outside the runtime's table is left alone, and a
// function without runtime calls gets no status slot; a name that a wrapper
// would take is kept by its owner, and the wrapper gets another.
// CHECK-LABEL: llvm.func @__amp_checked_amp_fill()
// CHECK-NEXT: llvm.return
// CHECK-LABEL: func.func @other(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @helper(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @taken(
// CHECK: llvm.call @[[WRAPPER:__amp_checked_amp_fill_[0-9]+]](
// CHECK: llvm.func private @[[WRAPPER]](
// CHECK: llvm.call @amp_fill(
llvm.func @helper(i32) -> i32
llvm.func @amp_fill(!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
llvm.func @__amp_checked_amp_fill() {
  llvm.return
}
func.func @other(%a: i32) -> i32 {
  %r = llvm.call @helper(%a) : (i32) -> i32
  return %r : i32
}
func.func @taken(%p: !llvm.ptr, %n: i64) -> i32 {
  %dt = llvm.mlir.constant(0 : i32) : i32
  %v = llvm.mlir.constant(1.0 : f32) : f32
  %null = llvm.mlir.zero : !llvm.ptr
  %s = llvm.call @amp_fill(%p, %n, %dt, %v, %null) : (!llvm.ptr, i64, i32, f32, !llvm.ptr) -> i32
  %ok = arith.constant 0 : i32
  return %ok : i32
}
