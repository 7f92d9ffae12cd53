//===- ElementwiseCompareUtil.h - Helpers of the elementwise cases --------===//
//
// What CompareElementwise.cpp, CompareCast.cpp and CompareSelect.cpp share:
// buffers placed at an element offset (offset 1 makes every pointer
// misaligned for 128-bit access, so the kernels' scalar fallback runs),
// inputs mixing random values with the special ones (NaN, infinities,
// signed zeros, subnormals, the f16 extremes), the sizes that exercise the
// vectorized body, its tail and several blocks, and the tolerance of the
// transcendental functions.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_ELEMENTWISECOMPAREUTIL_H
#define AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_ELEMENTWISECOMPAREUTIL_H

#include "Compare.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace amp {
namespace compare {

/// Element counts: empty, one, odd ones below and above a 128-bit pack,
/// several packs with a tail, and enough for many blocks of the grid.
inline std::vector<int64_t> flatSizes() {
  return {0, 1, 7, 9, 1003, (1 << 20) + 5};
}

/// A buffer holding `h` from element `offset` on (the elements before it
/// are zeros), and the pointer to that element.
struct Placed {
  Buf buf;
  void *ptr = nullptr;
  int64_t offset = 0;
};

inline Placed place(Backend &b, const Host &h, int64_t offset) {
  const int64_t size = amp_dtype_size(h.dtype);
  Host padded = zeros(h.dtype, h.numel() + offset);
  if (!h.bytes.empty())
    std::memcpy(padded.bytes.data() + offset * size, h.bytes.data(),
                h.bytes.size());
  Placed p;
  p.buf = b.upload(padded);
  p.ptr = static_cast<char *>(p.buf.get()) + offset * size;
  p.offset = offset;
  return p;
}

/// The elements of `p` from its offset on.
inline Host fetch(Backend &b, const Placed &p) {
  Host all = b.download(p.buf);
  const int64_t size = amp_dtype_size(all.dtype);
  Host h = zeros(all.dtype, all.numel() - p.offset);
  if (!h.bytes.empty())
    std::memcpy(h.bytes.data(), all.bytes.data() + p.offset * size,
                h.bytes.size());
  return h;
}

/// Random values in [lo, hi) with, when `specials`, every 13th element
/// replaced by one of NaN, +-inf, +-0, an f16 subnormal, 65504 and 1e30.
inline Host mixedHost(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n,
                      double lo, double hi, bool specials = true) {
  Host h = randomHost(rng, dtype, n, lo, hi);
  if (!specials)
    return h;
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {std::numeric_limits<double>::quiet_NaN(),
                           inf,
                           -inf,
                           0.0,
                           -0.0,
                           3e-6,
                           65504.0,
                           -1e30};
  for (int64_t i = 5, k = 0; i < n; i += 13, ++k)
    h.set(i, values[k % 8]);
  return h;
}

/// Makes pairs that comparisons must tell apart, at the positions both
/// operands have: equal values, +0 against -0 (both ways), NaN against a
/// number (both ways).
inline void addComparisonPairs(Host &lhs, Host &rhs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int64_t n = std::min(lhs.numel(), rhs.numel());
  for (int64_t i = 0; i < n; ++i) {
    switch (i % 39) {
    case 0:
    case 3:
    case 9:
      rhs.set(i, lhs.get(i));
      break;
    case 1:
      lhs.set(i, 0.0);
      rhs.set(i, -0.0);
      break;
    case 2:
      lhs.set(i, -0.0);
      rhs.set(i, 0.0);
      break;
    case 4:
      lhs.set(i, nan);
      break;
    case 7:
      rhs.set(i, nan);
      break;
    }
  }
}

/// Random 0/1 flags of dtype bool.
inline Host randomFlags(std::mt19937_64 &rng, int64_t n) {
  return randomIndices(rng, AMP_DTYPE_BOOL, n, 2);
}

/// The tolerance of a result of CUDA's expf/logf/tanhf/powf against
/// glibc's: `f32Ulps` ulps in f32 (CUDA's documented maximum error plus
/// glibc's), and in f16/bf16 one ulp (the f32 values round to neighbours
/// when a rounding boundary lies between them).
inline Tolerance transcendental(amp_dtype_t dtype, int f32Ulps) {
  return Tolerance::ulpsOf(dtype == AMP_DTYPE_F32 ? f32Ulps : 1);
}

inline std::string label(const std::string &what, amp_dtype_t dtype, int64_t n,
                         int64_t offset = 0) {
  std::string s =
      what + " " + amp_dtype_name(dtype) + " n=" + std::to_string(n);
  if (offset)
    s += " offset=" + std::to_string(offset);
  return s;
}

/// A shape (rank = size).
using Shape = std::vector<int64_t>;

inline int64_t numelOf(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

inline std::string shapeName(const Shape &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

} // namespace compare
} // namespace amp

#endif // AMP_UNITTESTS_RUNTIME_BACKENDCOMPARE_ELEMENTWISECOMPAREUTIL_H
