//===- KernelsShape.cpp - Reshape, transpose, concat, slice, pad ----------===//
//
// The data-movement kernels of amp_runtime/kernels.h on the reference
// backend: amp_reshape, amp_transpose, amp_broadcast_to, amp_concat,
// amp_slice, amp_slice_grad and amp_pad. They move bit patterns (no
// conversion; pad rounds its value once), so they are exact, and all but
// pad take every dtype.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

#include <cstdio>
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
inline const char *advance(const void *p, int64_t elements, amp_dtype_t dtype) {
  return static_cast<const char *>(p) + elements * amp_dtype_size(dtype);
}

/// The checked arguments of amp_slice and amp_slice_grad as a loop nest over
/// y's shape: operand `yOperand` is y (contiguous), the other x (strided),
/// both relative to *xBase (x's element offset of y's first element).
amp_status_t checkSlice(Checker &check, const void *x, const void *y,
                        const int64_t *xDims, const int64_t *yDims,
                        int32_t rank, const int64_t *offsets,
                        const int64_t *strides, amp_dtype_t dtype,
                        const char *xName, const char *yName, int yOperand,
                        StridedLoop<2> *loop, int64_t *xBase, int64_t *nx,
                        int64_t *ny) {
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape(xName, xDims, rank, nx))
    return s;
  if (amp_status_t s = check.shape(yName, yDims, rank, ny))
    return s;
  if (rank > 0 && !offsets)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "offsets is NULL");
  int64_t xStrides[kMaxRank];
  contiguousStrides(xDims, rank, xStrides);
  *loop = StridedLoop<2>{};
  loop->rank = rank;
  contiguousStrides(yDims, rank, loop->strides[yOperand]);
  *xBase = 0;
  for (int32_t d = 0; d < rank; ++d) {
    const int64_t stride = strides ? strides[d] : 1;
    if (stride == 0)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT, "stride %d is 0", (int)d);
    loop->dims[d] = yDims[d];
    loop->strides[1 - yOperand][d] = xStrides[d];
    if (yDims[d] == 0)
      continue;
    // The first and the last index read along d must lie in x.
    int64_t last;
    if (__builtin_mul_overflow(yDims[d] - 1, stride, &last) ||
        __builtin_add_overflow(last, offsets[d], &last) || offsets[d] < 0 ||
        offsets[d] >= xDims[d] || last < 0 || last >= xDims[d])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "dimension %d: offset %lld with stride %lld reads "
                        "%lld elements outside [0, %lld)",
                        (int)d, (long long)offsets[d], (long long)stride,
                        (long long)yDims[d], (long long)xDims[d]);
    // In bounds, |stride| * (yDims[d] - 1) < xDims[d], so the element stride
    // fits (computing it before the check overflowed for a huge stride:
    // amp-kernel-args-fuzzer).
    if (yDims[d] > 1)
      loop->strides[1 - yOperand][d] = xStrides[d] * stride;
    *xBase += offsets[d] * xStrides[d];
  }
  loop->simplify();
  if (amp_status_t s =
          check.pointers({{xName, x, *nx, dtype}, {yName, y, *ny, dtype}}))
    return s;
  if (*ny > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s aliases %s", yName,
                      xName);
  return AMP_STATUS_OK;
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
  if (amp_status_t s =
          check.broadcastsTo({"x", x_dims, x_rank}, {"y", y_dims, y_rank}))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, nx, dtype}, {"y", y, ny, dtype}}))
    return s;
  if (ny > 0 && x == y && nx != ny)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");
  if (ny > 0 && x == y)
    return AMP_STATUS_OK;

  const StridedLoop<2> loop =
      broadcastLoop<2>(y_dims, y_rank, {{"x", x_dims, x_rank}});
  dispatchBits(dtype,
               [&](auto bits) { copyStrided<decltype(bits)>(loop, x, y); });
  return AMP_STATUS_OK;
}

amp_status_t amp_concat(int32_t n_inputs, const void *const *inputs, void *out,
                        const int64_t *out_dims, int32_t rank,
                        const int64_t *axis_sizes, amp_dtype_t dtype,
                        int64_t axis, void * /*stream*/) {
  Checker check("amp_concat");
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  int64_t no;
  if (amp_status_t s = check.shape("out", out_dims, rank, &no))
    return s;
  int32_t ax;
  if (amp_status_t s = check.axis("axis", axis, rank, &ax))
    return s;
  if (n_inputs < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_inputs (%d) is < 1",
                      (int)n_inputs);
  if (!inputs || !axis_sizes)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the inputs and axis_sizes arrays must not be NULL");
  if (amp_status_t s = check.pointer("out", out, no, dtype))
    return s;
  int64_t dims[kMaxRank], total = 0;
  for (int32_t d = 0; d < rank; ++d)
    dims[d] = out_dims[d];
  for (int32_t i = 0; i < n_inputs; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "input %d", (int)i);
    dims[ax] = axis_sizes[i];
    int64_t ni;
    if (amp_status_t s = check.shape(name, dims, rank, &ni))
      return s;
    if (amp_status_t s = check.pointer(name, inputs[i], ni, dtype))
      return s;
    if (ni > 0 && inputs[i] == out)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT, "out aliases %s", name);
    if (__builtin_add_overflow(total, axis_sizes[i], &total))
      total = -1; // fails the check below
  }
  if (total != out_dims[ax])
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the axis sizes sum to %lld, not out's dimension %d "
                      "(%lld)",
                      (long long)total, (int)ax, (long long)out_dims[ax]);
  if (no == 0)
    return AMP_STATUS_OK;
  // Each of the `outer` rows of out is the inputs' rows one after another.
  const int64_t outer = product(out_dims, 0, ax);
  const int64_t inner = product(out_dims, ax + 1, rank);
  const int64_t size = amp_dtype_size(dtype);
  char *dst = static_cast<char *>(out);
  for (int64_t o = 0; o < outer; ++o)
    for (int32_t i = 0; i < n_inputs; ++i) {
      const int64_t bytes = axis_sizes[i] * inner * size;
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
  StridedLoop<2> loop;
  int64_t base, nx, ny;
  if (amp_status_t s =
          checkSlice(check, x, y, x_dims, y_dims, rank, offsets, strides, dtype,
                     "x", "y", 0, &loop, &base, &nx, &ny))
    return s;
  if (ny == 0)
    return AMP_STATUS_OK;
  dispatchBits(dtype, [&](auto bits) {
    copyStrided<decltype(bits)>(loop, advance(x, base, dtype), y);
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_slice_grad(const void *dy, void *dx, const int64_t *x_dims,
                            const int64_t *y_dims, int32_t rank,
                            const int64_t *offsets, const int64_t *strides,
                            amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_slice_grad");
  StridedLoop<2> loop;
  int64_t base, nx, ny;
  if (amp_status_t s =
          checkSlice(check, dx, dy, x_dims, y_dims, rank, offsets, strides,
                     dtype, "dx", "dy", 1, &loop, &base, &nx, &ny))
    return s;
  if (nx == 0)
    return AMP_STATUS_OK;
  // All-zero bits are +0 (or 0, false) in every dtype.
  std::memset(dx, 0, static_cast<size_t>(nx * amp_dtype_size(dtype)));
  if (ny == 0)
    return AMP_STATUS_OK;
  char *dst = static_cast<char *>(dx) + base * amp_dtype_size(dtype);
  dispatchBits(dtype,
               [&](auto bits) { copyStrided<decltype(bits)>(loop, dy, dst); });
  return AMP_STATUS_OK;
}

amp_status_t amp_pad(const void *x, void *y, const int64_t *x_dims,
                     int32_t rank, const int64_t *low, const int64_t *high,
                     amp_dtype_t dtype, float value, void * /*stream*/) {
  Checker check("amp_pad");
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  int64_t nx, ny;
  if (amp_status_t s = check.shape("x", x_dims, rank, &nx))
    return s;
  if (rank > 0 && (!low || !high))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "low or high is NULL");
  int64_t yDims[kMaxRank];
  for (int32_t d = 0; d < rank; ++d) {
    if (amp_status_t s = check.count("a low padding", low[d]))
      return s;
    if (amp_status_t s = check.count("a high padding", high[d]))
      return s;
    yDims[d] = low[d] + x_dims[d] + high[d]; // < 3 * 2^60
  }
  if (amp_status_t s = check.shape("y", yDims, rank, &ny))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, nx, dtype}, {"y", y, ny, dtype}}))
    return s;
  if (ny > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, ny, value); });
  if (nx == 0)
    return AMP_STATUS_OK;
  // Operand 0: y's interior, starting at `low`; operand 1: x.
  StridedLoop<2> loop;
  loop.rank = rank;
  contiguousStrides(yDims, rank, loop.strides[0]);
  contiguousStrides(x_dims, rank, loop.strides[1]);
  int64_t base = 0;
  for (int32_t d = 0; d < rank; ++d) {
    loop.dims[d] = x_dims[d];
    base += low[d] * loop.strides[0][d];
  }
  loop.simplify();
  char *dst = static_cast<char *>(y) + base * amp_dtype_size(dtype);
  dispatchBits(dtype,
               [&](auto bits) { copyStrided<decltype(bits)>(loop, x, dst); });
  return AMP_STATUS_OK;
}

} // extern "C"
