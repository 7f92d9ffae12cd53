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
// CHECK:         nn.matmul %[[A]], %[[B]] {amp.precision = f32} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    nn.matmul %[[A]], %[[A]] {amp.precision = f16, transpose_b} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    nn.softmax %[[A]] {amp.precision = bf16, axis = 0 : i64} : tensor<4x8xf32>
// CHECK-NEXT:    arith.addf %[[S]], %[[S]] {amp.precision = f16} : f32
func.func @precision(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %s: f32) {
  %0 = nn.matmul %a, %b {amp.precision = f32} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = nn.matmul %a, %a {transpose_b, amp.precision = f16} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  %2 = nn.softmax %a {amp.precision = bf16, axis = 0 : i64} : tensor<4x8xf32>
  %3 = arith.addf %s, %s {amp.precision = f16} : f32
  return
}

// On a region op, one precision per result.
// CHECK-LABEL: func.func @precision_per_result(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[N:.*]]: index)
// CHECK:         scf.for
// CHECK:         } {amp.precision = [f16]}
// CHECK-NEXT:    %{{.*}}:2 = amp.autocast -> tensor<4xf32>, tensor<4xf32> {
// CHECK-NEXT:      amp.yield %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    } {amp.precision = [bf16, f32]}
func.func @precision_per_result(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    %1 = nn.exp %a : tensor<4xf32>
    scf.yield %1 : tensor<4xf32>
  } {amp.precision = [f16]}
  %2:2 = amp.autocast -> tensor<4xf32>, tensor<4xf32> {
    amp.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } {amp.precision = [bf16, f32]}
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Loss scaling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scaled_grad_seed(
// CHECK-SAME:    %[[L:.*]]: tensor<f32>, %[[S:.*]]: tensor<f32>, %[[L16:.*]]: tensor<2xf16>)
// CHECK:         %[[A:.*]] = amp.scaled_grad_seed %[[L]], %[[S]] : tensor<f32>
// CHECK-NEXT:    %[[B:.*]] = amp.scaled_grad_seed %[[L16]], %[[S]] : tensor<2xf16>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @scaled_grad_seed(%loss: tensor<f32>, %scale: tensor<f32>, %l16: tensor<2xf16>) -> (tensor<f32>, tensor<2xf16>) {
  %0 = amp.scaled_grad_seed %loss, %scale : tensor<f32>
  %1 = amp.scaled_grad_seed %l16, %scale : tensor<2xf16>
  return %0, %1 : tensor<f32>, tensor<2xf16>
}

// CHECK-LABEL: func.func @unscale_and_check(
// CHECK-SAME:    %[[S:.*]]: tensor<f32>, %[[G0:.*]]: tensor<8xf16>, %[[G1:.*]]: tensor<4x4xf32>)
// CHECK:         %[[U:.*]]:2, %[[F:.*]] = amp.unscale_and_check %[[S]], %[[G0]], %[[G1]] : tensor<8xf16>, tensor<4x4xf32>
// CHECK-NEXT:    %[[V:.*]], %[[F1:.*]] = amp.unscale_and_check %[[S]], %[[G1]] : tensor<4x4xf32>
// CHECK-NEXT:    return %[[U]]#0, %[[U]]#1, %[[F]], %[[F1]]
func.func @unscale_and_check(%scale: tensor<f32>, %g0: tensor<8xf16>, %g1: tensor<4x4xf32>) -> (tensor<8xf16>, tensor<4x4xf32>, tensor<i1>, tensor<i1>) {
  %u0, %u1, %found = amp.unscale_and_check %scale, %g0, %g1 : tensor<8xf16>, tensor<4x4xf32>
  %v, %found1 = amp.unscale_and_check %scale, %g1 : tensor<4x4xf32>
  return %u0, %u1, %found, %found1 : tensor<8xf16>, tensor<4x4xf32>, tensor<i1>, tensor<i1>
}

// CHECK-LABEL: func.func @update_scale(
// CHECK-SAME:    %[[S:.*]]: tensor<f32>, %[[T:.*]]: tensor<i32>, %[[F:.*]]: tensor<i1>)
// CHECK:         %[[S1:.*]], %[[T1:.*]] = amp.update_scale %[[S]], %[[T]], %[[F]] : tensor<f32>, tensor<i32>
// CHECK-NEXT:    return %[[S1]], %[[T1]]
func.func @update_scale(%scale: tensor<f32>, %tracker: tensor<i32>, %found: tensor<i1>) -> (tensor<f32>, tensor<i32>) {
  %0, %1 = amp.update_scale %scale, %tracker, %found : tensor<f32>, tensor<i32>
  return %0, %1 : tensor<f32>, tensor<i32>
}

// CHECK-LABEL: func.func @update_scale_all_attributes(
// CHECK-SAME:    %[[S:.*]]: tensor<f32>, %[[T:.*]]: tensor<i32>, %[[F:.*]]: tensor<i1>, %[[H:.*]]: tensor<i32>)
// CHECK:         %[[S1:.*]], %[[T1:.*]], %[[H1:.*]] = amp.update_scale %[[S]], %[[T]], %[[F]] hysteresis_tracker(%[[H]]) {backoff_factor = 2.500000e-01 : f64, growth_factor = 4.000000e+00 : f64, growth_interval = 100 : i32, hysteresis = 2 : i32, max_scale = 6.553600e+04 : f32, min_scale = 1.000000e+00 : f32} : tensor<f32>, tensor<i32>, tensor<i32>
// CHECK-NEXT:    return %[[S1]], %[[T1]], %[[H1]]
func.func @update_scale_all_attributes(%scale: tensor<f32>, %tracker: tensor<i32>, %found: tensor<i1>, %hyst: tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  %0, %1, %2 = amp.update_scale %scale, %tracker, %found hysteresis_tracker(%hyst) {growth_factor = 4.0 : f64, backoff_factor = 0.25 : f64, growth_interval = 100 : i32, min_scale = 1.0 : f32, max_scale = 65536.0 : f32, hysteresis = 2 : i32} : tensor<f32>, tensor<i32>, tensor<i32>
  return %0, %1, %2 : tensor<f32>, tensor<i32>, tensor<i32>
}

// CHECK-LABEL: func.func @skip_step_if(
// CHECK-SAME:    %[[F:.*]]: tensor<i1>, %[[P:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xf32>, %[[G:.*]]: tensor<8xf32>)
// CHECK:         %[[R:.*]]:2 = amp.skip_step_if %[[F]] keep(%[[P]], %[[M]] : tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT:      %[[P1:.*]], %[[M1:.*]] = nn.sgd_update %[[P]], %[[G]], %[[M]] {lr = 1.000000e-01 : f32, momentum = 0.899999976 : f32} : tensor<8xf32>
// CHECK-NEXT:      amp.yield %[[P1]], %[[M1]] : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT:    } -> tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @skip_step_if(%found: tensor<i1>, %p: tensor<8xf32>, %m: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %p1, %m1 = amp.skip_step_if %found keep(%p, %m : tensor<8xf32>, tensor<8xf32>) {
    %a, %b = nn.sgd_update %p, %g, %m {lr = 0.1 : f32, momentum = 0.9 : f32} : tensor<8xf32>
    amp.yield %a, %b : tensor<8xf32>, tensor<8xf32>
  } -> tensor<8xf32>, tensor<8xf32>
  return %p1, %m1 : tensor<8xf32>, tensor<8xf32>
}

// Without results the terminator and the result list are implicit.
// CHECK-LABEL: func.func @skip_step_if_no_results(
// CHECK-SAME:    %[[F:.*]]: tensor<i1>)
// CHECK:         amp.skip_step_if %[[F]] keep() {
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @skip_step_if_no_results(%found: tensor<i1>) {
  amp.skip_step_if %found keep() {
  }
  return
}
