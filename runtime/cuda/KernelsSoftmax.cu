//===- KernelsSoftmax.cu - amp_softmax, amp_log_softmax, amp_softmax_grad -===//
//
// Softmax over one axis of a tensor seen as [outer, len, inner].
//
//   inner == 1 (the last axis, rows contiguous): one warp per row for
//   len <= 1024, the row held in registers (read once, written once); one
//   block per row above that, the first 8 * blockDim elements of the row in
//   registers and the rest read again from global memory (L2) in each pass.
//   inner > 1: one thread per column of `len` elements `inner` apart, so a
//   warp reads 32 adjacent columns (coalesced), three passes (max, sum,
//   store) over global memory.
//
// The math is f32 (NormMath.h, as the reference); the sums are tree sums
// (per-thread partial sums, then warpSum/blockSum), so they differ from the
// reference's sequential sums by rounding only.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "reference/NormChecks.h"
#include "reference/NormMath.h"

#include <algorithm>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

enum class Op { Softmax, LogSoftmax, Grad };

/// The operands of one call: softmax reads a = x; the gradient reads
/// a = dy and b = y.
struct SoftmaxArgs {
  const void *a;
  const void *b;
  void *out;
  int64_t outer, len, inner;
};

/// Rows per block of the warp-per-row kernel.
constexpr int kWarpRowThreads = 256;
/// Elements per thread kept in registers by the block-per-row kernel.
constexpr int kBlockCache = 8;
/// The longest row of the warp-per-row kernel.
constexpr int64_t kWarpMaxLen = 1024;

__device__ __forceinline__ float negInf() {
  return -__int_as_float(0x7f800000);
}

/// The sum (or NaN-propagating max) over the row's group: one warp, or the
/// whole block.
template <bool kWarp>
__device__ __forceinline__ float groupSum(float v, float *scratch) {
  if constexpr (kWarp)
    return warpSum(v);
  else
    return blockSum(v, scratch);
}
template <bool kWarp>
__device__ __forceinline__ float groupMax(float v, float *scratch) {
  if constexpr (kWarp)
    return warpMax(v);
  else
    return blockMax(v, scratch);
}

/// One row per warp (kWarp) or per block. The group's thread `lane` owns
/// elements lane + k * width: the first kCache of them live in registers,
/// the rest (only when len > kCache * width) are read again in each pass.
/// Every element is read and written by the thread that owns it, so y may
/// alias x (and dx dy or y).
template <typename T, Op op, int kCache, bool kWarp>
__global__ void __launch_bounds__(kWarp ? kWarpRowThreads : 1024)
    rowKernel(SoftmaxArgs args) {
  __shared__ float scratch[32];
  const int width = kWarp ? 32 : int(blockDim.x);
  const int lane = kWarp ? int(threadIdx.x % 32) : int(threadIdx.x);
  const int64_t groups = kWarp ? blockDim.x / 32 : 1;
  const int64_t first =
      int64_t(blockIdx.x) * groups + (kWarp ? threadIdx.x / 32 : 0);
  const int64_t step = int64_t(gridDim.x) * groups;
  const int64_t len = args.len;
  const T *pa = static_cast<const T *>(args.a);
  const T *pb = static_cast<const T *>(args.b);
  T *out = static_cast<T *>(args.out);

  // All threads of a group run the same rows (the block-wide reductions
  // need every thread).
  for (int64_t row = first; row < args.outer; row += step) {
    const int64_t base = row * len;
    const int64_t rest = int64_t(kCache) * width + lane;
    float a[kCache], b[kCache];
#pragma unroll
    for (int k = 0; k < kCache; ++k) {
      const int64_t i = int64_t(k) * width + lane;
      a[k] = i < len ? ld(pa, base + i) : 0.0f;
      if constexpr (op == Op::Grad)
        b[k] = i < len ? ld(pb, base + i) : 0.0f;
    }
    if constexpr (op == Op::Grad) {
      // Padding contributes 0 * 0.
      float s = 0.0f;
#pragma unroll
      for (int k = 0; k < kCache; ++k)
        s += a[k] * b[k];
      for (int64_t i = rest; i < len; i += width)
        s += ld(pa, base + i) * ld(pb, base + i);
      s = groupSum<kWarp>(s, scratch);
#pragma unroll
      for (int k = 0; k < kCache; ++k) {
        const int64_t i = int64_t(k) * width + lane;
        if (i < len)
          st(out, base + i, softmaxGradValue(a[k], b[k], s));
      }
      for (int64_t i = rest; i < len; i += width)
        st(out, base + i,
           softmaxGradValue(ld(pa, base + i), ld(pb, base + i), s));
    } else {
      float m = negInf();
#pragma unroll
      for (int k = 0; k < kCache; ++k)
        if (int64_t(k) * width + lane < len)
          m = maxNaNDevice(m, a[k]);
      for (int64_t i = rest; i < len; i += width)
        m = maxNaNDevice(m, ld(pa, base + i));
      m = groupMax<kWarp>(m, scratch);
      float s = 0.0f;
#pragma unroll
      for (int k = 0; k < kCache; ++k)
        if (int64_t(k) * width + lane < len) {
          const float e = expf(a[k] - m);
          s += e;
          if constexpr (op == Op::Softmax)
            a[k] = e;
        }
      for (int64_t i = rest; i < len; i += width)
        s += expf(ld(pa, base + i) - m);
      s = groupSum<kWarp>(s, scratch);
      const float logS = op == Op::LogSoftmax ? logf(s) : 0.0f;
#pragma unroll
      for (int k = 0; k < kCache; ++k) {
        const int64_t i = int64_t(k) * width + lane;
        if (i < len)
          st(out, base + i,
             op == Op::Softmax ? softmaxValue(a[k], s)
                               : logSoftmaxValue(a[k], m, logS));
      }
      for (int64_t i = rest; i < len; i += width) {
        const float x = ld(pa, base + i);
        st(out, base + i,
           op == Op::Softmax ? softmaxValue(expf(x - m), s)
                             : logSoftmaxValue(x, m, logS));
      }
    }
  }
}

/// One thread per column (o, j) of a non-innermost axis: element i of the
/// column is at o * len * inner + i * inner + j.
template <typename T, Op op> __global__ void columnKernel(SoftmaxArgs args) {
  const T *pa = static_cast<const T *>(args.a);
  const T *pb = static_cast<const T *>(args.b);
  T *out = static_cast<T *>(args.out);
  const int64_t len = args.len, inner = args.inner;
  AMP_GRID_STRIDE(col, args.outer * inner) {
    const int64_t o = col / inner, j = col - o * inner;
    const int64_t base = o * len * inner + j;
    if constexpr (op == Op::Grad) {
      float s = 0.0f;
      for (int64_t i = 0; i < len; ++i)
        s += ld(pa, base + i * inner) * ld(pb, base + i * inner);
      for (int64_t i = 0; i < len; ++i) {
        const int64_t e = base + i * inner;
        st(out, e, softmaxGradValue(ld(pa, e), ld(pb, e), s));
      }
    } else {
      float m = negInf();
      for (int64_t i = 0; i < len; ++i)
        m = maxNaNDevice(m, ld(pa, base + i * inner));
      float s = 0.0f;
      for (int64_t i = 0; i < len; ++i)
        s += expf(ld(pa, base + i * inner) - m);
      const float logS = op == Op::LogSoftmax ? logf(s) : 0.0f;
      for (int64_t i = 0; i < len; ++i) {
        const int64_t e = base + i * inner;
        const float x = ld(pa, e);
        st(out, e,
           op == Op::Softmax ? softmaxValue(expf(x - m), s)
                             : logSoftmaxValue(x, m, logS));
      }
    }
  }
}

/// Picks the kernel for the view and queues it.
template <typename T, Op op>
void launchSoftmax(const SoftmaxArgs &args, cudaStream_t stream) {
  if (args.inner != 1) {
    columnKernel<T, op>
        <<<gridFor(args.outer * args.inner), kThreads, 0, stream>>>(args);
    return;
  }
  const int64_t cap = int64_t(multiprocessorCount()) * 64;
  if (args.len <= kWarpMaxLen) {
    const int64_t rowsPerBlock = kWarpRowThreads / 32;
    const unsigned blocks = unsigned(
        std::min<int64_t>((args.outer + rowsPerBlock - 1) / rowsPerBlock, cap));
    // The smallest register cache that holds the row: the 32-element one
    // takes 120 registers a thread (2 blocks of 256 an SM), and ran the
    // BERT layer's 512-long attention rows at 1 TB/s on an H200
    // (2026-12-04); the 16-element one takes about half.
    if (args.len <= 4 * 32)
      rowKernel<T, op, 4, true><<<blocks, kWarpRowThreads, 0, stream>>>(args);
    else if (args.len <= 16 * 32)
      rowKernel<T, op, 16, true><<<blocks, kWarpRowThreads, 0, stream>>>(args);
    else
      rowKernel<T, op, kWarpMaxLen / 32, true>
          <<<blocks, kWarpRowThreads, 0, stream>>>(args);
    return;
  }
  // len > 1024: enough threads for kBlockCache elements each, 128 to 1024.
  const int64_t perThread = (args.len + kBlockCache - 1) / kBlockCache;
  const int threads =
      int(std::clamp<int64_t>((perThread + 31) / 32 * 32, 128, 1024));
  const unsigned blocks = unsigned(std::min<int64_t>(args.outer, cap));
  rowKernel<T, op, kBlockCache, false><<<blocks, threads, 0, stream>>>(args);
}

template <Op op>
amp_status_t runSoftmax(Checker &check, const AxisView &v, const void *a,
                        const void *b, void *out, amp_dtype_t dtype,
                        void *stream) {
  if (v.empty())
    return AMP_STATUS_OK;
  const SoftmaxArgs args{a, b, out, v.outer, v.len, v.inner};
  dispatchFloat(dtype, [&](auto t) {
    launchSoftmax<decltype(t), op>(args, toStream(stream));
  });
  return launched(check, "softmax");
}

} // namespace

extern "C" {

amp_status_t amp_softmax(const void *x, void *y, const int64_t *dims,
                         int32_t rank, amp_dtype_t dtype, int64_t axis,
                         void *stream) {
  Checker check("amp_softmax");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"x", x}, {"y", y}}, &v))
    return s;
  return runSoftmax<Op::Softmax>(check, v, x, nullptr, y, dtype, stream);
}

amp_status_t amp_log_softmax(const void *x, void *y, const int64_t *dims,
                             int32_t rank, amp_dtype_t dtype, int64_t axis,
                             void *stream) {
  Checker check("amp_log_softmax");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"x", x}, {"y", y}}, &v))
    return s;
  return runSoftmax<Op::LogSoftmax>(check, v, x, nullptr, y, dtype, stream);
}

amp_status_t amp_softmax_grad(const void *dy, const void *y, void *dx,
                              const int64_t *dims, int32_t rank,
                              amp_dtype_t dtype, int64_t axis, void *stream) {
  Checker check("amp_softmax_grad");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"dy", dy}, {"y", y}, {"dx", dx}}, &v))
    return s;
  return runSoftmax<Op::Grad>(check, v, dy, y, dx, dtype, stream);
}

} // extern "C"
