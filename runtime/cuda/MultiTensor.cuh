//===- MultiTensor.cuh - Kernels over many buffers in one launch ----------===//
//
// The multi-tensor launches of the optimizer and loss-scaling kernels: the
// buffers of a call are cut into chunks of kChunk elements, one chunk per
// block, and one launch covers every chunk of up to Cap buffers.
//
// The buffer table travels by value in the kernel parameters (no device
// table, no host-to-device copy, so the launch can be captured into a CUDA
// graph and the host arrays may be freed when the entry point returns). Per
// buffer it holds the pointers, the element count, the dtype, whether every
// pointer is 16-byte aligned (packed access) and the running chunk count;
// a block finds its buffer by a binary search over the running counts (a
// chunk table in prefix form: block b belongs to the first buffer whose
// running count exceeds b, at chunk b - running count of the buffer
// before). With CUDA 12.1+ and sm_70+ kernel parameters may hold 32764
// bytes, so a table holds a few hundred to a thousand buffers; a call with
// more buffers launches once per group of Cap buffers.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CUDA_MULTITENSOR_CUH
#define AMP_RUNTIME_CUDA_MULTITENSOR_CUH

#include "cuda/CudaDevice.cuh"

#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <type_traits>

namespace amp {
namespace runtime {
namespace cuda {

/// Elements per block: a multiple of every kPack<T>, so that every chunk of
/// an aligned buffer starts aligned.
constexpr int64_t kChunk = 16384;

/// The bytes of kernel parameters a launch may use.
#if CUDART_VERSION >= 12010
constexpr size_t kParamBytes = 32764;
#else
constexpr size_t kParamBytes = 4096;
#endif

/// Up to Cap buffers of K pointers each.
template <int K, int Cap> struct TensorTable {
  void *ptr[K][Cap];
  int64_t numel[Cap];
  int32_t chunkEnd[Cap]; // chunks of buffers [0, t] of this launch
  uint8_t dtype[Cap];    // an amp_dtype_t
  uint8_t packed[Cap];   // every pointer 16-byte aligned
  int32_t count;         // buffers in this launch
};

/// The largest Cap for which `Args<Cap>` (a kernel's parameter struct
/// holding a TensorTable<K, Cap> and `extra` bytes of other fields) fits.
template <int K> constexpr int tableCap(size_t extra) {
  return int((kParamBytes - extra - 64) / (8 * K + 8 + 4 + 2));
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Fills `table` (a kernel argument's field) with consecutive groups of
/// the non-empty buffers among n and calls `launch(chunks, firstBuffer,
/// firstChunk)` for each: `chunks` is the grid size, `firstBuffer` and
/// `firstChunk` count the non-empty buffers and the chunks of the groups
/// before. `ptrsOf(i, p)` fills the K pointers of buffer i; the first
/// `aligned` of them decide packed access. Returns the first failure of
/// `launch` (an amp_status_t).
template <int K, int Cap, typename PtrsOf, typename Launch>
amp_status_t forEachGroup(kernels::Checker &check, TensorTable<K, Cap> &table,
                          int32_t n, const int64_t *sizes,
                          const amp_dtype_t *dtypes, int aligned,
                          PtrsOf &&ptrsOf, Launch &&launch) {
  table.count = 0;
  int64_t chunks = 0, firstBuffer = 0, firstChunk = 0;
  auto flush = [&]() -> amp_status_t {
    if (table.count == 0)
      return AMP_STATUS_OK;
    amp_status_t s =
        launch(static_cast<unsigned>(chunks), firstBuffer, firstChunk);
    firstBuffer += table.count;
    firstChunk += chunks;
    table.count = 0;
    chunks = 0;
    return s;
  };
  for (int32_t i = 0; i < n; ++i) {
    if (sizes[i] == 0)
      continue;
    const int64_t own = (sizes[i] + kChunk - 1) / kChunk;
    if (own > INT_MAX) // 2^45 elements: more than any device holds
      return check.fail(AMP_STATUS_BACKEND_ERROR,
                        "a buffer of %lld elements exceeds one launch",
                        (long long)sizes[i]);
    if (table.count == Cap || chunks + own > INT_MAX)
      if (amp_status_t s = flush())
        return s;
    const int t = table.count++;
    void *p[K];
    ptrsOf(i, p);
    bool packed = true;
    for (int k = 0; k < K; ++k) {
      table.ptr[k][t] = p[k];
      if (k < aligned)
        packed &= reinterpret_cast<uintptr_t>(p[k]) % 16 == 0;
    }
    table.numel[t] = sizes[i];
    table.dtype[t] = static_cast<uint8_t>(dtypes[i]);
    table.packed[t] = packed;
    chunks += own;
    table.chunkEnd[t] = static_cast<int32_t>(chunks);
  }
  return flush();
}

//===----------------------------------------------------------------------===//
// Device side
//===----------------------------------------------------------------------===//

/// The part of one buffer that block blockIdx.x processes.
struct Chunk {
  int tensor;         // index in the table
  int64_t index;      // chunk index within the buffer
  int64_t begin, end; // elements [begin, end) of the buffer
};

/// Block b's chunk (a binary search over the running chunk counts).
template <int K, int Cap>
__host__ __device__ __forceinline__ Chunk
locateChunk(const TensorTable<K, Cap> &t, int32_t b) {
  int lo = 0, hi = t.count - 1; // the first buffer with chunkEnd > b
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (t.chunkEnd[mid] > b)
      hi = mid;
    else
      lo = mid + 1;
  }
  Chunk c;
  c.tensor = lo;
  c.index = b - (lo > 0 ? t.chunkEnd[lo - 1] : 0);
  c.begin = c.index * kChunk;
  c.end = c.begin + kChunk < t.numel[lo] ? c.begin + kChunk : t.numel[lo];
  return c;
}

template <int K, int Cap>
__device__ __forceinline__ Chunk locateChunk(const TensorTable<K, Cap> &t) {
  return locateChunk(t, static_cast<int32_t>(blockIdx.x));
}

/// Calls f(T{}) with T the storage type of a float dtype.
template <typename F>
__device__ __forceinline__ void withStorage(uint8_t dtype, F &&f) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    f(Half{});
    break;
  case AMP_DTYPE_BF16:
    f(BFloat16{});
    break;
  default:
    f(float{});
    break;
  }
}

/// For the elements [begin, end) of a chunk, spread over the block: x[a] =
/// in[a][i] widened to f32, f(x, y), out[o][i] = y[o] rounded once. With
/// `packed` (every pointer 16-byte aligned, begin a multiple of kPack<T>)
/// each thread moves 128 bits per operand at a time. An output may be one
/// of the inputs (each element is read before it is written, by the same
/// thread).
template <typename T, int NI, int NO, typename F>
__device__ __forceinline__ void mapChunk(const T *const (&in)[NI],
                                         T *const (&out)[NO], int64_t begin,
                                         int64_t end, bool packed, F &&f) {
  constexpr int P = kPack<T>;
  int64_t rest = begin;
  if (packed) {
    const int64_t packs = (end - begin) / P;
    for (int64_t k = threadIdx.x; k < packs; k += blockDim.x) {
      const int64_t e = begin + k * P;
      Pack<T> x[NI], y[NO];
#pragma unroll
      for (int a = 0; a < NI; ++a)
        x[a] = *reinterpret_cast<const Pack<T> *>(in[a] + e);
#pragma unroll
      for (int j = 0; j < P; ++j) {
        float xs[NI], ys[NO];
#pragma unroll
        for (int a = 0; a < NI; ++a)
          xs[a] = toFloat(x[a].v[j]);
        f(xs, ys);
#pragma unroll
        for (int o = 0; o < NO; ++o)
          y[o].v[j] = fromFloat<T>(ys[o]);
      }
#pragma unroll
      for (int o = 0; o < NO; ++o)
        *reinterpret_cast<Pack<T> *>(out[o] + e) = y[o];
    }
    rest = begin + packs * P;
  }
  for (int64_t e = rest + threadIdx.x; e < end; e += blockDim.x) {
    float xs[NI], ys[NO];
#pragma unroll
    for (int a = 0; a < NI; ++a)
      xs[a] = ld(in[a], e);
    f(xs, ys);
#pragma unroll
    for (int o = 0; o < NO; ++o)
      st(out[o], e, ys[o]);
  }
}

/// out[begin, end) = in[begin, end) bitwise (nothing when out == in): the
/// outputs of a skipped optimizer step.
template <typename T>
__device__ __forceinline__ void copyChunk(const T *in, T *out, int64_t begin,
                                          int64_t end, bool packed) {
  if (in == out)
    return;
  constexpr int P = kPack<T>;
  int64_t rest = begin;
  if (packed) {
    const int64_t packs = (end - begin) / P;
    for (int64_t k = threadIdx.x; k < packs; k += blockDim.x)
      reinterpret_cast<uint4 *>(out + begin)[k] =
          reinterpret_cast<const uint4 *>(in + begin)[k];
    rest = begin + packs * P;
  }
  // The bits, as integers (a float move would keep them too).
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
  for (int64_t e = rest + threadIdx.x; e < end; e += blockDim.x)
    reinterpret_cast<Bits *>(out)[e] = reinterpret_cast<const Bits *>(in)[e];
}

/// Whether a widened f32 value is NaN or +-inf: exactly when the stored
/// f32/f16/bf16 value has an all-ones exponent.
__device__ __forceinline__ bool nonFinite(float v) {
  return (__float_as_uint(v) & 0x7f800000u) == 0x7f800000u;
}

/// Whether amp.skip_step_if's predicate (read on the device) says skip:
/// the optimizer kernels then copy their inputs' bits to the outputs.
__device__ __forceinline__ bool skipStep(const int8_t *foundInf) {
  return foundInf && *foundInf != 0;
}

} // namespace cuda
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_CUDA_MULTITENSOR_CUH
