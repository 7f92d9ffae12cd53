//===- KernelsAttention.cu - the CUDA backend's fused attention -----------===//
//
// Fused scaled-dot-product attention, FlashAttention-style: no kernel stores
// the [..., Sq, Sk] scores. Every kernel works on blocks of rows of one
// problem (W warps of R rows each, W * R rows a block), walks the other
// side in tiles of C <= 32 rows staged in shared memory as f32, and keeps
// its per-row state in shared memory too. Within a tile, lane j of a warp
// takes tile row j: it forms its dot products alone, over the head dim in
// ascending order (the reference's order, so the scores are bitwise the
// reference's), then the warp adds the tile's terms to the row's
// accumulators, lane c owning columns c, c + 32, ... (no atomics, one
// writer per value).
//
//   forward   a block per (problem, W R query rows), key tiles; an online
//             softmax: running max m and sum l per row, the accumulator
//             rescaled by exp(m_old - m_new) when the max grows; out =
//             acc / l, lse = m + log(l).
//   grad q    the same blocks: delta = dot(dout, out) per row (one lane, in
//             order, into an f32 scratch for the next kernel), then per key
//             tile p, dp and ds, and dq += ds k.
//   grad k, v a block per (key/value problem, W R key rows), the query
//             tiles of each query problem that reads it (kv_group of them,
//             in order; causal: from the block's first key on); p, dp and
//             ds recomputed from q, k, lse and delta, then dk += ds q,
//             dv += p dout.
//
// Under grouped-query attention (kv_group > 1) query problem b reads the
// keys and values of problem b / kv_group.
//
// W, R and C start at 4, 4 and 32 and shrink until the block's shared
// memory fits the device (the opt-in limit above 48 KiB); D + Dv up to
// about 28000 fit a 227 KiB H100 block. The per-score formulas are
// AttentionMath.h's, compiled with --fmad=false; what differs from the
// reference is the forward's online softmax (rescaled sums, out divided by
// l) and CUDA's expf/logf. A key whose score is -inf contributes nothing.
// With dropout (the seed read from device memory once per kernel) a dropped
// probability adds nothing to out or dv and its dp is 0; a kept one is
// divided by 1 - rate, as in the reference.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "reference/AttentionChecks.h"
#include "reference/AttentionMath.h"
#include "reference/ElementwiseMath.h"

#include <algorithm>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

/// The operands of one kernel and the block geometry.
struct AttentionLaunch {
  AttentionView view;
  const void *q, *k, *v, *mask;
  const void *out, *dout; // the gradient's inputs
  const float *lse;       // the gradient's input
  void *dst;              // out (forward) or dq
  float *lseOut;          // the forward's lse
  void *dk, *dv;
  float *delta; // scratch: dot(dout, out) per query row
  bool maskF32;
  float scale;
  int warps, rowsPerWarp, tile;

  AMP_HOST_DEVICE int rowsPerBlock() const { return warps * rowsPerWarp; }
};

/// Carves consecutive f32 arrays out of a block's dynamic shared memory;
/// with a NULL base (the host) it only counts, so the host sizes the
/// memory with the kernel's own layout.
struct Carver {
  float *base;
  int64_t used = 0;
  AMP_HOST_DEVICE float *take(int64_t n) {
    float *p = base ? base + used : nullptr;
    used += n;
    return p;
  }
};

enum class Kind { Forward, GradQ, GradKV };

/// One block's shared arrays. Rows are the block's rows (query rows, or
/// key rows for GradKV), tiles the other side's; the tile arrays have a
/// pitch of width + 1 where lanes walk them along the row (fewer bank
/// conflicts).
struct Shared {
  float *rowsA, *rowsB, *rowsC, *rowsD; // [rows][d or dv]
  float *stat0, *stat1;                 // [rows]
  float *tileA, *tileB;                 // [tile][pitch]
  float *tileStat0, *tileStat1;         // [tile]
  float *warpA, *warpB;                 // [warps][tile]
};

/// The layout of each kernel:
///   Forward: rowsA q [R][d], rowsB acc [R][dv], stat0 m, stat1 l, tileA k
///            [C][d + 1], tileB v [C][dv], warpA p.
///   GradQ:   rowsA q, rowsB dout [R][dv], rowsC dq acc [R][d], stat0
///            delta, stat1 lse, tileA k [C][d + 1], tileB v [C][dv + 1],
///            warpA ds.
///   GradKV:  rowsA k, rowsB v, rowsC dk acc, rowsD dv acc, tileA q
///            [C][d + 1], tileB dout [C][dv + 1], tileStat0 lse, tileStat1
///            delta, warpA p, warpB ds.
AMP_HOST_DEVICE Shared carve(Kind kind, const AttentionLaunch &a, float *base,
                             int64_t *floats) {
  const int64_t d = a.view.d, dv = a.view.dv, rows = a.rowsPerBlock(),
                tile = a.tile, warps = a.warps;
  Carver c{base};
  Shared s{};
  s.rowsA = c.take(rows * d);
  s.rowsB = c.take(rows * dv);
  if (kind != Kind::Forward)
    s.rowsC = c.take(rows * d);
  if (kind == Kind::GradKV) {
    s.rowsD = c.take(rows * dv);
  } else {
    s.stat0 = c.take(rows);
    s.stat1 = c.take(rows);
  }
  s.tileA = c.take(tile * (d + 1));
  s.tileB = c.take(tile * (kind == Kind::Forward ? dv : dv + 1));
  if (kind == Kind::GradKV) {
    s.tileStat0 = c.take(tile);
    s.tileStat1 = c.take(tile);
    s.warpB = c.take(warps * tile);
  }
  s.warpA = c.take(warps * tile);
  if (floats)
    *floats = c.used;
  return s;
}

template <typename T>
__device__ __forceinline__ float maskAt(const AttentionLaunch &a, int64_t base,
                                        int64_t i, int64_t j) {
  const AttentionView &v = a.view;
  if (!v.hasMask)
    return 0.0f;
  const int64_t at = base + i * v.maskStrideI + j * v.maskStrideJ;
  return a.maskF32 ? static_cast<const float *>(a.mask)[at]
                   : ld(static_cast<const T *>(a.mask), at);
}

/// Copies rows x cols elements of T starting at src[first] into f32 rows of
/// `pitch`, with the whole block.
template <typename T>
__device__ void stage(const T *src, int64_t first, int64_t rows, int64_t cols,
                      float *dst, int64_t pitch) {
  for (int64_t x = threadIdx.x; x < rows * cols; x += blockDim.x) {
    const int64_t r = x / cols;
    dst[r * pitch + x - r * cols] = ld(src, first + x);
  }
}

/// The score of (q row `qRow`, k row `kRow`), the dot product in ascending
/// order of the head dim.
template <typename T>
__device__ __forceinline__ float score(const AttentionLaunch &a,
                                       const float *qRow, const float *kRow,
                                       int64_t maskBase, int64_t i, int64_t j) {
  float dot = 0.0f;
  for (int64_t c = 0; c < a.view.d; ++c)
    dot += qRow[c] * kRow[c];
  return attentionScore(dot, a.scale, maskAt<T>(a, maskBase, i, j));
}

/// dot(x[0, n), y[0, n)) in ascending order.
__device__ __forceinline__ float dotInOrder(const float *x, const float *y,
                                            int64_t n) {
  float sum = 0.0f;
  for (int64_t e = 0; e < n; ++e)
    sum += x[e] * y[e];
  return sum;
}

/// Whether dropout keeps problem b's p[i, j] (always without dropout).
__device__ __forceinline__ bool keptBy(const AttentionView &v, uint64_t seed,
                                       int64_t b, int64_t i, int64_t j) {
  return !v.dropoutSeed || v.keeps(seed, b, i, j);
}

/// x as dropout leaves a term with `kept`: x / (1 - rate), or 0; x itself
/// without dropout.
__device__ __forceinline__ float droppedTerm(const AttentionView &v, bool kept,
                                             float x) {
  return !v.dropoutSeed ? x : kept ? dropoutScaled(x, v.keepProb) : 0.0f;
}

/// acc[c] = acc[c] * keep + sum over the live lanes jj (ascending) of
/// w[jj] * tile[jj * pitch + c], for the columns c of this lane.
__device__ __forceinline__ void
accumulate(float *acc, float keep, const float *w, const float *tile,
           int64_t pitch, int count, unsigned live, int64_t width, int lane) {
  for (int64_t c = lane; c < width; c += 32) {
    float sum = acc[c] * keep;
    for (int jj = 0; jj < count; ++jj)
      if ((live >> jj) & 1u)
        sum += w[jj] * tile[jj * pitch + c];
    acc[c] = sum;
  }
}

template <typename T>
__global__ void attentionForwardKernel(AttentionLaunch a) {
  extern __shared__ float smem[];
  const Shared sh = carve(Kind::Forward, a, smem, nullptr);
  const AttentionView &v = a.view;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  const int rowsPerBlock = a.rowsPerBlock(), tile = a.tile;
  const int64_t d = v.d, dv = v.dv;
  const T *q = static_cast<const T *>(a.q);
  const T *k = static_cast<const T *>(a.k);
  const T *val = static_cast<const T *>(a.v);
  T *out = static_cast<T *>(a.dst);
  float *p = sh.warpA + warp * tile;
  const uint64_t seed = v.seedValue();
  const int64_t blocksPerProblem = (v.sq + rowsPerBlock - 1) / rowsPerBlock;
  for (int64_t item = blockIdx.x; item < v.batch * blocksPerProblem;
       item += gridDim.x) {
    const int64_t b = item / blocksPerProblem, kb = v.kvProblem(b);
    const int64_t i0 = (item - b * blocksPerProblem) * rowsPerBlock;
    const int rows = int(min(int64_t(rowsPerBlock), v.sq - i0));
    const int64_t maskBase = v.hasMask ? v.maskBase(b) : 0;
    stage(q, (b * v.sq + i0) * d, rows, d, sh.rowsA, d);
    for (int64_t x = threadIdx.x; x < rows * dv; x += blockDim.x)
      sh.rowsB[x] = 0.0f;
    for (int x = threadIdx.x; x < rows; x += blockDim.x) {
      sh.stat0[x] = -INFINITY;
      sh.stat1[x] = 0.0f;
    }
    const int64_t keys = v.keysOf(i0 + rows - 1); // the most of any row
    __syncthreads();
    for (int64_t j0 = 0; j0 < keys; j0 += tile) {
      const int count = int(min(int64_t(tile), keys - j0));
      stage(k, (kb * v.sk + j0) * d, count, d, sh.tileA, d + 1);
      stage(val, (kb * v.sk + j0) * dv, count, dv, sh.tileB, dv);
      __syncthreads();
      for (int t = 0; t < a.rowsPerWarp; ++t) {
        const int row = warp * a.rowsPerWarp + t;
        if (row >= rows)
          break; // the same in every lane
        const int64_t i = i0 + row, j = j0 + lane;
        float s = -INFINITY;
        if (lane < count && j < v.keysOf(i))
          s = score<T>(a, sh.rowsA + row * d, sh.tileA + lane * (d + 1),
                       maskBase, i, j);
        const bool live = !maskedOut(s);
        const float mOld = sh.stat0[row];
        const float mNew = maxNaNDevice(mOld, warpMax(s));
        if (mNew == -INFINITY)
          continue; // no live key so far: nothing to add
        const float keep = expf(mOld - mNew);
        const float e = live ? expf(s - mNew) : 0.0f;
        const float l = sh.stat1[row] * keep + warpSum(e);
        // The lanes whose terms the accumulator takes: the live keys that
        // dropout keeps.
        const bool kept = live && keptBy(v, seed, b, i, j);
        const unsigned keptLanes = __ballot_sync(kFullMask, kept);
        if (lane < tile)
          p[lane] = droppedTerm(v, kept, e);
        __syncwarp();
        accumulate(sh.rowsB + row * dv, keep, p, sh.tileB, dv, count, keptLanes,
                   dv, lane);
        if (lane == 0) {
          sh.stat0[row] = mNew;
          sh.stat1[row] = l;
        }
        __syncwarp();
      }
      __syncthreads();
    }
    for (int t = 0; t < a.rowsPerWarp; ++t) {
      const int row = warp * a.rowsPerWarp + t;
      if (row >= rows)
        break;
      const int64_t r = b * v.sq + i0 + row;
      const float m = sh.stat0[row], l = sh.stat1[row];
      const bool none = m == -INFINITY; // no key: out = 0, lse = -inf
      for (int64_t c = lane; c < dv; c += 32)
        st(out, r * dv + c, none ? 0.0f : sh.rowsB[row * dv + c] / l);
      if (lane == 0)
        a.lseOut[r] = none ? -INFINITY : attentionLse(m, l);
    }
    __syncthreads();
  }
}

template <typename T> __global__ void attentionGradQKernel(AttentionLaunch a) {
  extern __shared__ float smem[];
  const Shared sh = carve(Kind::GradQ, a, smem, nullptr);
  const AttentionView &v = a.view;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  const int rowsPerBlock = a.rowsPerBlock(), tile = a.tile;
  const int64_t d = v.d, dv = v.dv;
  const T *q = static_cast<const T *>(a.q);
  const T *k = static_cast<const T *>(a.k);
  const T *val = static_cast<const T *>(a.v);
  const T *out = static_cast<const T *>(a.out);
  const T *dout = static_cast<const T *>(a.dout);
  T *dq = static_cast<T *>(a.dst);
  float *ds = sh.warpA + warp * tile;
  const uint64_t seed = v.seedValue();
  const int64_t blocksPerProblem = (v.sq + rowsPerBlock - 1) / rowsPerBlock;
  for (int64_t item = blockIdx.x; item < v.batch * blocksPerProblem;
       item += gridDim.x) {
    const int64_t b = item / blocksPerProblem, kb = v.kvProblem(b);
    const int64_t i0 = (item - b * blocksPerProblem) * rowsPerBlock;
    const int rows = int(min(int64_t(rowsPerBlock), v.sq - i0));
    const int64_t maskBase = v.hasMask ? v.maskBase(b) : 0;
    stage(q, (b * v.sq + i0) * d, rows, d, sh.rowsA, d);
    stage(dout, (b * v.sq + i0) * dv, rows, dv, sh.rowsB, dv);
    for (int64_t x = threadIdx.x; x < rows * d; x += blockDim.x)
      sh.rowsC[x] = 0.0f;
    __syncthreads();
    // delta = dot(dout, out) in order, by one lane per row.
    for (int x = threadIdx.x; x < rows; x += blockDim.x) {
      const int64_t r = b * v.sq + i0 + x;
      float delta = 0.0f;
      for (int64_t c = 0; c < dv; ++c)
        delta += sh.rowsB[x * dv + c] * ld(out, r * dv + c);
      sh.stat0[x] = delta;
      sh.stat1[x] = a.lse[r];
      a.delta[r] = delta;
    }
    const int64_t keys = v.keysOf(i0 + rows - 1);
    __syncthreads();
    for (int64_t j0 = 0; j0 < keys; j0 += tile) {
      const int count = int(min(int64_t(tile), keys - j0));
      stage(k, (kb * v.sk + j0) * d, count, d, sh.tileA, d + 1);
      stage(val, (kb * v.sk + j0) * dv, count, dv, sh.tileB, dv + 1);
      __syncthreads();
      for (int t = 0; t < a.rowsPerWarp; ++t) {
        const int row = warp * a.rowsPerWarp + t;
        if (row >= rows)
          break;
        const float lse = sh.stat1[row];
        if (lse == -INFINITY)
          continue; // no key: p = 0
        const int64_t i = i0 + row, j = j0 + lane;
        float g = 0.0f;
        bool live = lane < count && j < v.keysOf(i);
        if (live) {
          const float s = score<T>(a, sh.rowsA + row * d,
                                   sh.tileA + lane * (d + 1), maskBase, i, j);
          live = !maskedOut(s);
          const float dp = droppedTerm(
              v, keptBy(v, seed, b, i, j),
              dotInOrder(sh.rowsB + row * dv, sh.tileB + lane * (dv + 1), dv));
          g = attentionScoreGrad(attentionProb(s, lse), dp, sh.stat0[row]);
        }
        const unsigned liveLanes = __ballot_sync(kFullMask, live);
        if (lane < tile)
          ds[lane] = g;
        __syncwarp();
        accumulate(sh.rowsC + row * d, 1.0f, ds, sh.tileA, d + 1, count,
                   liveLanes, d, lane);
        __syncwarp();
      }
      __syncthreads();
    }
    for (int t = 0; t < a.rowsPerWarp; ++t) {
      const int row = warp * a.rowsPerWarp + t;
      if (row >= rows)
        break;
      const int64_t r = b * v.sq + i0 + row;
      for (int64_t c = lane; c < d; c += 32)
        st(dq, r * d + c, a.scale * sh.rowsC[row * d + c]);
    }
    __syncthreads();
  }
}

template <typename T> __global__ void attentionGradKVKernel(AttentionLaunch a) {
  extern __shared__ float smem[];
  const Shared sh = carve(Kind::GradKV, a, smem, nullptr);
  const AttentionView &v = a.view;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x % 32);
  const int rowsPerBlock = a.rowsPerBlock(), tile = a.tile;
  const int64_t d = v.d, dv = v.dv;
  const T *q = static_cast<const T *>(a.q);
  const T *k = static_cast<const T *>(a.k);
  const T *val = static_cast<const T *>(a.v);
  const T *dout = static_cast<const T *>(a.dout);
  T *dk = static_cast<T *>(a.dk);
  T *dvOut = static_cast<T *>(a.dv);
  float *p = sh.warpA + warp * tile, *ds = sh.warpB + warp * tile;
  const uint64_t seed = v.seedValue();
  const int64_t blocksPerProblem = (v.sk + rowsPerBlock - 1) / rowsPerBlock;
  for (int64_t item = blockIdx.x; item < v.kvBatch() * blocksPerProblem;
       item += gridDim.x) {
    const int64_t kb = item / blocksPerProblem;
    const int64_t j0 = (item - kb * blocksPerProblem) * rowsPerBlock;
    const int rows = int(min(int64_t(rowsPerBlock), v.sk - j0));
    stage(k, (kb * v.sk + j0) * d, rows, d, sh.rowsA, d);
    stage(val, (kb * v.sk + j0) * dv, rows, dv, sh.rowsB, dv);
    for (int64_t x = threadIdx.x; x < rows * d; x += blockDim.x)
      sh.rowsC[x] = 0.0f;
    for (int64_t x = threadIdx.x; x < rows * dv; x += blockDim.x)
      sh.rowsD[x] = 0.0f;
    __syncthreads();
    // The query problems that read these keys (kv_group of them), in order.
    for (int64_t b = kb * v.kvGroup; b < (kb + 1) * v.kvGroup; ++b) {
      const int64_t maskBase = v.hasMask ? v.maskBase(b) : 0;
      // Causal: query rows before the block's first key see none of its keys.
      for (int64_t i0 = v.causal ? min(j0, v.sq) : 0; i0 < v.sq; i0 += tile) {
        const int count = int(min(int64_t(tile), v.sq - i0));
        const int64_t r0 = b * v.sq + i0;
        stage(q, r0 * d, count, d, sh.tileA, d + 1);
        stage(dout, r0 * dv, count, dv, sh.tileB, dv + 1);
        for (int x = threadIdx.x; x < count; x += blockDim.x) {
          sh.tileStat0[x] = a.lse[r0 + x];
          sh.tileStat1[x] = a.delta[r0 + x];
        }
        __syncthreads();
        for (int t = 0; t < a.rowsPerWarp; ++t) {
          const int row = warp * a.rowsPerWarp + t;
          if (row >= rows)
            break;
          const int64_t i = i0 + lane, j = j0 + row;
          float e = 0.0f, g = 0.0f;
          bool live = lane < count && j < v.keysOf(i) &&
                      sh.tileStat0[lane] != -INFINITY;
          bool kept = false;
          if (live) {
            const float s = score<T>(a, sh.tileA + lane * (d + 1),
                                     sh.rowsA + row * d, maskBase, i, j);
            live = !maskedOut(s);
            kept = live && keptBy(v, seed, b, i, j);
            const float dp = droppedTerm(v, kept,
                                         dotInOrder(sh.tileB + lane * (dv + 1),
                                                    sh.rowsB + row * dv, dv));
            e = attentionProb(s, sh.tileStat0[lane]);
            g = attentionScoreGrad(e, dp, sh.tileStat1[lane]);
          }
          const unsigned liveLanes = __ballot_sync(kFullMask, live);
          const unsigned keptLanes = __ballot_sync(kFullMask, kept);
          if (lane < tile) {
            p[lane] = droppedTerm(v, kept, e);
            ds[lane] = g;
          }
          __syncwarp();
          accumulate(sh.rowsC + row * d, 1.0f, ds, sh.tileA, d + 1, count,
                     liveLanes, d, lane);
          accumulate(sh.rowsD + row * dv, 1.0f, p, sh.tileB, dv + 1, count,
                     keptLanes, dv, lane);
          __syncwarp();
        }
        __syncthreads();
      }
    }
    const int64_t kBase = (kb * v.sk + j0) * d, vBase = (kb * v.sk + j0) * dv;
    for (int64_t x = threadIdx.x; x < rows * d; x += blockDim.x)
      st(dk, kBase + x, a.scale * sh.rowsC[x]);
    for (int64_t x = threadIdx.x; x < rows * dv; x += blockDim.x)
      st(dvOut, vBase + x, sh.rowsD[x]);
    __syncthreads();
  }
}

/// The shared memory a block may have on the current device (the opt-in
/// maximum, 48 KiB if it cannot be read).
int64_t sharedLimit() {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                             device) != cudaSuccess ||
      bytes <= 0)
    return 48 * 1024;
  return bytes;
}

/// Picks W, R and C for `kind` (4, 4, 32, halved in that order of
/// preference until the layout fits) and launches the kernel over `rows`
/// rows per problem.
template <typename T>
amp_status_t launchKernel(Checker &check, Kind kind, AttentionLaunch a,
                          int64_t rows, cudaStream_t stream) {
  const int64_t limit = sharedLimit();
  a.warps = 4;
  a.rowsPerWarp = 4;
  a.tile = 32;
  int64_t floats;
  carve(kind, a, nullptr, &floats);
  while (floats * int64_t(sizeof(float)) > limit) {
    if (a.rowsPerWarp > 1)
      a.rowsPerWarp /= 2;
    else if (a.warps > 1)
      a.warps /= 2;
    else if (a.tile > 1)
      a.tile /= 2;
    else
      return check.fail(AMP_STATUS_NOT_SUPPORTED,
                        "head dims D = %lld and Dv = %lld need %lld bytes of "
                        "shared memory, above the device's %lld",
                        (long long)a.view.d, (long long)a.view.dv,
                        (long long)(floats * int64_t(sizeof(float))),
                        (long long)limit);
    carve(kind, a, nullptr, &floats);
  }
  void (*kernel)(AttentionLaunch) =
      kind == Kind::Forward ? attentionForwardKernel<T>
      : kind == Kind::GradQ ? attentionGradQKernel<T>
                            : attentionGradKVKernel<T>;
  const int64_t bytes = floats * int64_t(sizeof(float));
  if (bytes > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)))
      return cudaFailure(check, "cudaFuncSetAttribute", e);
  const int64_t problems =
      kind == Kind::GradKV ? a.view.kvBatch() : a.view.batch;
  const int64_t items =
      problems * ((rows + a.rowsPerBlock() - 1) / a.rowsPerBlock());
  const unsigned blocks = unsigned(std::max<int64_t>(
      1, std::min<int64_t>(items, int64_t(multiprocessorCount()) * 32)));
  kernel<<<blocks, a.warps * 32, size_t(bytes), stream>>>(a);
  return launched(check, kind == Kind::Forward ? "attention"
                         : kind == Kind::GradQ ? "attention_grad (dq)"
                                               : "attention_grad (dk, dv)");
}

/// The kernels' copy of a call's operands (the block geometry is picked at
/// launch).
AttentionLaunch launchOf(const AttentionCall &call) {
  AttentionLaunch a{};
  a.view = call.view;
  a.q = call.q;
  a.k = call.k;
  a.v = call.v;
  a.mask = call.mask;
  a.out = call.out;
  a.dout = call.dout;
  a.lse = call.lse;
  a.dst = call.dst;
  a.lseOut = call.lseOut;
  a.dk = call.dk;
  a.dv = call.dv;
  a.maskF32 = call.maskIsF32();
  a.scale = call.scale;
  return a;
}

} // namespace

amp_status_t kernels::attentionForward(Checker &check,
                                       const AttentionCall &call) {
  if (call.view.batch * call.view.sq == 0)
    return AMP_STATUS_OK;
  AttentionLaunch a = launchOf(call);
  amp_status_t status = AMP_STATUS_OK;
  dispatchFloat(call.dtype, [&](auto t) {
    status = launchKernel<decltype(t)>(check, Kind::Forward, a, a.view.sq,
                                       toStream(call.stream));
  });
  return status;
}

amp_status_t kernels::attentionBackward(Checker &check,
                                        const AttentionCall &call) {
  // The dk/dv kernel runs when dk or dv has elements, the dq kernel when dq
  // has or the dk/dv kernel needs its delta: nothing runs over keys or rows
  // that have nothing to write (Sk may be huge when the head dims are 0).
  const AttentionView &view = call.view;
  const int64_t queryRows = view.batch * view.sq;
  const bool gradKV = view.kvBatch() * view.sk * (view.d + view.dv) > 0;
  const bool gradQ = queryRows > 0 && (view.d > 0 || gradKV);
  if (!gradQ && !gradKV)
    return AMP_STATUS_OK;
  AttentionLaunch a = launchOf(call);
  // delta, written by the dq kernel and read by the dk/dv kernel.
  if (gradQ && !(a.delta = static_cast<float *>(
                     allocScratch(check, queryRows * int64_t(sizeof(float))))))
    return AMP_STATUS_BACKEND_ERROR;
  const cudaStream_t s = toStream(call.stream);
  amp_status_t status = AMP_STATUS_OK;
  dispatchFloat(call.dtype, [&](auto t) {
    using T = decltype(t);
    if (gradQ)
      status = launchKernel<T>(check, Kind::GradQ, a, view.sq, s);
    if (status == AMP_STATUS_OK && gradKV)
      status = launchKernel<T>(check, Kind::GradKV, a, view.sk, s);
  });
  return a.delta ? freeScratch(check, a.delta, status) : status;
}
