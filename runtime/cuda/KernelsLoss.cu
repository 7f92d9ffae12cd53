//===- KernelsLoss.cu - Cross-entropy, elementwise losses on the GPU ------===//
//
// amp_cross_entropy, amp_cross_entropy_grad, amp_elementwise_loss and
// amp_elementwise_loss_grad on the CUDA backend.
//
// Cross-entropy: a warp (fewer than 1024 classes) or a 256-thread block per
// row. Each thread keeps an online max and sum of exp(x - max) over its
// elements (one pass over the row, 128-bit loads when rows are aligned);
// the group merges them in a fixed order. The loss writes each row's loss
// to scratch and a one-block kernel adds them in a fixed order and divides
// by the row count (deterministic, no atomics); the gradient rereads its
// row and writes (g / rows) * (softmax - target). With label smoothing, the
// loss kernel also sums m - x over each row (a second pass, one more group
// reduction) and the target is the smoothed one (LossMath.h). With an
// ignore_index, a one-block kernel first counts the kept rows (those whose
// label is not it) into scratch, the mean and the gradient divide by that
// count, and an ignored row's loss is 0 and its gradient zeros. A label out
// of range is recorded on the device (amp_synchronize reports it) and its
// row is left alone; no logit is read at it.
//
// Elementwise losses (MSE, L1, Huber, BCE with logits): a grid-stride sum of
// the loss terms with one f32 partial per block, added
// by the same one-block kernel; the gradient is elementwise (LossMath.h's
// formula, bitwise the reference's).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaCommon.h"
#include "cuda/CudaDevice.cuh"
#include "cuda/ReduceCommon.cuh"
#include "reference/LossChecks.h"
#include "reference/LossMath.h"

#include <algorithm>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

constexpr int kBlock = 256;
constexpr int kFinalBlock = 1024;
constexpr float kInf = __builtin_huge_valf();

/// A 0-d scalar of a float dtype, widened to f32.
__device__ __forceinline__ float loadScalar(const void *p, amp_dtype_t dtype) {
  switch (dtype) {
  case AMP_DTYPE_F16:
    return ld(static_cast<const Half *>(p), 0);
  case AMP_DTYPE_BF16:
    return ld(static_cast<const BFloat16 *>(p), 0);
  default:
    return ld(static_cast<const float *>(p), 0);
  }
}

/// *out = (the sum of parts[0, count) in a fixed order) / divisor, or /
/// *deviceDivisor when that is not null.
__global__ void __launch_bounds__(kFinalBlock)
    sumAndDivide(const float *parts, int64_t count, float divisor,
                 const float *deviceDivisor, float *out) {
  __shared__ float scratch[32];
  float sum = 0.0f;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x)
    sum += parts[i];
  sum = blockSum(sum, scratch);
  if (threadIdx.x == 0)
    *out = sum / (deviceDivisor ? *deviceDivisor : divisor);
}

/// *out = the count of labels[0, rows) that are not ignoreIndex, as f32 (the
/// reference's static_cast<float>(kept)); one block of kFinalBlock threads.
template <typename L>
__global__ void __launch_bounds__(kFinalBlock)
    countKept(const L *labels, int64_t rows, int64_t ignoreIndex, float *out) {
  __shared__ long long counts[kFinalBlock];
  long long n = 0;
  for (int64_t r = threadIdx.x; r < rows; r += blockDim.x)
    n += static_cast<int64_t>(labels[r]) != ignoreIndex;
  counts[threadIdx.x] = n;
  __syncthreads();
  for (int half = kFinalBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      counts[threadIdx.x] += counts[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = static_cast<float>(counts[0]);
}

/// Launches countKept on labels of `dtype` (i32 or i64).
void launchCountKept(const void *labels, amp_dtype_t dtype, int64_t rows,
                     int64_t ignoreIndex, float *out, cudaStream_t stream) {
  if (dtype == AMP_DTYPE_I32)
    countKept<<<1, kFinalBlock, 0, stream>>>(
        static_cast<const int32_t *>(labels), rows, ignoreIndex, out);
  else
    countKept<<<1, kFinalBlock, 0, stream>>>(
        static_cast<const int64_t *>(labels), rows, ignoreIndex, out);
}

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

/// A row's running max m and sum s of exp(x - m). -inf elements add
/// nothing (exp(-inf - m) = 0 in the reference) and are left out, so that
/// a -inf before the first finite element does not make s NaN; rows whose
/// max is infinite are NaN at the end, as the reference's exp(inf - inf).
struct RowStats {
  float m, s;
};

__device__ __forceinline__ RowStats addLogit(RowStats a, float v) {
  if (v == -kInf)
    return a;
  if (v > a.m) {
    a.s = a.s * expf(a.m - v) + 1.0f; // a.m = -inf: 0 * 0 + 1
    a.m = v;
  } else {
    a.s += expf(v - a.m); // NaN v: NaN
  }
  return a;
}

struct StatsOp {
  using Acc = RowStats;
  static __device__ __forceinline__ Acc identity() { return {-kInf, 0.0f}; }
  static __device__ __forceinline__ float rescale(Acc a, float m) {
    return a.m == -kInf ? a.s : a.s * expf(a.m - m); // a.s: 0 or NaN
  }
  static __device__ __forceinline__ Acc combine(Acc a, Acc b) {
    const float m = fmaxf(a.m, b.m);
    return {m, rescale(a, m) + rescale(b, m)};
  }
  static __device__ __forceinline__ Acc shuffle(Acc a, int offset) {
    return {__shfl_xor_sync(0xffffffffu, a.m, offset),
            __shfl_xor_sync(0xffffffffu, a.s, offset)};
  }
};

struct CeArgs {
  const void *logits, *labels;
  void *out; // row losses (f32) or dlogits
  int64_t rows, classes;
  int group;   // threads per row: 1, 32 or blockDim.x (groupFor)
  bool vector; // 128-bit access: classes % kPack == 0, buffers aligned
  const void *gradLoss;
  amp_dtype_t gradLossDtype;
  float rowsF; // f32(rows)
  // The label of ignored rows (AMP_IGNORE_NONE: none), and the f32 count of
  // kept rows on the device, which the gradient divides by (null: rowsF).
  int64_t ignoreIndex;
  const float *kept;
  // Label smoothing: its raw value (0: none) and its scalars.
  float labelSmoothing;
  LabelSmoothing smoothing;
  DeviceErrorRecord *record;
  DeviceError labelError; // which entry point found a bad label
};

/// The row's max and sum over the group, in every thread of it.
template <typename T>
__device__ __forceinline__ RowStats rowStats(const T *x, const CeArgs &a,
                                             int lane, RowStats *scratch) {
  RowStats acc = StatsOp::identity();
  if (a.vector) {
    constexpr int P = kPack<T>;
    for (int64_t c = int64_t(lane) * P; c < a.classes;
         c += int64_t(a.group) * P) {
      const Pack<T> p = *reinterpret_cast<const Pack<T> *>(x + c);
#pragma unroll
      for (int e = 0; e < P; ++e)
        acc = addLogit(acc, toFloat(p.v[e]));
    }
  } else {
    for (int64_t c = lane; c < a.classes; c += a.group)
      acc = addLogit(acc, ld(x, c));
  }
  acc = groupReduce<StatsOp>(acc, a.group, scratch);
  if (acc.m == kInf || acc.m == -kInf)
    acc.s = __builtin_nanf("");
  return acc;
}

/// The row's label, -1 (recorded) when out of range, or kIgnored.
constexpr int64_t kIgnored = -2;
template <typename L>
__device__ __forceinline__ int64_t rowLabel(const CeArgs &a, int64_t r,
                                            int lane) {
  const int64_t label = static_cast<const L *>(a.labels)[r];
  if (a.kept && label == a.ignoreIndex) // a.kept: an ignore_index is set
    return kIgnored;
  if (label >= 0 && label < a.classes)
    return label;
  if (lane == 0)
    reportDeviceError(a.record, a.labelError, label, r,
                      a.classes);
  return -1;
}

/// The row's sum of m - x_c over the group, in every thread of it.
template <typename T>
__device__ __forceinline__ float rowGaps(const T *x, const CeArgs &a, int lane,
                                         float m, float *scratch) {
  float gaps = 0.0f;
  for (int64_t c = lane; c < a.classes; c += a.group)
    gaps += m - ld(x, c);
  return groupReduce<SumOp>(gaps, a.group, scratch);
}

template <typename T, typename L>
__global__ void __launch_bounds__(kBlock) crossEntropyRows(CeArgs a) {
  __shared__ RowStats scratch[32];
  __shared__ float gapScratch[32];
  const int lane = threadIdx.x % a.group;
  const int perBlock = blockDim.x / a.group;
  for (int64_t r = int64_t(blockIdx.x) * perBlock + threadIdx.x / a.group;
       r < a.rows; r += int64_t(gridDim.x) * perBlock) {
    const int64_t label = rowLabel<L>(a, r, lane);
    if (label < 0) { // uniform over the group
      if (lane == 0)
        static_cast<float *>(a.out)[r] =
            label == kIgnored ? 0.0f : __builtin_nanf("");
      continue;
    }
    const T *x = static_cast<const T *>(a.logits) + r * a.classes;
    const RowStats row = rowStats(x, a, lane, scratch);
    // a.labelSmoothing is the same in every thread of the block.
    const float gaps = a.labelSmoothing != 0.0f
                           ? rowGaps(x, a, lane, row.m, gapScratch)
                           : 0.0f;
    if (lane == 0) {
      const float ce = crossEntropyRow(row.s, ld(x, label), row.m);
      static_cast<float *>(a.out)[r] =
          a.labelSmoothing != 0.0f
              ? smoothedCrossEntropyRow(a.smoothing, ce, row.s, gaps, a.classes)
              : ce;
    }
  }
}

template <typename T, typename L>
__global__ void __launch_bounds__(kBlock) crossEntropyGradRows(CeArgs a) {
  __shared__ RowStats scratch[32];
  const int lane = threadIdx.x % a.group;
  const int perBlock = blockDim.x / a.group;
  const float coef =
      loadScalar(a.gradLoss, a.gradLossDtype) / (a.kept ? *a.kept : a.rowsF);
  for (int64_t r = int64_t(blockIdx.x) * perBlock + threadIdx.x / a.group;
       r < a.rows; r += int64_t(gridDim.x) * perBlock) {
    const int64_t label = rowLabel<L>(a, r, lane);
    T *dx = static_cast<T *>(a.out) + r * a.classes;
    if (label == kIgnored) {
      for (int64_t c = lane; c < a.classes; c += a.group)
        st(dx, c, 0.0f);
      continue;
    }
    if (label < 0)
      continue;
    const T *x = static_cast<const T *>(a.logits) + r * a.classes;
    // dx may be x: every thread rereads only the elements it writes, and
    // the group has read the whole row in rowStats (which synchronizes).
    const RowStats row = rowStats(x, a, lane, scratch);
    if (a.vector) {
      constexpr int P = kPack<T>;
      for (int64_t c = int64_t(lane) * P; c < a.classes;
           c += int64_t(a.group) * P) {
        Pack<T> p = *reinterpret_cast<const Pack<T> *>(x + c);
#pragma unroll
        for (int e = 0; e < P; ++e)
          p.v[e] = fromFloat<T>(
              crossEntropyGrad(coef, softmaxOf(toFloat(p.v[e]), row.m, row.s),
                               c + e == label, a.smoothing));
        *reinterpret_cast<Pack<T> *>(dx + c) = p;
      }
    } else {
      for (int64_t c = lane; c < a.classes; c += a.group)
        st(dx, c,
           crossEntropyGrad(coef, softmaxOf(ld(x, c), row.m, row.s), c == label,
                            a.smoothing));
    }
  }
}

/// The launch of a cross-entropy kernel over every row.
template <typename Kernel>
void launchRows(Kernel kernel, CeArgs a, cudaStream_t stream) {
  const int perBlock = kBlock / a.group;
  const int64_t cap = int64_t(multiprocessorCount()) * 32;
  const unsigned blocks = unsigned(
      std::max<int64_t>(1, std::min((a.rows + perBlock - 1) / perBlock, cap)));
  kernel<<<blocks, kBlock, 0, stream>>>(a);
}

/// The arguments both cross-entropy kernels share.
CeArgs ceArgs(const void *logits, const void *labels, void *out, int64_t rows,
              int64_t classes, int64_t ignoreIndex, const float *kept,
              float smoothingValue, int packElems, bool aligned,
              DeviceErrorRecord *record, DeviceError labelError) {
  CeArgs a{};
  a.logits = logits, a.labels = labels, a.out = out;
  a.rows = rows, a.classes = classes;
  a.ignoreIndex = ignoreIndex, a.kept = kept;
  a.labelSmoothing = smoothingValue;
  a.smoothing = labelSmoothing(smoothingValue, classes);
  a.group = groupFor(classes, kBlock);
  a.vector = classes % packElems == 0 && aligned;
  a.rowsF = static_cast<float>(rows);
  a.record = record;
  a.labelError = labelError;
  return a;
}

//===----------------------------------------------------------------------===//
// Elementwise losses
//===----------------------------------------------------------------------===//

/// One f32 sum of loss terms per block (parts[blockIdx.x]).
template <typename T>
__global__ void __launch_bounds__(kBlock)
    elementwiseLossSums(amp_elementwise_loss_t op, float param, const T *pred,
                        const T *target, int64_t n, bool vector, float *parts) {
  __shared__ float scratch[32];
  float sum = 0.0f;
  int64_t done = 0;
  if (vector) {
    constexpr int P = kPack<T>;
    const int64_t packs = n / P;
    AMP_GRID_STRIDE(i, packs) {
      const Pack<T> p = reinterpret_cast<const Pack<T> *>(pred)[i];
      const Pack<T> t = reinterpret_cast<const Pack<T> *>(target)[i];
#pragma unroll
      for (int e = 0; e < P; ++e)
        sum += elementwiseLoss(op, param, toFloat(p.v[e]), toFloat(t.v[e]));
    }
    done = packs * P;
  }
  for (int64_t i = done + int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    sum += elementwiseLoss(op, param, ld(pred, i), ld(target, i));
  sum = blockSum(sum, scratch);
  if (threadIdx.x == 0)
    parts[blockIdx.x] = sum;
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    elementwiseLossGradKernel(amp_elementwise_loss_t op, float param,
                              const void *gradLoss, amp_dtype_t gradLossDtype,
                              const T *pred, const T *target, T *dpred,
                              int64_t n, float coef, bool vector) {
  const float g = loadScalar(gradLoss, gradLossDtype);
  int64_t done = 0;
  if (vector) {
    constexpr int P = kPack<T>;
    const int64_t packs = n / P;
    AMP_GRID_STRIDE(i, packs) {
      const Pack<T> p = reinterpret_cast<const Pack<T> *>(pred)[i];
      const Pack<T> t = reinterpret_cast<const Pack<T> *>(target)[i];
      Pack<T> out;
#pragma unroll
      for (int e = 0; e < P; ++e)
        out.v[e] = fromFloat<T>(elementwiseLossGrad(
            op, param, coef, toFloat(p.v[e]), toFloat(t.v[e]), g));
      reinterpret_cast<Pack<T> *>(dpred)[i] = out;
    }
    done = packs * P;
  }
  for (int64_t i = done + int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(blockDim.x) * gridDim.x)
    st(dpred, i,
       elementwiseLossGrad(op, param, coef, ld(pred, i), ld(target, i), g));
}

} // namespace

extern "C" {

amp_status_t amp_cross_entropy(const void *logits, const void *labels,
                               float *loss, int64_t rows, int64_t classes,
                               int64_t ignore_index, float label_smoothing,
                               amp_dtype_t logits_dtype,
                               amp_dtype_t labels_dtype, void *stream) {
  Checker check("amp_cross_entropy");
  if (amp_status_t s =
          checkCrossEntropy(check, logits, labels, loss, rows, classes,
                            label_smoothing, logits_dtype, labels_dtype))
    return s;
  cudaStream_t st = toStream(stream);
  {
    Scratch scratch(stream);
    float *rowLoss = nullptr, *kept = nullptr;
    if (rows > 0) {
      DeviceErrorRecord *record = deviceErrorRecord(check);
      if (!record)
        return AMP_STATUS_BACKEND_ERROR;
      // The row losses, then the kept count.
      rowLoss = static_cast<float *>(scratch.get(check, (rows + 1) * 4));
      if (!rowLoss)
        return AMP_STATUS_BACKEND_ERROR;
      if (ignore_index != AMP_IGNORE_NONE) {
        kept = rowLoss + rows;
        launchCountKept(labels, labels_dtype, rows, ignore_index, kept, st);
      }
      dispatchFloat(logits_dtype, [&](auto t) {
        using T = decltype(t);
        const CeArgs a =
            ceArgs(logits, labels, rowLoss, rows, classes, ignore_index, kept,
                   label_smoothing, kPack<T>, packAligned(logits), record,
                   DeviceError::LabelOutOfRange);
        if (labels_dtype == AMP_DTYPE_I32)
          launchRows(crossEntropyRows<T, int32_t>, a, st);
        else
          launchRows(crossEntropyRows<T, int64_t>, a, st);
      });
    }
    sumAndDivide<<<1, kFinalBlock, 0, st>>>(
        rowLoss, rows, static_cast<float>(rows), kept, loss);
  }
  return launched(check, "cross-entropy");
}

amp_status_t amp_cross_entropy_grad(const void *grad_loss, const void *logits,
                                    const void *labels, void *dlogits,
                                    int64_t rows, int64_t classes,
                                    int64_t ignore_index, float label_smoothing,
                                    amp_dtype_t grad_loss_dtype,
                                    amp_dtype_t logits_dtype,
                                    amp_dtype_t labels_dtype, void *stream) {
  Checker check("amp_cross_entropy_grad");
  if (amp_status_t s = checkCrossEntropyGrad(
          check, grad_loss, logits, labels, dlogits, rows, classes,
          label_smoothing, grad_loss_dtype, logits_dtype, labels_dtype))
    return s;
  if (rows == 0)
    return AMP_STATUS_OK;
  DeviceErrorRecord *record = deviceErrorRecord(check);
  if (!record)
    return AMP_STATUS_BACKEND_ERROR;
  cudaStream_t st = toStream(stream);
  Scratch scratch(stream);
  float *kept = nullptr;
  if (ignore_index != AMP_IGNORE_NONE) {
    kept = static_cast<float *>(scratch.get(check, 4));
    if (!kept)
      return AMP_STATUS_BACKEND_ERROR;
    launchCountKept(labels, labels_dtype, rows, ignore_index, kept, st);
  }
  dispatchFloat(logits_dtype, [&](auto t) {
    using T = decltype(t);
    CeArgs a =
        ceArgs(logits, labels, dlogits, rows, classes, ignore_index, kept,
               label_smoothing, kPack<T>, packAligned(logits, dlogits), record,
               DeviceError::LabelOutOfRangeGrad);
    a.gradLoss = grad_loss;
    a.gradLossDtype = grad_loss_dtype;
    if (labels_dtype == AMP_DTYPE_I32)
      launchRows(crossEntropyGradRows<T, int32_t>, a, st);
    else
      launchRows(crossEntropyGradRows<T, int64_t>, a, st);
  });
  return launched(check, "cross-entropy-grad");
}

amp_status_t amp_elementwise_loss(amp_elementwise_loss_t op, float param,
                                  const void *pred, const void *target,
                                  float *loss, int64_t n, int64_t divisor,
                                  amp_dtype_t dtype, void *stream) {
  Checker check("amp_elementwise_loss");
  if (amp_status_t s = checkElementwiseLoss(check, rawEnum(op), param, pred,
                                            target, loss, n, divisor, dtype))
    return s;
  cudaStream_t st = toStream(stream);
  {
    Scratch scratch(stream);
    float *parts = nullptr;
    unsigned blocks = 0;
    if (n > 0) {
      dispatchFloat(dtype, [&](auto t) {
        blocks = std::min(gridFor(n, kPack<decltype(t)>), 1024u);
      });
      parts = static_cast<float *>(scratch.get(check, int64_t(blocks) * 4));
      if (!parts)
        return AMP_STATUS_BACKEND_ERROR;
      dispatchFloat(dtype, [&](auto t) {
        using T = decltype(t);
        const T *p = static_cast<const T *>(pred);
        const T *q = static_cast<const T *>(target);
        elementwiseLossSums<T><<<blocks, kBlock, 0, st>>>(
            op, param, p, q, n, packAligned(p, q), parts);
      });
    }
    sumAndDivide<<<1, kFinalBlock, 0, st>>>(
        parts, blocks, static_cast<float>(divisor), nullptr, loss);
  }
  return launched(check, "elementwise-loss");
}

amp_status_t amp_elementwise_loss_grad(amp_elementwise_loss_t op, float param,
                                       const void *grad_loss, const void *pred,
                                       const void *target, void *dpred,
                                       int64_t n, int64_t divisor,
                                       amp_dtype_t grad_loss_dtype,
                                       amp_dtype_t dtype, void *stream) {
  Checker check("amp_elementwise_loss_grad");
  if (amp_status_t s = checkElementwiseLossGrad(
          check, rawEnum(op), param, grad_loss, pred, target, dpred, n, divisor,
          grad_loss_dtype, dtype))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  const float coef = elementwiseLossCoef(op, divisor);
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *p = static_cast<const T *>(pred);
    const T *q = static_cast<const T *>(target);
    T *out = static_cast<T *>(dpred);
    elementwiseLossGradKernel<T>
        <<<gridFor(n, kPack<T>), kBlock, 0, toStream(stream)>>>(
            op, param, grad_loss, grad_loss_dtype, p, q, out, n, coef,
            packAligned(p, q, static_cast<const T *>(out)));
  });
  return launched(check, "elementwise-loss-grad");
}

} // extern "C"
