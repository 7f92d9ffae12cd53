//===- KernelCommon.h - Shared pieces of the reference kernels ------------===//
//
// What every reference kernel of amp_runtime/kernels.h needs: the
// thread-local last error, argument checks with uniform messages, the
// f32 <-> storage conversions and the dtype dispatch, and a strided loop
// nest over up to three operands (broadcasting, transposes, reductions).
// Host-only C++, private to libamp_runtime_ref.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_KERNELCOMMON_H
#define AMP_RUNTIME_REFERENCE_KERNELCOMMON_H

#include "amp_runtime/float16.h"
#include "amp_runtime/kernels.h"

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <optional>
#include <type_traits>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace amp {
namespace runtime {
namespace kernels {

constexpr int kMaxRank = AMP_KERNEL_MAX_RANK;

//===----------------------------------------------------------------------===//
// Element storage
//===----------------------------------------------------------------------===//

// toF32 / fromF32 (exact widening, RNE narrowing) come from float16.h.

//===----------------------------------------------------------------------===//
// Loops over independent elements
//===----------------------------------------------------------------------===//

/// Runs body(i) for i in [0, n), where no iteration reads what another
/// writes. The reference backend is built without OpenMP and runs the loop
/// as written; the cpu backend compiles the same kernels with OpenMP and
/// splits loops of at least kParallelGrain iterations over its threads.
/// Each element is computed the same way either way, so results do not
/// depend on the backend or the thread count.
constexpr int64_t kParallelGrain = 1 << 15;

template <typename Body> inline void parallelFor(int64_t n, Body &&body) {
#ifdef _OPENMP
  // simd: no iteration depends on another (an output may be its own
  // input, element for element), so the loop vectorizes even where the
  // compiler cannot prove the pointers apart.
  if (n >= kParallelGrain) {
#pragma omp parallel
    {
      // A copy per thread: what the body captured by value (coefficients)
      // is then a local the compiler keeps in registers. Reached through
      // the outlined region's pointer, a float field could alias the
      // body's float stores and would be reloaded every iteration.
      std::remove_reference_t<Body> local(body);
#pragma omp for simd schedule(static)
      for (int64_t i = 0; i < n; ++i)
        local(i);
    }
    return;
  }
#pragma omp simd
  for (int64_t i = 0; i < n; ++i)
    body(i);
#else
  for (int64_t i = 0; i < n; ++i)
    body(i);
#endif
}

/// Runs body(begin, end) on contiguous ranges that split [0, n), one per
/// thread on the cpu backend when the loop has at least kParallelGrain
/// elements of work (n items of `work` each), else body(0, n) (nothing
/// when n is 0): for loops over rows whose bodies keep scratch buffers per
/// range.
template <typename Body>
inline void parallelRanges(int64_t n, int64_t work, Body &&body) {
  if (n <= 0)
    return; // no body: no scratch for a loop with nothing to do
#ifdef _OPENMP
  if (n > 1 && n * work >= kParallelGrain) {
#pragma omp parallel
    {
      const int64_t threads = omp_get_num_threads();
      const int64_t t = omp_get_thread_num();
      const int64_t begin = n * t / threads, end = n * (t + 1) / threads;
      if (begin < end)
        body(begin, end);
    }
    return;
  }
#endif
  body(int64_t{0}, n);
}

/// Runs body(begin, end) over [0, n) in runs of `chunk` elements, the runs
/// in parallel where parallelFor would split the loop: for bodies that
/// convert or copy a run at a time.
template <typename Body>
inline void parallelChunks(int64_t n, int64_t chunk, Body &&body) {
  const int64_t chunks = (n + chunk - 1) / chunk;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n >= kParallelGrain)
#endif
  for (int64_t c = 0; c < chunks; ++c)
    body(c * chunk, c + 1 < chunks ? (c + 1) * chunk : n);
}

/// Calls `f(T{})` with T the storage type of the float dtype `dtype`, which
/// the caller has checked.
template <typename F> inline void dispatchFloat(amp_dtype_t dtype, F &&f) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    f(Half{});
    return;
  case AMP_DTYPE_BF16:
    f(BFloat16{});
    return;
  default:
    f(float{});
    return;
  }
}

/// Calls `f(T{})` with T the storage type of the float, i32 or i64 dtype
/// `dtype`, which the caller has checked: the arithmetic kernels that take
/// integers too (amp_binary, amp_cumsum).
template <typename F> inline void dispatchNumeric(amp_dtype_t dtype, F &&f) {
  switch (dtype) {
  case AMP_DTYPE_I32:
    f(int32_t{});
    return;
  case AMP_DTYPE_I64:
    f(int64_t{});
    return;
  default:
    dispatchFloat(dtype, static_cast<F &&>(f));
    return;
  }
}

/// Calls `f(T{})` with T the storage type of the dtype `dtype` (any dtype,
/// which the caller has checked): float, Half, BFloat16, int32_t, int64_t,
/// and uint8_t for bool (one byte, nonzero is true). For the kernels whose
/// result depends on the element values of any dtype (casts, comparisons).
template <typename F> inline void dispatchAny(amp_dtype_t dtype, F &&f) {
  if (dtype == AMP_DTYPE_BOOL)
    f(uint8_t{});
  else
    dispatchNumeric(dtype, static_cast<F &&>(f));
}

/// Calls `f(U{})` with U the unsigned integer type of the dtype's size: the
/// data-movement kernels copy bit patterns of any dtype.
template <typename F> inline void dispatchBits(amp_dtype_t dtype, F &&f) {
  switch (amp_dtype_size(dtype)) {
  case 1:
    f(uint8_t{});
    return;
  case 2:
    f(uint16_t{});
    return;
  case 8:
    f(uint64_t{});
    return;
  default:
    f(uint32_t{});
    return;
  }
}

/// y[0, n) = RNE(value) in the float storage type T.
template <typename T> inline void fillWith(void *y, int64_t n, float value) {
  const T v = fromF32<T>(value);
  T *out = static_cast<T *>(y);
  for (int64_t i = 0; i < n; ++i)
    out[i] = v;
}

/// max(acc, v) with NaN winning (once acc is NaN it stays NaN) and acc kept
/// on ties: nn.reduce_max, nn.max_pool2d and nn.maximum (acc = lhs).
inline float maxNaN(float acc, float v) {
  return (v > acc || v != v) ? v : acc;
}

/// The same for the minimum.
inline float minNaN(float acc, float v) {
  return (v < acc || v != v) ? v : acc;
}

/// Reads element i of an i32 or i64 index buffer.
inline int64_t loadIndex(const void *ids, amp_dtype_t dtype, int64_t i) {
  if (dtype == AMP_DTYPE_I32)
    return static_cast<const int32_t *>(ids)[i];
  return static_cast<const int64_t *>(ids)[i];
}

//===----------------------------------------------------------------------===//
// Errors and argument checks
//===----------------------------------------------------------------------===//

/// Sets of dtypes a check accepts.
enum DtypeSet : unsigned {
  kFloatDtypes =
      (1u << AMP_DTYPE_F32) | (1u << AMP_DTYPE_F16) | (1u << AMP_DTYPE_BF16),
  kIndexDtypes = (1u << AMP_DTYPE_I32) | (1u << AMP_DTYPE_I64),
  kBoolDtype = 1u << AMP_DTYPE_BOOL,
  kNumericDtypes = kFloatDtypes | kIndexDtypes,
  kAnyDtype = kFloatDtypes | kIndexDtypes | kBoolDtype,
};

/// Whether the (checked, known) dtype is one of `set`.
inline bool inDtypeSet(amp_dtype_t dtype, unsigned set) {
  return (set >> static_cast<unsigned>(dtype)) & 1u;
}

/// The raw 32-bit value of an ABI enum argument. Callers may pass any value;
/// reading one outside the enumerators through the enum type is undefined in
/// C++ (and trips UBSan), so checks read the bits.
template <typename Enum> inline int32_t rawEnum(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "ABI enums are 32-bit");
  int32_t raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

/// The calling thread's last error ("" if none).
const char *kernelLastError();

/// One tensor argument of a pointer check.
struct Operand {
  const char *name;
  const void *ptr;
  int64_t numel;
  amp_dtype_t dtype;
};

/// One shape argument of a broadcast check (already checked by shape()).
struct ShapeRef {
  const char *name;
  const int64_t *dims;
  int32_t rank;
};

/// The geometry of a 2-D sliding window over an H x W input (nn.conv2d and
/// the pools).
struct Window2d {
  int64_t kh, kw;         // kernel extent
  int64_t sh, sw;         // strides
  int64_t dh, dw;         // dilation
  int64_t pt, pl, pb, pr; // padding: top, left, bottom, right
  int64_t oh, ow;         // output extent
};

/// The argument checks of one entry point. Constructing it clears the
/// thread's last error; every check returns AMP_STATUS_OK or records a
/// message prefixed with the function name and returns the failure, so that
/// callers write `if (amp_status_t s = check.xxx(...)) return s;`.
class Checker {
public:
  explicit Checker(const char *function);

  /// Records a printf-style message and returns `status`.
  amp_status_t fail(amp_status_t status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
      __attribute__((format(printf, 3, 4)))
#endif
      ;

  /// A known dtype in `allowed` (unknown: INVALID_ARGUMENT; known but not
  /// allowed: NOT_SUPPORTED).
  amp_status_t dtype(const char *name, amp_dtype_t dtype, unsigned allowed);

  /// out is a known float dtype, and `in` or f32 (the accumulating ops'
  /// rule): NOT_SUPPORTED if not.
  amp_status_t accumulatorDtype(const char *outName, amp_dtype_t out,
                                amp_dtype_t in);

  /// A count >= 0.
  amp_status_t count(const char *name, int64_t n);

  /// An allocation's size: bytes in [0, max] (max leaves room for the
  /// allocator's rounding).
  amp_status_t allocation(int64_t bytes, int64_t max = INT64_MAX);

  /// rank in [0, kMaxRank], dims non-NULL when rank > 0, every dim >= 0, and
  /// the element count (stored in *numel) below 2^60, the product of the
  /// non-zero dims of a zero-size shape too (amp_runtime/checked_size.h), so
  /// that no stride of product() or contiguousStrides() overflows.
  amp_status_t shape(const char *name, const int64_t *dims, int32_t rank,
                     int64_t *numel);

  /// Non-NULL when it has elements, and aligned to the element size.
  amp_status_t pointer(const char *name, const void *ptr, int64_t numel,
                       amp_dtype_t dtype);

  /// pointer() for each operand in turn.
  amp_status_t pointers(std::initializer_list<Operand> operands);

  /// Every one of the n i32/i64 indices (ids, labels) is in [0, bound) or
  /// equals `skip` (a cross-entropy's ignore_index); `what` names one of
  /// them in the message ("id 7 at position 3 ..."). `*inRange`, when
  /// given, counts those in [0, bound).
  amp_status_t indices(const char *what, const void *ids, amp_dtype_t dtype,
                       int64_t n, int64_t bound,
                       std::optional<int64_t> skip = std::nullopt,
                       int64_t *inRange = nullptr);

  /// The arrays of a multi-buffer call (n >= 0 buffers; every array
  /// non-NULL when n > 0): each size is a count, each dtype a float dtype,
  /// and in[i] and out[i] are valid pointers for them.
  amp_status_t bufferList(int32_t n, const void *const *in, void *const *out,
                          const int64_t *sizes, const amp_dtype_t *dtypes);

  /// An axis in [-rank, rank), normalized into *axisOut.
  amp_status_t axis(const char *name, int64_t axis, int32_t rank,
                    int32_t *axisOut);

  /// `out` is exactly the numpy broadcast of the operands' shapes (trailing
  /// dimensions aligned, each one 1 or the common size).
  amp_status_t broadcastResult(std::initializer_list<ShapeRef> operands,
                               ShapeRef out);

  /// `operand` broadcasts to `out` (numpy rules, one direction).
  amp_status_t broadcastsTo(ShapeRef operand, ShapeRef out);

  /// The window of a kh x kw kernel over an h x w input: strides and
  /// dilation in [1, 2^30], padding in [0, 2^30] (NULL: 1, 0, 1), the
  /// dilated kernel within the padded input; computes the output extent.
  amp_status_t window2d(int64_t h, int64_t w, int64_t kh, int64_t kw,
                        const int64_t *strides, const int64_t *padding,
                        const int64_t *dilation, Window2d *out);

  /// amp_memcpy's arguments: bytes >= 0, and unless there is nothing to
  /// copy (*nothing: 0 bytes, or dst == src) non-NULL pointers whose ranges
  /// do not partially overlap.
  amp_status_t copy(void *dst, const void *src, int64_t bytes, bool *nothing);

  /// amp_memset's arguments: bytes >= 0, a byte value, dst non-NULL unless
  /// bytes is 0.
  amp_status_t memset(const void *dst, int32_t value, int64_t bytes);

  const char *function() const { return fn; }

private:
  const char *fn;
};

/// Runs the part of a kernel that allocates scratch memory. No exception
/// may cross the C ABI, so running out of host memory becomes
/// AMP_STATUS_BACKEND_ERROR.
template <typename Body> amp_status_t guarded(Checker &check, Body &&body) {
  try {
    body();
  } catch (const std::bad_alloc &) {
    return check.fail(AMP_STATUS_BACKEND_ERROR,
                      "out of memory for the kernel's scratch buffers");
  }
  return AMP_STATUS_OK;
}

/// Product of dims[begin, end).
inline int64_t product(const int64_t *dims, int begin, int end) {
  int64_t p = 1;
  for (int i = begin; i < end; ++i)
    p *= dims[i];
  return p;
}

//===----------------------------------------------------------------------===//
// Strided loop nests
//===----------------------------------------------------------------------===//

/// A row-major loop nest over `dims` with up to K operands, each with its
/// own element strides (0 for a broadcast dimension). simplify() drops
/// size-1 dimensions and merges adjacent ones that are contiguous for every
/// operand, without changing the order of the visited elements.
template <int K> struct StridedLoop {
  int rank = 0;
  int64_t dims[kMaxRank] = {};
  int64_t strides[K][kMaxRank] = {};

  void simplify() {
    int out = 0;
    for (int i = 0; i < rank; ++i) {
      if (dims[i] == 1)
        continue;
      if (out > 0) {
        bool mergeable = true;
        for (int k = 0; k < K; ++k)
          mergeable &= strides[k][out - 1] == strides[k][i] * dims[i];
        if (mergeable) {
          dims[out - 1] *= dims[i];
          for (int k = 0; k < K; ++k)
            strides[k][out - 1] = strides[k][i];
          continue;
        }
      }
      dims[out] = dims[i];
      for (int k = 0; k < K; ++k)
        strides[k][out] = strides[k][i];
      ++out;
    }
    rank = out;
  }

  /// Calls body(offsets, innerLength, innerStrides) once per innermost row,
  /// in row-major order; offsets[k] is operand k's element offset of the
  /// row's first element.
  template <typename Body> void run(Body &&body) const {
    for (int i = 0; i < rank; ++i)
      if (dims[i] == 0)
        return;
    int64_t offsets[K] = {};
    int64_t inner[K] = {};
    if (rank == 0) {
      body(offsets, int64_t{1}, inner);
      return;
    }
    for (int k = 0; k < K; ++k)
      inner[k] = strides[k][rank - 1];
    const int64_t length = dims[rank - 1];
    int64_t index[kMaxRank] = {};
    while (true) {
      body(offsets, length, inner);
      int d = rank - 2;
      for (; d >= 0; --d) {
        for (int k = 0; k < K; ++k)
          offsets[k] += strides[k][d];
        if (++index[d] < dims[d])
          break;
        for (int k = 0; k < K; ++k)
          offsets[k] -= strides[k][d] * dims[d];
        index[d] = 0;
      }
      if (d < 0)
        return;
    }
  }
};

/// Runs body(part, offsets) over pieces of `loop` that split its dimension
/// `dim` into contiguous ranges (parallelRanges: in parallel on the cpu
/// backend when the loop has at least kParallelGrain elements, else one
/// piece, the whole loop): `part` is the loop over one range, offsets[k]
/// operand k's element offset of the range's first element. Within a piece
/// the elements run in the whole loop's order, so an operand whose stride
/// along `dim` is non-zero sees each of its elements written by one piece
/// in the same order as by the whole loop, whatever the thread count.
template <int K, typename Body>
inline void parallelSplit(const StridedLoop<K> &loop, int dim, int64_t total,
                          Body &&body) {
  const int64_t n = loop.dims[dim];
  parallelRanges(n, n > 0 ? total / n : 0, [&](int64_t begin, int64_t end) {
    StridedLoop<K> part = loop;
    part.dims[dim] = end - begin;
    int64_t offsets[K];
    for (int k = 0; k < K; ++k)
      offsets[k] = begin * loop.strides[k][dim];
    body(part, offsets);
  });
}

/// Row-major strides of `dims` (in elements).
inline void contiguousStrides(const int64_t *dims, int rank, int64_t *out) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; --i) {
    out[i] = s;
    s *= dims[i];
  }
}

/// Strides of an operand of shape `dims` (rank <= outRank) broadcast to an
/// outRank-dimensional result: trailing dimensions aligned, 0 where the
/// operand's dim is 1 or missing.
inline void broadcastStrides(const int64_t *dims, int rank, int outRank,
                             int64_t *out) {
  int64_t own[kMaxRank];
  contiguousStrides(dims, rank, own);
  int lead = outRank - rank;
  for (int i = 0; i < outRank; ++i)
    out[i] = i < lead || dims[i - lead] == 1 ? 0 : own[i - lead];
}

/// The simplified loop nest over a contiguous result of shape `dims`
/// (operand 0) with operand k + 1 the k-th shape broadcast to it.
template <int K>
StridedLoop<K> broadcastLoop(const int64_t *dims, int32_t rank,
                             std::initializer_list<ShapeRef> operands) {
  StridedLoop<K> loop;
  loop.rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    loop.dims[i] = dims[i];
  contiguousStrides(dims, rank, loop.strides[0]);
  int k = 1;
  for (const ShapeRef &o : operands)
    broadcastStrides(o.dims, o.rank, rank, loop.strides[k++]);
  loop.simplify();
  return loop;
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_KERNELCOMMON_H
