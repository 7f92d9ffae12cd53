// RUN: amp-opt %s --amp-assign-precision=record-rules --amp-insert-casts --amp-precision-report="file=%t.json" | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.json
// RUN: amp-opt %s --amp-pipeline="report=%t.pipeline.json" -o /dev/null
// RUN: diff %t.json %t.pipeline.json
// RUN: not amp-opt %s --amp-pipeline="report=%t.missing-dir/r.json" 2>&1 | FileCheck %s --check-prefix=NO-WRITE

// The report is written after amp-insert-casts from the final IR: every
// op with its location ("x" for loc("x")), precision and rule, then the
// casts there, op counts and activation bytes by precision. It removes the
// rules that amp-assign-precision recorded for it.

// CHECK: "compute_type": "f16"
// CHECK: "name": "nn.matmul"
// CHECK-NEXT: "loc": "fc1"
// CHECK-NEXT: "precision": "f16"
// CHECK-NEXT: "rule": "allow"
// CHECK: "name": "nn.relu"
// CHECK-NEXT: "loc": "act"
// CHECK-NEXT: "precision": "f16"
// CHECK-NEXT: "rule": "between-allow"
// CHECK: "name": "nn.softmax"
// CHECK-NEXT: "loc": "{{.*}}report.mlir:[[@LINE+26]]:8"
// CHECK-NEXT: "precision": "f32"
// CHECK-NEXT: "rule": "deny"
// Casts: %x and %w to f16, the relu output back to f32 for the softmax.
// CHECK: "casts_inserted": 3
// CHECK: "constants_converted": 0
// CHECK: "op_counts": {
// CHECK-NEXT: "low_precision": 3
// CHECK-NEXT: "f32": 1
// Activations: the first matmul and the relu (4x8 f16 = 64 bytes each); the
// second matmul stores f32 for the f32 result and the softmax is f32 (4x8 f32
// = 128 bytes each).
// CHECK: "activation_bytes": {
// CHECK-NEXT: "low_precision": 128
// CHECK-NEXT: "f32": 256

// NO-WRITE: error: amp-precision-report: cannot write report '{{.*}}r.json'

// OUT-LABEL: func.func @report
// OUT-NOT: amp.precision_rule
// OUT-COUNT-3: amp.cast
// OUT-NOT: amp.cast

func.func @report(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32> loc("fc1")
  %1 = nn.relu %0 : tensor<4x8xf32> loc("act")
  %2 = nn.softmax %1 : tensor<4x8xf32>
  %3 = nn.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}
