//===- HostValues.h - random operands for the backend comparison tools ----===//
//
// Shared by amp-cpu-ref-compare and amp-gemm-digest: n values from a draw
// function, stored as a runtime dtype.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_CPUMATCHESREFERENCE_HOSTVALUES_H
#define AMP_UNITTESTS_CPUMATCHESREFERENCE_HOSTVALUES_H

#include "amp_runtime/amp_runtime.h"
#include "amp_runtime/float16.h"

#include <cstdint>
#include <cstring>
#include <vector>

/// n values of draw() stored as `dtype`: f32 as drawn, f16 and bf16 rounded
/// to nearest even.
template <typename Draw>
std::vector<char> storeAs(int64_t n, amp_dtype_t dtype, Draw &&draw) {
  std::vector<char> bytes(n * amp_dtype_size(dtype));
  for (int64_t i = 0; i < n; ++i) {
    const float v = draw();
    if (dtype == AMP_DTYPE_F32) {
      std::memcpy(bytes.data() + 4 * i, &v, 4);
      continue;
    }
    const uint16_t bits = dtype == AMP_DTYPE_F16
                              ? amp::runtime::floatToHalfBits(v)
                              : amp::runtime::floatToBFloat16Bits(v);
    std::memcpy(bytes.data() + 2 * i, &bits, 2);
  }
  return bytes;
}

#endif // AMP_UNITTESTS_CPUMATCHESREFERENCE_HOSTVALUES_H
