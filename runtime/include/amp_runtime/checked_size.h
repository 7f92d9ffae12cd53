//===- checked_size.h - amp runtime: size arithmetic that cannot wrap -----===//
//
// Element counts, byte sizes, strides and the output extent of a sliding
// window (conv2d, the pools), each computed with overflow checks: a result
// that int64 cannot hold is std::nullopt, never a wrapped number. The one
// place for this arithmetic: the nn/amp verifiers and the runtime lowering
// (through amp/Interfaces/TensorSizeTrait.h), the reference kernels'
// argument checks and the runner all use it. C++17, header-only, no MLIR.
//
// Zero-size shapes: a shape with a 0 dim has 0 elements, but it is only
// representable when the product of its non-zero dims fits, because its
// strides (suffix products of the dims) are that large.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CHECKED_SIZE_H
#define AMP_RUNTIME_CHECKED_SIZE_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

namespace amp {
namespace checked {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

/// a + b, or nullopt when it overflows int64.
inline std::optional<int64_t> add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a * b, or nullopt when it overflows int64.
inline std::optional<int64_t> mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a * b + c, or nullopt when either step overflows int64.
inline std::optional<int64_t> mulAdd(int64_t a, int64_t b, int64_t c) {
  std::optional<int64_t> p = mul(a, b);
  return p ? add(*p, c) : std::nullopt;
}

/// The product of the non-zero dims of `dims[0, rank)` (1 for rank 0), or
/// nullopt when a dim is negative or the product exceeds `limit`.
inline std::optional<int64_t> nonZeroExtent(const int64_t *dims, size_t rank,
                                            int64_t limit = kInt64Max) {
  int64_t n = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return std::nullopt;
    if (dims[i] != 0 && (__builtin_mul_overflow(n, dims[i], &n) || n > limit))
      return std::nullopt;
  }
  return n;
}

/// The element count of a shape (0 when a dim is 0), or nullopt when a dim
/// is negative or the product of the non-zero dims exceeds `limit`.
inline std::optional<int64_t> elementCount(const int64_t *dims, size_t rank,
                                           int64_t limit = kInt64Max) {
  std::optional<int64_t> extent = nonZeroExtent(dims, rank, limit);
  if (!extent)
    return std::nullopt;
  for (size_t i = 0; i < rank; ++i)
    if (dims[i] == 0)
      return 0;
  return extent;
}

/// The size in bytes of a shape of `elementBytes`-byte elements, or nullopt
/// when elementBytes <= 0, a dim is negative, or the size (of the non-zero
/// dims) exceeds `limit` bytes.
inline std::optional<int64_t> byteSize(const int64_t *dims, size_t rank,
                                       int64_t elementBytes,
                                       int64_t limit = kInt64Max) {
  if (elementBytes <= 0)
    return std::nullopt;
  std::optional<int64_t> n = elementCount(dims, rank, limit / elementBytes);
  if (!n)
    return std::nullopt;
  return *n * elementBytes;
}

/// The row-major strides (in elements) of `dims[0, rank)` into
/// `out[0, rank)`; false when a dim is negative or a stride overflows.
inline bool rowMajorStrides(const int64_t *dims, size_t rank, int64_t *out) {
  int64_t s = 1;
  for (size_t i = rank; i-- > 0;) {
    if (dims[i] < 0)
      return false;
    out[i] = s;
    if (__builtin_mul_overflow(s, dims[i], &s))
      return i == 0; // only the (unused) stride beyond dim 0 overflowed
  }
  return true;
}

/// `n` split into rows of `rowLength` elements: n / rowLength, 0 rows when
/// rowLength is 0 (a zero-size row, e.g. logits of 0 classes), nullopt when
/// rowLength is negative or does not divide n.
inline std::optional<int64_t> rowCount(int64_t n, int64_t rowLength) {
  if (rowLength < 0 || n < 0)
    return std::nullopt;
  if (rowLength == 0)
    return n == 0 ? std::optional<int64_t>(0) : std::nullopt;
  if (n % rowLength != 0)
    return std::nullopt;
  return n / rowLength;
}

/// One spatial dimension of a sliding window (conv2d and the pools).
struct WindowExtent {
  /// in + padLo + padHi; nullopt when it overflows.
  std::optional<int64_t> padded;
  /// The dilated kernel: dilation * (kernel - 1) + 1; nullopt when it
  /// overflows.
  std::optional<int64_t> window;
  /// (padded - window) / stride + 1; nullopt when one of the above is, when
  /// the window is larger than the padded input, or when an argument is out
  /// of its domain (in or padding < 0, kernel, stride or dilation < 1).
  std::optional<int64_t> output;
};

inline WindowExtent windowExtent(int64_t in, int64_t padLo, int64_t padHi,
                                 int64_t kernel, int64_t stride,
                                 int64_t dilation) {
  WindowExtent e;
  if (in < 0 || padLo < 0 || padHi < 0 || kernel < 1 || stride < 1 ||
      dilation < 1)
    return e;
  std::optional<int64_t> lo = add(in, padLo);
  e.padded = lo ? add(*lo, padHi) : std::nullopt;
  e.window = mulAdd(dilation, kernel - 1, 1);
  if (e.padded && e.window && *e.window <= *e.padded)
    e.output = (*e.padded - *e.window) / stride + 1;
  return e;
}

} // namespace checked
} // namespace amp

#endif // AMP_RUNTIME_CHECKED_SIZE_H
