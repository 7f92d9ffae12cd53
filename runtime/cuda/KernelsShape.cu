//===- KernelsShape.cu - Reshape, transpose, concat, slice, pad on CUDA ---===//
//
// The data-movement kernels of amp_runtime/kernels.h on the CUDA backend.
// They move bit patterns (pad rounds its value once on the host, as the
// reference does), so every result is bitwise the reference's. The argument
// checks are the reference's (reference/ShapeChecks.h); transpose,
// broadcast_to, slice and slice_grad run their copy plan through
// StridedCopy.h; concat and pad have their own gather kernels here.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "cuda/StridedCopy.h"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

/// Inputs per concat launch (the arguments stay below 1 KiB).
constexpr int kConcatInputs = 32;

/// Up to kConcatInputs inputs of one launch, in elements of the launched
/// width: out is `outer` rows of `rowWidth`; input k is `outer` rows of
/// width[k] written from column column[k].
struct ConcatArgs {
  void *out;
  int64_t outer, rowWidth;
  const void *src[kConcatInputs];
  int64_t width[kConcatInputs];
  int64_t column[kConcatInputs];
};

/// blockIdx.y picks the input; its blocks copy it with a grid-stride loop
/// (coalesced reads of the contiguous input, coalesced runs of writes).
template <typename E, typename I>
__global__ void __launch_bounds__(kThreads) concatKernel(const ConcatArgs a) {
  const int k = blockIdx.y;
  const I width = static_cast<I>(a.width[k]);
  if (width == 0)
    return;
  const E *__restrict__ src = static_cast<const E *>(a.src[k]);
  E *__restrict__ out = static_cast<E *>(a.out) + a.column[k];
  const I rowWidth = static_cast<I>(a.rowWidth);
  const int64_t n = a.outer * a.width[k];
  AMP_GRID_STRIDE(i, n) {
    const I j = static_cast<I>(i);
    const I row = j / width;
    out[row * rowWidth + (j - row * width)] = src[j];
  }
}

template <typename E>
void launchConcat(const ConcatArgs &a, int count, bool narrow, unsigned grid,
                  cudaStream_t stream) {
  const dim3 blocks(grid, count);
  if (narrow)
    concatKernel<E, uint32_t><<<blocks, kThreads, 0, stream>>>(a);
  else
    concatKernel<E, uint64_t><<<blocks, kThreads, 0, stream>>>(a);
}

//===----------------------------------------------------------------------===//
// Pad
//===----------------------------------------------------------------------===//

/// y's simplified dimensions; along dimension d, y's coordinates [low[d],
/// low[d] + xDims[d]) are x's (stride xStride[d]), the others `value`.
struct PadArgs {
  int rank;
  int64_t count;
  int64_t yDims[kMaxRank];
  int64_t low[kMaxRank];
  int64_t xDims[kMaxRank];
  int64_t xStride[kMaxRank];
  void *y;
  const void *x;
  uint32_t value; // the bit pattern of RNE(value) in the dtype
};

/// One thread per element of y: every element is written exactly once.
template <typename E, typename I>
__global__ void __launch_bounds__(kThreads) padKernel(const PadArgs a) {
  E *__restrict__ y = static_cast<E *>(a.y);
  const E *__restrict__ x = static_cast<const E *>(a.x);
  const E value = static_cast<E>(a.value);
  AMP_GRID_STRIDE(i, a.count) {
    I rest = static_cast<I>(i), offset = 0;
    bool inside = true;
#pragma unroll
    for (int k = kMaxRank - 1; k >= 0; --k) {
      if (k < a.rank) {
        const I dim = static_cast<I>(a.yDims[k]);
        const I q = rest / dim;
        // t < 0 wraps to a huge unsigned value: outside either way.
        const I t = rest - q * dim - static_cast<I>(a.low[k]);
        inside &= static_cast<uint64_t>(static_cast<int64_t>(t)) <
                  static_cast<uint64_t>(a.xDims[k]);
        offset += t * static_cast<I>(a.xStride[k]);
        rest = q;
      }
    }
    y[i] = inside ? x[offset] : value;
  }
}

/// Drops y's size-1 dimensions and merges an unpadded dimension into the
/// one before it (its interior stays one contiguous range).
void simplifyPad(PadArgs &a, const int64_t *xDims, const int64_t *yDims,
                 const int64_t *low, int32_t rank) {
  a.rank = 0;
  for (int32_t d = 0; d < rank; ++d) {
    if (yDims[d] == 1)
      continue; // low = high = 0, x's dim is 1
    const bool unpadded = yDims[d] == xDims[d];
    if (a.rank > 0 && unpadded) {
      const int k = a.rank - 1;
      a.yDims[k] *= yDims[d];
      a.low[k] *= yDims[d];
      a.xDims[k] *= xDims[d];
      continue;
    }
    a.yDims[a.rank] = yDims[d];
    a.low[a.rank] = low[d];
    a.xDims[a.rank] = xDims[d];
    ++a.rank;
  }
  int64_t stride = 1;
  for (int k = a.rank - 1; k >= 0; --k) {
    a.xStride[k] = stride;
    stride *= a.xDims[k];
  }
}

template <typename E> void launchPad(const PadArgs &a, cudaStream_t stream) {
  const unsigned grid = gridFor(a.count);
  // 32-bit index math when y's index and every partial x offset fit: each
  // dimension is >= 2, so sum_k |t_k| * xStride_k < 2 * a.count.
  if (a.count <= INT32_MAX / 2)
    padKernel<E, int32_t><<<grid, kThreads, 0, stream>>>(a);
  else
    padKernel<E, int64_t><<<grid, kThreads, 0, stream>>>(a);
}

} // namespace

extern "C" {

amp_status_t amp_reshape(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                         void *stream) {
  Checker check("amp_reshape");
  if (amp_status_t s = checkReshape(check, x, y, n, dtype))
    return s;
  if (n == 0 || x == y)
    return AMP_STATUS_OK;
  if (cudaError_t e =
          cudaMemcpyAsync(y, x, static_cast<size_t>(n * amp_dtype_size(dtype)),
                          cudaMemcpyDeviceToDevice, toStream(stream)))
    return cudaFailure(check, "cudaMemcpyAsync", e);
  return AMP_STATUS_OK;
}

amp_status_t amp_transpose(const void *x, void *y, const int64_t *x_dims,
                           int32_t rank, const int64_t *perm, amp_dtype_t dtype,
                           void *stream) {
  Checker check("amp_transpose");
  CopyPlan plan;
  if (amp_status_t s =
          checkTranspose(check, x, y, x_dims, rank, perm, dtype, &plan))
    return s;
  return launchCopy(check, plan, x, y, amp_dtype_size(dtype), toStream(stream));
}

amp_status_t amp_broadcast_to(const void *x, void *y, const int64_t *x_dims,
                              int32_t x_rank, const int64_t *y_dims,
                              int32_t y_rank, amp_dtype_t dtype, void *stream) {
  Checker check("amp_broadcast_to");
  CopyPlan plan;
  if (amp_status_t s = checkBroadcastTo(check, x, y, x_dims, x_rank, y_dims,
                                        y_rank, dtype, &plan))
    return s;
  return launchCopy(check, plan, x, y, amp_dtype_size(dtype), toStream(stream));
}

amp_status_t amp_concat(int32_t n_inputs, const void *const *inputs, void *out,
                        const int64_t *out_dims, int32_t rank,
                        const int64_t *axis_sizes, amp_dtype_t dtype,
                        int64_t axis, void *stream) {
  Checker check("amp_concat");
  ConcatGeometry g;
  if (amp_status_t s = checkConcat(check, n_inputs, inputs, out, out_dims, rank,
                                   axis_sizes, dtype, axis, &g))
    return s;
  if (g.numel == 0)
    return AMP_STATUS_OK;
  // The widest element (up to 16 bytes) that divides every input's row and
  // aligns every pointer; empty inputs (possibly NULL) do not count.
  const int64_t size = amp_dtype_size(dtype);
  const int64_t rowBytes = g.numel / g.outer * size;
  int64_t width = 16;
  auto fits = [&](int64_t bytes, const void *p) {
    while (width > size &&
           (bytes % width != 0 || reinterpret_cast<uintptr_t>(p) % width != 0))
      width /= 2;
  };
  fits(rowBytes, out);
  for (int32_t i = 0; i < n_inputs; ++i)
    if (axis_sizes[i] > 0)
      fits(axis_sizes[i] * g.inner * size, inputs[i]);
  const int64_t scale = width / size;
  const bool narrow = g.numel / scale <= INT32_MAX;
  cudaStream_t st = toStream(stream);
  int64_t column = 0; // in elements of `width`
  for (int32_t first = 0; first < n_inputs; first += kConcatInputs) {
    const int count = std::min(n_inputs - first, kConcatInputs);
    ConcatArgs a{};
    a.out = out;
    a.outer = g.outer;
    a.rowWidth = rowBytes / width;
    int64_t largest = 0;
    for (int k = 0; k < count; ++k) {
      a.src[k] = inputs[first + k];
      a.width[k] = axis_sizes[first + k] * g.inner / scale;
      a.column[k] = column;
      column += a.width[k];
      largest = std::max(largest, a.width[k]);
    }
    if (largest == 0)
      continue;
    const unsigned grid = gridFor(g.outer * largest);
    switch (width) {
    case 1:
      launchConcat<uint8_t>(a, count, narrow, grid, st);
      break;
    case 2:
      launchConcat<uint16_t>(a, count, narrow, grid, st);
      break;
    case 4:
      launchConcat<uint32_t>(a, count, narrow, grid, st);
      break;
    case 8:
      launchConcat<unsigned long long>(a, count, narrow, grid, st);
      break;
    default:
      launchConcat<uint4>(a, count, narrow, grid, st);
      break;
    }
    if (amp_status_t s = launched(check, "amp-concat"))
      return s;
  }
  return AMP_STATUS_OK;
}

amp_status_t amp_slice(const void *x, void *y, const int64_t *x_dims,
                       const int64_t *y_dims, int32_t rank,
                       const int64_t *offsets, const int64_t *strides,
                       amp_dtype_t dtype, void *stream) {
  Checker check("amp_slice");
  CopyPlan plan;
  int64_t nx;
  if (amp_status_t s = checkSlice(check, false, x, y, x_dims, y_dims, rank,
                                  offsets, strides, dtype, &plan, &nx))
    return s;
  return launchCopy(check, plan, x, y, amp_dtype_size(dtype), toStream(stream));
}

amp_status_t amp_slice_grad(const void *dy, void *dx, const int64_t *x_dims,
                            const int64_t *y_dims, int32_t rank,
                            const int64_t *offsets, const int64_t *strides,
                            amp_dtype_t dtype, void *stream) {
  Checker check("amp_slice_grad");
  CopyPlan plan;
  int64_t nx;
  if (amp_status_t s = checkSlice(check, true, dx, dy, x_dims, y_dims, rank,
                                  offsets, strides, dtype, &plan, &nx))
    return s;
  if (nx == 0)
    return AMP_STATUS_OK;
  cudaStream_t st = toStream(stream);
  // All-zero bits are +0 (or 0, false) in every dtype; then the scatter.
  if (cudaError_t e = cudaMemsetAsync(
          dx, 0, static_cast<size_t>(nx * amp_dtype_size(dtype)), st))
    return cudaFailure(check, "cudaMemsetAsync", e);
  return launchCopy(check, plan, dy, dx, amp_dtype_size(dtype), st);
}

amp_status_t amp_pad(const void *x, void *y, const int64_t *x_dims,
                     int32_t rank, const int64_t *low, const int64_t *high,
                     amp_dtype_t dtype, float value, void *stream) {
  Checker check("amp_pad");
  PadGeometry g;
  if (amp_status_t s =
          checkPad(check, x, y, x_dims, rank, low, high, dtype, &g))
    return s;
  if (g.ny == 0)
    return AMP_STATUS_OK;
  PadArgs a{};
  a.count = g.ny;
  a.y = y;
  a.x = x;
  simplifyPad(a, x_dims, g.yDims, low, rank);
  cudaStream_t st = toStream(stream);
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    // The reference's rounding (float16.h), on the host.
    const T v = fromF32<T>(value);
    std::memcpy(&a.value, &v, sizeof(T));
    if (sizeof(T) == 2)
      launchPad<uint16_t>(a, st);
    else
      launchPad<uint32_t>(a, st);
  });
  return launched(check, "amp-pad");
}

} // extern "C"
