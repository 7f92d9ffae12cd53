// Overrides: a policy file, then the list options on top of it.
// RUN: amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-matmul-deny.json" | FileCheck %s --check-prefix=FILE
// RUN: amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-matmul-deny.json record-rules" --amp-insert-casts --amp-precision-report="file=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE-REPORT < %t.json
// RUN: amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-matmul-deny.json allow=nn.matmul" | FileCheck %s --check-prefix=OPTION
// RUN: amp-opt %s --amp-assign-precision="deny=nn.matmul,nn.relu infer=nn.softmax" | FileCheck %s --check-prefix=LISTS

// Errors: unknown ops, unknown keys, malformed files and bad options are
// rejected with a clear message and exit code 1.
// RUN: not amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-unknown-op.json" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// RUN: not amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-unknown-key.json" 2>&1 | FileCheck %s --check-prefix=UNKNOWN-KEY
// RUN: not amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-malformed.json" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not amp-opt %s --amp-assign-precision="policy=%S/Inputs/policy-not-a-list.json" 2>&1 | FileCheck %s --check-prefix=NOT-A-LIST
// RUN: not amp-opt %s --amp-assign-precision="policy=%S/Inputs/does-not-exist.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not amp-opt %s --amp-assign-precision="allow=nn.bogus" 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// RUN: not amp-opt %s --amp-assign-precision="compute-type=f64" 2>&1 | FileCheck %s --check-prefix=BAD-TYPE
// RUN: amp-opt %s --amp-assign-precision="compute-type=f64" > /dev/null 2>&1; test $? -eq 1

// FILE-LABEL: func @overrides
// FILE: nn.matmul {{.*}}amp.precision = f32
// FILE: nn.softmax {{.*}}amp.precision = f16
// math.sin is listed (clear) by the file, so not "unlisted".
// FILE-REPORT: "name": "math.sin"
// FILE-REPORT-NEXT: "loc":
// FILE-REPORT-NEXT: "precision": "f32"
// FILE-REPORT-NEXT: "rule": "f32-consumers"
// OPTION-LABEL: func @overrides
// OPTION: nn.matmul {{.*}}amp.precision = f16
// OPTION: nn.softmax {{.*}}amp.precision = f16
// LISTS-LABEL: func @overrides
// LISTS: nn.matmul {{.*}}amp.precision = f32
// LISTS: nn.softmax {{.*}}amp.precision = f32
// LISTS: nn.relu {{.*}}amp.precision = f32

// UNKNOWN-OP: error: amp-assign-precision: policy file '{{.*}}policy-unknown-op.json': unknown op "nn.frobnicate" in "allow" (no registered dialect defines it)
// UNKNOWN-KEY: error: amp-assign-precision: policy file '{{.*}}': unknown key "sometimes"; expected "allow", "deny", "infer" or "clear"
// MALFORMED: error: amp-assign-precision: policy file '{{.*}}': malformed JSON: {{.*}}
// NOT-A-LIST: error: amp-assign-precision: policy file '{{.*}}': "allow" must be a list of op names
// MISSING: error: amp-assign-precision: policy file '{{.*}}does-not-exist.json': cannot read policy file: {{.*}}
// BAD-OPTION: error: amp-assign-precision: unknown op 'nn.bogus' in allow= (no registered dialect defines it)
// BAD-TYPE: error: amp-assign-precision: compute-type must be f16 or bf16, got 'f64'

func.func @overrides(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = nn.softmax %0 : tensor<4x8xf32>
  %2 = math.sin %1 : tensor<4x8xf32>
  %3 = nn.relu %0 : tensor<4x8xf32>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}
