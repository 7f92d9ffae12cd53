// RUN: amp-opt %s --verify-diagnostics --amp-runtime-plan-buffers=alignment=32
// RUN: amp-opt %s --verify-diagnostics --amp-runtime-plan-buffers=alignment=96
// RUN: amp-opt %s --verify-diagnostics --amp-runtime-plan-buffers=alignment=2147483648

// An alignment that is not a power of two from 64 (what amp_alloc
// guarantees) to 2^30.
// expected-error @below {{is not a power of two from 64 to 2^30}}
func.func @f() {
  return
}
