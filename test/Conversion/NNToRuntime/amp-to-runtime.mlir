// RUN: amp-opt %s --amp-to-runtime | FileCheck %s

// The whole pipeline: LLVM-dialect functions only; every runtime call goes
// through its callee's checked wrapper with the function's status slot and
// its site (the offset of the site's string in @__amp_sites, see
// amp-to-runtime-sites.mlir); the loop became branches, and the block that
// branches back reads the status first, so that a failure leaves the loop;
// the return returns the status. A check branches to the function's one
// failure block, which returns the status. The wrappers are
// checked in check-runtime-status.mlir.
// CHECK-DAG: llvm.mlir.global external @__amp_error_site()
// CHECK-DAG: llvm.mlir.global internal constant @__amp_sites("{{.*}}\00relu_in_loop\00{{.*}}")
// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: %{{.*}}: !llvm.ptr) -> i32
// CHECK-DAG: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[STATUS:.*]] = llvm.alloca %[[ONE]] x i32
// CHECK-NEXT: llvm.store %[[OK]], %[[STATUS]] : i32, !llvm.ptr
// CHECK: %[[P:.*]] = llvm.call @__amp_checked_amp_alloc(%[[STATUS]], %{{.*}}) : (!llvm.ptr, i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @__amp_checked_amp_memcpy(%[[STATUS]], %{{.*}}, %[[P]],
// CHECK-NEXT: %[[S0:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[BAD0:.*]] = llvm.icmp "ne" %[[S0]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[BAD0]], ^[[FAIL:bb[0-9]+]], ^
// CHECK: llvm.cond_br %{{.*}}, ^[[BODY:bb[0-9]+]], ^[[AFTER:bb[0-9]+]]
// CHECK: ^[[BODY]]:
// CHECK: llvm.call @__amp_checked_amp_unary(%[[STATUS]], %{{.*}}) : (!llvm.ptr, i64, i32, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr) -> i32
// CHECK: llvm.call @__amp_checked_amp_free(%[[STATUS]],
// CHECK: %[[S1:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[BAD1:.*]] = llvm.icmp "ne" %[[S1]], %[[OK]] : i32
// CHECK-NEXT: llvm.cond_br %[[BAD1]], ^[[FAIL]], ^[[LATCH:bb[0-9]+]]
// CHECK-NEXT: ^[[LATCH]]:
// CHECK-NEXT: llvm.br
// CHECK-NEXT: ^[[AFTER]]:
// CHECK-NOT: llvm.cond_br
// CHECK: %[[S2:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[BAD2:.*]] = llvm.icmp "ne" %[[S2]], %[[OK]] : i32
// CHECK-NEXT: %[[R:.*]] = llvm.select %[[BAD2]], %[[S2]], %{{.*}} : i1, i32
// CHECK-NEXT: llvm.return %[[R]] : i32
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT: %[[S3:.*]] = llvm.load %[[STATUS]] : !llvm.ptr -> i32
// CHECK-NEXT: llvm.return %[[S3]] : i32
// CHECK-NEXT: }
// CHECK-NOT: func.func
// CHECK-NOT: scf.
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %y = nn.relu %a : tensor<4xf32> loc("relu_in_loop")
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// 72 calls (the arena's allocation and free, 70 of the runtime): the
// status is read after the 64th, and at the return.
// CHECK-LABEL: llvm.func @many_checks(
// CHECK-COUNT-64: llvm.call @__amp_checked_
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.icmp "ne"
// CHECK-NEXT: llvm.cond_br %{{.*}}, ^[[FAIL:bb[0-9]+]], ^[[REST:bb[0-9]+]]
// CHECK-NEXT: ^[[REST]]:
// CHECK-COUNT-8: llvm.call @__amp_checked_
// CHECK-NOT: llvm.call
// CHECK: llvm.select
// CHECK-NEXT: llvm.return
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NOT: llvm.cond_br
// CHECK: }
func.func @many_checks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r0 = nn.relu %x : tensor<4xf32>
  %r1 = nn.relu %r0 : tensor<4xf32>
  %r2 = nn.relu %r1 : tensor<4xf32>
  %r3 = nn.relu %r2 : tensor<4xf32>
  %r4 = nn.relu %r3 : tensor<4xf32>
  %r5 = nn.relu %r4 : tensor<4xf32>
  %r6 = nn.relu %r5 : tensor<4xf32>
  %r7 = nn.relu %r6 : tensor<4xf32>
  %r8 = nn.relu %r7 : tensor<4xf32>
  %r9 = nn.relu %r8 : tensor<4xf32>
  %r10 = nn.relu %r9 : tensor<4xf32>
  %r11 = nn.relu %r10 : tensor<4xf32>
  %r12 = nn.relu %r11 : tensor<4xf32>
  %r13 = nn.relu %r12 : tensor<4xf32>
  %r14 = nn.relu %r13 : tensor<4xf32>
  %r15 = nn.relu %r14 : tensor<4xf32>
  %r16 = nn.relu %r15 : tensor<4xf32>
  %r17 = nn.relu %r16 : tensor<4xf32>
  %r18 = nn.relu %r17 : tensor<4xf32>
  %r19 = nn.relu %r18 : tensor<4xf32>
  %r20 = nn.relu %r19 : tensor<4xf32>
  %r21 = nn.relu %r20 : tensor<4xf32>
  %r22 = nn.relu %r21 : tensor<4xf32>
  %r23 = nn.relu %r22 : tensor<4xf32>
  %r24 = nn.relu %r23 : tensor<4xf32>
  %r25 = nn.relu %r24 : tensor<4xf32>
  %r26 = nn.relu %r25 : tensor<4xf32>
  %r27 = nn.relu %r26 : tensor<4xf32>
  %r28 = nn.relu %r27 : tensor<4xf32>
  %r29 = nn.relu %r28 : tensor<4xf32>
  %r30 = nn.relu %r29 : tensor<4xf32>
  %r31 = nn.relu %r30 : tensor<4xf32>
  %r32 = nn.relu %r31 : tensor<4xf32>
  %r33 = nn.relu %r32 : tensor<4xf32>
  %r34 = nn.relu %r33 : tensor<4xf32>
  %r35 = nn.relu %r34 : tensor<4xf32>
  %r36 = nn.relu %r35 : tensor<4xf32>
  %r37 = nn.relu %r36 : tensor<4xf32>
  %r38 = nn.relu %r37 : tensor<4xf32>
  %r39 = nn.relu %r38 : tensor<4xf32>
  %r40 = nn.relu %r39 : tensor<4xf32>
  %r41 = nn.relu %r40 : tensor<4xf32>
  %r42 = nn.relu %r41 : tensor<4xf32>
  %r43 = nn.relu %r42 : tensor<4xf32>
  %r44 = nn.relu %r43 : tensor<4xf32>
  %r45 = nn.relu %r44 : tensor<4xf32>
  %r46 = nn.relu %r45 : tensor<4xf32>
  %r47 = nn.relu %r46 : tensor<4xf32>
  %r48 = nn.relu %r47 : tensor<4xf32>
  %r49 = nn.relu %r48 : tensor<4xf32>
  %r50 = nn.relu %r49 : tensor<4xf32>
  %r51 = nn.relu %r50 : tensor<4xf32>
  %r52 = nn.relu %r51 : tensor<4xf32>
  %r53 = nn.relu %r52 : tensor<4xf32>
  %r54 = nn.relu %r53 : tensor<4xf32>
  %r55 = nn.relu %r54 : tensor<4xf32>
  %r56 = nn.relu %r55 : tensor<4xf32>
  %r57 = nn.relu %r56 : tensor<4xf32>
  %r58 = nn.relu %r57 : tensor<4xf32>
  %r59 = nn.relu %r58 : tensor<4xf32>
  %r60 = nn.relu %r59 : tensor<4xf32>
  %r61 = nn.relu %r60 : tensor<4xf32>
  %r62 = nn.relu %r61 : tensor<4xf32>
  %r63 = nn.relu %r62 : tensor<4xf32>
  %r64 = nn.relu %r63 : tensor<4xf32>
  %r65 = nn.relu %r64 : tensor<4xf32>
  %r66 = nn.relu %r65 : tensor<4xf32>
  %r67 = nn.relu %r66 : tensor<4xf32>
  %r68 = nn.relu %r67 : tensor<4xf32>
  %r69 = nn.relu %r68 : tensor<4xf32>
  return %r69 : tensor<4xf32>
}
