// RUN: amp-opt %s -split-input-file --amp-lower-to-runtime --amp-runtime-deallocate --amp-runtime-share-stack-slots | FileCheck %s

// Three concatenations, one after the other: one slot for their pointer
// arrays, at the top of the function, written and read by each call in turn.
// CHECK-LABEL: func.func @concats
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.array<2 x ptr>
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @amp_concat(%{{.*}}, %[[SLOT]],
// CHECK: llvm.call @amp_concat(%{{.*}}, %[[SLOT]],
// CHECK: llvm.call @amp_concat(%{{.*}}, %[[SLOT]],
// CHECK: return
func.func @concats(%a: tensor<2x8xf16>) -> tensor<16x8xf16> {
  %r = nn.relu %a : tensor<2x8xf16>
  %x = nn.concat %r, %r {axis = 0 : i64} : (tensor<2x8xf16>, tensor<2x8xf16>) -> tensor<4x8xf16>
  %y = nn.concat %x, %x {axis = 0 : i64} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  %z = nn.concat %y, %y {axis = 0 : i64} : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<16x8xf16>
  return %z : tensor<16x8xf16>
}

// -----

// A concatenation in a loop's body: its slot is at the top of the function,
// not in the body, where each iteration would allocate it again.
// CHECK-LABEL: func.func @loop
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: scf.for
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @amp_concat(%{{.*}}, %[[SLOT]],
// CHECK: scf.yield
func.func @loop(%a: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> (tensor<4x8xf16>) {
    %y = nn.concat %x, %x {axis = 1 : i64} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x16xf16>
    %z = nn.slice %y {offsets = array<i64: 0, 0>, strides = array<i64: 1, 1>} : tensor<4x16xf16> -> tensor<4x8xf16>
    scf.yield %z : tensor<4x8xf16>
  }
  return %r : tensor<4x8xf16>
}
