//===- KernelsOptimizer.cu - the optimizer updates and clipping -----------===//
//
// amp_lr_schedule, amp_sgd_update, amp_adam_update, amp_radam_update,
// amp_rmsprop_update, amp_adagrad_update, their _multi forms,
// amp_clip_grad_norm, amp_clip_grad_value and amp_ema_update on the CUDA
// backend. Every kernel
// is a multi-tensor launch (MultiTensor.cuh: one block per chunk of 16384
// elements of one buffer, 128-bit packed access, the dtype chosen per buffer on
// the device); the single-buffer entry points use a one-buffer table. The
// per-element math is the reference's (reference/OptimizerMath.h), compiled
// with --fmad=false.
//
// found_inf, the lr schedule's factor and the step counters (Adam's, and
// Adagrad's with lr_decay) are read on the device, so nothing waits for the
// device: a set flag makes every block copy its inputs' bits to the outputs
// (nothing in place); with a factor, each SGD, RMSprop and Adagrad thread
// forms lr' itself (a broadcast load of one scalar), and each Adam block and
// counted Adagrad block forms its scalars once from its buffer's counter.
// amp_lr_schedule is one device thread running the reference's step
// (lrScheduleInMemory). amp_clip_grad_norm computes the norm in three
// deterministic stages (per-chunk partial norms: sums of squares, of
// magnitudes or of powers, or maxima; per-buffer norms; the total and the
// coefficient in one block), one instantiation per kind of norm, and scales
// with the coefficient read from device memory.
//
//===----------------------------------------------------------------------===//

#include "cuda/MultiTensor.cuh"
#include "reference/OptimizerChecks.h"
#include "reference/OptimizerMath.h"

#include <memory>
#include <string>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

//===----------------------------------------------------------------------===//
// SGD
//===----------------------------------------------------------------------===//

// Pointers per buffer: param, grad, momentum_buf, new_param,
// new_momentum_buf (the buffers NULL without momentum).
constexpr int kSgdPtrs = 5;

/// The parameters of an update whose only scheduled scalar is -lr (SGD,
/// RMSprop, Adagrad): its coefficients, K pointers per buffer.
template <typename Coefs, int K, int Cap> struct LrUpdateArgs {
  Coefs coefs; // negLr is -lr, replaced by -lr' with a factor
  float lr;
  const float *lrFactor;
  const int8_t *foundInf;
  TensorTable<K, Cap> table;
};

/// The coefficients a block of an LrUpdateArgs kernel (or of one whose
/// arguments have the same coefs, lr and lrFactor) uses: -lr' with a
/// schedule's factor (read on the device) unless the step is skipped.
template <typename Args>
__device__ __forceinline__ auto scheduledCoefs(const Args &args, bool skip) {
  auto c = args.coefs;
  if (args.lrFactor && !skip)
    c.negLr = -scheduledLr(args.lr, args.lrFactor);
  return c;
}

/// The largest table of an LrUpdateArgs.
template <typename Coefs, int K> constexpr int lrUpdateCap() {
  return tableCap<K>(sizeof(Coefs) + 20);
}

/// Launches an LrUpdateArgs kernel over the n buffers: `ptrsOf(i, p)` fills
/// buffer i's K pointers, `launch(chunks, args)` launches a group's kernel
/// and returns launched()'s status.
template <typename Coefs, int K, int Cap, typename PtrsOf, typename Launch>
amp_status_t launchLrUpdate(Checker &check, int32_t n, const int64_t *sizes,
                            const amp_dtype_t *dtypes, float lr,
                            const float *lrFactor, const Coefs &coefs,
                            const int8_t *foundInf, PtrsOf &&ptrsOf,
                            Launch &&launch) {
  auto args = std::make_unique<LrUpdateArgs<Coefs, K, Cap>>();
  args->coefs = coefs;
  args->lr = lr;
  args->lrFactor = lrFactor;
  args->foundInf = foundInf;
  return forEachGroup(check, args->table, n, sizes, dtypes, K, ptrsOf,
                      [&](unsigned chunks, int64_t, int64_t) {
                        return launch(chunks, *args);
                      });
}

template <int Cap> using SgdArgs = LrUpdateArgs<SgdCoefs, kSgdPtrs, Cap>;
constexpr int kSgdCap = lrUpdateCap<SgdCoefs, kSgdPtrs>();
static_assert(sizeof(SgdArgs<kSgdCap>) <= kParamBytes, "kernel parameters");

template <bool Momentum, int Cap>
__global__ void __launch_bounds__(kThreads)
    sgdKernel(const __grid_constant__ SgdArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const bool skip = skipStep(args.foundInf);
  const SgdCoefs c = scheduledCoefs(args, skip);
  const bool packed = args.table.packed[ch.tensor];
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(args.table.ptr[0][ch.tensor]);
    const T *g = static_cast<const T *>(args.table.ptr[1][ch.tensor]);
    const T *buf = static_cast<const T *>(args.table.ptr[2][ch.tensor]);
    T *np = static_cast<T *>(args.table.ptr[3][ch.tensor]);
    T *nbuf = static_cast<T *>(args.table.ptr[4][ch.tensor]);
    if (skip) {
      copyChunk(p, np, ch.begin, ch.end, packed);
      if (Momentum)
        copyChunk(buf, nbuf, ch.begin, ch.end, packed);
      return;
    }
    if constexpr (Momentum) {
      const T *const in[3] = {p, g, buf};
      T *const out[2] = {np, nbuf};
      mapChunk<T, 3, 2>(in, out, ch.begin, ch.end, packed,
                        [&](const float(&x)[3], float(&y)[2]) {
                          y[0] = sgdStep(c, x[0], x[1], x[2], &y[1]);
                        });
    } else {
      const T *const in[2] = {p, g};
      T *const out[1] = {np};
      mapChunk<T, 2, 1>(in, out, ch.begin, ch.end, packed,
                        [&](const float(&x)[2], float(&y)[1]) {
                          float unused;
                          y[0] = sgdStep(c, x[0], x[1], 0.0f, &unused);
                        });
    }
  });
}

template <int Cap>
amp_status_t launchSgd(Checker &check, int32_t n, const void *const *params,
                       const void *const *grads, const void *const *bufs,
                       void *const *newParams, void *const *newBufs,
                       const int64_t *sizes, const amp_dtype_t *dtypes,
                       float lr, const float *lrFactor, const SgdCoefs &coefs,
                       const int8_t *foundInf, cudaStream_t stream) {
  return launchLrUpdate<SgdCoefs, kSgdPtrs, Cap>(
      check, n, sizes, dtypes, lr, lrFactor, coefs, foundInf,
      [&](int32_t i, void *(&p)[kSgdPtrs]) {
        p[0] = const_cast<void *>(params[i]);
        p[1] = const_cast<void *>(grads[i]);
        p[2] = coefs.hasMomentum ? const_cast<void *>(bufs[i]) : nullptr;
        p[3] = newParams[i];
        p[4] = coefs.hasMomentum ? newBufs[i] : nullptr;
      },
      [&](unsigned chunks, const SgdArgs<Cap> &args) {
        if (coefs.hasMomentum)
          sgdKernel<true, Cap><<<chunks, kThreads, 0, stream>>>(args);
        else
          sgdKernel<false, Cap><<<chunks, kThreads, 0, stream>>>(args);
        return launched(check, "sgd-update");
      });
}

//===----------------------------------------------------------------------===//
// Step counters (Adam's, and Adagrad's with lr_decay)
//===----------------------------------------------------------------------===//

/// Step counters written after an update kernel has read them all (a group
/// with a counter in place), or of buffers without elements (no chunk):
/// one thread per buffer.
template <int Cap> struct StepCountArgs {
  const int8_t *foundInf;
  int32_t count;
  const float *step[Cap];
  float *newStep[Cap];
};

template <int Cap>
__global__ void
stepCountKernel(const __grid_constant__ StepCountArgs<Cap> args) {
  const bool skip = skipStep(args.foundInf);
  AMP_GRID_STRIDE(t, args.count) {
    const float step = *args.step[t];
    *args.newStep[t] = skip ? step : stepCountAfter(step);
  }
}

/// In thread 0 of a block of a counted update: reads the chunk's buffer's
/// step counter (pointer S) and, in the buffer's first block, writes its
/// new value (pointer S + 1) unless `writeSteps` is 0 (a counter of the
/// group is in place: stepCountKernel writes them after the update).
template <int S, int K, int Cap>
__device__ __forceinline__ float readStepCount(const TensorTable<K, Cap> &table,
                                               const Chunk &ch,
                                               int32_t writeSteps, bool skip) {
  const float step = *static_cast<const float *>(table.ptr[S][ch.tensor]);
  if (writeSteps && ch.index == 0)
    *static_cast<float *>(table.ptr[S + 1][ch.tensor]) =
        skip ? step : stepCountAfter(step);
  return step;
}

/// Launches a counted update over the n buffers (pointers S and S + 1 of
/// each are its step counter and new counter; the first S decide packed
/// access): `ptrsOf(i, p)` fills buffer i's pointers, `launch(chunks,
/// writeSteps)` launches a group's kernel and returns launched()'s status.
/// A group's kernel writes the new counters itself unless one of them is in
/// place; then stepCountKernel writes them after it, and after the groups
/// the counters of the buffers without elements. With steps NULL (Adagrad
/// without lr_decay) there are no counters.
template <int S, int K, int Cap, typename PtrsOf, typename Launch>
amp_status_t launchCounted(Checker &check, TensorTable<K, Cap> &table,
                           int32_t n, const int64_t *sizes,
                           const amp_dtype_t *dtypes, const float *const *steps,
                           float *const *newSteps, const int8_t *foundInf,
                           cudaStream_t stream, PtrsOf &&ptrsOf,
                           Launch &&launch) {
  static_assert(sizeof(StepCountArgs<Cap>) <= kParamBytes, "kernel parameters");
  auto stepArgs = std::make_unique<StepCountArgs<Cap>>();
  stepArgs->foundInf = foundInf;
  auto countSteps = [&] {
    stepCountKernel<Cap>
        <<<gridFor(stepArgs->count), kThreads, 0, stream>>>(*stepArgs);
    return launched(check, "step-count");
  };
  amp_status_t s = forEachGroup(
      check, table, n, sizes, dtypes, S, ptrsOf,
      [&](unsigned chunks, int64_t, int64_t) {
        bool inPlace = false;
        for (int t = 0; steps && t < table.count; ++t)
          inPlace |= table.ptr[S][t] == table.ptr[S + 1][t];
        if (amp_status_t e = launch(chunks, steps && !inPlace))
          return e;
        if (!inPlace)
          return AMP_STATUS_OK;
        stepArgs->count = table.count;
        for (int t = 0; t < table.count; ++t) {
          stepArgs->step[t] = static_cast<const float *>(table.ptr[S][t]);
          stepArgs->newStep[t] = static_cast<float *>(table.ptr[S + 1][t]);
        }
        return countSteps();
      });
  if (s || !steps)
    return s;
  // The counters of the empty buffers (which have no chunk).
  stepArgs->count = 0;
  for (int32_t i = 0; i <= n; ++i) {
    if (stepArgs->count == Cap || (i == n && stepArgs->count > 0)) {
      if (amp_status_t e = countSteps())
        return e;
      stepArgs->count = 0;
    }
    if (i < n && sizes[i] == 0) {
      stepArgs->step[stepArgs->count] = steps[i];
      stepArgs->newStep[stepArgs->count++] = newSteps[i];
    }
  }
  return AMP_STATUS_OK;
}

//===----------------------------------------------------------------------===//
// Adam, AdamW and RAdam
//===----------------------------------------------------------------------===//

// Pointers per buffer: param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq,
// new_param, new_exp_avg, new_exp_avg_sq, new_max_exp_avg_sq (the first 9
// decide packed access; the maxima are NULL without AMSGrad), step,
// new_step.
constexpr int kAdamPtrs = 11;
constexpr int kAdamStep = 9;

struct AdamHyper {
  float lr, beta1, beta2, eps, weightDecay;
  int32_t decoupledWeightDecay; // 1: AdamW, 0: Adam's L2 penalty
  int32_t amsgrad;              // 0 for RAdam
  const float *lrFactor;        // the schedule's factor (NULL: none)
};

template <int Cap> struct AdamArgs {
  AdamHyper h;
  const int8_t *foundInf;
  int32_t writeSteps; // readStepCount's
  TensorTable<kAdamPtrs, Cap> table;
};
constexpr int kAdamCap = tableCap<kAdamPtrs>(sizeof(AdamHyper) + 16);
static_assert(sizeof(AdamArgs<kAdamCap>) <= kParamBytes, "kernel parameters");

/// torch.optim.Adam(W)'s rule (OptimizerMath.h): its scalars for the step
/// counter before the update, and one element's step.
struct AdamRule {
  using Coefs = AdamCoefs;
  static constexpr const char *kName = "adam-update";
  __device__ static Coefs coefs(float step, const AdamHyper &h) {
    return adamCoefs(step, scheduledLr(h.lr, h.lrFactor), h.beta1, h.beta2,
                     h.eps, h.weightDecay, h.decoupledWeightDecay, h.amsgrad);
  }
  __device__ static float step(const Coefs &c, float p, float g, float m,
                               float v, float vmax, float *m1, float *v1,
                               float *vmax1) {
    return adamStep(c, p, g, m, v, vmax, m1, v1, vmax1);
  }
};

/// torch.optim.RAdam's rule (no maxima).
struct RadamRule {
  using Coefs = RadamCoefs;
  static constexpr const char *kName = "radam-update";
  __device__ static Coefs coefs(float step, const AdamHyper &h) {
    return radamCoefs(step, scheduledLr(h.lr, h.lrFactor), h.beta1, h.beta2,
                      h.eps, h.weightDecay, h.decoupledWeightDecay);
  }
  __device__ static float step(const Coefs &c, float p, float g, float m,
                               float v, float, float *m1, float *v1, float *) {
    return radamStep(c, p, g, m, v, m1, v1);
  }
};

/// An update with Adam's moments and step counter by `Rule` (AdamRule,
/// RadamRule); with `Amsgrad` the maxima too.
template <typename Rule, bool Amsgrad, int Cap>
__global__ void __launch_bounds__(kThreads)
    momentsKernel(const __grid_constant__ AdamArgs<Cap> args) {
  using Coefs = typename Rule::Coefs;
  __shared__ Coefs blockCoefs;
  const Chunk ch = locateChunk(args.table);
  const int t = ch.tensor;
  const bool skip = skipStep(args.foundInf);
  // The scalars once per block, from the step counter on the device.
  if (threadIdx.x == 0) {
    const float step =
        readStepCount<kAdamStep>(args.table, ch, args.writeSteps, skip);
    if (!skip)
      blockCoefs = Rule::coefs(step, args.h);
  }
  __syncthreads();
  const bool packed = args.table.packed[t];
  withStorage(args.table.dtype[t], [&](auto tag) {
    using T = decltype(tag);
    auto in = [&](int k) {
      return static_cast<const T *>(args.table.ptr[k][t]);
    };
    auto out = [&](int k) { return static_cast<T *>(args.table.ptr[k][t]); };
    // The buffers the step reads and the ones it writes, in mapChunk's
    // order: param, grad, exp_avg, exp_avg_sq, then AMSGrad's maximum.
    constexpr int NI = 4 + Amsgrad, NO = 3 + Amsgrad;
    const T *ins[NI] = {in(0), in(1), in(2), in(3)};
    T *outs[NO] = {out(5), out(6), out(7)};
    if constexpr (Amsgrad) {
      ins[4] = in(4);
      outs[3] = out(8);
    }
    if (skip) {
      copyChunk(ins[0], outs[0], ch.begin, ch.end, packed);
      for (int k = 1; k < NO; ++k)
        copyChunk(ins[k + 1], outs[k], ch.begin, ch.end, packed);
      return;
    }
    const Coefs c = blockCoefs;
    mapChunk<T, NI, NO>(ins, outs, ch.begin, ch.end, packed,
                        [&](const float(&x)[NI], float(&y)[NO]) {
                          float vmax = 0.0f, newVmax;
                          if constexpr (Amsgrad)
                            vmax = x[4];
                          y[0] = Rule::step(c, x[0], x[1], x[2], x[3], vmax,
                                            &y[1], &y[2], &newVmax);
                          if constexpr (Amsgrad)
                            y[3] = newVmax;
                        });
  });
}

/// Launches `Rule`'s update over the n buffers (the maxima arrays used
/// with h.amsgrad; NULL for RAdam).
template <typename Rule, int Cap>
amp_status_t
launchMoments(Checker &check, int32_t n, const void *const *params,
              const void *const *grads, const void *const *exp_avgs,
              const void *const *exp_avg_sqs, const float *const *steps,
              const void *const *max_exp_avg_sqs, void *const *new_params,
              void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
              float *const *new_steps, void *const *new_max_exp_avg_sqs,
              const int64_t *sizes, const amp_dtype_t *dtypes,
              const AdamHyper &h, const int8_t *foundInf, cudaStream_t stream) {
  auto args = std::make_unique<AdamArgs<Cap>>();
  args->h = h;
  args->foundInf = foundInf;
  const bool amsgrad = h.amsgrad != 0;
  return launchCounted<kAdamStep>(
      check, args->table, n, sizes, dtypes, steps, new_steps, foundInf, stream,
      [&](int32_t i, void *(&p)[kAdamPtrs]) {
        const void *ptrs[kAdamPtrs] = {params[i],
                                       grads[i],
                                       exp_avgs[i],
                                       exp_avg_sqs[i],
                                       amsgrad ? max_exp_avg_sqs[i] : nullptr,
                                       new_params[i],
                                       new_exp_avgs[i],
                                       new_exp_avg_sqs[i],
                                       amsgrad ? new_max_exp_avg_sqs[i]
                                               : nullptr,
                                       steps[i],
                                       new_steps[i]};
        for (int k = 0; k < kAdamPtrs; ++k)
          p[k] = const_cast<void *>(ptrs[k]);
      },
      [&](unsigned chunks, bool writeSteps) {
        args->writeSteps = writeSteps;
        if (amsgrad)
          momentsKernel<Rule, true, Cap>
              <<<chunks, kThreads, 0, stream>>>(*args);
        else
          momentsKernel<Rule, false, Cap>
              <<<chunks, kThreads, 0, stream>>>(*args);
        return launched(check, Rule::kName);
      });
}

//===----------------------------------------------------------------------===//
// RMSprop
//===----------------------------------------------------------------------===//

// Pointers per buffer: param, grad, square_avg, momentum_buf, grad_avg,
// new_param, new_square_avg, new_momentum_buf, new_grad_avg (the momentum
// buffers NULL without momentum, the gradient averages unless centered).
constexpr int kRmspropPtrs = 9;

template <int Cap>
using RmspropArgs = LrUpdateArgs<RmspropCoefs, kRmspropPtrs, Cap>;
constexpr int kRmspropCap = lrUpdateCap<RmspropCoefs, kRmspropPtrs>();
static_assert(sizeof(RmspropArgs<kRmspropCap>) <= kParamBytes,
              "kernel parameters");

template <bool Momentum, bool Centered, int Cap>
__global__ void __launch_bounds__(kThreads)
    rmspropKernel(const __grid_constant__ RmspropArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const bool skip = skipStep(args.foundInf);
  const RmspropCoefs c = scheduledCoefs(args, skip);
  const bool packed = args.table.packed[ch.tensor];
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    auto in = [&](int k) {
      return static_cast<const T *>(args.table.ptr[k][ch.tensor]);
    };
    auto out = [&](int k) {
      return static_cast<T *>(args.table.ptr[k][ch.tensor]);
    };
    // The buffers the step reads and the ones it writes, in mapChunk's
    // order: param, grad, square_avg, then those present.
    constexpr int NI = 3 + Momentum + Centered, NO = 2 + Momentum + Centered;
    const T *ins[NI] = {in(0), in(1), in(2)};
    T *outs[NO] = {out(5), out(6)};
    if constexpr (Momentum) {
      ins[3] = in(3);
      outs[2] = out(7);
    }
    if constexpr (Centered) {
      ins[NI - 1] = in(4);
      outs[NO - 1] = out(8);
    }
    if (skip) {
      copyChunk(ins[0], outs[0], ch.begin, ch.end, packed);
      for (int k = 1; k < NO; ++k)
        copyChunk(ins[k + 1], outs[k], ch.begin, ch.end, packed);
      return;
    }
    mapChunk<T, NI, NO>(ins, outs, ch.begin, ch.end, packed,
                        [&](const float(&x)[NI], float(&y)[NO]) {
                          float buf = 0.0f, avg = 0.0f, newBuf, newAvg;
                          if constexpr (Momentum)
                            buf = x[3];
                          if constexpr (Centered)
                            avg = x[NI - 1];
                          y[0] = rmspropStep(c, x[0], x[1], x[2], avg, buf,
                                             &y[1], &newAvg, &newBuf);
                          if constexpr (Momentum)
                            y[2] = newBuf;
                          if constexpr (Centered)
                            y[NO - 1] = newAvg;
                        });
  });
}

template <int Cap>
amp_status_t
launchRmsprop(Checker &check, int32_t n, const void *const *params,
              const void *const *grads, const void *const *squareAvgs,
              const void *const *bufs, const void *const *gradAvgs,
              void *const *newParams, void *const *newSquareAvgs,
              void *const *newBufs, void *const *newGradAvgs,
              const int64_t *sizes, const amp_dtype_t *dtypes, float lr,
              const float *lrFactor, const RmspropCoefs &coefs,
              const int8_t *foundInf, cudaStream_t stream) {
  const bool m = coefs.hasMomentum, a = coefs.centered;
  return launchLrUpdate<RmspropCoefs, kRmspropPtrs, Cap>(
      check, n, sizes, dtypes, lr, lrFactor, coefs, foundInf,
      [&](int32_t i, void *(&p)[kRmspropPtrs]) {
        const void *ptrs[kRmspropPtrs] = {params[i],
                                          grads[i],
                                          squareAvgs[i],
                                          m ? bufs[i] : nullptr,
                                          a ? gradAvgs[i] : nullptr,
                                          newParams[i],
                                          newSquareAvgs[i],
                                          m ? newBufs[i] : nullptr,
                                          a ? newGradAvgs[i] : nullptr};
        for (int k = 0; k < kRmspropPtrs; ++k)
          p[k] = const_cast<void *>(ptrs[k]);
      },
      [&](unsigned chunks, const RmspropArgs<Cap> &args) {
        auto go = [&](auto kernel) {
          kernel<<<chunks, kThreads, 0, stream>>>(args);
          return launched(check, "rmsprop-update");
        };
        if (m && a)
          return go(rmspropKernel<true, true, Cap>);
        if (m)
          return go(rmspropKernel<true, false, Cap>);
        if (a)
          return go(rmspropKernel<false, true, Cap>);
        return go(rmspropKernel<false, false, Cap>);
      });
}

//===----------------------------------------------------------------------===//
// Adagrad
//===----------------------------------------------------------------------===//

// Pointers per buffer: param, grad, state_sum, new_param, new_state_sum
// (which decide packed access), step, new_step (NULL when lr_decay = 0).
constexpr int kAdagradPtrs = 7;
constexpr int kAdagradStep = 5;

template <int Cap> struct AdagradArgs {
  AdagradCoefs coefs; // negLr is -lr, replaced by -clr
  float lr, lrDecay;
  const float *lrFactor;
  const int8_t *foundInf;
  int32_t writeSteps; // readStepCount's
  TensorTable<kAdagradPtrs, Cap> table;
};
constexpr int kAdagradCap = tableCap<kAdagradPtrs>(sizeof(AdagradCoefs) + 32);
static_assert(sizeof(AdagradArgs<kAdagradCap>) <= kParamBytes,
              "kernel parameters");

/// With `Counted` (lr_decay > 0) each block forms clr from its buffer's
/// step counter once; without, clr is the (scheduled) lr.
template <bool Counted, int Cap>
__global__ void __launch_bounds__(kThreads)
    adagradKernel(const __grid_constant__ AdagradArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const bool skip = skipStep(args.foundInf);
  AdagradCoefs c = scheduledCoefs(args, skip);
  if constexpr (Counted) {
    __shared__ float blockNegLr;
    if (threadIdx.x == 0) {
      const float step =
          readStepCount<kAdagradStep>(args.table, ch, args.writeSteps, skip);
      blockNegLr = -adagradLr(-c.negLr, args.lrDecay, step);
    }
    __syncthreads();
    c.negLr = blockNegLr;
  }
  const bool packed = args.table.packed[ch.tensor];
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    const T *p = static_cast<const T *>(args.table.ptr[0][ch.tensor]);
    const T *g = static_cast<const T *>(args.table.ptr[1][ch.tensor]);
    const T *s = static_cast<const T *>(args.table.ptr[2][ch.tensor]);
    T *np = static_cast<T *>(args.table.ptr[3][ch.tensor]);
    T *ns = static_cast<T *>(args.table.ptr[4][ch.tensor]);
    if (skip) {
      copyChunk(p, np, ch.begin, ch.end, packed);
      copyChunk(s, ns, ch.begin, ch.end, packed);
      return;
    }
    const T *const in[3] = {p, g, s};
    T *const out[2] = {np, ns};
    mapChunk<T, 3, 2>(in, out, ch.begin, ch.end, packed,
                      [&](const float(&x)[3], float(&y)[2]) {
                        y[0] = adagradStep(c, x[0], x[1], x[2], &y[1]);
                      });
  });
}

template <int Cap>
amp_status_t launchAdagrad(Checker &check, int32_t n, const void *const *params,
                           const void *const *grads, const void *const *sums,
                           const float *const *steps, void *const *newParams,
                           void *const *newSums, float *const *newSteps,
                           const int64_t *sizes, const amp_dtype_t *dtypes,
                           float lr, const float *lrFactor, float lrDecay,
                           const AdagradCoefs &coefs, const int8_t *foundInf,
                           cudaStream_t stream) {
  auto args = std::make_unique<AdagradArgs<Cap>>();
  args->coefs = coefs;
  args->lr = lr;
  args->lrDecay = lrDecay;
  args->lrFactor = lrFactor;
  args->foundInf = foundInf;
  return launchCounted<kAdagradStep>(
      check, args->table, n, sizes, dtypes, steps, newSteps, foundInf, stream,
      [&](int32_t i, void *(&p)[kAdagradPtrs]) {
        const void *ptrs[kAdagradPtrs] = {params[i],
                                          grads[i],
                                          sums[i],
                                          newParams[i],
                                          newSums[i],
                                          steps ? steps[i] : nullptr,
                                          steps ? newSteps[i] : nullptr};
        for (int k = 0; k < kAdagradPtrs; ++k)
          p[k] = const_cast<void *>(ptrs[k]);
      },
      [&](unsigned chunks, bool writeSteps) {
        args->writeSteps = writeSteps;
        if (steps)
          adagradKernel<true, Cap><<<chunks, kThreads, 0, stream>>>(*args);
        else
          adagradKernel<false, Cap><<<chunks, kThreads, 0, stream>>>(*args);
        return launched(check, "adagrad-update");
      });
}

//===----------------------------------------------------------------------===//
// Learning-rate schedule
//===----------------------------------------------------------------------===//

__global__ void lrScheduleKernel(LrSchedule schedule, const float *count,
                                 float *factor, float *newCount) {
  lrScheduleInMemory(schedule, count, factor, newCount);
}

//===----------------------------------------------------------------------===//
// Gradient-norm clipping
//===----------------------------------------------------------------------===//

// Pointers per buffer: grad, clipped.
constexpr int kClipPtrs = 2;

template <int Cap> struct ClipArgs {
  float *partials;   // this group's per-chunk partial norms
  float *norms;      // this group's per-buffer norms
  const float *coef; // the clipping coefficient
  float p;           // the norm's p (clip_grad_norm_'s norm_type)
  float clipValue;   // amp_clip_grad_value's bound
  TensorTable<kClipPtrs, Cap> table;
};
constexpr int kClipCap = tableCap<kClipPtrs>(24);
static_assert(sizeof(ClipArgs<kClipCap>) <= kParamBytes, "kernel parameters");

/// clipped = f(grad) elementwise in f32 over one chunk.
template <int Cap, typename F>
__device__ __forceinline__ void
mapClipChunk(const TensorTable<kClipPtrs, Cap> &table, const Chunk &ch, F f) {
  withStorage(table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    const T *const in[1] = {static_cast<const T *>(table.ptr[0][ch.tensor])};
    T *const out[1] = {static_cast<T *>(table.ptr[1][ch.tensor])};
    mapChunk<T, 1, 1>(
        in, out, ch.begin, ch.end, table.packed[ch.tensor],
        [&](const float(&x)[1], float(&y)[1]) { y[0] = f(x[0]); });
  });
}

/// The combination over the block of every thread's partial norm: the sum,
/// or for inf the NaN-winning maximum.
template <ClipNormKind K>
__device__ __forceinline__ float blockNormAdd(float v, float *scratch) {
  return K == ClipNormKind::Inf ? blockMax(v, scratch) : blockSum(v, scratch);
}

/// Stage 1: one chunk's partial norm (each thread combines the terms of its
/// elements in order, then a fixed tree over the block; squares are fused
/// multiply-adds).
template <int Cap, ClipNormKind K>
__global__ void __launch_bounds__(kThreads)
    normTermsKernel(const __grid_constant__ ClipArgs<Cap> args) {
  __shared__ float scratch[32];
  const Chunk ch = locateChunk(args.table);
  const float p = args.p;
  float acc = 0.0f;
  auto add = [&](float v) {
    acc = K == ClipNormKind::L2 ? __fmaf_rn(v, v, acc)
                                : clipNormAdd<K>(acc, clipNormTerm<K>(v, p));
  };
  const bool packed = args.table.packed[ch.tensor];
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    constexpr int P = kPack<T>;
    const T *g = static_cast<const T *>(args.table.ptr[0][ch.tensor]);
    int64_t rest = ch.begin;
    if (packed) {
      const int64_t packs = (ch.end - ch.begin) / P;
      for (int64_t k = threadIdx.x; k < packs; k += blockDim.x) {
        const Pack<T> x =
            *reinterpret_cast<const Pack<T> *>(g + ch.begin + k * P);
#pragma unroll
        for (int j = 0; j < P; ++j)
          add(toFloat(x.v[j]));
      }
      rest = ch.begin + packs * P;
    }
    for (int64_t e = rest + threadIdx.x; e < ch.end; e += blockDim.x)
      add(ld(g, e));
  });
  const float sum = blockNormAdd<K>(acc, scratch);
  if (threadIdx.x == 0)
    args.partials[blockIdx.x] = sum;
}

/// Stage 2: norm_t, the root of its chunks' partial norms combined, one
/// block per buffer.
template <int Cap, ClipNormKind K>
__global__ void __launch_bounds__(kThreads)
    bufferNormsKernel(const __grid_constant__ ClipArgs<Cap> args) {
  __shared__ float scratch[32];
  const int t = blockIdx.x;
  const int32_t begin = t > 0 ? args.table.chunkEnd[t - 1] : 0;
  const int32_t end = args.table.chunkEnd[t];
  float acc = 0.0f;
  for (int32_t i = begin + threadIdx.x; i < end; i += blockDim.x)
    acc = clipNormAdd<K>(acc, args.partials[i]);
  const float sum = blockNormAdd<K>(acc, scratch);
  if (threadIdx.x == 0)
    args.norms[t] = clipNormRoot<K>(sum, args.p);
}

/// Stage 3, one block: total, the norm of the norm_t, and the coefficient.
template <ClipNormKind K>
__global__ void __launch_bounds__(kThreads)
    totalNormKernel(const float *norms, int64_t count, float p, float maxNorm,
                    float *totalNorm, float *coef) {
  __shared__ float scratch[32];
  float acc = 0.0f;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x)
    acc = clipNormAdd<K>(acc, clipNormTerm<K>(norms[i], p));
  const float total = clipNormRoot<K>(blockNormAdd<K>(acc, scratch), p);
  if (threadIdx.x == 0) {
    *totalNorm = total;
    *coef = clipCoef(maxNorm, total);
  }
}

/// clipped = grad * coef in f32, the coefficient read on the device.
template <int Cap>
__global__ void __launch_bounds__(kThreads)
    clipScaleKernel(const __grid_constant__ ClipArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const float coef = *args.coef;
  mapClipChunk(args.table, ch, [&](float x) { return x * coef; });
}

/// clipped = grad clamped to [-clipValue, clipValue].
template <int Cap>
__global__ void __launch_bounds__(kThreads)
    clipValueKernel(const __grid_constant__ ClipArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const float c = args.clipValue;
  mapClipChunk(args.table, ch, [&](float x) { return clipValue(x, c); });
}

//===----------------------------------------------------------------------===//
// Moving averages
//===----------------------------------------------------------------------===//

// Pointers per buffer: average, value, new average.
constexpr int kEmaPtrs = 3;

template <int Cap> struct EmaArgs {
  const float *weight; // read on the device
  TensorTable<kEmaPtrs, Cap> table;
};
constexpr int kEmaCap = tableCap<kEmaPtrs>(8);
static_assert(sizeof(EmaArgs<kEmaCap>) <= kParamBytes, "kernel parameters");

/// new average = emaStep(average, value, *weight) in f32.
template <int Cap>
__global__ void __launch_bounds__(kThreads)
    emaUpdateKernel(const __grid_constant__ EmaArgs<Cap> args) {
  const Chunk ch = locateChunk(args.table);
  const float w = *args.weight;
  withStorage(args.table.dtype[ch.tensor], [&](auto tag) {
    using T = decltype(tag);
    const T *const in[2] = {
        static_cast<const T *>(args.table.ptr[0][ch.tensor]),
        static_cast<const T *>(args.table.ptr[1][ch.tensor])};
    T *const out[1] = {static_cast<T *>(args.table.ptr[2][ch.tensor])};
    mapChunk<T, 2, 1>(in, out, ch.begin, ch.end, args.table.packed[ch.tensor],
                      [&](const float(&x)[2], float(&y)[1]) {
                        y[0] = emaStep(x[0], x[1], w);
                      });
  });
}

/// forEachGroup over the (grad, clipped) pairs of a clipping call.
template <typename Launch>
amp_status_t forEachClipGroup(Checker &check, ClipArgs<kClipCap> &args,
                              int32_t n_buffers, const void *const *grads,
                              void *const *clipped, const int64_t *sizes,
                              const amp_dtype_t *dtypes, Launch launch) {
  auto ptrsOf = [&](int32_t i, void *(&p)[kClipPtrs]) {
    p[0] = const_cast<void *>(grads[i]);
    p[1] = clipped[i];
  };
  return forEachGroup(check, args.table, n_buffers, sizes, dtypes, kClipPtrs,
                      ptrsOf, launch);
}

} // namespace

extern "C" {

amp_status_t amp_lr_schedule(const float *count, float *factor,
                             float *new_count, amp_lr_schedule_t kind,
                             int64_t warmup_steps, float warmup_start_factor,
                             int64_t total_steps, float final_factor,
                             int64_t step_size, float gamma, float power,
                             const int64_t *milestones, int32_t num_milestones,
                             void *stream) {
  Checker check("amp_lr_schedule");
  LrSchedule schedule;
  if (amp_status_t s = checkLrSchedule(
          check, count, factor, new_count, kind, warmup_steps,
          warmup_start_factor, total_steps, final_factor, step_size, gamma,
          power, milestones, num_milestones, &schedule))
    return s;
  lrScheduleKernel<<<1, 1, 0, toStream(stream)>>>(schedule, count, factor,
                                                  new_count);
  return launched(check, "lr-schedule");
}

amp_status_t amp_sgd_update(const void *param, const void *grad,
                            const void *momentum_buf, void *new_param,
                            void *new_momentum_buf, int64_t n,
                            amp_dtype_t dtype, float lr, const float *lr_factor,
                            float momentum, float dampening, float weight_decay,
                            int32_t nesterov, const int8_t *found_inf,
                            void *stream) {
  Checker check("amp_sgd_update");
  bool hasMomentum = false;
  if (amp_status_t s = checkSgdUpdate(
          check, param, grad, momentum_buf, new_param, new_momentum_buf, n,
          dtype, lr, momentum, dampening, weight_decay, nesterov, &hasMomentum))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  return launchSgd<1>(check, 1, &param, &grad, &momentum_buf, &new_param,
                      &new_momentum_buf, &n, &dtype, lr, lr_factor,
                      sgdCoefs(lr, momentum, dampening, weight_decay, nesterov),
                      found_inf, toStream(stream));
}

amp_status_t
amp_sgd_update_multi(int32_t n_buffers, const void *const *params,
                     const void *const *grads, const void *const *momentum_bufs,
                     void *const *new_params, void *const *new_momentum_bufs,
                     const int64_t *sizes, const amp_dtype_t *dtypes, float lr,
                     const float *lr_factor, float momentum, float dampening,
                     float weight_decay, int32_t nesterov,
                     const int8_t *found_inf, void *stream) {
  Checker check("amp_sgd_update_multi");
  bool hasMomentum = false;
  if (amp_status_t s = checkSgdUpdateMulti(
          check, n_buffers, params, grads, momentum_bufs, new_params,
          new_momentum_bufs, sizes, dtypes, lr, momentum, dampening,
          weight_decay, nesterov, &hasMomentum))
    return s;
  return launchSgd<kSgdCap>(
      check, n_buffers, params, grads, momentum_bufs, new_params,
      new_momentum_bufs, sizes, dtypes, lr, lr_factor,
      sgdCoefs(lr, momentum, dampening, weight_decay, nesterov), found_inf,
      toStream(stream));
}

amp_status_t
amp_adam_update(const void *param, const void *grad, const void *exp_avg,
                const void *exp_avg_sq, const float *step,
                const void *max_exp_avg_sq, void *new_param, void *new_exp_avg,
                void *new_exp_avg_sq, float *new_step, void *new_max_exp_avg_sq,
                int64_t n, amp_dtype_t dtype, float lr, const float *lr_factor,
                float beta1, float beta2, float eps, float weight_decay,
                int32_t decoupled_weight_decay, int32_t amsgrad,
                const int8_t *found_inf, void *stream) {
  Checker check("amp_adam_update");
  if (amp_status_t s = checkAdamUpdate(
          check, param, grad, exp_avg, exp_avg_sq, step, max_exp_avg_sq,
          new_param, new_exp_avg, new_exp_avg_sq, new_step, new_max_exp_avg_sq,
          n, dtype, lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay,
          amsgrad))
    return s;
  return launchMoments<AdamRule, 1>(
      check, 1, &param, &grad, &exp_avg, &exp_avg_sq, &step, &max_exp_avg_sq,
      &new_param, &new_exp_avg, &new_exp_avg_sq, &new_step, &new_max_exp_avg_sq,
      &n, &dtype,
      {lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, amsgrad,
       lr_factor},
      found_inf, toStream(stream));
}

amp_status_t amp_adam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, const void *const *max_exp_avg_sqs,
    void *const *new_params, void *const *new_exp_avgs,
    void *const *new_exp_avg_sqs, float *const *new_steps,
    void *const *new_max_exp_avg_sqs, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, const float *lr_factor, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    int32_t amsgrad, const int8_t *found_inf, void *stream) {
  Checker check("amp_adam_update_multi");
  if (amp_status_t s = checkAdamUpdateMulti(
          check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps,
          max_exp_avg_sqs, new_params, new_exp_avgs, new_exp_avg_sqs, new_steps,
          new_max_exp_avg_sqs, sizes, dtypes, lr, beta1, beta2, eps,
          weight_decay, decoupled_weight_decay, amsgrad))
    return s;
  return launchMoments<AdamRule, kAdamCap>(
      check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps,
      max_exp_avg_sqs, new_params, new_exp_avgs, new_exp_avg_sqs, new_steps,
      new_max_exp_avg_sqs, sizes, dtypes,
      {lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, amsgrad,
       lr_factor},
      found_inf, toStream(stream));
}

amp_status_t amp_radam_update(const void *param, const void *grad,
                              const void *exp_avg, const void *exp_avg_sq,
                              const float *step, void *new_param,
                              void *new_exp_avg, void *new_exp_avg_sq,
                              float *new_step, int64_t n, amp_dtype_t dtype,
                              float lr, const float *lr_factor, float beta1,
                              float beta2, float eps, float weight_decay,
                              int32_t decoupled_weight_decay,
                              const int8_t *found_inf, void *stream) {
  Checker check("amp_radam_update");
  if (amp_status_t s = checkAdamUpdate(
          check, param, grad, exp_avg, exp_avg_sq, step, nullptr, new_param,
          new_exp_avg, new_exp_avg_sq, new_step, nullptr, n, dtype, lr, beta1,
          beta2, eps, weight_decay, decoupled_weight_decay, 0))
    return s;
  return launchMoments<RadamRule, 1>(
      check, 1, &param, &grad, &exp_avg, &exp_avg_sq, &step, nullptr,
      &new_param, &new_exp_avg, &new_exp_avg_sq, &new_step, nullptr, &n, &dtype,
      {lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, 0,
       lr_factor},
      found_inf, toStream(stream));
}

amp_status_t amp_radam_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *exp_avgs, const void *const *exp_avg_sqs,
    const float *const *steps, void *const *new_params,
    void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, const int8_t *found_inf,
    void *stream) {
  Checker check("amp_radam_update_multi");
  if (amp_status_t s = checkAdamUpdateMulti(
          check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps,
          nullptr, new_params, new_exp_avgs, new_exp_avg_sqs, new_steps,
          nullptr, sizes, dtypes, lr, beta1, beta2, eps, weight_decay,
          decoupled_weight_decay, 0))
    return s;
  return launchMoments<RadamRule, kAdamCap>(
      check, n_buffers, params, grads, exp_avgs, exp_avg_sqs, steps, nullptr,
      new_params, new_exp_avgs, new_exp_avg_sqs, new_steps, nullptr, sizes,
      dtypes,
      {lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, 0,
       lr_factor},
      found_inf, toStream(stream));
}

amp_status_t
amp_rmsprop_update(const void *param, const void *grad, const void *square_avg,
                   const void *momentum_buf, const void *grad_avg,
                   void *new_param, void *new_square_avg,
                   void *new_momentum_buf, void *new_grad_avg, int64_t n,
                   amp_dtype_t dtype, float lr, const float *lr_factor,
                   float alpha, float eps, float weight_decay, float momentum,
                   int32_t centered, const int8_t *found_inf, void *stream) {
  Checker check("amp_rmsprop_update");
  if (amp_status_t s = checkRmspropUpdate(
          check, param, grad, square_avg, momentum_buf, grad_avg, new_param,
          new_square_avg, new_momentum_buf, new_grad_avg, n, dtype, lr, alpha,
          eps, weight_decay, momentum, centered))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  return launchRmsprop<1>(
      check, 1, &param, &grad, &square_avg, &momentum_buf, &grad_avg,
      &new_param, &new_square_avg, &new_momentum_buf, &new_grad_avg, &n, &dtype,
      lr, lr_factor,
      rmspropCoefs(lr, alpha, eps, weight_decay, momentum, centered), found_inf,
      toStream(stream));
}

amp_status_t amp_rmsprop_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *square_avgs, const void *const *momentum_bufs,
    const void *const *grad_avgs, void *const *new_params,
    void *const *new_square_avgs, void *const *new_momentum_bufs,
    void *const *new_grad_avgs, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float alpha, float eps,
    float weight_decay, float momentum, int32_t centered,
    const int8_t *found_inf, void *stream) {
  Checker check("amp_rmsprop_update_multi");
  if (amp_status_t s = checkRmspropUpdateMulti(
          check, n_buffers, params, grads, square_avgs, momentum_bufs,
          grad_avgs, new_params, new_square_avgs, new_momentum_bufs,
          new_grad_avgs, sizes, dtypes, lr, alpha, eps, weight_decay, momentum,
          centered))
    return s;
  return launchRmsprop<kRmspropCap>(
      check, n_buffers, params, grads, square_avgs, momentum_bufs, grad_avgs,
      new_params, new_square_avgs, new_momentum_bufs, new_grad_avgs, sizes,
      dtypes, lr, lr_factor,
      rmspropCoefs(lr, alpha, eps, weight_decay, momentum, centered), found_inf,
      toStream(stream));
}

amp_status_t amp_adagrad_update(const void *param, const void *grad,
                                const void *state_sum, const float *step,
                                void *new_param, void *new_state_sum,
                                float *new_step, int64_t n, amp_dtype_t dtype,
                                float lr, const float *lr_factor,
                                float lr_decay, float eps, float weight_decay,
                                const int8_t *found_inf, void *stream) {
  Checker check("amp_adagrad_update");
  if (amp_status_t s = checkAdagradUpdate(
          check, param, grad, state_sum, step, new_param, new_state_sum,
          new_step, n, dtype, lr, lr_decay, eps, weight_decay))
    return s;
  return launchAdagrad<1>(check, 1, &param, &grad, &state_sum,
                          step ? &step : nullptr, &new_param, &new_state_sum,
                          step ? &new_step : nullptr, &n, &dtype, lr, lr_factor,
                          lr_decay, adagradCoefs(lr, eps, weight_decay),
                          found_inf, toStream(stream));
}

amp_status_t amp_adagrad_update_multi(
    int32_t n_buffers, const void *const *params, const void *const *grads,
    const void *const *state_sums, const float *const *steps,
    void *const *new_params, void *const *new_state_sums,
    float *const *new_steps, const int64_t *sizes, const amp_dtype_t *dtypes,
    float lr, const float *lr_factor, float lr_decay, float eps,
    float weight_decay, const int8_t *found_inf, void *stream) {
  Checker check("amp_adagrad_update_multi");
  if (amp_status_t s = checkAdagradUpdateMulti(
          check, n_buffers, params, grads, state_sums, steps, new_params,
          new_state_sums, new_steps, sizes, dtypes, lr, lr_decay, eps,
          weight_decay))
    return s;
  const bool counted = lr_decay > 0.0f;
  return launchAdagrad<kAdagradCap>(
      check, n_buffers, params, grads, state_sums, counted ? steps : nullptr,
      new_params, new_state_sums, counted ? new_steps : nullptr, sizes, dtypes,
      lr, lr_factor, lr_decay, adagradCoefs(lr, eps, weight_decay), found_inf,
      toStream(stream));
}

amp_status_t amp_clip_grad_norm(int32_t n_buffers, const void *const *grads,
                                void *const *clipped, const int64_t *sizes,
                                const amp_dtype_t *dtypes, float max_norm,
                                float norm_type, float *total_norm,
                                void *stream) {
  Checker check("amp_clip_grad_norm");
  if (amp_status_t s =
          checkClipGradNorm(check, n_buffers, grads, clipped, sizes, dtypes,
                            max_norm, norm_type, total_norm))
    return s;
  const cudaStream_t st = toStream(stream);
  int64_t chunks = 0, buffers = 0;
  for (int32_t i = 0; i < n_buffers; ++i)
    if (sizes[i] > 0) {
      chunks += (sizes[i] + kChunk - 1) / kChunk;
      ++buffers;
    }
  // partials[chunks], norms[buffers], coef.
  float *scratch = static_cast<float *>(
      allocScratch(check, (chunks + buffers + 1) * int64_t(sizeof(float))));
  if (!scratch)
    return AMP_STATUS_BACKEND_ERROR;
  float *norms = scratch + chunks, *coef = norms + buffers;
  auto args = std::make_unique<ClipArgs<kClipCap>>();
  args->coef = coef;
  args->p = norm_type;
  amp_status_t s = withClipNorm(norm_type, [&](auto tag) {
    constexpr ClipNormKind K = decltype(tag)::value;
    amp_status_t e = forEachClipGroup(
        check, *args, n_buffers, grads, clipped, sizes, dtypes,
        [&](unsigned groupChunks, int64_t firstBuffer, int64_t firstChunk) {
          args->partials = scratch + firstChunk;
          args->norms = norms + firstBuffer;
          normTermsKernel<kClipCap, K><<<groupChunks, kThreads, 0, st>>>(*args);
          if (amp_status_t e = launched(check, "clip-norm-terms"))
            return e;
          bufferNormsKernel<kClipCap, K>
              <<<args->table.count, kThreads, 0, st>>>(*args);
          return launched(check, "clip-buffer-norms");
        });
    if (e != AMP_STATUS_OK)
      return e;
    totalNormKernel<K><<<1, kThreads, 0, st>>>(norms, buffers, norm_type,
                                               max_norm, total_norm, coef);
    return launched(check, "clip-total-norm");
  });
  if (s == AMP_STATUS_OK)
    s = forEachClipGroup(check, *args, n_buffers, grads, clipped, sizes, dtypes,
                         [&](unsigned groupChunks, int64_t, int64_t) {
                           clipScaleKernel<kClipCap>
                               <<<groupChunks, kThreads, 0, st>>>(*args);
                           return launched(check, "clip-scale");
                         });
  // Stream-ordered: the kernels queued above still see the block.
  return freeScratch(check, scratch, s);
}

amp_status_t amp_ema_update(int32_t n_buffers, const void *const *averages,
                            const void *const *values,
                            void *const *new_averages, const int64_t *sizes,
                            const amp_dtype_t *dtypes, const float *weight,
                            void *stream) {
  Checker check("amp_ema_update");
  if (amp_status_t s = checkEmaUpdate(check, n_buffers, averages, values,
                                      new_averages, sizes, dtypes, weight))
    return s;
  const cudaStream_t st = toStream(stream);
  auto args = std::make_unique<EmaArgs<kEmaCap>>();
  args->weight = weight;
  auto ptrsOf = [&](int32_t i, void *(&p)[kEmaPtrs]) {
    p[0] = const_cast<void *>(averages[i]);
    p[1] = const_cast<void *>(values[i]);
    p[2] = new_averages[i];
  };
  return forEachGroup(check, args->table, n_buffers, sizes, dtypes, kEmaPtrs,
                      ptrsOf, [&](unsigned groupChunks, int64_t, int64_t) {
                        emaUpdateKernel<kEmaCap>
                            <<<groupChunks, kThreads, 0, st>>>(*args);
                        return launched(check, "ema-update");
                      });
}

amp_status_t amp_clip_grad_value(int32_t n_buffers, const void *const *grads,
                                 void *const *clipped, const int64_t *sizes,
                                 const amp_dtype_t *dtypes, float clip_value,
                                 void *stream) {
  Checker check("amp_clip_grad_value");
  if (amp_status_t s = checkClipGradValue(check, n_buffers, grads, clipped,
                                          sizes, dtypes, clip_value))
    return s;
  const cudaStream_t st = toStream(stream);
  auto args = std::make_unique<ClipArgs<kClipCap>>();
  args->clipValue = clip_value;
  return forEachClipGroup(check, *args, n_buffers, grads, clipped, sizes,
                          dtypes, [&](unsigned groupChunks, int64_t, int64_t) {
                            clipValueKernel<kClipCap>
                                <<<groupChunks, kThreads, 0, st>>>(*args);
                            return launched(check, "clip-value");
                          });
}

} // extern "C"
