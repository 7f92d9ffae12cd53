// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime --amp-runtime-deallocate --amp-runtime-share-stack-slots | FileCheck %s

// Three GEMMs, one after the other: one descriptor slot, at the top of the
// function, written and read by each call in turn.
// CHECK-LABEL: func.func @gemms
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.array<200 x i8> {alignment = 8 : i64}
// CHECK-NOT: llvm.alloca
// CHECK: "llvm.intr.memcpy"(%[[SLOT]],
// CHECK: llvm.call @amp_gemm(%[[SLOT]],
// CHECK: "llvm.intr.memcpy"(%[[SLOT]],
// CHECK: llvm.call @amp_gemm(%[[SLOT]],
// CHECK: "llvm.intr.memcpy"(%[[SLOT]],
// CHECK: llvm.call @amp_gemm(%[[SLOT]],
// CHECK: return
func.func @gemms(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %x = amp.gemm %a, %b : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %y = amp.gemm %x, %b : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  %z = amp.gemm %y, %b : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  return %z : tensor<4x8xf16>
}

// -----

// A GEMM in a loop's body: its slot is at the top of the function, not in
// the body, where each iteration would allocate it again.
// CHECK-LABEL: func.func @loop
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<200 x i8>
// CHECK: scf.for
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @amp_gemm(%[[SLOT]],
// CHECK: scf.yield
func.func @loop(%a: tensor<4x8xf16>, %b: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> (tensor<4x8xf16>) {
    %y = amp.gemm %x, %b : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
    scf.yield %y : tensor<4x8xf16>
  }
  return %r : tensor<4x8xf16>
}
