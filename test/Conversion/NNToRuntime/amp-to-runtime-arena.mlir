// RUN: amp-opt %s --amp-to-runtime=in-place=false | FileCheck %s --check-prefix=ARENA
// RUN: amp-opt %s --amp-to-runtime="plan-buffers=false in-place=false" | FileCheck %s --check-prefix=OWN

// In the pipeline, the three temporaries share one arena: one amp_alloc
// (whose NULL is checked like any other failure, at the arena's own site)
// and one amp_free; with plan-buffers=false each keeps its own. (in-place=false:
// in place, the chain would need one buffer.)
// ARENA-DAG: llvm.mlir.global internal constant @__amp_sites("buffer arena of @chain\00{{.*}}")
// ARENA-LABEL: llvm.func @chain
// ARENA-DAG: %[[ARENASITE:.*]] = llvm.mlir.constant(0 : i64) : i64
// ARENA-DAG: %[[SIZE:.*]] = llvm.mlir.constant(512 : i64) : i64
// ARENA: %[[A:.*]] = llvm.call @__amp_checked_amp_alloc(%{{[^,]*}}, %[[ARENASITE]], %[[SIZE]],
// ARENA-NOT: llvm.call @__amp_checked_amp_alloc
// ARENA: llvm.call @__amp_checked_amp_free(%{{[^,]*}}, %[[ARENASITE]], %[[A]],
// ARENA-NOT: llvm.call @__amp_checked_amp_free
// ARENA: llvm.return

// OWN-LABEL: llvm.func @chain
// OWN-COUNT-3: llvm.call @__amp_checked_amp_alloc
// OWN-NOT: llvm.call @__amp_checked_amp_alloc
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = nn.exp %x : tensor<4x8xf32>
  %b = nn.relu %a : tensor<4x8xf32>
  %c = nn.tanh %b : tensor<4x8xf32>
  %d = nn.sigmoid %c : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
