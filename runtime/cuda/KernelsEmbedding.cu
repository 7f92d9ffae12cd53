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
//  - Gradient: the rows of dy are grouped by id with a stable radix sort
//    of (id, row) pairs (CUB), and each element of each table row is the
//    f32 sum of its id's dy rows in ascending row order (each divided by
//    the id's count when scaled by frequency; the padding id's rows sorted
//    away with the invalid ones), written by one
//    thread (no atomics; see embeddingSegmentSum) into dtable (f32) or an
//    f32 scratch from amp_alloc that is then rounded once into dtable's
//    dtype. Table rows no id names are zeros (cudaMemsetAsync). Bitwise the
//    reference's, and deterministic, so a step replayed from a CUDA graph
//    gives the uncaptured step's bits. (The first version had each thread
//    walk every id: 3.0 ms of the BERT-layer step's 7.8 ms of kernels on an
//    H200, 2026-12-04.)
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "reference/EmbeddingChecks.h"

#include <cub/device/device_radix_sort.cuh>

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

/// The sort keys of the gradient: key[row] = ids[row], or numEmbeddings
/// (sorted after every valid id, and never summed) for paddingIdx and for
/// an id out of range, which is reported; row[row] = row. With keys ==
/// nullptr (dim 0) it only checks the ids.
template <typename Id>
__global__ void __launch_bounds__(kThreads)
    embeddingGradKeys(const Id *__restrict__ ids, uint64_t *__restrict__ keys,
                      int64_t *__restrict__ rows, int64_t nIds,
                      int64_t numEmbeddings, int64_t paddingIdx,
                      DeviceErrorRecord *record) {
  AMP_GRID_STRIDE(row, nIds) {
    const int64_t id = ids[row];
    const bool valid = id >= 0 && id < numEmbeddings;
    if (!valid)
      reportDeviceError(record, DeviceError::IdOutOfRangeGrad, id, row,
                        numEmbeddings);
    if (keys) {
      keys[row] = uint64_t(valid && id != paddingIdx ? id : numEmbeddings);
      rows[row] = row;
    }
  }
}

/// begin[id] = the first position of id among the sorted keys (for id in
/// [0, numEmbeddings]: begin[numEmbeddings] ends the last valid id).
__global__ void __launch_bounds__(kThreads)
    embeddingSegmentBegin(const uint64_t *__restrict__ sorted, int64_t nIds,
                          int64_t numEmbeddings, int64_t *__restrict__ begin) {
  AMP_GRID_STRIDE(id, numEmbeddings + 1) {
    int64_t lo = 0, hi = nIds;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (sorted[mid] < uint64_t(id))
        lo = mid + 1;
      else
        hi = mid;
    }
    begin[id] = lo;
  }
}

/// acc[id, k] = the f32 sum of dy[row, k] over the rows of id, in
/// ascending row order (the stable sort kept it), each divided by the
/// id's count (last - first) when `scaled`: the reference's adds into a
/// zeroed table, bitwise. One thread per element; consecutive threads take
/// consecutive k, so each dy row is read coalesced. Rows no id names keep
/// the zeros of the memset.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    embeddingSegmentSum(const T *__restrict__ dy,
                        const int64_t *__restrict__ rows,
                        const int64_t *__restrict__ begin,
                        float *__restrict__ acc, int64_t numEmbeddings,
                        int64_t dim, bool scaled) {
  AMP_GRID_STRIDE(i, numEmbeddings * dim) {
    const int64_t id = i / dim, k = i - id * dim;
    const int64_t first = begin[id], last = begin[id + 1];
    if (first == last)
      continue;
    const float by = scaled ? float(last - first) : 1.0f;
    float sum = 0.0f;
    for (int64_t j = first; j < last; ++j)
      sum += ld(dy, rows[j] * dim + k) / by;
    acc[i] = sum;
  }
}

/// Bits of the sort keys: enough for numEmbeddings, the largest key.
int keyBits(int64_t numEmbeddings) {
  int bits = 1;
  while (bits < 63 && (uint64_t(1) << bits) <= uint64_t(numEmbeddings))
    ++bits;
  return bits;
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

/// acc (zeroed, numEmbeddings x dim, f32) += the rows of dy grouped by
/// id, as the reference adds them (divided by the ids' counts when
/// `scaled`), but for paddingIdx's; checks the ids (an
/// id out of range is reported and skipped). Queues the work on `stream` with
/// one scratch block from amp_alloc: keys and rows (before and after the sort),
/// the segment starts, CUB's temporary storage.
amp_status_t sumRowsById(Checker &check, const void *dy, const void *ids,
                         float *acc, int64_t numEmbeddings, int64_t dim,
                         int64_t nIds, int64_t paddingIdx, bool scaled,
                         amp_dtype_t dyDtype, amp_dtype_t idsDtype,
                         DeviceErrorRecord *record, void *stream) {
  const cudaStream_t st = toStream(stream);
  auto launchKeys = [&](uint64_t *keys, int64_t *rows) {
    if (idsDtype == AMP_DTYPE_I32)
      embeddingGradKeys<int32_t><<<gridFor(nIds), kThreads, 0, st>>>(
          static_cast<const int32_t *>(ids), keys, rows, nIds, numEmbeddings,
          paddingIdx, record);
    else
      embeddingGradKeys<int64_t><<<gridFor(nIds), kThreads, 0, st>>>(
          static_cast<const int64_t *>(ids), keys, rows, nIds, numEmbeddings,
          paddingIdx, record);
  };
  if (numEmbeddings * dim == 0) { // nothing to add; the ids are still checked
    launchKeys(nullptr, nullptr);
    return AMP_STATUS_OK;
  }
  const int bits = keyBits(numEmbeddings);
  uint64_t *keysIn = nullptr, *keysOut = nullptr;
  int64_t *rowsIn = nullptr, *rowsOut = nullptr;
  size_t cubBytes = 0;
  if (cudaError_t e =
          cub::DeviceRadixSort::SortPairs(nullptr, cubBytes, keysIn, keysOut,
                                          rowsIn, rowsOut, nIds, 0, bits, st))
    return cudaFailure(check, "cub::DeviceRadixSort::SortPairs (sizing)", e);
  // The scratch block: four arrays of nIds, numEmbeddings + 1 starts,
  // CUB's bytes, each part 256-byte aligned.
  auto rounded = [](int64_t bytes) { return (bytes + 255) / 256 * 256; };
  const int64_t idsBytes = rounded(nIds * 8),
                beginBytes = rounded((numEmbeddings + 1) * 8);
  char *block = static_cast<char *>(amp_alloc(
      4 * idsBytes + beginBytes + rounded(int64_t(cubBytes)), stream));
  if (!block) {
    const std::string why = kernelLastError(); // amp_alloc's message
    return check.fail(AMP_STATUS_BACKEND_ERROR, "no scratch for the sort: %s",
                      why.c_str());
  }
  keysIn = reinterpret_cast<uint64_t *>(block);
  keysOut = reinterpret_cast<uint64_t *>(block + idsBytes);
  rowsIn = reinterpret_cast<int64_t *>(block + 2 * idsBytes);
  rowsOut = reinterpret_cast<int64_t *>(block + 3 * idsBytes);
  int64_t *begin = reinterpret_cast<int64_t *>(block + 4 * idsBytes);
  void *cubTemp = block + 4 * idsBytes + beginBytes;
  launchKeys(keysIn, rowsIn);
  // Stable: the rows of one id stay in ascending order.
  cudaError_t e = cub::DeviceRadixSort::SortPairs(
      cubTemp, cubBytes, keysIn, keysOut, rowsIn, rowsOut, nIds, 0, bits, st);
  if (!e) {
    embeddingSegmentBegin<<<gridFor(numEmbeddings + 1), kThreads, 0, st>>>(
        keysOut, nIds, numEmbeddings, begin);
    dispatchFloat(dyDtype, [&](auto t) {
      using T = decltype(t);
      embeddingSegmentSum<T><<<gridFor(numEmbeddings * dim), kThreads, 0, st>>>(
          static_cast<const T *>(dy), rowsOut, begin, acc, numEmbeddings, dim,
          scaled);
    });
  }
  // Freed once queued, as the accumulator scratch (stream-ordered reuse).
  amp_free(block, stream);
  if (e)
    return cudaFailure(check, "cub::DeviceRadixSort::SortPairs", e);
  return AMP_STATUS_OK;
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
                                int64_t n_ids, int64_t padding_idx,
                                int32_t scale_grad_by_freq,
                                amp_dtype_t dy_dtype, amp_dtype_t ids_dtype,
                                amp_dtype_t dtable_dtype, void *stream) {
  Checker check("amp_embedding_grad");
  if (amp_status_t s =
          checkEmbeddingGrad(check, dy, ids, dtable, num_embeddings, dim, n_ids,
                             padding_idx, dy_dtype, ids_dtype, dtable_dtype))
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
  if (n_ids > 0) {
    if (amp_status_t s = sumRowsById(
            check, dy, ids, acc, num_embeddings, dim, n_ids, padding_idx,
            scale_grad_by_freq != 0, dy_dtype, ids_dtype, record, stream)) {
      amp_free(scratch, stream);
      return s;
    }
  }
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
