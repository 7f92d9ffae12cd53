// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt %s --mlir-print-op-generic | amp-opt | FileCheck %s
// RUN: amp-opt %s -emit-bytecode | amp-opt | FileCheck %s

// Round trip of every amp op and attribute form: custom form, generic form
// and bytecode all print back to the same custom form.

//===----------------------------------------------------------------------===//
// amp.cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast_f32_to_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<32x64xf32>) -> tensor<32x64xf16>
// CHECK:         %[[R:.*]] = amp.cast %[[X]] : tensor<32x64xf32> to tensor<32x64xf16>
// CHECK-NEXT:    return %[[R]]
func.func @cast_f32_to_f16(%x: tensor<32x64xf32>) -> tensor<32x64xf16> {
  %0 = amp.cast %x : tensor<32x64xf32> to tensor<32x64xf16>
  return %0 : tensor<32x64xf16>
}

// CHECK-LABEL: func.func @cast_f32_to_bf16(
// CHECK-SAME:    %[[X:.*]]: tensor<8xf32>) -> tensor<8xbf16>
// CHECK:         %[[R:.*]] = amp.cast %[[X]] : tensor<8xf32> to tensor<8xbf16>
// CHECK-NEXT:    return %[[R]]
func.func @cast_f32_to_bf16(%x: tensor<8xf32>) -> tensor<8xbf16> {
  %0 = amp.cast %x : tensor<8xf32> to tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// CHECK-LABEL: func.func @cast_f16_to_f32(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf16>) -> tensor<2x3x4xf32>
// CHECK:         %[[R:.*]] = amp.cast %[[X]] : tensor<2x3x4xf16> to tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @cast_f16_to_f32(%x: tensor<2x3x4xf16>) -> tensor<2x3x4xf32> {
  %0 = amp.cast %x : tensor<2x3x4xf16> to tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @cast_bf16_to_f32(
// CHECK-SAME:    %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<bf16>) -> tensor<f32>
// CHECK:         %[[R:.*]] = amp.cast %[[Y]] : tensor<bf16> to tensor<f32>
// CHECK-NEXT:    return %[[R]]
func.func @cast_bf16_to_f32(%x: tensor<f32>, %y: tensor<bf16>) -> tensor<f32> {
  %0 = amp.cast %y : tensor<bf16> to tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @cast_f16_to_bf16(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf16>) -> tensor<4xbf16>
// CHECK:         %[[R:.*]] = amp.cast %[[X]] : tensor<4xf16> to tensor<4xbf16>
// CHECK-NEXT:    return %[[R]]
func.func @cast_f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = amp.cast %x : tensor<4xf16> to tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// An identity cast is valid IR (canonicalization removes it).
// CHECK-LABEL: func.func @cast_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = amp.cast %[[X]] : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @cast_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.cast %x : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// amp.autocast and amp.yield
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @autocast_disabled(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[R:.*]] = amp.autocast enabled = false -> tensor<4x8xf32> {
// CHECK-NEXT:      %[[S:.*]] = nn.softmax %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:      amp.yield %[[S]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @autocast_disabled(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = amp.autocast enabled = false -> tensor<4x8xf32> {
    %1 = nn.softmax %x : tensor<4x8xf32>
    amp.yield %1 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// `enabled = true` is the default and is not printed.
// CHECK-LABEL: func.func @autocast_enabled_default(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[R:.*]] = amp.autocast -> tensor<4x8xf32> {
// CHECK-NEXT:      %[[T:.*]] = nn.tanh %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:      amp.yield %[[T]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @autocast_enabled_default(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = amp.autocast enabled = true -> tensor<4x8xf32> {
    %1 = nn.tanh %x : tensor<4x8xf32>
    amp.yield %1 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @autocast_compute_type_bf16(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK:         %[[R:.*]] = amp.autocast compute_type = bf16 -> tensor<4x16xf32> {
// CHECK-NEXT:      %[[M:.*]] = nn.matmul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:      amp.yield %[[M]] : tensor<4x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @autocast_compute_type_bf16(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = amp.autocast compute_type = bf16 -> tensor<4x16xf32> {
    %1 = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    amp.yield %1 : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @autocast_compute_type_f16_and_f32(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         %[[R0:.*]] = amp.autocast compute_type = f16 -> tensor<4xf32> {
// CHECK-NEXT:      amp.yield %[[X]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.*]] = amp.autocast compute_type = f32 -> tensor<4xf32> {
// CHECK-NEXT:      amp.yield %[[X]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R0]], %[[R1]]
func.func @autocast_compute_type_f16_and_f32(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = amp.autocast compute_type = f16 -> tensor<4xf32> {
    amp.yield %x : tensor<4xf32>
  }
  %1 = amp.autocast compute_type = f32 -> tensor<4xf32> {
    amp.yield %x : tensor<4xf32>
  }
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @autocast_disabled_with_compute_type(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = amp.autocast enabled = false compute_type = f16 -> tensor<4xf32> {
// CHECK-NEXT:      amp.yield %[[X]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @autocast_disabled_with_compute_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.autocast enabled = false compute_type = f16 -> tensor<4xf32> {
    amp.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @autocast_several_results(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf32>, %[[Y:.*]]: tensor<4xi32>) -> (tensor<4x10xf32>, tensor<f32>, tensor<4xi32>)
// CHECK:         %[[R:.*]]:3 = amp.autocast enabled = false -> tensor<4x10xf32>, tensor<f32>, tensor<4xi32> {
// CHECK-NEXT:      %[[S:.*]] = nn.log_softmax %[[X]] : tensor<4x10xf32>
// CHECK-NEXT:      %[[L:.*]] = nn.cross_entropy %[[X]], %[[Y]] : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
// CHECK-NEXT:      amp.yield %[[S]], %[[L]], %[[Y]] : tensor<4x10xf32>, tensor<f32>, tensor<4xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @autocast_several_results(%x: tensor<4x10xf32>, %y: tensor<4xi32>) -> (tensor<4x10xf32>, tensor<f32>, tensor<4xi32>) {
  %0:3 = amp.autocast enabled = false -> tensor<4x10xf32>, tensor<f32>, tensor<4xi32> {
    %1 = nn.log_softmax %x : tensor<4x10xf32>
    %2 = nn.cross_entropy %x, %y : (tensor<4x10xf32>, tensor<4xi32>) -> tensor<f32>
    amp.yield %1, %2, %y : tensor<4x10xf32>, tensor<f32>, tensor<4xi32>
  }
  return %0#0, %0#1, %0#2 : tensor<4x10xf32>, tensor<f32>, tensor<4xi32>
}

// Without results the terminator is implicit and not printed.
// CHECK-LABEL: func.func @autocast_no_results(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK:         amp.autocast enabled = false {
// CHECK-NEXT:      %{{.*}} = nn.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    amp.autocast {
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @autocast_no_results(%x: tensor<4xf32>) {
  amp.autocast enabled = false {
    %0 = nn.exp %x : tensor<4xf32>
    amp.yield
  }
  amp.autocast {
  }
  return
}

// CHECK-LABEL: func.func @autocast_nested(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[OUTER:.*]] = amp.autocast compute_type = f16 -> tensor<4xf32> {
// CHECK-NEXT:      %[[INNER:.*]] = amp.autocast enabled = false -> tensor<4xf32> {
// CHECK-NEXT:        %[[E:.*]] = nn.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:        amp.yield %[[E]] : tensor<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[N:.*]] = nn.neg %[[INNER]] : tensor<4xf32>
// CHECK-NEXT:      amp.yield %[[N]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[OUTER]]
func.func @autocast_nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = amp.autocast compute_type = f16 -> tensor<4xf32> {
    %1 = amp.autocast enabled = false -> tensor<4xf32> {
      %2 = nn.exp %x : tensor<4xf32>
      amp.yield %2 : tensor<4xf32>
    }
    %3 = nn.neg %1 : tensor<4xf32>
    amp.yield %3 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// Discardable attributes of the autocast op follow its region.
// CHECK-LABEL: func.func @autocast_attr_dict(
// CHECK:         amp.autocast {
// CHECK-NEXT:    } {note = "scope"}
func.func @autocast_attr_dict() {
  amp.autocast {
  } {note = "scope"}
  return
}

//===----------------------------------------------------------------------===//
// amp.precision
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @precision(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[S:.*]]: f32)
// CHECK:         nn.matmul %[[A]], %[[B]] {amp.precision = "f32"} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    nn.matmul %[[A]], %[[A]] {amp.precision = "f16", transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    nn.softmax %[[A]] {amp.precision = "bf16", axis = 0 : i64} : tensor<4x8xf32>
// CHECK-NEXT:    arith.addf %[[S]], %[[S]] {amp.precision = "f16"} : f32
func.func @precision(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %s: f32) {
  %0 = nn.matmul %a, %b {amp.precision = "f32"} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = nn.matmul %a, %a {transpose_b, amp.precision = "f16"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %2 = nn.softmax %a {amp.precision = "bf16", axis = 0 : i64} : tensor<4x8xf32>
  %3 = arith.addf %s, %s {amp.precision = "f16"} : f32
  return
}
