// RUN: amp-opt %s -split-input-file -verify-diagnostics --mlir-print-op-on-diagnostic=false --amp-runtime-plan-buffers=remarks=true | FileCheck %s

// The placement, on hand-written lowered functions: only amp_alloc and
// amp_free matter to the pass.

llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
llvm.func @amp_free(!llvm.ptr, !llvm.ptr) -> i32

// Best fit: of the two free ranges [0, 1024) and [1280, 1792), a 512-byte
// buffer takes the one it fills; a 1000-byte one (1024 with the alignment)
// then takes the other.
// CHECK-LABEL: func.func @best_fit
// CHECK: %[[N:.*]] = llvm.mlir.constant(1792 : i64)
// CHECK-NEXT: %[[A:.*]] = llvm.call @amp_alloc(%[[N]],
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[A]][1024]
// CHECK-NEXT: %[[C:.*]] = llvm.getelementptr %[[A]][1280]
// CHECK-NEXT: llvm.call @use(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT: %[[D:.*]] = llvm.getelementptr %[[A]][1280]
// CHECK-NEXT: llvm.call @use(%[[B]], %[[D]], %[[A]])
// CHECK-NEXT: llvm.call @amp_free(%[[A]],
// CHECK-NEXT: llvm.mlir.constant(0 : i32)
// CHECK-NEXT: return
// expected-remark @below {{buffer arena: 5 buffers in 1792 bytes, 1792 bytes live at the peak}}
func.func @best_fit(%s: !llvm.ptr) -> i32 {
  %k1000 = llvm.mlir.constant(1000 : i64) : i64
  %k256 = llvm.mlir.constant(256 : i64) : i64
  %k512 = llvm.mlir.constant(512 : i64) : i64
  %a = llvm.call @amp_alloc(%k1000, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %b = llvm.call @amp_alloc(%k256, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %c = llvm.call @amp_alloc(%k512, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%a, %b, %c) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fa = llvm.call @amp_free(%a, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fc = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %d = llvm.call @amp_alloc(%k512, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %e = llvm.call @amp_alloc(%k1000, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%b, %d, %e) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fb = llvm.call @amp_free(%b, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fd = llvm.call @amp_free(%d, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fe = llvm.call @amp_free(%e, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %ok = llvm.mlir.constant(0 : i32) : i32
  return %ok : i32
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// -----

llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
llvm.func @amp_free(!llvm.ptr, !llvm.ptr) -> i32

// Two freed neighbours merge into one range that a larger buffer fits.
// When everything is free, the free range at the end of the arena grows
// into a buffer that fits nowhere. Sizes round up to the alignment (a
// 0-byte buffer gets one unit, so that every buffer has its own address).
// CHECK-LABEL: func.func @merge_and_grow
// CHECK: %[[N:.*]] = llvm.mlir.constant(1024 : i64)
// CHECK-NEXT: %[[A:.*]] = llvm.call @amp_alloc(%[[N]],
// CHECK-NEXT: %[[B:.*]] = llvm.getelementptr %[[A]][256]
// CHECK-NEXT: %[[C:.*]] = llvm.getelementptr %[[A]][512]
// CHECK-NEXT: llvm.call @use(%[[A]], %[[B]], %[[C]])
// CHECK-NEXT: llvm.call @use(%[[C]], %[[A]], %[[A]])
// CHECK-NEXT: llvm.call @use(%[[A]], %[[A]], %[[A]])
// CHECK-NEXT: llvm.call @amp_free(%[[A]],
// CHECK-NEXT: llvm.mlir.constant(0 : i32)
// CHECK-NEXT: return
// expected-remark @below {{buffer arena: 5 buffers in 1024 bytes, 1024 bytes live at the peak}}
func.func @merge_and_grow(%s: !llvm.ptr) -> i32 {
  %k0 = llvm.mlir.constant(0 : i64) : i64
  %k256 = llvm.mlir.constant(256 : i64) : i64
  %k512 = llvm.mlir.constant(512 : i64) : i64
  %k1024 = llvm.mlir.constant(1024 : i64) : i64
  %a = llvm.call @amp_alloc(%k0, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %b = llvm.call @amp_alloc(%k256, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %c = llvm.call @amp_alloc(%k256, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%a, %b, %c) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fa = llvm.call @amp_free(%a, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fb = llvm.call @amp_free(%b, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %d = llvm.call @amp_alloc(%k512, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%c, %d, %d) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fc = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fd = llvm.call @amp_free(%d, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %e = llvm.call @amp_alloc(%k1024, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%e, %e, %e) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fe = llvm.call @amp_free(%e, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %ok = llvm.mlir.constant(0 : i32) : i32
  return %ok : i32
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// -----

llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
llvm.func @amp_free(!llvm.ptr, !llvm.ptr) -> i32

// An offset past 2^28 is reached from the start of its 2^28-byte window,
// one getelementptr with an i64 operand per window, made right after the
// arena's amp_alloc; the buffers in the window are constant indices from it.
// CHECK-LABEL: func.func @large
// CHECK: %[[N:.*]] = llvm.mlir.constant(3221225984 : i64)
// CHECK-NEXT: %[[A:.*]] = llvm.call @amp_alloc(%[[N]],
// CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(3221225472 : i64)
// CHECK-NEXT: %[[W:.*]] = llvm.getelementptr %[[A]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NOT: llvm.mlir.constant
// CHECK: %[[C:.*]] = llvm.getelementptr %[[W]][256] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.call @use(%[[A]], %[[W]], %[[C]])
// expected-remark @below {{buffer arena: 3 buffers in 3221225984 bytes, 3221225984 bytes live at the peak}}
func.func @large(%s: !llvm.ptr) -> i32 {
  %k3g = llvm.mlir.constant(3221225472 : i64) : i64
  %k4 = llvm.mlir.constant(4 : i64) : i64
  %a = llvm.call @amp_alloc(%k3g, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %b = llvm.call @amp_alloc(%k4, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %c = llvm.call @amp_alloc(%k4, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%a, %b, %c) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fa = llvm.call @amp_free(%a, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fb = llvm.call @amp_free(%b, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fc = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %ok = llvm.mlir.constant(0 : i32) : i32
  return %ok : i32
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// -----

llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
llvm.func @amp_free(!llvm.ptr, !llvm.ptr) -> i32

// Left alone: a size known only at run time, a free whose status is read,
// a buffer freed twice, and a buffer never freed (a result).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: llvm.call @amp_alloc(%
// CHECK-NOT: llvm.call @amp_alloc
// CHECK-COUNT-4: llvm.call @amp_free
// CHECK-NOT: llvm.call @amp_free
func.func @kept(%s: !llvm.ptr, %n: i64) -> i32 {
  %k64 = llvm.mlir.constant(64 : i64) : i64
  %a = llvm.call @amp_alloc(%n, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %b = llvm.call @amp_alloc(%k64, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %c = llvm.call @amp_alloc(%k64, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %d = llvm.call @amp_alloc(%k64, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%a, %b, %c, %d) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fa = llvm.call @amp_free(%a, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fb = llvm.call @amp_free(%b, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fc1 = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fc2 = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  return %fb : i32
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)

// -----

llvm.func @amp_alloc(i64, !llvm.ptr) -> !llvm.ptr
llvm.func @amp_free(!llvm.ptr, !llvm.ptr) -> i32

// Replayed, a's freed 256 bytes are too small for c, which goes to the
// end: 1280 bytes for 1024 live at the peak. Placed largest first, knowing
// every lifetime, b and c take [0, 1024) and a, live with b only, fits
// after b where c will be later: 1024 bytes, the least possible.
// CHECK-LABEL: func.func @by_size
// CHECK: %[[N:.*]] = llvm.mlir.constant(1024 : i64)
// CHECK-NEXT: %[[B:.*]] = llvm.call @amp_alloc(%[[N]],
// CHECK-NEXT: %[[A:.*]] = llvm.getelementptr %[[B]][512]
// CHECK-NEXT: llvm.call @use(%[[A]], %[[B]], %[[B]])
// CHECK-NEXT: %[[C:.*]] = llvm.getelementptr %[[B]][512]
// CHECK-NEXT: llvm.call @use(%[[B]], %[[C]], %[[C]])
// CHECK-NEXT: llvm.call @amp_free(%[[B]],
// CHECK-NEXT: llvm.mlir.constant(0 : i32)
// CHECK-NEXT: return
// expected-remark @below {{buffer arena: 3 buffers in 1024 bytes, 1024 bytes live at the peak}}
func.func @by_size(%s: !llvm.ptr) -> i32 {
  %k256 = llvm.mlir.constant(256 : i64) : i64
  %k512 = llvm.mlir.constant(512 : i64) : i64
  %a = llvm.call @amp_alloc(%k256, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  %b = llvm.call @amp_alloc(%k512, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%a, %b, %b) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fa = llvm.call @amp_free(%a, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %c = llvm.call @amp_alloc(%k512, %s) : (i64, !llvm.ptr) -> !llvm.ptr
  llvm.call @use(%b, %c, %c) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %fb = llvm.call @amp_free(%b, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %fc = llvm.call @amp_free(%c, %s) : (!llvm.ptr, !llvm.ptr) -> i32
  %ok = llvm.mlir.constant(0 : i32) : i32
  return %ok : i32
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)
