//===- StridedCopy.cu - Bit-pattern copies over a strided loop nest -------===//
//
// Two kernels run every CopyPlan (StridedCopy.h):
//  - a tiled transpose, when the destination's fastest dimension is not the
//    source's: 32 x 32 tiles through shared memory (one padding column
//    against bank conflicts), read along the source's unit-stride dimension
//    and written along the destination's, both coalesced;
//  - otherwise a gather, one thread per destination element (grid-stride),
//    its coordinates decoded from the flat index over the simplified nest,
//    with 32-bit index math when every offset fits and 16-byte elements
//    when the innermost run is contiguous on both sides, long enough and
//    aligned.
//
//===----------------------------------------------------------------------===//

#include "cuda/StridedCopy.h"

#include "cuda/CudaDevice.cuh"

#include <climits>
#include <cstdlib>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr int kTile = 32;    // tile edge of the transpose
constexpr int kTileRows = 8; // thread rows of a tile block (4 elements each)
// The tiled path pays off from this extent of both tile dimensions on.
constexpr int64_t kMinTiledExtent = 16;

//===----------------------------------------------------------------------===//
// Gather
//===----------------------------------------------------------------------===//

/// The nest of a gather copy, in elements of the launched width, with index
/// type I (int32_t when every offset fits, else int64_t).
template <typename I> struct GatherArgs {
  int rank;
  I count;
  I dims[kMaxRank];
  I dstStride[kMaxRank];
  I srcStride[kMaxRank];
  void *dst;
  const void *src;
};

template <typename E, typename I>
__global__ void __launch_bounds__(kThreads) gatherCopy(const GatherArgs<I> a) {
  E *__restrict__ dst = static_cast<E *>(a.dst);
  const E *__restrict__ src = static_cast<const E *>(a.src);
  AMP_GRID_STRIDE(i, a.count) {
    I rest = static_cast<I>(i), d = 0, s = 0;
#pragma unroll
    for (int k = kMaxRank - 1; k > 0; --k) {
      if (k < a.rank) {
        const I q = rest / a.dims[k];
        const I c = rest - q * a.dims[k];
        d += c * a.dstStride[k];
        s += c * a.srcStride[k];
        rest = q;
      }
    }
    // rest < dims[0]; rank 0 has zero strides.
    d += rest * a.dstStride[0];
    s += rest * a.srcStride[0];
    dst[d] = src[s];
  }
}

/// A loop nest being prepared for launch.
struct Nest {
  int rank = 0;
  int64_t count = 0;
  int64_t dims[kMaxRank] = {};
  int64_t stride[2][kMaxRank] = {}; // 0: destination, 1: source
};

/// The largest |offset| of operand k over the nest.
int64_t maxOffset(const Nest &n, int k) {
  int64_t m = 0;
  for (int d = 0; d < n.rank; ++d)
    m += std::llabs(n.stride[k][d]) * (n.dims[d] - 1);
  return m;
}

/// Widens the elements from `size` bytes to up to 16 (fewer, wider
/// accesses) where the innermost dimension is a contiguous run on both
/// sides whose length, the outer strides and both pointers allow it;
/// returns the new element size.
int64_t widen(Nest &n, int64_t size, const void *dst, const void *src) {
  const int r = n.rank;
  if (r == 0 || n.stride[0][r - 1] != 1 || n.stride[1][r - 1] != 1)
    return size;
  const uintptr_t addresses =
      reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src);
  for (int64_t width = 16; width > size; width /= 2) {
    const int64_t k = width / size;
    bool ok = addresses % width == 0 && n.dims[r - 1] % k == 0;
    for (int d = 0; d < r - 1 && ok; ++d)
      ok = n.stride[0][d] % k == 0 && n.stride[1][d] % k == 0;
    if (!ok)
      continue;
    n.dims[r - 1] /= k;
    n.count /= k;
    for (int d = 0; d < r - 1; ++d) {
      n.stride[0][d] /= k;
      n.stride[1][d] /= k;
    }
    return width;
  }
  return size;
}

template <typename I>
amp_status_t launchGatherWith(Checker &check, const Nest &n, int64_t size,
                              void *dst, const void *src, cudaStream_t stream) {
  GatherArgs<I> a{};
  a.rank = n.rank;
  a.count = static_cast<I>(n.count);
  for (int d = 0; d < n.rank; ++d) {
    a.dims[d] = static_cast<I>(n.dims[d]);
    a.dstStride[d] = static_cast<I>(n.stride[0][d]);
    a.srcStride[d] = static_cast<I>(n.stride[1][d]);
  }
  a.dst = dst;
  a.src = src;
  const unsigned grid = gridFor(n.count);
  switch (size) {
  case 1:
    gatherCopy<uint8_t, I><<<grid, kThreads, 0, stream>>>(a);
    break;
  case 2:
    gatherCopy<uint16_t, I><<<grid, kThreads, 0, stream>>>(a);
    break;
  case 4:
    gatherCopy<uint32_t, I><<<grid, kThreads, 0, stream>>>(a);
    break;
  case 8:
    gatherCopy<unsigned long long, I><<<grid, kThreads, 0, stream>>>(a);
    break;
  default:
    gatherCopy<uint4, I><<<grid, kThreads, 0, stream>>>(a);
    break;
  }
  return launched(check, "amp-gather-copy");
}

amp_status_t launchGather(Checker &check, Nest n, int64_t size, void *dst,
                          const void *src, cudaStream_t stream) {
  size = widen(n, size, dst, src);
  if (n.count <= INT32_MAX && maxOffset(n, 0) <= INT32_MAX &&
      maxOffset(n, 1) <= INT32_MAX)
    return launchGatherWith<int32_t>(check, n, size, dst, src, stream);
  return launchGatherWith<int64_t>(check, n, size, dst, src, stream);
}

//===----------------------------------------------------------------------===//
// Tiled transpose
//===----------------------------------------------------------------------===//

/// A transpose of dimension `rows` (unit stride in the source) and `cols`
/// (the destination's innermost, unit stride) under up to kMaxRank - 2
/// batch dimensions.
struct TileArgs {
  int64_t rows, cols;
  int64_t dstRowStride, srcColStride;
  int64_t tilesR, tilesC, tiles;
  int batchRank;
  int64_t batchDims[kMaxRank];
  int64_t batchDst[kMaxRank];
  int64_t batchSrc[kMaxRank];
  void *dst;
  const void *src;
};

template <typename E>
__global__ void __launch_bounds__(kTile *kTileRows)
    tiledTranspose(const TileArgs a) {
  __shared__ E tile[kTile][kTile + 1]; // [column][row]
  E *__restrict__ dst = static_cast<E *>(a.dst);
  const E *__restrict__ src = static_cast<const E *>(a.src);
  const int tx = threadIdx.x, ty = threadIdx.y;
  // The loop bound is uniform across the block, so the barriers are safe.
  for (int64_t t = blockIdx.x; t < a.tiles; t += gridDim.x) {
    int64_t rest = t / a.tilesC;
    const int64_t tc = t - rest * a.tilesC;
    int64_t b = rest / a.tilesR;
    const int64_t tr = rest - b * a.tilesR;
    int64_t dOff = 0, sOff = 0;
    for (int k = a.batchRank - 1; k >= 0; --k) {
      const int64_t q = b / a.batchDims[k];
      const int64_t c = b - q * a.batchDims[k];
      dOff += c * a.batchDst[k];
      sOff += c * a.batchSrc[k];
      b = q;
    }
    const int64_t r0 = tr * kTile, c0 = tc * kTile;
    // Read: consecutive threads take consecutive rows (source unit stride).
    const int64_t r = r0 + tx;
    for (int j = ty; j < kTile; j += kTileRows) {
      const int64_t c = c0 + j;
      if (r < a.rows && c < a.cols)
        tile[j][tx] = src[sOff + r + c * a.srcColStride];
    }
    __syncthreads();
    // Write: consecutive threads take consecutive columns.
    const int64_t c = c0 + tx;
    for (int j = ty; j < kTile; j += kTileRows) {
      const int64_t rr = r0 + j;
      if (rr < a.rows && c < a.cols)
        dst[dOff + rr * a.dstRowStride + c] = tile[tx][j];
    }
    __syncthreads(); // the tile is reused by the next iteration
  }
}

/// The source dimension of unit stride for the tiled path, or -1 when the
/// nest is not a transpose of the two fastest-moving dimensions that is
/// worth tiling.
int tiledRowDim(const Nest &n) {
  const int r = n.rank;
  if (r < 2 || n.stride[0][r - 1] != 1 || n.stride[1][r - 1] == 0 ||
      n.stride[1][r - 1] == 1 || n.dims[r - 1] < kMinTiledExtent)
    return -1;
  for (int d = 0; d < r - 1; ++d)
    if (n.stride[1][d] == 1)
      return n.dims[d] >= kMinTiledExtent ? d : -1;
  return -1;
}

amp_status_t launchTiled(Checker &check, const Nest &n, int p, int64_t size,
                         void *dst, const void *src, cudaStream_t stream) {
  const int r = n.rank;
  TileArgs a{};
  a.rows = n.dims[p];
  a.cols = n.dims[r - 1];
  a.dstRowStride = n.stride[0][p];
  a.srcColStride = n.stride[1][r - 1];
  a.tilesR = (a.rows + kTile - 1) / kTile;
  a.tilesC = (a.cols + kTile - 1) / kTile;
  int64_t batch = 1;
  for (int d = 0; d < r - 1; ++d) {
    if (d == p)
      continue;
    a.batchDims[a.batchRank] = n.dims[d];
    a.batchDst[a.batchRank] = n.stride[0][d];
    a.batchSrc[a.batchRank] = n.stride[1][d];
    ++a.batchRank;
    batch *= n.dims[d];
  }
  a.tiles = batch * a.tilesR * a.tilesC;
  a.dst = dst;
  a.src = src;
  const unsigned grid = gridFor(a.tiles, 1, 1);
  const dim3 block(kTile, kTileRows);
  switch (size) {
  case 1:
    tiledTranspose<uint8_t><<<grid, block, 0, stream>>>(a);
    break;
  case 2:
    tiledTranspose<uint16_t><<<grid, block, 0, stream>>>(a);
    break;
  case 4:
    tiledTranspose<uint32_t><<<grid, block, 0, stream>>>(a);
    break;
  default:
    tiledTranspose<unsigned long long><<<grid, block, 0, stream>>>(a);
    break;
  }
  return launched(check, "amp-tiled-transpose");
}

} // namespace

amp_status_t amp::runtime::cuda::launchCopy(Checker &check,
                                            const CopyPlan &plan,
                                            const void *src, void *dst,
                                            int64_t elementSize,
                                            cudaStream_t stream) {
  if (plan.count == 0)
    return AMP_STATUS_OK;
  Nest n;
  n.rank = plan.loop.rank;
  n.count = plan.count;
  for (int d = 0; d < n.rank; ++d) {
    n.dims[d] = plan.loop.dims[d];
    n.stride[0][d] = plan.loop.strides[0][d];
    n.stride[1][d] = plan.loop.strides[1][d];
  }
  char *d = static_cast<char *>(dst) + plan.dstBase * elementSize;
  const char *s = static_cast<const char *>(src) + plan.srcBase * elementSize;
  const int p = tiledRowDim(n);
  if (p >= 0)
    return launchTiled(check, n, p, elementSize, d, s, stream);
  return launchGather(check, n, elementSize, d, s, stream);
}
