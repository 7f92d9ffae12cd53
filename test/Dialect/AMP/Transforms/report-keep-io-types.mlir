// RUN: amp-opt %s --amp-pipeline="keep-io-types=false report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: amp-opt %s --amp-assign-precision=record-rules --amp-insert-casts="keep-io-types=false" --amp-precision-report="file=%t.passes.json" -o /dev/null
// RUN: diff %t.json %t.passes.json
// RUN: amp-opt %s --amp-pipeline="report=%t.keep.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=KEEP < %t.keep.json

// The report counts the casts in the IR that amp-insert-casts left, so it
// is right whatever keep-io-types says. With keep-io-types=false the input
// %x becomes an f16 argument: only the param is cast (the report used to
// count the keep-io-types=true plan: 2 casts).

// CHECK-LABEL: func.func @lower_io
// CHECK-SAME: tensor<4x8xf16> {nn.role = #nn.role<input>}
// CHECK: amp.cast
// CHECK-NOT: amp.cast
// CHECK: return

// REPORT: "casts_inserted": 1
// KEEP: "casts_inserted": 2

func.func @lower_io(%x: tensor<4x8xf32> {nn.role = #nn.role<input>}, %w: tensor<8x8xf32> {nn.role = #nn.role<param>}) -> tensor<4x8xf32> {
  %m = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = nn.tanh %m : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
