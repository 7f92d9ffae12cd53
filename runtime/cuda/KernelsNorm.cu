//===- KernelsNorm.cu - amp_layer_norm(_grad), amp_batch_norm(_grad) ------===//
//
// Layer norm: one warp per row for rows of up to 1024 elements (the row in
// registers), one block per row above (the first 8 * blockDim elements in
// registers, the rest read again from L2); two passes over the registers
// for the mean and the variance, as the reference. The gradient's dx is the
// same row kernel; dscale/dbias are column sums over the rows in two
// deterministic stages: 32 x 8 blocks write per-chunk partial sums to an
// f32 scratch (amp_alloc), a second kernel adds the chunks in order.
//
// Batch norm: per-channel sums over N x spatial in two stages (blocks of a
// channel's chunk write partial sums to the scratch, a per-channel kernel
// adds them in order), then an elementwise kernel. The forward runs the
// partial sums twice (sum, then squared deviations from the mean, which
// each block recomputes from the first partials in the same order as the
// final kernel). No atomics: results are the same run to run.
// amp_running_stats_update is one thread per channel.
//
// The per-element math is NormMath.h's (the reference's), compiled without
// FMA contraction; the sums are tree sums, which differ from the reference's
// sequential sums by rounding only.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "reference/NormChecks.h"
#include "reference/NormMath.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

/// Element i of an optional per-feature parameter stored as f32 or as T
/// (`fill` when absent), widened to f32.
template <typename T>
__device__ __forceinline__ float ldParam(const void *p, bool isF32, int64_t i,
                                         float fill) {
  if (!p)
    return fill;
  return isF32 ? static_cast<const float *>(p)[i]
               : ld(static_cast<const T *>(p), i);
}

/// Stores v rounded once into an optional f32 or T output.
template <typename T>
__device__ __forceinline__ void stParam(void *p, bool isF32, int64_t i,
                                        float v) {
  if (!p)
    return;
  if (isF32)
    static_cast<float *>(p)[i] = v;
  else
    st(static_cast<T *>(p), i, v);
}

template <bool kWarp>
__device__ __forceinline__ float groupSum(float v, float *scratch) {
  if constexpr (kWarp)
    return warpSum(v);
  else
    return blockSum(v, scratch);
}

constexpr int kWarpRowThreads = 256; // 8 rows per block
constexpr int kBlockCache = 8;       // elements per thread in registers
constexpr int64_t kWarpMaxLen = 1024;

/// The grid and block of a row kernel (one warp or one block per row) for
/// `rows` rows of `len`; *cache: 4 or 32 for a warp, kBlockCache for a block.
struct RowLaunch {
  unsigned blocks;
  int threads;
  bool warp;
  int cache;
};

RowLaunch rowLaunch(int64_t rows, int64_t len) {
  const int64_t cap = int64_t(multiprocessorCount()) * 64;
  if (len <= kWarpMaxLen) {
    const int64_t perBlock = kWarpRowThreads / 32;
    return {unsigned(std::min<int64_t>((rows + perBlock - 1) / perBlock, cap)),
            kWarpRowThreads, true, len <= 128 ? 4 : 32};
  }
  const int64_t perThread = (len + kBlockCache - 1) / kBlockCache;
  const int threads =
      int(std::clamp<int64_t>((perThread + 31) / 32 * 32, 128, 1024));
  return {unsigned(std::min<int64_t>(rows, cap)), threads, false, kBlockCache};
}

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

struct LayerNormArgs {
  const void *x, *dy, *scale, *bias;
  void *out; // y or dx
  float *mean, *rstd;
  int64_t rows, len;
  float epsilon;
  bool scaleF32, biasF32;
};

/// Forward: one row per warp (kWarp) or block; lane owns elements lane + k *
/// width (registers for k < kCache). y may alias x: each element is read
/// and written by its owner only.
template <typename T, int kCache, bool kWarp>
__global__ void __launch_bounds__(kWarp ? kWarpRowThreads : 1024)
    layerNormKernel(LayerNormArgs args) {
  __shared__ float scratch[32];
  const int width = kWarp ? 32 : int(blockDim.x);
  const int lane = kWarp ? int(threadIdx.x % 32) : int(threadIdx.x);
  const int64_t groups = kWarp ? blockDim.x / 32 : 1;
  const int64_t first =
      int64_t(blockIdx.x) * groups + (kWarp ? threadIdx.x / 32 : 0);
  const int64_t step = int64_t(gridDim.x) * groups;
  const int64_t len = args.len;
  const float count = static_cast<float>(len);
  const T *x = static_cast<const T *>(args.x);
  T *y = static_cast<T *>(args.out);
  for (int64_t row = first; row < args.rows; row += step) {
    const int64_t base = row * len;
    const int64_t rest = int64_t(kCache) * width + lane;
    float a[kCache];
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kCache; ++k) {
      const int64_t i = int64_t(k) * width + lane;
      a[k] = i < len ? ld(x, base + i) : 0.0f;
      sum += a[k];
    }
    for (int64_t i = rest; i < len; i += width)
      sum += ld(x, base + i);
    const float mean = meanOf(groupSum<kWarp>(sum, scratch), count);
    float sq = 0.0f;
#pragma unroll
    for (int k = 0; k < kCache; ++k)
      if (int64_t(k) * width + lane < len) {
        const float d = a[k] - mean;
        sq += d * d;
      }
    for (int64_t i = rest; i < len; i += width) {
      const float d = ld(x, base + i) - mean;
      sq += d * d;
    }
    const float rs = rstdOf(groupSum<kWarp>(sq, scratch), count, args.epsilon);
#pragma unroll
    for (int k = 0; k < kCache; ++k) {
      const int64_t i = int64_t(k) * width + lane;
      if (i < len)
        st(y, base + i,
           normAffine(a[k], mean, rs,
                      ldParam<T>(args.scale, args.scaleF32, i, 1.0f),
                      ldParam<T>(args.bias, args.biasF32, i, 0.0f)));
    }
    for (int64_t i = rest; i < len; i += width)
      st(y, base + i,
         normAffine(ld(x, base + i), mean, rs,
                    ldParam<T>(args.scale, args.scaleF32, i, 1.0f),
                    ldParam<T>(args.bias, args.biasF32, i, 0.0f)));
    if (lane == 0) {
      args.mean[row] = mean;
      args.rstd[row] = rs;
    }
  }
}

/// Gradient dx, per row as the forward, from the stored mean and rstd:
/// g = dy * scale, xhat, the two row sums, then dx. dx may alias dy or x.
template <typename T, int kCache, bool kWarp>
__global__ void __launch_bounds__(kWarp ? kWarpRowThreads : 1024)
    layerNormGradKernel(LayerNormArgs args) {
  __shared__ float scratch[32];
  const int width = kWarp ? 32 : int(blockDim.x);
  const int lane = kWarp ? int(threadIdx.x % 32) : int(threadIdx.x);
  const int64_t groups = kWarp ? blockDim.x / 32 : 1;
  const int64_t first =
      int64_t(blockIdx.x) * groups + (kWarp ? threadIdx.x / 32 : 0);
  const int64_t step = int64_t(gridDim.x) * groups;
  const int64_t len = args.len;
  const float count = static_cast<float>(len);
  const T *x = static_cast<const T *>(args.x);
  const T *dy = static_cast<const T *>(args.dy);
  T *dx = static_cast<T *>(args.out);
  for (int64_t row = first; row < args.rows; row += step) {
    const int64_t base = row * len;
    const int64_t rest = int64_t(kCache) * width + lane;
    const float mu = args.mean[row], rs = args.rstd[row];
    float g[kCache], xh[kCache];
    float sumG = 0.0f, sumGX = 0.0f;
#pragma unroll
    for (int k = 0; k < kCache; ++k) {
      const int64_t i = int64_t(k) * width + lane;
      g[k] = 0.0f;
      xh[k] = 0.0f;
      if (i < len) {
        g[k] =
            ld(dy, base + i) * ldParam<T>(args.scale, args.scaleF32, i, 1.0f);
        xh[k] = normalized(ld(x, base + i), mu, rs);
        sumG += g[k];
        sumGX += g[k] * xh[k];
      }
    }
    for (int64_t i = rest; i < len; i += width) {
      const float gi =
          ld(dy, base + i) * ldParam<T>(args.scale, args.scaleF32, i, 1.0f);
      sumG += gi;
      sumGX += gi * normalized(ld(x, base + i), mu, rs);
    }
    const float meanG = meanOf(groupSum<kWarp>(sumG, scratch), count);
    const float meanGX = meanOf(groupSum<kWarp>(sumGX, scratch), count);
#pragma unroll
    for (int k = 0; k < kCache; ++k) {
      const int64_t i = int64_t(k) * width + lane;
      if (i < len)
        st(dx, base + i, layerNormGradValue(rs, g[k], meanG, xh[k], meanGX));
    }
    for (int64_t i = rest; i < len; i += width) {
      const float gi =
          ld(dy, base + i) * ldParam<T>(args.scale, args.scaleF32, i, 1.0f);
      const float xi = normalized(ld(x, base + i), mu, rs);
      st(dx, base + i, layerNormGradValue(rs, gi, meanG, xi, meanGX));
    }
  }
}

/// dscale/dbias, stage 1: block (bx, by) sums columns [32 bx, 32 bx + 32)
/// over the rows of chunk by; threadIdx.y strides over the chunk's rows and
/// the 8 partial sums are added in order. partial: [2][chunks][len].
constexpr int kColTile = 32, kColRows = 8;

template <typename T>
__global__ void __launch_bounds__(kColTile *kColRows)
    layerNormColumnKernel(LayerNormArgs args, float *partial, int64_t chunks,
                          int64_t rowsPerChunk) {
  __shared__ float sg[kColRows][kColTile + 1], sb[kColRows][kColTile + 1];
  const T *x = static_cast<const T *>(args.x);
  const T *dy = static_cast<const T *>(args.dy);
  const int64_t len = args.len;
  const int64_t tiles = (len + kColTile - 1) / kColTile;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t i = tile * kColTile + threadIdx.x;
    for (int64_t chunk = blockIdx.y; chunk < chunks; chunk += gridDim.y) {
      const int64_t r0 = chunk * rowsPerChunk;
      const int64_t r1 =
          r0 + rowsPerChunk < args.rows ? r0 + rowsPerChunk : args.rows;
      float dg = 0.0f, db = 0.0f;
      if (i < len)
        for (int64_t r = r0 + threadIdx.y; r < r1; r += kColRows) {
          const float d = ld(dy, r * len + i);
          dg += d * normalized(ld(x, r * len + i), args.mean[r], args.rstd[r]);
          db += d;
        }
      sg[threadIdx.y][threadIdx.x] = dg;
      sb[threadIdx.y][threadIdx.x] = db;
      __syncthreads();
      if (threadIdx.y == 0 && i < len) {
        float tg = 0.0f, tb = 0.0f;
        for (int y = 0; y < kColRows; ++y) {
          tg += sg[y][threadIdx.x];
          tb += sb[y][threadIdx.x];
        }
        partial[chunk * len + i] = tg;
        partial[(chunks + chunk) * len + i] = tb;
      }
      __syncthreads();
    }
  }
}

/// Stage 2: column i's chunks added in order, rounded once (0 without
/// rows).
template <typename T>
__global__ void layerNormColumnFinal(LayerNormArgs args, void *dscale,
                                     void *dbias, const float *partial,
                                     int64_t chunks) {
  const int64_t len = args.len;
  AMP_GRID_STRIDE(i, len) {
    float tg = 0.0f, tb = 0.0f;
    for (int64_t c = 0; c < chunks; ++c) {
      tg += partial[c * len + i];
      tb += partial[(chunks + c) * len + i];
    }
    stParam<T>(dscale, args.scaleF32, i, tg);
    stParam<T>(dbias, args.scaleF32, i, tb);
  }
}

/// Queues a row kernel (layerNormKernel or layerNormGradKernel) with the
/// instance that fits the row length.
template <typename T, bool kGrad>
void launchRows(const LayerNormArgs &args, cudaStream_t stream) {
  const RowLaunch l = rowLaunch(args.rows, args.len);
  auto go = [&](auto kernel) {
    kernel<<<l.blocks, l.threads, 0, stream>>>(args);
  };
  if (!l.warp)
    go(kGrad ? layerNormGradKernel<T, kBlockCache, false>
             : layerNormKernel<T, kBlockCache, false>);
  else if (l.cache == 4)
    go(kGrad ? layerNormGradKernel<T, 4, true> : layerNormKernel<T, 4, true>);
  else
    go(kGrad ? layerNormGradKernel<T, 32, true> : layerNormKernel<T, 32, true>);
}

//===----------------------------------------------------------------------===//
// Batch norm
//===----------------------------------------------------------------------===//

struct BatchNormArgs {
  const void *x, *dy, *scale, *bias;
  void *out; // y or dx
  float *mean, *invstd;
  int64_t batch, channels, spatial;
  int64_t chunks, chunkLen; // a channel's N * spatial elements in chunks
  float epsilon;
  bool scaleF32, biasF32;
};

/// The element offset of element e in [0, N * spatial) of channel c.
__device__ __forceinline__ int64_t channelOffset(const BatchNormArgs &a,
                                                 int64_t c, int64_t e) {
  const int64_t b = e / a.spatial, i = e - b * a.spatial;
  return (b * a.channels + c) * a.spatial + i;
}

/// The channel of element e of the tensor.
__device__ __forceinline__ int64_t channelOf(const BatchNormArgs &a,
                                             int64_t e) {
  if (a.batch * a.channels * a.spatial <= INT32_MAX)
    return int64_t((uint32_t(e) / uint32_t(a.spatial)) % uint32_t(a.channels));
  return (e / a.spatial) % a.channels;
}

enum class Pass { Sum, Squares, Grad };

/// Stage 1 of the per-channel sums: block id = c * chunks + k sums chunk k
/// of channel c. Sum: x into p0. Squares: (x - mean)^2 into p1, with the
/// mean from p0's chunks added in order (as batchNormFinal does). Grad: dy
/// into p0 and dy * xhat into p1.
template <typename T, Pass pass>
__global__ void batchNormPartial(BatchNormArgs args, float *p0, float *p1) {
  __shared__ float scratch[32];
  __shared__ float sharedMean;
  const T *x = static_cast<const T *>(args.x);
  const T *dy = static_cast<const T *>(args.dy);
  const int64_t m = args.batch * args.spatial;
  const float count = static_cast<float>(m);
  const int64_t blocks = args.channels * args.chunks;
  for (int64_t id = blockIdx.x; id < blocks; id += gridDim.x) {
    const int64_t c = id / args.chunks, k = id - c * args.chunks;
    const int64_t e0 = k * args.chunkLen;
    const int64_t e1 = e0 + args.chunkLen < m ? e0 + args.chunkLen : m;
    float mu = 0.0f, is = 0.0f;
    if constexpr (pass == Pass::Squares) {
      if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int64_t j = 0; j < args.chunks; ++j)
          sum += p0[c * args.chunks + j];
        sharedMean = meanOf(sum, count);
      }
      __syncthreads();
      mu = sharedMean;
    } else if constexpr (pass == Pass::Grad) {
      mu = args.mean[c];
      is = args.invstd[c];
    }
    float s0 = 0.0f, s1 = 0.0f;
    for (int64_t e = e0 + threadIdx.x; e < e1; e += blockDim.x) {
      const int64_t o = channelOffset(args, c, e);
      if constexpr (pass == Pass::Sum) {
        s0 += ld(x, o);
      } else if constexpr (pass == Pass::Squares) {
        const float d = ld(x, o) - mu;
        s1 += d * d;
      } else {
        const float d = ld(dy, o);
        s0 += d;
        s1 += d * normalized(ld(x, o), mu, is);
      }
    }
    if constexpr (pass != Pass::Squares) {
      s0 = blockSum(s0, scratch);
      if (threadIdx.x == 0)
        p0[id] = s0;
    }
    if constexpr (pass != Pass::Sum) {
      s1 = blockSum(s1, scratch);
      if (threadIdx.x == 0)
        p1[id] = s1;
    }
    __syncthreads(); // sharedMean is rewritten for the next id
  }
}

/// Stage 2, forward: per channel, the chunks added in order; mean and
/// invstd.
__global__ void batchNormFinal(BatchNormArgs args, const float *p0,
                               const float *p1) {
  const float count = static_cast<float>(args.batch * args.spatial);
  AMP_GRID_STRIDE(c, args.channels) {
    float sum = 0.0f, sq = 0.0f;
    for (int64_t k = 0; k < args.chunks; ++k) {
      sum += p0[c * args.chunks + k];
      sq += p1[c * args.chunks + k];
    }
    args.mean[c] = meanOf(sum, count);
    args.invstd[c] = rstdOf(sq, count, args.epsilon);
  }
}

/// Stage 2, gradient: per channel sum(dy) and sum(dy * xhat) (the chunks in
/// order), stored as dbias and dscale, and dx's coefficients {scale *
/// invstd, mean(dy), mean(dy * xhat)} into coef.
template <typename T>
__global__ void batchNormGradFinal(BatchNormArgs args, const float *p0,
                                   const float *p1, float *coef, void *dscale,
                                   void *dbias) {
  const float count = static_cast<float>(args.batch * args.spatial);
  AMP_GRID_STRIDE(c, args.channels) {
    float sumDy = 0.0f, sumDyX = 0.0f;
    for (int64_t k = 0; k < args.chunks; ++k) {
      sumDy += p0[c * args.chunks + k];
      sumDyX += p1[c * args.chunks + k];
    }
    coef[3 * c] =
        ldParam<T>(args.scale, args.scaleF32, c, 1.0f) * args.invstd[c];
    coef[3 * c + 1] = meanOf(sumDy, count);
    coef[3 * c + 2] = meanOf(sumDyX, count);
    stParam<T>(dscale, args.scaleF32, c, sumDyX);
    stParam<T>(dbias, args.scaleF32, c, sumDy);
  }
}

/// Forward stage 3: y = ((x - mean) * invstd) * scale + bias per element.
/// y may alias x.
template <typename T> __global__ void batchNormApply(BatchNormArgs args) {
  const T *x = static_cast<const T *>(args.x);
  T *y = static_cast<T *>(args.out);
  AMP_GRID_STRIDE(e, args.batch * args.channels * args.spatial) {
    const int64_t c = channelOf(args, e);
    st(y, e,
       normAffine(ld(x, e), args.mean[c], args.invstd[c],
                  ldParam<T>(args.scale, args.scaleF32, c, 1.0f),
                  ldParam<T>(args.bias, args.biasF32, c, 0.0f)));
  }
}

/// The running statistics' momentum update, one channel per thread. The
/// results may alias their running inputs (each element is read first).
__global__ void runningStatsUpdate(const float *runningMean,
                                   const float *runningVar, const float *mean,
                                   const float *invstd, float *newMean,
                                   float *newVar, int64_t channels,
                                   float momentum, float epsilon,
                                   float correction) {
  AMP_GRID_STRIDE(c, channels) {
    const float var = batchVariance(invstd[c], epsilon, correction);
    newMean[c] = runningStat(runningMean[c], mean[c], momentum);
    newVar[c] = runningStat(runningVar[c], var, momentum);
  }
}

/// Gradient stage 3: dx per element. dx may alias dy or x.
template <typename T>
__global__ void batchNormGradApply(BatchNormArgs args, const float *coef) {
  const T *x = static_cast<const T *>(args.x);
  const T *dy = static_cast<const T *>(args.dy);
  T *dx = static_cast<T *>(args.out);
  AMP_GRID_STRIDE(e, args.batch * args.channels * args.spatial) {
    const int64_t c = channelOf(args, e);
    const float xh = normalized(ld(x, e), args.mean[c], args.invstd[c]);
    st(dx, e,
       batchNormGradValue(coef[3 * c], ld(dy, e), coef[3 * c + 1], xh,
                          coef[3 * c + 2]));
  }
}

/// Splits each channel's N * spatial elements into chunks (from the shape
/// only, so results do not depend on the device) and picks the partial
/// kernels' block size.
void chunkChannels(BatchNormArgs &a, int *threads, unsigned *blocks) {
  const int64_t m = a.batch * a.spatial;
  const int64_t wanted = std::clamp<int64_t>(1024 / a.channels, 1, 1024);
  a.chunkLen = std::max<int64_t>(2048, (m + wanted - 1) / wanted);
  a.chunks = (m + a.chunkLen - 1) / a.chunkLen;
  const int64_t perChunk = std::min(m, a.chunkLen);
  *threads = int(std::clamp<int64_t>((perChunk / 8 + 31) / 32 * 32, 32, 256));
  *blocks = unsigned(std::min<int64_t>(a.channels * a.chunks,
                                       int64_t(multiprocessorCount()) * 64));
}

} // namespace

extern "C" {

amp_status_t amp_layer_norm(const void *x, const void *scale, const void *bias,
                            void *y, float *mean, float *rstd,
                            const int64_t *dims, int32_t rank,
                            amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                            amp_dtype_t bias_dtype, int64_t axis, float epsilon,
                            void *stream) {
  Checker check("amp_layer_norm");
  LayerNormView v;
  if (amp_status_t s =
          checkLayerNorm(check, x, scale, bias, y, mean, rstd, dims, rank,
                         x_dtype, scale_dtype, bias_dtype, axis, epsilon, &v))
    return s;
  if (v.rows == 0)
    return AMP_STATUS_OK;
  const LayerNormArgs args{x,
                           nullptr,
                           scale,
                           bias,
                           y,
                           mean,
                           rstd,
                           v.rows,
                           v.len,
                           epsilon,
                           scale_dtype == AMP_DTYPE_F32,
                           bias_dtype == AMP_DTYPE_F32};
  dispatchFloat(x_dtype, [&](auto t) {
    launchRows<decltype(t), false>(args, toStream(stream));
  });
  return launched(check, "layer_norm");
}

amp_status_t amp_layer_norm_grad(const void *dy, const void *x,
                                 const float *mean, const float *rstd,
                                 const void *scale, void *dx, void *dscale,
                                 void *dbias, const int64_t *dims, int32_t rank,
                                 amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                                 int64_t axis, void *stream) {
  Checker check("amp_layer_norm_grad");
  LayerNormView v;
  if (amp_status_t s =
          checkLayerNormGrad(check, dy, x, mean, rstd, scale, dx, dscale, dbias,
                             dims, rank, x_dtype, scale_dtype, axis, &v))
    return s;
  const bool columns = (dscale || dbias) && v.len > 0;
  if (v.rows == 0 && !columns)
    return AMP_STATUS_OK;
  const bool f32 = scale_dtype == AMP_DTYPE_F32;
  const LayerNormArgs args{x,
                           dy,
                           scale,
                           nullptr,
                           dx,
                           const_cast<float *>(mean),
                           const_cast<float *>(rstd),
                           v.rows,
                           v.len,
                           0.0f,
                           f32,
                           f32};
  const cudaStream_t s = toStream(stream);
  // dscale/dbias first: they read dy and x, which dx may overwrite.
  float *partial = nullptr;
  int64_t chunks = 0;
  if (columns && v.rows > 0) {
    const int64_t colBlocks = (v.len + kColTile - 1) / kColTile;
    const int64_t wanted = std::clamp<int64_t>(1024 / colBlocks, 1, 65535);
    const int64_t rowsPerChunk =
        std::max<int64_t>(kColRows * 4, (v.rows + wanted - 1) / wanted);
    chunks = (v.rows + rowsPerChunk - 1) / rowsPerChunk;
    if (!(partial = static_cast<float *>(allocScratch(
              check, (2 * chunks * v.len) * int64_t(sizeof(float))))))
      return AMP_STATUS_BACKEND_ERROR;
    const dim3 grid(unsigned(std::min<int64_t>(colBlocks, INT32_MAX)),
                    unsigned(std::min<int64_t>(chunks, 65535)));
    dispatchFloat(x_dtype, [&](auto t) {
      layerNormColumnKernel<decltype(t)>
          <<<grid, dim3(kColTile, kColRows), 0, s>>>(args, partial, chunks,
                                                     rowsPerChunk);
    });
  }
  dispatchFloat(x_dtype, [&](auto t) {
    using T = decltype(t);
    if (columns)
      layerNormColumnFinal<T><<<gridFor(v.len), kThreads, 0, s>>>(
          args, dscale, dbias, partial, chunks);
    if (v.rows > 0)
      launchRows<T, true>(args, s);
  });
  return freeScratch(check, partial, launched(check, "layer_norm_grad"));
}

amp_status_t amp_batch_norm(const void *x, const void *scale, const void *bias,
                            void *y, float *mean, float *invstd,
                            const int64_t *dims, int32_t rank,
                            amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                            amp_dtype_t bias_dtype, float epsilon,
                            void *stream) {
  Checker check("amp_batch_norm");
  BatchNormView v;
  if (amp_status_t s =
          checkBatchNorm(check, x, scale, bias, y, mean, invstd, dims, rank,
                         x_dtype, scale_dtype, bias_dtype, epsilon, &v))
    return s;
  if (v.channels == 0)
    return AMP_STATUS_OK; // N * spatial >= 1 otherwise (checked)
  BatchNormArgs args{x,
                     nullptr,
                     scale,
                     bias,
                     y,
                     mean,
                     invstd,
                     v.batch,
                     v.channels,
                     v.spatial,
                     0,
                     0,
                     epsilon,
                     scale_dtype == AMP_DTYPE_F32,
                     bias_dtype == AMP_DTYPE_F32};
  int threads;
  unsigned blocks;
  chunkChannels(args, &threads, &blocks);
  float *partial = static_cast<float *>(allocScratch(
      check, (2 * args.channels * args.chunks) * int64_t(sizeof(float))));
  if (!partial)
    return AMP_STATUS_BACKEND_ERROR;
  float *sums = partial, *squares = partial + args.channels * args.chunks;
  const cudaStream_t s = toStream(stream);
  const int64_t n = v.batch * v.channels * v.spatial;
  dispatchFloat(x_dtype, [&](auto t) {
    using T = decltype(t);
    batchNormPartial<T, Pass::Sum>
        <<<blocks, threads, 0, s>>>(args, sums, squares);
    batchNormPartial<T, Pass::Squares>
        <<<blocks, threads, 0, s>>>(args, sums, squares);
    batchNormFinal<<<gridFor(args.channels), kThreads, 0, s>>>(args, sums,
                                                               squares);
    batchNormApply<T><<<gridFor(n), kThreads, 0, s>>>(args);
  });
  return freeScratch(check, partial, launched(check, "batch_norm"));
}

amp_status_t amp_batch_norm_grad(const void *dy, const void *x,
                                 const float *mean, const float *invstd,
                                 const void *scale, void *dx, void *dscale,
                                 void *dbias, const int64_t *dims, int32_t rank,
                                 amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                                 void *stream) {
  Checker check("amp_batch_norm_grad");
  BatchNormView v;
  if (amp_status_t s =
          checkBatchNormGrad(check, dy, x, mean, invstd, scale, dx, dscale,
                             dbias, dims, rank, x_dtype, scale_dtype, &v))
    return s;
  if (v.channels == 0)
    return AMP_STATUS_OK;
  const bool f32 = scale_dtype == AMP_DTYPE_F32;
  BatchNormArgs args{x,
                     dy,
                     scale,
                     nullptr,
                     dx,
                     const_cast<float *>(mean),
                     const_cast<float *>(invstd),
                     v.batch,
                     v.channels,
                     v.spatial,
                     0,
                     0,
                     0.0f,
                     f32,
                     f32};
  int threads;
  unsigned blocks;
  chunkChannels(args, &threads, &blocks);
  const int64_t parts = args.channels * args.chunks;
  float *scratch = static_cast<float *>(allocScratch(
      check, (2 * parts + 3 * args.channels) * int64_t(sizeof(float))));
  if (!scratch)
    return AMP_STATUS_BACKEND_ERROR;
  float *p0 = scratch, *p1 = scratch + parts, *coef = scratch + 2 * parts;
  const cudaStream_t s = toStream(stream);
  const int64_t n = v.batch * v.channels * v.spatial;
  dispatchFloat(x_dtype, [&](auto t) {
    using T = decltype(t);
    batchNormPartial<T, Pass::Grad><<<blocks, threads, 0, s>>>(args, p0, p1);
    batchNormGradFinal<T><<<gridFor(args.channels), kThreads, 0, s>>>(
        args, p0, p1, coef, dscale, dbias);
    batchNormGradApply<T><<<gridFor(n), kThreads, 0, s>>>(args, coef);
  });
  return freeScratch(check, scratch, launched(check, "batch_norm_grad"));
}

amp_status_t amp_running_stats_update(
    const float *running_mean, const float *running_var, const float *mean,
    const float *invstd, float *new_mean, float *new_var, int64_t channels,
    float momentum, float epsilon, float correction, void *stream) {
  Checker check("amp_running_stats_update");
  if (amp_status_t s = checkRunningStatsUpdate(
          check, running_mean, running_var, mean, invstd, new_mean, new_var,
          channels, momentum, epsilon, correction))
    return s;
  if (channels == 0)
    return AMP_STATUS_OK;
  runningStatsUpdate<<<gridFor(channels), kThreads, 0, toStream(stream)>>>(
      running_mean, running_var, mean, invstd, new_mean, new_var, channels,
      momentum, epsilon, correction);
  return launched(check, "running_stats_update");
}

} // extern "C"
