//===- KernelsShape.cpp - Reshape, transpose, concat, slice, pad ----------===//
//
// The data-movement kernels of amp_runtime/kernels.h on the reference
// backend: amp_reshape, amp_transpose, amp_broadcast_to, amp_concat,
// amp_slice, amp_slice_grad and amp_pad. They move bit patterns (no
// conversion; pad rounds its value once), so they are exact, and all but
// pad take every dtype.
//
//===----------------------------------------------------------------------===//

#include "reference/ShapeChecks.h"

#include <cstring>

using namespace amp::runtime::kernels;

namespace {

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
  // Nothing to copy; the pointers of an empty tensor may be NULL, where even
  // computing an offset row pointer is undefined (found by
  // amp-kernel-args-fuzzer: a [0, 2, 3] transpose).
  if (rows == 0 || cols == 0)
    return;
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

/// A byte pointer `elements` elements of `dtype` past p.
inline char *advance(const void *p, int64_t elements, amp_dtype_t dtype) {
  return static_cast<char *>(const_cast<void *>(p)) +
         elements * amp_dtype_size(dtype);
}

/// Runs a checked copy plan.
void runPlan(const CopyPlan &plan, const void *src, void *dst,
             amp_dtype_t dtype) {
  if (plan.count == 0)
    return;
  dispatchBits(dtype, [&](auto bits) {
    copyStrided<decltype(bits)>(plan.loop, advance(src, plan.srcBase, dtype),
                                advance(dst, plan.dstBase, dtype));
  });
}

} // namespace

extern "C" {

amp_status_t amp_reshape(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                         void * /*stream*/) {
  Checker check("amp_reshape");
  if (amp_status_t s = checkReshape(check, x, y, n, dtype))
    return s;
  if (n > 0 && x != y)
    std::memmove(y, x, static_cast<size_t>(n * amp_dtype_size(dtype)));
  return AMP_STATUS_OK;
}

amp_status_t amp_transpose(const void *x, void *y, const int64_t *x_dims,
                           int32_t rank, const int64_t *perm, amp_dtype_t dtype,
                           void * /*stream*/) {
  Checker check("amp_transpose");
  CopyPlan plan;
  if (amp_status_t s =
          checkTranspose(check, x, y, x_dims, rank, perm, dtype, &plan))
    return s;
  runPlan(plan, x, y, dtype);
  return AMP_STATUS_OK;
}

amp_status_t amp_broadcast_to(const void *x, void *y, const int64_t *x_dims,
                              int32_t x_rank, const int64_t *y_dims,
                              int32_t y_rank, amp_dtype_t dtype,
                              void * /*stream*/) {
  Checker check("amp_broadcast_to");
  CopyPlan plan;
  if (amp_status_t s = checkBroadcastTo(check, x, y, x_dims, x_rank, y_dims,
                                        y_rank, dtype, &plan))
    return s;
  runPlan(plan, x, y, dtype);
  return AMP_STATUS_OK;
}

amp_status_t amp_concat(int32_t n_inputs, const void *const *inputs, void *out,
                        const int64_t *out_dims, int32_t rank,
                        const int64_t *axis_sizes, amp_dtype_t dtype,
                        int64_t axis, void * /*stream*/) {
  Checker check("amp_concat");
  ConcatGeometry g;
  if (amp_status_t s = checkConcat(check, n_inputs, inputs, out, out_dims, rank,
                                   axis_sizes, dtype, axis, &g))
    return s;
  if (g.numel == 0)
    return AMP_STATUS_OK;
  // Each of the `outer` rows of out is the inputs' rows one after another.
  const int64_t size = amp_dtype_size(dtype);
  char *dst = static_cast<char *>(out);
  for (int64_t o = 0; o < g.outer; ++o)
    for (int32_t i = 0; i < n_inputs; ++i) {
      const int64_t bytes = axis_sizes[i] * g.inner * size;
      if (bytes == 0)
        continue;
      std::memcpy(dst, static_cast<const char *>(inputs[i]) + o * bytes,
                  static_cast<size_t>(bytes));
      dst += bytes;
    }
  return AMP_STATUS_OK;
}

amp_status_t amp_slice(const void *x, void *y, const int64_t *x_dims,
                       const int64_t *y_dims, int32_t rank,
                       const int64_t *offsets, const int64_t *strides,
                       amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_slice");
  CopyPlan plan;
  int64_t nx;
  if (amp_status_t s = checkSlice(check, false, x, y, x_dims, y_dims, rank,
                                  offsets, strides, dtype, &plan, &nx))
    return s;
  runPlan(plan, x, y, dtype);
  return AMP_STATUS_OK;
}

amp_status_t amp_slice_grad(const void *dy, void *dx, const int64_t *x_dims,
                            const int64_t *y_dims, int32_t rank,
                            const int64_t *offsets, const int64_t *strides,
                            amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_slice_grad");
  CopyPlan plan;
  int64_t nx;
  if (amp_status_t s = checkSlice(check, true, dx, dy, x_dims, y_dims, rank,
                                  offsets, strides, dtype, &plan, &nx))
    return s;
  if (nx == 0)
    return AMP_STATUS_OK;
  // All-zero bits are +0 (or 0, false) in every dtype.
  std::memset(dx, 0, static_cast<size_t>(nx * amp_dtype_size(dtype)));
  runPlan(plan, dy, dx, dtype);
  return AMP_STATUS_OK;
}

amp_status_t amp_pad(const void *x, void *y, const int64_t *x_dims,
                     int32_t rank, const int64_t *low, const int64_t *high,
                     amp_dtype_t dtype, float value, void * /*stream*/) {
  Checker check("amp_pad");
  PadGeometry g;
  if (amp_status_t s =
          checkPad(check, x, y, x_dims, rank, low, high, dtype, &g))
    return s;
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, g.ny, value); });
  runPlan(g.interior, x, y, dtype);
  return AMP_STATUS_OK;
}

} // extern "C"
