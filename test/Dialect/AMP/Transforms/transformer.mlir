// The generated transformer training step (examples/transformer_train.mlir):
// every matmul runs in f16 (or bf16), while softmax, layer_norm,
// cross_entropy and the sums stay f32; the pass is idempotent on it.
// RUN: amp-opt %amp_src_root/examples/transformer_train.mlir --amp-assign-precision=record-rules --amp-insert-casts --amp-precision-report="file=%t.json" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: amp-opt %t.mlir --amp-assign-precision --amp-insert-casts | diff %t.mlir -
// RUN: amp-opt %amp_src_root/examples/transformer_train.mlir --amp-assign-precision="compute-type=bf16" --amp-insert-casts | FileCheck %s --check-prefix=BF16

// CHECK: func.func @train_step
// CHECK-NOT: nn.matmul {{.*}}amp.precision = f32
// CHECK-NOT: nn.softmax {{.*}}amp.precision = f16
// CHECK-NOT: nn.softmax_grad {{.*}}amp.precision = f16
// CHECK-NOT: nn.layer_norm {{.*}}amp.precision = f16
// CHECK-NOT: nn.layer_norm_grad {{.*}}amp.precision = f16
// CHECK-NOT: nn.cross_entropy {{.*}}amp.precision = f16
// CHECK-NOT: nn.reduce_sum {{.*}}amp.precision = f16
// CHECK-NOT: nn.adam_update {{.*}}amp.precision = f16

// REPORT: "compute_type": "f16"
// REPORT: "name": "nn.matmul"
// REPORT-NEXT: "loc":
// REPORT-NEXT: "precision": "f16"
// REPORT: "casts_inserted": 35

// BF16: nn.matmul {{.*}}amp.precision = bf16
// BF16-NOT: nn.matmul {{.*}}amp.precision = f32
// BF16-NOT: nn.softmax {{.*}}amp.precision = bf16
// BF16-NOT: nn.cross_entropy {{.*}}amp.precision = bf16
