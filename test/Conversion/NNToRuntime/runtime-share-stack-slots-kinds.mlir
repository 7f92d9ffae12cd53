// RUN: amp-opt %s --amp-runtime-share-stack-slots | FileCheck %s

llvm.func @use(!llvm.ptr, !llvm.ptr)

// Slots of one kind that are live at once stay apart; a later one takes a
// slot whose last use has passed. A use through a getelementptr counts.
// Another element type, count or alignment is another kind.
// CHECK-LABEL: func.func @lifetimes
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[S0:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x ptr>
// CHECK-NEXT: %[[S1:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x ptr>
// CHECK-NEXT: %[[S2:.*]] = llvm.alloca %[[ONE]] x !llvm.array<3 x ptr>
// CHECK-NEXT: %[[S3:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x i32>
// CHECK-NEXT: %[[S4:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x ptr> {alignment = 16 : i64}
// CHECK-NOT: llvm.alloca
// CHECK: %[[G:.*]] = llvm.getelementptr %[[S1]][1]
// CHECK-NEXT: llvm.call @use(%[[S0]], %[[G]])
// CHECK-NEXT: llvm.call @use(%[[S1]], %[[S2]])
// CHECK-NEXT: llvm.call @use(%[[S3]], %[[S4]])
// CHECK-NEXT: return
func.func @lifetimes() {
  %one = llvm.mlir.constant(1 : i64) : i64
  %a = llvm.alloca %one x !llvm.array<2 x ptr> : (i64) -> !llvm.ptr
  %b = llvm.alloca %one x !llvm.array<2 x ptr> : (i64) -> !llvm.ptr
  %g = llvm.getelementptr %b[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
  llvm.call @use(%a, %g) : (!llvm.ptr, !llvm.ptr) -> ()
  %c = llvm.alloca %one x !llvm.array<2 x ptr> : (i64) -> !llvm.ptr
  %d = llvm.alloca %one x !llvm.array<3 x ptr> : (i64) -> !llvm.ptr
  llvm.call @use(%c, %d) : (!llvm.ptr, !llvm.ptr) -> ()
  %e = llvm.alloca %one x !llvm.array<2 x i32> : (i64) -> !llvm.ptr
  %f = llvm.alloca %one x !llvm.array<2 x ptr> {alignment = 16 : i64} : (i64) -> !llvm.ptr
  llvm.call @use(%e, %f) : (!llvm.ptr, !llvm.ptr) -> ()
  return
}
