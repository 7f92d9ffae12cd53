//===- KernelsAdafactor.cu - torch.optim.Adafactor's step -----------------===//
//
// amp_adafactor_update and amp_adafactor_update_multi on the CUDA backend:
// the reference's adafactorCompute (reference/KernelsOptimizer.cpp) with its
// per-element math (reference/OptimizerMath.h), compiled with --fmad=false.
// Each buffer is a short sequence of launches on the stream (the _multi form
// queues them buffer after buffer, reusing one scratch block):
//
//   coefs      one thread: reads the step counter, found_inf and the lr
//              schedule's factor on the device, stores the scalars
//              (adafactorCoefs) in scratch and writes *new_step; no later
//              kernel reads *step, so new_step may be step
//   row-var    factored: one thread, warp or block per row of the grad,
//              new_row_var = lerp(row_var, mean of g^2, beta)
//   col-var    factored: threads over the columns (coalesced), each summing
//              g^2 down a run of rows; with several runs per column their
//              sums go to scratch and col-var-final adds them in order and
//              writes new_col_var
//   row-mean   factored: the mean of each batch's stored new_row_var
//   dir-norm   per chunk of kChunk elements: the sums of param^2 and of u^2
//              (unfactored: it writes new_variance first and takes u from
//              the stored value)
//   neg-step   one block: the norms, and adafactorNegStep into scratch
//   apply      per chunk: new_param from u recomputed, never stored
//
// Every sum is a fixed-order one (per-thread sums in index order, then a
// fixed tree; no float atomics), so results do not depend on scheduling.
// A set found_inf makes the kernels that write copy their inputs' bits to
// the outputs instead (nothing in place) and the others do nothing.
//
//===----------------------------------------------------------------------===//

#include "cuda/MultiTensor.cuh"
#include "cuda/ReduceCommon.cuh"
#include "reference/OptimizerChecks.h"
#include "reference/OptimizerMath.h"

#include <algorithm>
#include <climits>
#include <type_traits>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

/// out[0, count) = in[0, count) bitwise over the grid (nothing when
/// out == in): a skipped step's state.
template <typename T>
__device__ __forceinline__ void copyBits(const T *in, T *out, int64_t count) {
  if (in == out)
    return;
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>;
  AMP_GRID_STRIDE(i, count) {
    reinterpret_cast<Bits *>(out)[i] = reinterpret_cast<const Bits *>(in)[i];
  }
}

/// The host-side hyperparameters of a call.
struct AdafactorHyper {
  float lr, beta2Decay, eps1, eps2, d, weightDecay;
  const float *lrFactor; // the schedule's factor (NULL: none)
};

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// One thread: the step's scalars from the step counter and the scheduled
/// lr, and the new counter (the old one on a skipped step, when the
/// scalars are not needed).
__global__ void coefsKernel(AdafactorHyper h, const float *step, float *newStep,
                            const int8_t *foundInf, AdafactorCoefs *coefs) {
  const float before = *step;
  if (skipStep(foundInf)) {
    *newStep = before;
    return;
  }
  const AdafactorCoefs c =
      adafactorCoefs(before, scheduledLr(h.lr, h.lrFactor), h.beta2Decay,
                     h.eps1, h.eps2, h.d, h.weightDecay);
  *coefs = c;
  *newStep = c.t;
}

//===----------------------------------------------------------------------===//
// The factored second moment
//===----------------------------------------------------------------------===//

/// For each of `count` segments s of `len` consecutive elements, the f32
/// sum of term(i) over its elements i, passed to finish(s, sum) in the
/// segment's first thread. Groups of `group` threads (1, a warp or the
/// block: groupFor) take the segments in a grid-stride loop; the loop's
/// trip count is uniform over a group, as groupReduce needs.
template <typename Term, typename Finish>
__device__ __forceinline__ void segmentSums(int64_t count, int64_t len,
                                            int group, Term &&term,
                                            Finish &&finish) {
  __shared__ float scratch[32];
  const int perBlock = blockDim.x / group;
  const int lane = threadIdx.x % group;
  const int64_t stride = int64_t(gridDim.x) * perBlock;
  for (int64_t s = int64_t(blockIdx.x) * perBlock + threadIdx.x / group;
       s < count; s += stride) {
    const int64_t base = s * len;
    float acc = 0.0f;
    for (int64_t j = lane; j < len; j += group)
      acc += term(base + j);
    const float sum = groupReduce<SumOp>(acc, group, scratch);
    if (lane == 0)
      finish(s, sum);
  }
}

/// new_row_var[s] = lerp(row_var[s], mean over the row of g^2, beta) for
/// the `segments` = B * rows rows of `cols` elements of the grad.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    rowVarKernel(const T *grad, const T *rowVar, T *newRowVar, int64_t segments,
                 int64_t cols, int group, const AdafactorCoefs *coefs,
                 const int8_t *foundInf) {
  if (skipStep(foundInf)) {
    copyBits(rowVar, newRowVar, segments);
    return;
  }
  const float beta = coefs->beta;
  segmentSums(
      segments, cols, group,
      [&](int64_t i) {
        const float v = ld(grad, i);
        return v * v;
      },
      [&](int64_t s, float sum) {
        st(newRowVar, s,
           adafactorLerp(ld(rowVar, s), adafactorMeanSquare(sum, cols), beta));
      });
}

/// The sums of g^2 down the columns of the grad [batch, rows, cols]: thread
/// t takes column j = t % (batch * cols) over the rows [rc * rowChunk,
/// (rc + 1) * rowChunk) of run rc = t / (batch * cols), consecutive threads
/// reading consecutive columns. With one run (rowChunks = 1) it writes
/// new_col_var[j] = lerp(col_var[j], sum / rows, beta) itself; with more
/// the sums go to partials[t] for colVarFinalKernel.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    colVarKernel(const T *grad, const T *colVar, T *newColVar, int64_t batch,
                 int64_t rows, int64_t cols, int64_t rowChunk,
                 int64_t rowChunks, float *partials,
                 const AdafactorCoefs *coefs, const int8_t *foundInf) {
  const int64_t columns = batch * cols;
  if (skipStep(foundInf)) {
    copyBits(colVar, newColVar, columns);
    return;
  }
  const float beta = coefs->beta;
  AMP_GRID_STRIDE(t, rowChunks * columns) {
    const int64_t rc = t / columns, j = t - rc * columns;
    const int64_t b = j / cols, k = j - b * cols;
    const int64_t r0 = rc * rowChunk;
    const int64_t r1 = r0 + rowChunk < rows ? r0 + rowChunk : rows;
    const T *col = grad + b * rows * cols + k;
    float acc = 0.0f;
    for (int64_t r = r0; r < r1; ++r) {
      const float v = ld(col, r * cols);
      acc += v * v;
    }
    if (rowChunks == 1)
      st(newColVar, j,
         adafactorLerp(ld(colVar, j), adafactorMeanSquare(acc, rows), beta));
    else
      partials[t] = acc;
  }
}

/// new_col_var[j] = lerp(col_var[j], mean of g^2, beta) from colVarKernel's
/// `rowChunks` partial sums of each column, added in run order.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    colVarFinalKernel(const T *colVar, T *newColVar, int64_t columns,
                      int64_t rows, int64_t rowChunks, const float *partials,
                      const AdafactorCoefs *coefs, const int8_t *foundInf) {
  if (skipStep(foundInf))
    return; // colVarKernel copied the state
  const float beta = coefs->beta;
  AMP_GRID_STRIDE(j, columns) {
    float acc = 0.0f;
    for (int64_t rc = 0; rc < rowChunks; ++rc)
      acc += partials[rc * columns + j];
    st(newColVar, j,
       adafactorLerp(ld(colVar, j), adafactorMeanSquare(acc, rows), beta));
  }
}

/// rowMean[b] = (f32 sum of the stored new_row_var[b * rows, (b + 1) *
/// rows)) / rows, for the `batch` batches.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    rowMeanKernel(const T *newRowVar, int64_t batch, int64_t rows, int group,
                  float *rowMean, const int8_t *foundInf) {
  if (skipStep(foundInf))
    return;
  segmentSums(
      batch, rows, group, [&](int64_t i) { return ld(newRowVar, i); },
      [&](int64_t b, float sum) {
        rowMean[b] = sum / static_cast<float>(rows);
      });
}

//===----------------------------------------------------------------------===//
// The direction's norm and the update
//===----------------------------------------------------------------------===//

/// The coordinates of element e of a factored param [batch, rows, cols]
/// (batch b, row r within it, column k), advanced by a fixed stride with
/// carries instead of divisions.
struct FactoredIndex {
  int64_t b, r, k;             // of the current element
  int64_t stepB, stepR, stepK; // the stride in the same digits
  int64_t rows, cols;

  __device__ FactoredIndex(int64_t e, int64_t stride, int64_t rows,
                           int64_t cols)
      : rows(rows), cols(cols) {
    const int64_t row = e / cols;
    k = e - row * cols;
    b = row / rows;
    r = row - b * rows;
    const int64_t strideRows = stride / cols;
    stepK = stride - strideRows * cols;
    stepB = strideRows / rows;
    stepR = strideRows - stepB * rows;
  }

  /// Moves to element e + stride (each digit carries at most once).
  __device__ __forceinline__ void advance() {
    k += stepK;
    int64_t carry = 0;
    if (k >= cols) {
      k -= cols;
      carry = 1;
    }
    r += stepR + carry;
    b += stepB;
    if (r >= rows) {
      r -= rows;
      ++b;
    }
  }

  __device__ __forceinline__ int64_t rowIndex() const { return b * rows + r; }
  __device__ __forceinline__ int64_t colIndex() const { return b * cols + k; }
};

/// The state of a factored buffer the direction reads.
template <typename T> struct FactoredState {
  const T *grad, *newRowVar, *newColVar;
  const float *rowMean;
  int64_t rows, cols;

  /// u of element e at coordinates `at`, from the stored new state.
  __device__ __forceinline__ float direction(const AdafactorCoefs &c, int64_t e,
                                             const FactoredIndex &at) const {
    const float v =
        adafactorFactored(c, ld(newRowVar, at.rowIndex()),
                          ld(newColVar, at.colIndex()), rowMean[at.b]);
    return adafactorDirection(c, v, ld(grad, e));
  }
};

/// The elements [begin, end) of block blockIdx.x's chunk of n elements.
__device__ __forceinline__ void chunkRange(int64_t n, int64_t *begin,
                                           int64_t *end) {
  *begin = int64_t(blockIdx.x) * kChunk;
  *end = *begin + kChunk < n ? *begin + kChunk : n;
}

/// Stores a block's sums of param^2 and u^2 (every thread calls).
__device__ __forceinline__ void storeSquares(float accP, float accU,
                                             float *paramSq, float *dirSq) {
  __shared__ float scratch[32];
  const float sumP = blockSum(accP, scratch);
  const float sumU = blockSum(accU, scratch);
  if (threadIdx.x == 0) {
    paramSq[blockIdx.x] = sumP;
    dirSq[blockIdx.x] = sumU;
  }
}

/// Factored, one block per chunk: the chunk's sums of param^2 and u^2.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    factoredDirNormKernel(const T *param, FactoredState<T> state, int64_t n,
                          const AdafactorCoefs *coefs, const int8_t *foundInf,
                          float *paramSq, float *dirSq) {
  if (skipStep(foundInf))
    return;
  const AdafactorCoefs c = *coefs;
  int64_t begin, end;
  chunkRange(n, &begin, &end);
  float accP = 0.0f, accU = 0.0f;
  FactoredIndex at(begin + threadIdx.x, blockDim.x, state.rows, state.cols);
  for (int64_t e = begin + threadIdx.x; e < end;
       e += blockDim.x, at.advance()) {
    const float p = ld(param, e);
    accP += p * p;
    const float u = state.direction(c, e, at);
    accU += u * u;
  }
  storeSquares(accP, accU, paramSq, dirSq);
}

/// Unfactored, one block per chunk: new_variance = lerp(variance, g^2,
/// beta), then the chunk's sums of param^2 and of u^2 from the stored
/// variance. `packed`: param, grad, variance and new_variance 16-byte
/// aligned.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    varianceDirNormKernel(const T *param, const T *grad, const T *variance,
                          T *newVariance, int64_t n, bool packed,
                          const AdafactorCoefs *coefs, const int8_t *foundInf,
                          float *paramSq, float *dirSq) {
  int64_t begin, end;
  chunkRange(n, &begin, &end);
  if (skipStep(foundInf)) {
    copyChunk(variance, newVariance, begin, end, packed);
    return;
  }
  const AdafactorCoefs c = *coefs;
  float accP = 0.0f, accU = 0.0f;
  const T *const in[3] = {param, grad, variance};
  T *const out[1] = {newVariance};
  mapChunk<T, 3, 1>(
      in, out, begin, end, packed, [&](const float(&x)[3], float(&y)[1]) {
        // The direction reads the state as stored.
        const float v =
            toFloat(fromFloat<T>(adafactorLerp(x[2], x[1] * x[1], c.beta)));
        y[0] = v;
        const float u = adafactorDirection(c, v, x[1]);
        accP += x[0] * x[0];
        accU += u * u;
      });
  storeSquares(accP, accU, paramSq, dirSq);
}

/// One block: the param's and the direction's norms from the `chunks`
/// per-chunk sums, and *negStep = adafactorNegStep.
__global__ void __launch_bounds__(kThreads)
    negStepKernel(const float *paramSq, const float *dirSq, int64_t chunks,
                  int64_t n, const AdafactorCoefs *coefs,
                  const int8_t *foundInf, float *negStep) {
  __shared__ float scratch[32];
  if (skipStep(foundInf))
    return;
  float accP = 0.0f, accU = 0.0f;
  for (int64_t i = threadIdx.x; i < chunks; i += blockDim.x) {
    accP += paramSq[i];
    accU += dirSq[i];
  }
  const float paramNorm = sqrtf(blockSum(accP, scratch));
  const float dirNorm = sqrtf(blockSum(accU, scratch));
  if (threadIdx.x == 0)
    *negStep = adafactorNegStep(*coefs, paramNorm, dirNorm, n);
}

/// Factored, one block per chunk: new_param = adafactorApply(param,
/// negStep, u). `packed`: param and new_param 16-byte aligned (the copy of
/// a skipped step).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    factoredApplyKernel(const T *param, T *newParam, FactoredState<T> state,
                        int64_t n, bool packed, const AdafactorCoefs *coefs,
                        const float *negStep, const int8_t *foundInf) {
  int64_t begin, end;
  chunkRange(n, &begin, &end);
  if (skipStep(foundInf)) {
    copyChunk(param, newParam, begin, end, packed);
    return;
  }
  const AdafactorCoefs c = *coefs;
  const float ns = *negStep;
  FactoredIndex at(begin + threadIdx.x, blockDim.x, state.rows, state.cols);
  for (int64_t e = begin + threadIdx.x; e < end; e += blockDim.x, at.advance())
    st(newParam, e,
       adafactorApply(c, ld(param, e), ns, state.direction(c, e, at)));
}

/// Unfactored, one block per chunk: new_param from the stored
/// new_variance. `packed`: param, grad, new_variance and new_param 16-byte
/// aligned.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    varianceApplyKernel(const T *param, const T *grad, const T *newVariance,
                        T *newParam, int64_t n, bool packed,
                        const AdafactorCoefs *coefs, const float *negStep,
                        const int8_t *foundInf) {
  int64_t begin, end;
  chunkRange(n, &begin, &end);
  if (skipStep(foundInf)) {
    copyChunk(param, newParam, begin, end, packed);
    return;
  }
  const AdafactorCoefs c = *coefs;
  const float ns = *negStep;
  const T *const in[3] = {param, grad, newVariance};
  T *const out[1] = {newParam};
  mapChunk<T, 3, 1>(
      in, out, begin, end, packed, [&](const float(&x)[3], float(&y)[1]) {
        y[0] = adafactorApply(c, x[0], ns, adafactorDirection(c, x[2], x[1]));
      });
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// One checked buffer of a call (the factored or the unfactored pointers
/// NULL).
struct AdafactorBuffer {
  const void *param, *grad, *rowVar, *colVar, *variance;
  const float *step;
  void *newParam, *newRowVar, *newColVar, *newVariance;
  float *newStep;
  int64_t n, rows, cols;
  amp_dtype_t dtype;
};

/// Column-sum threads colVarKernel aims for, and the fewest rows a run of
/// a column holds when the columns are split into runs.
constexpr int64_t kColThreads = int64_t(1) << 18;
constexpr int64_t kMinRowChunk = 64;

/// A buffer's launch geometry and where its scratch lies (byte offsets in
/// the call's scratch block, each 256-byte aligned).
struct AdafactorPlan {
  int64_t chunks;              // blocks of the per-chunk kernels
  int64_t batch;               // factored: B
  int64_t rowChunk, rowChunks; // factored: colVarKernel's runs
  int64_t coefs, negStep, paramSq, dirSq, rowMean, colPartials;
  int64_t bytes; // the scratch the buffer needs
};

AdafactorPlan planOf(const AdafactorBuffer &buf) {
  AdafactorPlan p{};
  p.chunks = (buf.n + kChunk - 1) / kChunk;
  auto take = [&](int64_t bytes) {
    const int64_t at = p.bytes;
    p.bytes += (bytes + 255) / 256 * 256;
    return at;
  };
  p.coefs = take(sizeof(AdafactorCoefs));
  p.negStep = take(sizeof(float));
  p.paramSq = take(p.chunks * int64_t(sizeof(float)));
  p.dirSq = take(p.chunks * int64_t(sizeof(float)));
  if (buf.rowVar) {
    p.batch = buf.n / (buf.rows * buf.cols);
    const int64_t columns = p.batch * buf.cols;
    // Few columns: split each into runs of rows, for enough threads.
    int64_t runs = 1;
    if (columns < kColThreads)
      runs = std::max<int64_t>(
          1, std::min((kColThreads + columns - 1) / columns,
                      (buf.rows + kMinRowChunk - 1) / kMinRowChunk));
    p.rowChunk = (buf.rows + runs - 1) / runs;
    p.rowChunks = (buf.rows + p.rowChunk - 1) / p.rowChunk;
    p.rowMean = take(p.batch * int64_t(sizeof(float)));
    if (p.rowChunks > 1)
      p.colPartials = take(p.rowChunks * columns * int64_t(sizeof(float)));
  }
  return p;
}

/// Queues one buffer's kernels (planOf's plan, its scratch at `scratch`).
template <typename T>
amp_status_t launchBuffer(Checker &check, const AdafactorBuffer &buf,
                          const AdafactorPlan &plan, const AdafactorHyper &h,
                          const int8_t *foundInf, char *scratch,
                          cudaStream_t stream) {
  auto *coefs = reinterpret_cast<AdafactorCoefs *>(scratch + plan.coefs);
  auto *negStep = reinterpret_cast<float *>(scratch + plan.negStep);
  auto *paramSq = reinterpret_cast<float *>(scratch + plan.paramSq);
  auto *dirSq = reinterpret_cast<float *>(scratch + plan.dirSq);
  const T *param = static_cast<const T *>(buf.param);
  const T *grad = static_cast<const T *>(buf.grad);
  T *newParam = static_cast<T *>(buf.newParam);
  const unsigned chunks = static_cast<unsigned>(plan.chunks);

  coefsKernel<<<1, 1, 0, stream>>>(h, buf.step, buf.newStep, foundInf, coefs);
  if (amp_status_t s = launched(check, "adafactor-coefs"))
    return s;

  if (!buf.rowVar) {
    const T *variance = static_cast<const T *>(buf.variance);
    T *newVariance = static_cast<T *>(buf.newVariance);
    varianceDirNormKernel<T><<<chunks, kThreads, 0, stream>>>(
        param, grad, variance, newVariance, buf.n,
        packAligned(param, grad, variance, newVariance), coefs, foundInf,
        paramSq, dirSq);
    if (amp_status_t s = launched(check, "adafactor-dir-norm"))
      return s;
    negStepKernel<<<1, kThreads, 0, stream>>>(paramSq, dirSq, plan.chunks,
                                              buf.n, coefs, foundInf, negStep);
    if (amp_status_t s = launched(check, "adafactor-neg-step"))
      return s;
    varianceApplyKernel<T><<<chunks, kThreads, 0, stream>>>(
        param, grad, newVariance, newParam, buf.n,
        packAligned(param, grad, newVariance, newParam), coefs, negStep,
        foundInf);
    return launched(check, "adafactor-apply");
  }

  const T *rowVar = static_cast<const T *>(buf.rowVar);
  const T *colVar = static_cast<const T *>(buf.colVar);
  T *newRowVar = static_cast<T *>(buf.newRowVar);
  T *newColVar = static_cast<T *>(buf.newColVar);
  auto *rowMean = reinterpret_cast<float *>(scratch + plan.rowMean);
  auto *colPartials =
      plan.rowChunks > 1 ? reinterpret_cast<float *>(scratch + plan.colPartials)
                         : nullptr;
  const int64_t segments = plan.batch * buf.rows;
  const int64_t columns = plan.batch * buf.cols;

  const int rowGroup = groupFor(buf.cols, kThreads);
  rowVarKernel<T>
      <<<gridFor(segments, 1, kThreads / rowGroup), kThreads, 0, stream>>>(
          grad, rowVar, newRowVar, segments, buf.cols, rowGroup, coefs,
          foundInf);
  if (amp_status_t s = launched(check, "adafactor-row-var"))
    return s;
  colVarKernel<T><<<gridFor(plan.rowChunks * columns), kThreads, 0, stream>>>(
      grad, colVar, newColVar, plan.batch, buf.rows, buf.cols, plan.rowChunk,
      plan.rowChunks, colPartials, coefs, foundInf);
  if (amp_status_t s = launched(check, "adafactor-col-var"))
    return s;
  if (plan.rowChunks > 1) {
    colVarFinalKernel<T><<<gridFor(columns), kThreads, 0, stream>>>(
        colVar, newColVar, columns, buf.rows, plan.rowChunks, colPartials,
        coefs, foundInf);
    if (amp_status_t s = launched(check, "adafactor-col-var-final"))
      return s;
  }
  const int meanGroup = groupFor(buf.rows, kThreads);
  rowMeanKernel<T>
      <<<gridFor(plan.batch, 1, kThreads / meanGroup), kThreads, 0, stream>>>(
          newRowVar, plan.batch, buf.rows, meanGroup, rowMean, foundInf);
  if (amp_status_t s = launched(check, "adafactor-row-mean"))
    return s;

  const FactoredState<T> state{grad,    newRowVar, newColVar,
                               rowMean, buf.rows,  buf.cols};
  factoredDirNormKernel<T><<<chunks, kThreads, 0, stream>>>(
      param, state, buf.n, coefs, foundInf, paramSq, dirSq);
  if (amp_status_t s = launched(check, "adafactor-dir-norm"))
    return s;
  negStepKernel<<<1, kThreads, 0, stream>>>(paramSq, dirSq, plan.chunks, buf.n,
                                            coefs, foundInf, negStep);
  if (amp_status_t s = launched(check, "adafactor-neg-step"))
    return s;
  factoredApplyKernel<T><<<chunks, kThreads, 0, stream>>>(
      param, newParam, state, buf.n, packAligned(param, newParam), coefs,
      negStep, foundInf);
  return launched(check, "adafactor-apply");
}

/// Queues the updates of the n checked buffers `bufferAt(i)` in order, on
/// one block of scratch (the largest any buffer needs: the buffers' kernels
/// run one after another on the stream).
template <typename BufferAt>
amp_status_t launchAdafactor(Checker &check, int32_t n, BufferAt &&bufferAt,
                             const AdafactorHyper &h, const int8_t *foundInf,
                             void *stream) {
  if (n == 0)
    return AMP_STATUS_OK;
  int64_t bytes = 0;
  for (int32_t i = 0; i < n; ++i) {
    const AdafactorBuffer buf = bufferAt(i);
    const AdafactorPlan plan = planOf(buf);
    if (plan.chunks > INT_MAX) // 2^45 elements: more than any device holds
      return check.fail(AMP_STATUS_BACKEND_ERROR,
                        "a buffer of %lld elements exceeds one launch",
                        (long long)buf.n);
    bytes = std::max(bytes, plan.bytes);
  }
  char *scratch = static_cast<char *>(allocScratch(check, bytes));
  if (!scratch)
    return AMP_STATUS_BACKEND_ERROR;
  const cudaStream_t st = toStream(stream);
  amp_status_t s = AMP_STATUS_OK;
  for (int32_t i = 0; i < n && s == AMP_STATUS_OK; ++i) {
    const AdafactorBuffer buf = bufferAt(i);
    const AdafactorPlan plan = planOf(buf);
    dispatchFloat(buf.dtype, [&](auto tag) {
      s = launchBuffer<decltype(tag)>(check, buf, plan, h, foundInf, scratch,
                                      st);
    });
  }
  // Stream-ordered: the kernels queued above still see the block.
  return freeScratch(check, scratch, s);
}

} // namespace

extern "C" {

amp_status_t amp_adafactor_update(
    const void *param, const void *grad, const void *row_var,
    const void *col_var, const void *variance, const float *step,
    void *new_param, void *new_row_var, void *new_col_var, void *new_variance,
    float *new_step, int64_t n, amp_dtype_t dtype, int64_t rows, int64_t cols,
    float lr, const float *lr_factor, float beta2_decay, float eps1, float eps2,
    float d, float weight_decay, const int8_t *found_inf, void *stream) {
  Checker check("amp_adafactor_update");
  if (amp_status_t s = checkAdafactorUpdate(
          check, param, grad, row_var, col_var, variance, step, new_param,
          new_row_var, new_col_var, new_variance, new_step, n, dtype, rows,
          cols, lr, beta2_decay, eps1, eps2, d, weight_decay))
    return s;
  const AdafactorBuffer buf{param,       grad,         row_var,   col_var,
                            variance,    step,         new_param, new_row_var,
                            new_col_var, new_variance, new_step,  n,
                            rows,        cols,         dtype};
  return launchAdafactor(
      check, 1, [&](int32_t) { return buf; },
      {lr, beta2_decay, eps1, eps2, d, weight_decay, lr_factor}, found_inf,
      stream);
}

amp_status_t amp_adafactor_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *row_vars, const void *const *col_vars,
    const void *const *variances, const float *const *steps,
    void *const *new_params, void *const *new_row_vars,
    void *const *new_col_vars, void *const *new_variances,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    const int64_t *rows, const int64_t *cols, float lr, const float *lr_factor,
    float beta2_decay, float eps1, float eps2, float d, float weight_decay,
    const int8_t *found_inf, void *stream) {
  Checker check("amp_adafactor_update_multi");
  bool factored = false;
  if (amp_status_t s = checkAdafactorUpdateMulti(
          check, n_buffers, params, grads, row_vars, col_vars, variances, steps,
          new_params, new_row_vars, new_col_vars, new_variances, new_steps,
          sizes, dtypes, rows, cols, lr, beta2_decay, eps1, eps2, d,
          weight_decay, &factored))
    return s;
  return launchAdafactor(
      check, n_buffers,
      [&](int32_t i) {
        return AdafactorBuffer{params[i],
                               grads[i],
                               factored ? row_vars[i] : nullptr,
                               factored ? col_vars[i] : nullptr,
                               factored ? nullptr : variances[i],
                               steps[i],
                               new_params[i],
                               factored ? new_row_vars[i] : nullptr,
                               factored ? new_col_vars[i] : nullptr,
                               factored ? nullptr : new_variances[i],
                               new_steps[i],
                               sizes[i],
                               factored ? rows[i] : 0,
                               factored ? cols[i] : 0,
                               dtypes[i]};
      },
      {lr, beta2_decay, eps1, eps2, d, weight_decay, lr_factor}, found_inf,
      stream);
}

} // extern "C"
