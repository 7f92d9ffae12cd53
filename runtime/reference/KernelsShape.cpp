//===- KernelsShape.cpp - Reshape, transpose and broadcast kernels --------===//
//
// The data-movement kernels of amp_runtime/kernels.h on the reference
// backend: amp_reshape, amp_transpose and amp_broadcast_to. They move bit
// patterns (no conversion), so they take every dtype and are exact.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cstring>

using namespace amp::runtime::kernels;

namespace {

/// Calls f(U{}) with U the unsigned integer type of the dtype's size.
template <typename F> void dispatchBits(amp_dtype_t dtype, F &&f) {
  switch (amp_dtype_size(dtype)) {
  case 1:
    f(uint8_t{});
    return;
  case 2:
    f(uint16_t{});
    return;
  case 8:
    f(uint64_t{});
    return;
  default:
    f(uint32_t{});
    return;
  }
}

/// Tile edge of the 2-D blocked copy: 32 x 32 elements of 8 bytes are 8 KiB,
/// so a source and a destination tile stay in L1.
constexpr int64_t kTile = 32;

/// y = x over a simplified loop nest (operands: y, x). When x is not
/// contiguous in the innermost dimension (a transpose), the last two
/// dimensions are copied in tiles so that both sides stay cache-friendly.
template <typename T>
void copyStrided(const StridedLoop<2> &loop, const void *src, void *dst) {
  const T *x = static_cast<const T *>(src);
  T *y = static_cast<T *>(dst);
  const int r = loop.rank;
  if (r < 2 || loop.strides[1][r - 1] == 1 || loop.strides[1][r - 1] == 0) {
    loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
      T *yr = y + off[0];
      const T *xr = x + off[1];
      if (inner[1] == 1 && inner[0] == 1)
        std::memcpy(yr, xr, static_cast<size_t>(len) * sizeof(T));
      else if (inner[1] == 0)
        for (int64_t i = 0; i < len; ++i)
          yr[i * inner[0]] = xr[0];
      else
        for (int64_t i = 0; i < len; ++i)
          yr[i * inner[0]] = xr[i * inner[1]];
    });
    return;
  }
  StridedLoop<2> outer;
  outer.rank = r - 2;
  for (int i = 0; i < r - 2; ++i) {
    outer.dims[i] = loop.dims[i];
    outer.strides[0][i] = loop.strides[0][i];
    outer.strides[1][i] = loop.strides[1][i];
  }
  const int64_t rows = loop.dims[r - 2], cols = loop.dims[r - 1];
  const int64_t ys0 = loop.strides[0][r - 2], ys1 = loop.strides[0][r - 1];
  const int64_t xs0 = loop.strides[1][r - 2], xs1 = loop.strides[1][r - 1];
  outer.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    for (int64_t k = 0; k < len; ++k) {
      T *yp = y + off[0] + k * inner[0];
      const T *xp = x + off[1] + k * inner[1];
      for (int64_t i0 = 0; i0 < rows; i0 += kTile)
        for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
          const int64_t i1 = i0 + kTile < rows ? i0 + kTile : rows;
          const int64_t j1 = j0 + kTile < cols ? j0 + kTile : cols;
          for (int64_t i = i0; i < i1; ++i)
            for (int64_t j = j0; j < j1; ++j)
              yp[i * ys0 + j * ys1] = xp[i * xs0 + j * xs1];
        }
    }
  });
}

} // namespace

extern "C" {

amp_status_t amp_reshape(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                         void * /*stream*/) {
  Checker check("amp_reshape");
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.pointers({{"x", x, n, dtype}, {"y", y, n, dtype}}))
    return s;
  if (n > 0 && x != y)
    std::memmove(y, x, static_cast<size_t>(n * amp_dtype_size(dtype)));
  return AMP_STATUS_OK;
}

amp_status_t amp_transpose(const void *x, void *y, const int64_t *x_dims,
                           int32_t rank, const int64_t *perm, amp_dtype_t dtype,
                           void * /*stream*/) {
  Checker check("amp_transpose");
  int64_t n;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("x", x_dims, rank, &n))
    return s;
  if (rank > 0 && !perm)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "perm is NULL");
  bool seen[kMaxRank] = {};
  for (int32_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "perm is not a permutation of 0..%d", (int)rank - 1);
    seen[perm[i]] = true;
  }
  if (amp_status_t s = check.pointers({{"x", x, n, dtype}, {"y", y, n, dtype}}))
    return s;
  if (n > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");

  StridedLoop<2> loop;
  loop.rank = rank;
  int64_t xStrides[kMaxRank];
  contiguousStrides(x_dims, rank, xStrides);
  for (int32_t i = 0; i < rank; ++i) {
    loop.dims[i] = x_dims[perm[i]];
    loop.strides[1][i] = xStrides[perm[i]];
  }
  contiguousStrides(loop.dims, rank, loop.strides[0]);
  loop.simplify();
  dispatchBits(dtype,
               [&](auto bits) { copyStrided<decltype(bits)>(loop, x, y); });
  return AMP_STATUS_OK;
}

amp_status_t amp_broadcast_to(const void *x, void *y, const int64_t *x_dims,
                              int32_t x_rank, const int64_t *y_dims,
                              int32_t y_rank, amp_dtype_t dtype,
                              void * /*stream*/) {
  Checker check("amp_broadcast_to");
  int64_t nx, ny;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("x", x_dims, x_rank, &nx))
    return s;
  if (amp_status_t s = check.shape("y", y_dims, y_rank, &ny))
    return s;
  if (x_rank > y_rank)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "x has a higher rank (%d) than y (%d)", (int)x_rank,
                      (int)y_rank);
  const int32_t lead = y_rank - x_rank;
  for (int32_t i = 0; i < x_rank; ++i)
    if (x_dims[i] != 1 && x_dims[i] != y_dims[lead + i])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "dimension %d of x (%lld) is neither 1 nor y's "
                        "(%lld)",
                        (int)i, (long long)x_dims[i],
                        (long long)y_dims[lead + i]);
  if (amp_status_t s =
          check.pointers({{"x", x, nx, dtype}, {"y", y, ny, dtype}}))
    return s;
  if (ny > 0 && x == y && nx != ny)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");
  if (ny > 0 && x == y)
    return AMP_STATUS_OK;

  StridedLoop<2> loop;
  loop.rank = y_rank;
  for (int32_t i = 0; i < y_rank; ++i)
    loop.dims[i] = y_dims[i];
  contiguousStrides(y_dims, y_rank, loop.strides[0]);
  broadcastStrides(x_dims, x_rank, y_rank, loop.strides[1]);
  loop.simplify();
  dispatchBits(dtype,
               [&](auto bits) { copyStrided<decltype(bits)>(loop, x, y); });
  return AMP_STATUS_OK;
}

} // extern "C"
