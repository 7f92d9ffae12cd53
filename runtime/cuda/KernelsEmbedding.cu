//===- KernelsEmbedding.cu - Embedding gather and scatter-add on CUDA -----===//
//
// amp_embedding and amp_embedding_grad on the CUDA backend. The argument
// checks are the reference's (reference/EmbeddingChecks.h); the ids' values
// are checked on the device: an id outside [0, num_embeddings) is recorded
// with reportDeviceError (amp_synchronize reports it as
// AMP_STATUS_INVALID_ARGUMENT) and its row is never read: the gather writes
// zeros to its output row, the gradient skips it.
//
//  - Gather: one warp per id (grid-stride over the ids), the row copied as
//    bit patterns with the widest access (up to 16 bytes) that the row
//    length and both pointers allow. Exact.
//  - Gradient: dtable (f32) or an f32 scratch from amp_alloc is zeroed
//    (cudaMemsetAsync), the rows of dy are added into their ids' rows in f32
//    in ascending row order with one writer per element (no atomics; see
//    embeddingScatterAdd), and a scratch is then rounded once into dtable's
//    dtype: bitwise the reference's, and deterministic, so a step replayed
//    from a CUDA graph gives the uncaptured step's bits.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "reference/EmbeddingChecks.h"

#include <algorithm>
#include <string>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr int kWarpsPerBlock = kThreads / 32;

/// The global warp index and the warp count of a grid-stride loop.
__device__ __forceinline__ int64_t warpIndex() {
  return (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
}
__device__ __forceinline__ int64_t warpCount() {
  return int64_t(gridDim.x) * blockDim.x / 32;
}

/// out[row] = table[ids[row]], rows of rowUnits elements of E (raw bits).
template <typename E, typename Id>
__global__ void __launch_bounds__(kThreads)
    embeddingGather(const E *__restrict__ table, const Id *__restrict__ ids,
                    E *__restrict__ out, int64_t nIds, int64_t numEmbeddings,
                    int64_t rowUnits, DeviceErrorRecord *record) {
  const int lane = threadIdx.x % 32;
  for (int64_t row = warpIndex(); row < nIds; row += warpCount()) {
    const int64_t id = ids[row];
    E *o = out + row * rowUnits;
    if (id < 0 || id >= numEmbeddings) {
      if (lane == 0)
        reportDeviceError(record, DeviceError::IdOutOfRange, id, row,
                          numEmbeddings);
      for (int64_t k = lane; k < rowUnits; k += 32)
        o[k] = E{}; // all-zero bits: +0
      continue;
    }
    const E *t = table + id * rowUnits;
    for (int64_t k = lane; k < rowUnits; k += 32)
      o[k] = t[k];
  }
}

/// acc[ids[row], :] += dy[row, :] in f32, row ascending: the reference's
/// order, deterministically. Thread (k, b) owns column k of every table row
/// whose id is b modulo gridDim.y, and walks all rows in order (the ids are
/// read by the whole warp at once: one broadcast load per row), so each
/// element has one writer, which adds in ascending row order: bitwise the
/// reference's sum, with no atomics.
template <typename T, typename Id>
__global__ void __launch_bounds__(kThreads)
    embeddingScatterAdd(const T *__restrict__ dy, const Id *__restrict__ ids,
                        float *__restrict__ acc, int64_t nIds,
                        int64_t numEmbeddings, int64_t dim,
                        DeviceErrorRecord *record) {
  const int64_t buckets = gridDim.y, bucket = blockIdx.y;
  if (dim == 0) { // nothing to add; the ids are still checked, once
    if (blockIdx.x == 0 && threadIdx.x == 0 && bucket == 0)
      for (int64_t row = 0; row < nIds; ++row)
        if (ids[row] < 0 || ids[row] >= numEmbeddings)
          reportDeviceError(record, DeviceError::IdOutOfRangeGrad,
                            int64_t(ids[row]), row, numEmbeddings);
    return;
  }
  for (int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < dim;
       k += int64_t(gridDim.x) * blockDim.x) {
    for (int64_t row = 0; row < nIds; ++row) {
      const int64_t id = ids[row];
      if (id < 0 || id >= numEmbeddings) {
        if (k == 0 && bucket == 0)
          reportDeviceError(record, DeviceError::IdOutOfRangeGrad, id, row,
                            numEmbeddings);
        continue;
      }
      if (id % buckets != bucket)
        continue;
      acc[id * dim + k] += ld(dy, row * dim + k);
    }
  }
}

/// The buckets of embeddingScatterAdd: enough (column, bucket) threads to
/// fill the device, at most one bucket per table row.
unsigned scatterBuckets(int64_t dim, int64_t numEmbeddings) {
  const int64_t wanted = int64_t(multiprocessorCount()) * 2048;
  int64_t buckets = (wanted + dim - 1) / std::max<int64_t>(dim, 1);
  buckets = std::min<int64_t>({buckets, numEmbeddings, 65535});
  return static_cast<unsigned>(std::max<int64_t>(buckets, 1));
}

/// out = acc rounded once (RNE) to T.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    storeRounded(const float *__restrict__ acc, T *__restrict__ out,
                 int64_t n) {
  AMP_GRID_STRIDE(i, n) { st(out, i, acc[i]); }
}

template <typename E, typename Id>
void launchGather(const void *table, const void *ids, void *out, int64_t nIds,
                  int64_t numEmbeddings, int64_t rowBytes,
                  DeviceErrorRecord *record, cudaStream_t stream) {
  embeddingGather<E, Id>
      <<<gridFor(nIds, 1, kWarpsPerBlock), kThreads, 0, stream>>>(
          static_cast<const E *>(table), static_cast<const Id *>(ids),
          static_cast<E *>(out), nIds, numEmbeddings,
          rowBytes / int64_t(sizeof(E)), record);
}

template <typename Id>
void launchGatherIds(int64_t width, const void *table, const void *ids,
                     void *out, int64_t nIds, int64_t numEmbeddings,
                     int64_t rowBytes, DeviceErrorRecord *record,
                     cudaStream_t stream) {
  switch (width) {
  case 2:
    return launchGather<uint16_t, Id>(table, ids, out, nIds, numEmbeddings,
                                      rowBytes, record, stream);
  case 4:
    return launchGather<uint32_t, Id>(table, ids, out, nIds, numEmbeddings,
                                      rowBytes, record, stream);
  case 8:
    return launchGather<unsigned long long, Id>(
        table, ids, out, nIds, numEmbeddings, rowBytes, record, stream);
  default:
    return launchGather<uint4, Id>(table, ids, out, nIds, numEmbeddings,
                                   rowBytes, record, stream);
  }
}

} // namespace

extern "C" {

amp_status_t amp_embedding(const void *table, const void *ids, void *out,
                           int64_t num_embeddings, int64_t dim, int64_t n_ids,
                           amp_dtype_t dtype, amp_dtype_t ids_dtype,
                           void *stream) {
  Checker check("amp_embedding");
  if (amp_status_t s = checkEmbedding(check, table, ids, out, num_embeddings,
                                      dim, n_ids, dtype, ids_dtype))
    return s;
  if (n_ids == 0)
    return AMP_STATUS_OK;
  // Launched also for dim == 0: the ids are still checked.
  DeviceErrorRecord *record = deviceErrorRecord(check);
  if (!record)
    return AMP_STATUS_BACKEND_ERROR;
  const int64_t size = amp_dtype_size(dtype), rowBytes = dim * size;
  const uintptr_t addresses =
      reinterpret_cast<uintptr_t>(table) | reinterpret_cast<uintptr_t>(out);
  int64_t width = 16;
  while (width > size && (rowBytes % width != 0 || addresses % width != 0))
    width /= 2;
  cudaStream_t st = toStream(stream);
  if (ids_dtype == AMP_DTYPE_I32)
    launchGatherIds<int32_t>(width, table, ids, out, n_ids, num_embeddings,
                             rowBytes, record, st);
  else
    launchGatherIds<int64_t>(width, table, ids, out, n_ids, num_embeddings,
                             rowBytes, record, st);
  return launched(check, "amp-embedding-gather");
}

amp_status_t amp_embedding_grad(const void *dy, const void *ids, void *dtable,
                                int64_t num_embeddings, int64_t dim,
                                int64_t n_ids, amp_dtype_t dy_dtype,
                                amp_dtype_t ids_dtype, amp_dtype_t dtable_dtype,
                                void *stream) {
  Checker check("amp_embedding_grad");
  if (amp_status_t s =
          checkEmbeddingGrad(check, dy, ids, dtable, num_embeddings, dim, n_ids,
                             dy_dtype, ids_dtype, dtable_dtype))
    return s;
  const int64_t size = num_embeddings * dim;
  if (size == 0 && n_ids == 0)
    return AMP_STATUS_OK;
  DeviceErrorRecord *record = nullptr;
  if (n_ids > 0 && !(record = deviceErrorRecord(check)))
    return AMP_STATUS_BACKEND_ERROR;
  cudaStream_t st = toStream(stream);
  // An f32 table is its own accumulator; otherwise an f32 scratch.
  float *acc = static_cast<float *>(dtable);
  void *scratch = nullptr;
  if (dtable_dtype != AMP_DTYPE_F32 && size > 0) {
    scratch = amp_alloc(size * int64_t(sizeof(float)), stream);
    if (!scratch) {
      const std::string why = kernelLastError(); // amp_alloc's message
      return check.fail(AMP_STATUS_BACKEND_ERROR, "no scratch accumulator: %s",
                        why.c_str());
    }
    acc = static_cast<float *>(scratch);
  }
  if (size > 0)
    if (cudaError_t e = cudaMemsetAsync(
            acc, 0, static_cast<size_t>(size) * sizeof(float), st)) {
      amp_free(scratch, stream);
      return cudaFailure(check, "cudaMemsetAsync", e);
    }
  if (n_ids > 0)
    dispatchFloat(dy_dtype, [&](auto t) {
      using T = decltype(t);
      // At least one block: a grid of 0 blocks (dim 0) is a launch error
      // (cudaErrorInvalidValue, seen on an H100, 2026-11-27).
      const dim3 grid(
          static_cast<unsigned>(std::clamp<int64_t>(
              (dim + kThreads - 1) / kThreads, 1, int64_t(1) << 16)),
          scatterBuckets(dim, num_embeddings));
      if (ids_dtype == AMP_DTYPE_I32)
        embeddingScatterAdd<T, int32_t><<<grid, kThreads, 0, st>>>(
            static_cast<const T *>(dy), static_cast<const int32_t *>(ids), acc,
            n_ids, num_embeddings, dim, record);
      else
        embeddingScatterAdd<T, int64_t><<<grid, kThreads, 0, st>>>(
            static_cast<const T *>(dy), static_cast<const int64_t *>(ids), acc,
            n_ids, num_embeddings, dim, record);
    });
  if (scratch)
    dispatchFloat(dtable_dtype, [&](auto t) {
      using T = decltype(t);
      storeRounded<T><<<gridFor(size), kThreads, 0, st>>>(
          acc, static_cast<T *>(dtable), size);
    });
  // Freed once queued: the caching allocator hands the block out again in
  // stream order. amp_free clears the last error, so it comes before the
  // launch check; CUDA keeps a launch error until it is read.
  if (scratch)
    amp_free(scratch, stream);
  return launched(check, "amp-embedding-grad");
}

} // extern "C"
