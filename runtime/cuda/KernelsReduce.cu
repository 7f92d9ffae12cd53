//===- KernelsReduce.cu - Reductions and the max gradient on the GPU ------===//
//
// amp_reduce (sum, mean, max), amp_global_avg_pool and amp_reduce_max_grad
// on the CUDA backend. The host merges x's dimensions into runs of reduced
// and kept ones (x is contiguous) and picks one of three layouts:
//
//   rows     the reduced elements of an output are contiguous (inner = 1):
//            a warp (short rows) or a 256-thread block (long rows) per
//            output, 128-bit loads when the rows are aligned;
//   columns  [outer, count, inner] with inner > 1: threads over inner
//            (coalesced), the block's rows of threads over the reduced
//            axis, their partial results combined in a fixed order;
//   strided  anything else: a warp or block per output, each element's
//            offset decomposed from the kept and reduced dimensions.
//
// When there are too few outputs to fill the device, the reduced axis is
// split into chunks whose f32 partial results go to scratch memory and a
// second pass (a rows reduction) combines them in chunk order. Everything
// is deterministic; sums differ from the reference's sequential order by
// rounding only, the max is exact (MaxOp of ReduceCommon.cuh keeps the
// reference's tie and NaN rules).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "cuda/ReduceCommon.cuh"
#include "reference/ReduceChecks.h"
#include "reference/ReduceMath.h"

#include <algorithm>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr int kBlock = 256;
/// The most chunks an output's reduction is split into.
constexpr int64_t kMaxSplits = 1024;

/// Dimensions and x strides of the kept (output, row-major) and reduced
/// dimensions of the strided layout.
struct Dims {
  int keptRank = 0, redRank = 0;
  int64_t keptDims[kMaxRank] = {}, keptStrides[kMaxRank] = {};
  int64_t redDims[kMaxRank] = {}, redStrides[kMaxRank] = {};
};

__device__ __forceinline__ int64_t offsetOf(int64_t index, int rank,
                                            const int64_t *dims,
                                            const int64_t *strides) {
  int64_t off = 0;
  for (int d = rank - 1; d >= 0; --d) {
    off += (index % dims[d]) * strides[d];
    index /= dims[d];
  }
  return off;
}

/// A rows or strided reduction: `ny` outputs of `count` elements, each
/// split into `splits` chunks of `chunk` elements (a multiple of 8).
struct SliceArgs {
  const void *x;
  void *out; // Out[ny] when splits == 1, else f32 partials [ny][splits]
  int64_t ny, count, splits, chunk;
  int group;   // threads per output: 1, 32 or blockDim.x (groupFor)
  bool vector; // rows only: 128-bit loads (count and x aligned)
  bool divide; // mean: out = result / divisor (splits == 1 only)
  float divisor;
  Dims dims; // strided only
};

template <typename T, typename Out, typename Op, bool Strided>
__global__ void __launch_bounds__(kBlock) reduceSlices(SliceArgs a) {
  using Acc = typename Op::Acc;
  __shared__ Acc scratch[32];
  const T *x = static_cast<const T *>(a.x);
  const int lane = threadIdx.x % a.group;
  const int perBlock = blockDim.x / a.group;
  const int64_t units = a.ny * a.splits;
  // Every thread of a group sees the same units (uniform trip counts).
  for (int64_t u = int64_t(blockIdx.x) * perBlock + threadIdx.x / a.group;
       u < units; u += int64_t(gridDim.x) * perBlock) {
    const int64_t o = u / a.splits;
    const int64_t begin = (u % a.splits) * a.chunk;
    const int64_t end = min(a.count, begin + a.chunk);
    const int64_t base = Strided ? offsetOf(o, a.dims.keptRank, a.dims.keptDims,
                                            a.dims.keptStrides)
                                 : o * a.count;
    Acc acc = Op::identity();
    if (!Strided && a.vector) {
      constexpr int P = kPack<T>;
      for (int64_t k = begin + int64_t(lane) * P; k < end;
           k += int64_t(a.group) * P) {
        const Pack<T> p = *reinterpret_cast<const Pack<T> *>(x + base + k);
#pragma unroll
        for (int e = 0; e < P; ++e)
          acc = Op::combine(acc, Op::make(toFloat(p.v[e]), k + e));
      }
    } else {
      for (int64_t k = begin + lane; k < end; k += a.group) {
        const int64_t off =
            Strided
                ? offsetOf(k, a.dims.redRank, a.dims.redDims, a.dims.redStrides)
                : k;
        acc = Op::combine(acc, Op::make(ld(x, base + off), k));
      }
    }
    acc = groupReduce<Op>(acc, a.group, scratch);
    if (lane == 0) {
      float v = Op::value(acc);
      if (a.divide)
        v = v / a.divisor;
      st(static_cast<Out *>(a.out), u, v);
    }
  }
}

/// A columns reduction: x [outer, count, inner], the block's threads a
/// `width` x `rows` grid (width = min(inner, 32) threads over inner, rows =
/// kBlock / width over the reduced axis); blockIdx.z is the chunk.
struct ColumnArgs {
  const void *x;
  void *out; // Out[outer * inner] or f32 partials [outer * inner][splits]
  int64_t outer, count, inner, tiles, splits, chunk;
  int width, rows;
  bool divide;
  float divisor;
};

template <typename T, typename Out, typename Op>
__global__ void __launch_bounds__(kBlock) reduceColumns(ColumnArgs a) {
  using Acc = typename Op::Acc;
  __shared__ Acc partial[kBlock];
  const T *x = static_cast<const T *>(a.x);
  const int tx = threadIdx.x % a.width, ty = threadIdx.x / a.width;
  const int64_t s = blockIdx.z;
  const int64_t begin = s * a.chunk, end = min(a.count, begin + a.chunk);
  for (int64_t tile = blockIdx.x; tile < a.tiles; tile += gridDim.x)
    for (int64_t oo = blockIdx.y; oo < a.outer; oo += gridDim.y) {
      const int64_t i = tile * a.width + tx;
      Acc acc = Op::identity();
      if (ty < a.rows && i < a.inner) {
        const T *column = x + oo * a.count * a.inner + i;
        for (int64_t k = begin + ty; k < end; k += a.rows)
          acc = Op::combine(acc, Op::make(ld(column, k * a.inner), k));
      }
      partial[threadIdx.x] = acc;
      __syncthreads();
      if (ty == 0 && i < a.inner) {
        Acc total = partial[tx];
        for (int r = 1; r < a.rows; ++r)
          total = Op::combine(total, partial[r * a.width + tx]);
        float v = Op::value(total);
        if (a.divide)
          v = v / a.divisor;
        st(static_cast<Out *>(a.out), (oo * a.inner + i) * a.splits + s, v);
      }
      __syncthreads();
    }
}

/// The host's view of a reduction: the layout and its sizes.
struct Plan {
  enum Kind { Rows, Columns, Strided } kind = Rows;
  int64_t ny = 0, count = 0, outer = 1, inner = 1;
  Dims dims;
};

/// Merges x's dimensions (size-1 ones dropped) into alternating runs of
/// kept and reduced ones and picks the layout.
Plan planOf(const Reduction &r) {
  Plan p;
  p.ny = r.ny;
  p.count = r.count;
  int64_t size[kMaxRank];
  bool red[kMaxRank];
  int runs = 0;
  for (int d = 0; d < r.rank; ++d) {
    if (r.dims[d] == 1)
      continue;
    if (runs > 0 && red[runs - 1] == r.reduced[d]) {
      size[runs - 1] *= r.dims[d];
      continue;
    }
    size[runs] = r.dims[d];
    red[runs++] = r.reduced[d];
  }
  int nRed = 0;
  for (int i = 0; i < runs; ++i)
    nRed += red[i];
  if (r.count == 0 || (nRed == 1 && red[runs - 1])) {
    p.kind = Plan::Rows; // count == 0 writes the empty result per output
    return p;
  }
  if (nRed == 0 || (nRed == 1 && red[runs - 2])) {
    p.kind = Plan::Columns;
    p.inner = nRed == 0 ? r.ny : size[runs - 1];
    p.outer = r.ny / p.inner;
    return p;
  }
  p.kind = Plan::Strided;
  int64_t stride = 1;
  for (int i = runs - 1; i >= 0; --i) {
    int &rank = red[i] ? p.dims.redRank : p.dims.keptRank;
    (red[i] ? p.dims.redDims : p.dims.keptDims)[rank] = size[i];
    (red[i] ? p.dims.redStrides : p.dims.keptStrides)[rank] = stride;
    ++rank;
    stride *= size[i];
  }
  // Collected innermost first: reverse into row-major order.
  std::reverse(p.dims.redDims, p.dims.redDims + p.dims.redRank);
  std::reverse(p.dims.redStrides, p.dims.redStrides + p.dims.redRank);
  std::reverse(p.dims.keptDims, p.dims.keptDims + p.dims.keptRank);
  std::reverse(p.dims.keptStrides, p.dims.keptStrides + p.dims.keptRank);
  return p;
}

/// Chunks for an output of `count` elements when `work` units (blocks) of
/// the unsplit launch leave the device idle: at least `minChunk` elements
/// per chunk, a multiple of 8.
void splitsFor(int64_t work, int64_t count, int64_t minChunk, int64_t *splits,
               int64_t *chunk) {
  const int64_t target = int64_t(multiprocessorCount()) * 4;
  int64_t n = 1;
  if (work < target && count > 2 * minChunk)
    n = std::min({(target + work - 1) / work, count / minChunk, kMaxSplits});
  int64_t c = (count + n - 1) / n;
  c = (c + 7) / 8 * 8;
  *chunk = std::max<int64_t>(c, 8);
  *splits = std::max<int64_t>(1, (count + *chunk - 1) / *chunk);
}

unsigned blocksFor(int64_t units, int perBlock) {
  const int64_t cap = int64_t(multiprocessorCount()) * 32;
  return unsigned(
      std::max<int64_t>(1, std::min((units + perBlock - 1) / perBlock, cap)));
}

template <typename T, typename Out, typename Op, bool Strided>
void launchSlices(SliceArgs a, cudaStream_t stream) {
  const int perBlock = kBlock / a.group;
  reduceSlices<T, Out, Op, Strided>
      <<<blocksFor(a.ny * a.splits, perBlock), kBlock, 0, stream>>>(a);
}

/// Queues the reduction of x into y (f32 accumulation, Op, the mean's
/// division when `divide`). Fails only for the scratch memory; the caller
/// checks the launches.
template <typename T, typename Y, typename Op>
amp_status_t reduceInto(Checker &check, const Plan &p, const void *x, void *y,
                        bool divide, void *stream) {
  cudaStream_t st = toStream(stream);
  const float divisor = static_cast<float>(p.count);
  Scratch scratch(stream);
  int64_t splits = 1, chunk = 0;
  if (p.kind == Plan::Columns) {
    ColumnArgs a{};
    a.x = x;
    a.outer = p.outer, a.count = p.count, a.inner = p.inner;
    a.width = int(std::min<int64_t>(p.inner, 32));
    a.rows = kBlock / a.width;
    a.tiles = (p.inner + a.width - 1) / a.width;
    splitsFor(a.tiles * a.outer, p.count, int64_t(a.rows) * 16, &splits,
              &chunk);
    a.splits = splits, a.chunk = chunk;
    const dim3 grid(unsigned(std::min<int64_t>(a.tiles, INT32_MAX)),
                    unsigned(std::min<int64_t>(a.outer, 65535)),
                    unsigned(splits));
    if (splits == 1) {
      a.out = y, a.divide = divide, a.divisor = divisor;
      reduceColumns<T, Y, Op><<<grid, kBlock, 0, st>>>(a);
      return AMP_STATUS_OK;
    }
    if (!(a.out = scratch.get(check, p.ny * splits * 4)))
      return AMP_STATUS_BACKEND_ERROR;
    reduceColumns<T, float, Op><<<grid, kBlock, 0, st>>>(a);
  } else {
    SliceArgs a{};
    a.x = x;
    a.ny = p.ny, a.count = p.count;
    a.group = groupFor(p.count, kBlock);
    if (a.group == kBlock)
      splitsFor(p.ny, p.count, 4096, &splits, &chunk);
    else
      chunk = std::max<int64_t>(p.count, 8);
    a.splits = splits, a.chunk = chunk;
    a.vector = p.kind == Plan::Rows && p.count % kPack<T> == 0 &&
               packAligned(static_cast<const T *>(x));
    a.dims = p.dims;
    if (splits == 1) {
      a.out = y, a.divide = divide, a.divisor = divisor;
      if (p.kind == Plan::Strided)
        launchSlices<T, Y, Op, true>(a, st);
      else
        launchSlices<T, Y, Op, false>(a, st);
      return AMP_STATUS_OK;
    }
    if (!(a.out = scratch.get(check, p.ny * splits * 4)))
      return AMP_STATUS_BACKEND_ERROR;
    if (p.kind == Plan::Strided)
      launchSlices<T, float, Op, true>(a, st);
    else
      launchSlices<T, float, Op, false>(a, st);
  }
  // The chunks' partial results, combined in chunk order.
  SliceArgs f{};
  f.x = scratch.data();
  f.out = y;
  f.ny = p.ny, f.count = splits, f.splits = 1;
  f.chunk = std::max<int64_t>(splits, 8);
  f.group = groupFor(splits, kBlock);
  f.divide = divide, f.divisor = divisor;
  launchSlices<float, Y, Op, false>(f, st);
  return AMP_STATUS_OK;
}

/// Dispatches x's and y's dtypes and the op.
amp_status_t reduceAny(Checker &check, int32_t op, const Reduction &r,
                       const void *x, void *y, amp_dtype_t xDtype,
                       amp_dtype_t yDtype, void *stream) {
  const Plan p = planOf(r);
  amp_status_t status = AMP_STATUS_OK;
  dispatchFloat(xDtype, [&](auto t) {
    using T = decltype(t);
    auto run = [&](auto yTag) {
      using Y = decltype(yTag);
      status = op == AMP_REDUCE_MAX
                   ? reduceInto<T, Y, MaxOp>(check, p, x, y, false, stream)
                   : reduceInto<T, Y, SumOp>(check, p, x, y,
                                             op == AMP_REDUCE_MEAN, stream);
    };
    if (yDtype == AMP_DTYPE_F32)
      run(float{});
    else
      run(T{});
  });
  return status;
}

//===----------------------------------------------------------------------===//
// The max gradient
//===----------------------------------------------------------------------===//

/// dx over one output's elements once the group knows its hits.
template <typename Y>
__device__ __forceinline__ float maxShare(const Y *dy, int64_t o,
                                          long long hits) {
  return maxGradShare(ld(dy, o), hits);
}

/// Rows and strided layouts: a group per output counts the elements equal
/// to the max, then writes the slice's dx.
template <typename T, typename Y, bool Strided>
__global__ void __launch_bounds__(kBlock)
    maxGradSlices(const Y *dy, const T *x, const Y *y, T *dx, SliceArgs a) {
  __shared__ long long scratch[32];
  const int lane = threadIdx.x % a.group;
  const int perBlock = blockDim.x / a.group;
  for (int64_t o = int64_t(blockIdx.x) * perBlock + threadIdx.x / a.group;
       o < a.ny; o += int64_t(gridDim.x) * perBlock) {
    const int64_t base = Strided ? offsetOf(o, a.dims.keptRank, a.dims.keptDims,
                                            a.dims.keptStrides)
                                 : o * a.count;
    auto offset = [&](int64_t k) {
      return base + (Strided ? offsetOf(k, a.dims.redRank, a.dims.redDims,
                                        a.dims.redStrides)
                             : k);
    };
    const float max = ld(y, o);
    long long hits = 0;
    for (int64_t k = lane; k < a.count; k += a.group)
      hits += ld(x, offset(k)) == max;
    hits = groupReduce<CountOp>(hits, a.group, scratch);
    const float share = maxShare(dy, o, hits);
    for (int64_t k = lane; k < a.count; k += a.group) {
      const int64_t i = offset(k);
      st(dx, i, maxGradValue(ld(x, i) == max, hits, share));
    }
  }
}

/// Columns layout: the block's width x rows threads count per column, the
/// counts are added in shared memory, then the same threads write dx.
template <typename T, typename Y>
__global__ void __launch_bounds__(kBlock)
    maxGradColumns(const Y *dy, const T *x, const Y *y, T *dx, ColumnArgs a) {
  __shared__ long long partial[kBlock];
  const int tx = threadIdx.x % a.width, ty = threadIdx.x / a.width;
  for (int64_t tile = blockIdx.x; tile < a.tiles; tile += gridDim.x)
    for (int64_t oo = blockIdx.y; oo < a.outer; oo += gridDim.y) {
      const int64_t i = tile * a.width + tx;
      const bool active = ty < a.rows && i < a.inner;
      const int64_t o = oo * a.inner + i;
      const int64_t column = oo * a.count * a.inner + i;
      const float max = active ? ld(y, o) : 0.0f;
      long long hits = 0;
      if (active)
        for (int64_t k = ty; k < a.count; k += a.rows)
          hits += ld(x, column + k * a.inner) == max;
      partial[threadIdx.x] = hits;
      __syncthreads();
      if (active) {
        hits = 0;
        for (int r = 0; r < a.rows; ++r)
          hits += partial[r * a.width + tx];
        const float share = maxShare(dy, o, hits);
        for (int64_t k = ty; k < a.count; k += a.rows) {
          const int64_t j = column + k * a.inner;
          st(dx, j, maxGradValue(ld(x, j) == max, hits, share));
        }
      }
      __syncthreads();
    }
}

template <typename T, typename Y>
void maxGrad(const Plan &p, const void *dy, const void *x, const void *y,
             void *dx, cudaStream_t st) {
  const Y *dyp = static_cast<const Y *>(dy), *yp = static_cast<const Y *>(y);
  const T *xp = static_cast<const T *>(x);
  T *dxp = static_cast<T *>(dx);
  if (p.kind == Plan::Columns) {
    ColumnArgs a{};
    a.outer = p.outer, a.count = p.count, a.inner = p.inner;
    a.width = int(std::min<int64_t>(p.inner, 32));
    a.rows = kBlock / a.width;
    a.tiles = (p.inner + a.width - 1) / a.width;
    const dim3 grid(unsigned(std::min<int64_t>(a.tiles, INT32_MAX)),
                    unsigned(std::min<int64_t>(a.outer, 65535)));
    maxGradColumns<T, Y><<<grid, kBlock, 0, st>>>(dyp, xp, yp, dxp, a);
    return;
  }
  SliceArgs a{};
  a.ny = p.ny, a.count = p.count;
  a.group = groupFor(p.count, kBlock);
  a.dims = p.dims;
  const unsigned blocks = blocksFor(p.ny, kBlock / a.group);
  if (p.kind == Plan::Strided)
    maxGradSlices<T, Y, true><<<blocks, kBlock, 0, st>>>(dyp, xp, yp, dxp, a);
  else
    maxGradSlices<T, Y, false><<<blocks, kBlock, 0, st>>>(dyp, xp, yp, dxp, a);
}

} // namespace

extern "C" {

amp_status_t amp_reduce(amp_reduce_op_t op, const void *x, void *y,
                        const int64_t *x_dims, int32_t x_rank,
                        const int64_t *axes, int32_t n_axes,
                        amp_dtype_t x_dtype, amp_dtype_t y_dtype,
                        void *stream) {
  Checker check("amp_reduce");
  int32_t rawOp;
  Reduction r;
  if (amp_status_t s = checkReduce(check, op, x, y, x_dims, x_rank, axes,
                                   n_axes, x_dtype, y_dtype, &rawOp, &r))
    return s;
  if (r.ny == 0)
    return AMP_STATUS_OK;
  if (amp_status_t s =
          reduceAny(check, rawOp, r, x, y, x_dtype, y_dtype, stream))
    return s;
  return launched(check, "reduce");
}

amp_status_t amp_global_avg_pool(const void *x, void *y, const int64_t *x_dims,
                                 amp_dtype_t dtype, void *stream) {
  Checker check("amp_global_avg_pool");
  Reduction r;
  if (amp_status_t s = checkGlobalAvgPool(check, x, y, x_dims, dtype, &r))
    return s;
  if (r.ny == 0)
    return AMP_STATUS_OK;
  if (amp_status_t s =
          reduceAny(check, AMP_REDUCE_MEAN, r, x, y, dtype, dtype, stream))
    return s;
  return launched(check, "global-avg-pool");
}

amp_status_t amp_reduce_max_grad(const void *dy, const void *x, const void *y,
                                 void *dx, const int64_t *x_dims,
                                 int32_t x_rank, const int64_t *axes,
                                 int32_t n_axes, amp_dtype_t x_dtype,
                                 amp_dtype_t y_dtype, void *stream) {
  Checker check("amp_reduce_max_grad");
  Reduction r;
  if (amp_status_t s = checkReduceMaxGrad(check, dy, x, y, dx, x_dims, x_rank,
                                          axes, n_axes, x_dtype, y_dtype, &r))
    return s;
  if (r.nx == 0)
    return AMP_STATUS_OK;
  const Plan p = planOf(r);
  dispatchFloat(x_dtype, [&](auto t) {
    using T = decltype(t);
    if (y_dtype == AMP_DTYPE_F32)
      maxGrad<T, float>(p, dy, x, y, dx, toStream(stream));
    else
      maxGrad<T, T>(p, dy, x, y, dx, toStream(stream));
  });
  return launched(check, "reduce-max-grad");
}

} // extern "C"
