//===- CompareOptimizer.cpp - LR schedules, the updates, clipping ---------===//
//
// Tolerances: the updates are bitwise (the same f32 operations in the same
// order, reference/OptimizerMath.h; the Adam scalars use f64 pow(), whose
// last f64 places may differ between glibc and CUDA, which could flip the
// f32 rounding of a bias correction with a probability of about
// 2^-28 / (1 - beta^t) per step value: a failure here on Adam alone, in
// every element of one step value, would be that). An update with an
// lr_factor is bitwise too (lr' is an exact f64 product rounded once), and
// equal to the update given lr' itself. amp_lr_schedule's factors within
// one f32 ulp (f64 cos() and pow() may differ in their last places between
// glibc and CUDA), its counters bitwise. A skipped step (found_inf set) is
// a byte-exact copy, NaN payloads included. amp_clip_grad_norm sums in a
// different order on each backend: the norm within the sum of both
// worst-case bounds (below), each clipped value within that plus one
// rounding; with coefficient 1 the clipped values are bitwise (the max
// norm is exact, a general p adds powf's error). amp_clip_grad_value is
// bitwise, and so is amp_ema_update. Adafactor
// sums too (rows, columns, norms): within bounds derived in its section,
// its step counter and unfactored variance bitwise.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iterator>
#include <utility>

using namespace amp::compare;

namespace {

struct SgdCfg {
  const char *name;
  float lr, momentum, dampening, weightDecay;
  int32_t nesterov;
};

const SgdCfg kSgdCfgs[] = {
    {"plain", 0.1f, 0.0f, 0.0f, 0.0f, 0},
    {"weight_decay", 0.05f, 0.0f, 0.0f, 1e-2f, 0},
    {"momentum", 0.01f, 0.9f, 0.0f, 1e-4f, 0},
    {"dampening", 0.02f, 0.9f, 0.1f, 1e-2f, 0},
    {"nesterov", 0.03f, 0.8f, 0.0f, 5e-4f, 1},
};

struct AdamCfg {
  const char *name;
  float lr, beta1, beta2, eps, weightDecay;
  int32_t decoupled;   // 1: AdamW; 0: Adam's L2 penalty
  int32_t amsgrad = 0; // 1: a max_exp_avg_sq per buffer
  bool radam = false;  // amp_radam_update (amsgrad 0)
};

const AdamCfg kAdamCfgs[] = {
    {"default", 1e-3f, 0.9f, 0.999f, 1e-8f, 1e-2f, 1},
    // 1 - beta1 >= 0.5: the other branch of PyTorch's lerp.
    {"low_beta1", 3e-3f, 0.3f, 0.99f, 1e-6f, 0.0f, 1},
    {"amsgrad", 1e-3f, 0.9f, 0.999f, 1e-8f, 1e-2f, 1, 1},
    // torch.optim.Adam: the penalty is added to the gradient.
    {"adam_l2", 1e-3f, 0.9f, 0.999f, 1e-8f, 0.1f, 0},
    // torch.optim.RAdam: rectified from t = 6 (beta2 0.999), t = 5 (0.99).
    {"radam", 1e-3f, 0.9f, 0.999f, 1e-8f, 0.1f, 0, 0, true},
    {"radam_decoupled", 3e-3f, 0.3f, 0.99f, 1e-6f, 1e-2f, 1, 0, true},
};

/// Overwrites the first elements with a NaN with a payload, -0, +inf and
/// the smallest subnormal: a skipped step must copy them bit for bit.
void putSpecials(Host &h) {
  const uint32_t f32[] = {0x7fa12345u, 0x80000000u, 0x7f800000u, 1u};
  const uint16_t f16[] = {0x7d01u, 0x8000u, 0x7c00u, 1u};
  const uint16_t bf16[] = {0x7f81u, 0x8000u, 0x7f80u, 1u};
  for (int64_t i = 0; i < 4 && i < h.numel(); ++i) {
    char *p = h.bytes.data() + i * amp_dtype_size(h.dtype);
    if (h.dtype == AMP_DTYPE_F32)
      std::memcpy(p, &f32[i], 4);
    else
      std::memcpy(p, h.dtype == AMP_DTYPE_F16 ? &f16[i] : &bf16[i], 2);
  }
}

/// The sizes the single-buffer cases run: empty, tiny, odd, one chunk of
/// the CUDA kernels (16384) and a bit, several chunks with a tail.
const int64_t kSizes[] = {0, 1, 7, 1000, 16385, 50001};

/// The schedule's factor `factor` points to, in `b`'s memory (NULL, and
/// `buf` left empty, when there is none).
const float *uploadFactor(Backend &b, Buf &buf, const float *factor) {
  if (!factor)
    return nullptr;
  buf = b.upload(scalarHost(AMP_DTYPE_F32, *factor));
  return static_cast<const float *>(buf.ptr);
}

/// lr' as kernels.h defines it: (float)((double)lr * (double)factor).
float scheduledLr(float lr, float factor) {
  return static_cast<float>(static_cast<double>(lr) *
                            static_cast<double>(factor));
}

std::string label(const char *what, amp_dtype_t dt, int64_t n) {
  return std::string(what) + " " + amp_dtype_name(dt) +
         " n=" + std::to_string(n);
}

//===----------------------------------------------------------------------===//
// SGD
//===----------------------------------------------------------------------===//

/// One amp_sgd_update on `b`: {new_param, new_buf}.
std::vector<Host> runSgd(Backend &b, const SgdCfg &cfg, const Host &param,
                         const Host &grad, const Host &buf, bool inPlace,
                         int64_t offset, int8_t flag, bool withFlag,
                         const float *factor = nullptr) {
  const bool mom = cfg.momentum > 0.0f;
  const amp_dtype_t dt = param.dtype;
  const int64_t n = param.numel();
  std::vector<Host> ins = {param, grad};
  if (mom)
    ins.push_back(buf);
  std::vector<int64_t> offsets(ins.size(), offset);
  DevList in = uploadList(b, ins, offsets);
  DevList out =
      inPlace ? DevList() : uploadList(b, {zeros(dt, n), zeros(dt, n)});
  void *np = inPlace ? in.ptrs[0] : out.ptrs[0];
  void *nb = !mom ? nullptr : inPlace ? in.ptrs[2] : out.ptrs[1];
  Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag)), lf;
  const float *lrFactor = uploadFactor(b, lf, factor);
  b.ok(AMP_CALL(b, amp_sgd_update, in.ptrs[0], in.ptrs[1],
                mom ? in.ptrs[2] : nullptr, np, nb, n, dt, cfg.lr, lrFactor,
                cfg.momentum, cfg.dampening, cfg.weightDecay, cfg.nesterov,
                withFlag ? static_cast<const int8_t *>(f.ptr) : nullptr,
                nullptr));
  std::vector<Host> res = downloadList(b, inPlace ? in : out);
  if (inPlace)
    res.erase(res.begin() + 1); // the grad
  if (!mom)
    res.resize(1);
  return res;
}

AMP_COMPARE_CASE(optimizer_sgd) {
  for (const SgdCfg &cfg : kSgdCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (int64_t n : kSizes)
        for (bool inPlace : {false, true}) {
          Host p = randomHost(c.rng, dt, n, -1, 1);
          Host g = randomHost(c.rng, dt, n, -1, 1);
          Host buf = randomHost(c.rng, dt, n, -0.5, 0.5);
          // Odd sizes also run unaligned (the unpacked path); found_inf
          // alternates between NULL and a clear flag.
          const int64_t offset = n % 2;
          const bool withFlag = n % 3 == 1;
          auto ref =
              runSgd(*c.ref, cfg, p, g, buf, inPlace, offset, 0, withFlag);
          auto dev =
              runSgd(*c.dev, cfg, p, g, buf, inPlace, offset, 0, withFlag);
          std::string what = std::string("sgd ") + cfg.name +
                             (inPlace ? " in place " : " ") + label("", dt, n);
          c.expectClose(what + " param", ref[0], dev[0], Tolerance::exact());
          if (ref.size() > 1)
            c.expectClose(what + " momentum", ref[1], dev[1],
                          Tolerance::exact());
        }
}

AMP_COMPARE_CASE(optimizer_sgd_skip) {
  for (const SgdCfg &cfg : kSgdCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (bool inPlace : {false, true}) {
        const int64_t n = 16385;
        Host p = randomHost(c.rng, dt, n, -1, 1);
        Host g = randomHost(c.rng, dt, n, -1, 1);
        Host buf = randomHost(c.rng, dt, n, -1, 1);
        putSpecials(p);
        putSpecials(buf);
        for (Backend *b : {c.ref, c.dev}) {
          auto out = runSgd(*b, cfg, p, g, buf, inPlace, 0, 1, true);
          std::string what = b->name() + " skipped sgd " + cfg.name +
                             (inPlace ? " in place " : " ") +
                             amp_dtype_name(dt);
          expectSameBytes(c, what + " param", p, out[0]);
          if (out.size() > 1)
            expectSameBytes(c, what + " momentum", buf, out[1]);
        }
      }
}

/// amp_sgd_update_multi on `b` over `l`: the new params then the new
/// buffers; or the same from one amp_sgd_update per buffer.
std::vector<Host> runSgdMulti(Backend &b, const SgdCfg &cfg, const MixedList &l,
                              const std::vector<Host> &params,
                              const std::vector<Host> &grads,
                              const std::vector<Host> &bufs, int8_t flag,
                              bool perBuffer, const float *factor = nullptr) {
  const bool mom = cfg.momentum > 0.0f;
  const int32_t n = static_cast<int32_t>(l.sizes.size());
  DevList p = uploadList(b, params, l.offsets);
  DevList g = uploadList(b, grads, l.offsets);
  DevList m = uploadList(b, bufs, l.offsets);
  // Out of place for the params, in place for the buffers.
  std::vector<Host> zero;
  for (const Host &h : params)
    zero.push_back(zeros(h.dtype, h.numel()));
  DevList np = uploadList(b, zero);
  Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag)), lf;
  const int8_t *fp = static_cast<const int8_t *>(f.ptr);
  const float *lrFactor = uploadFactor(b, lf, factor);
  if (perBuffer) {
    for (int32_t i = 0; i < n; ++i)
      b.ok(AMP_CALL(b, amp_sgd_update, p.ptrs[i], g.ptrs[i],
                    mom ? m.ptrs[i] : nullptr, np.ptrs[i],
                    mom ? m.ptrs[i] : nullptr, l.sizes[i], l.dtypes[i], cfg.lr,
                    lrFactor, cfg.momentum, cfg.dampening, cfg.weightDecay,
                    cfg.nesterov, fp, nullptr));
  } else {
    b.ok(AMP_CALL(b, amp_sgd_update_multi, n, p.in(), g.in(),
                  mom ? m.in() : nullptr, np.out(), mom ? m.out() : nullptr,
                  l.sizes.data(), l.dtypes.data(), cfg.lr, lrFactor,
                  cfg.momentum, cfg.dampening, cfg.weightDecay, cfg.nesterov,
                  fp, nullptr));
  }
  std::vector<Host> res = downloadList(b, np);
  if (mom)
    for (Host &h : downloadList(b, m))
      res.push_back(std::move(h));
  return res;
}

AMP_COMPARE_CASE(optimizer_sgd_multi) {
  // 40 mixed buffers in one launch; 700 small ones need two (the CUDA
  // table holds 604).
  for (int count : {40, 700})
    for (const SgdCfg &cfg : {kSgdCfgs[1], kSgdCfgs[4]}) {
      MixedList l = mixedList(count, count > 100);
      auto params = randomList(c, l, -1, 1);
      auto grads = randomList(c, l, -1, 1);
      auto bufs = randomList(c, l, -0.5, 0.5);
      putSpecials(params.back());
      for (int8_t flag : {0, 1}) {
        auto ref =
            runSgdMulti(*c.ref, cfg, l, params, grads, bufs, flag, false);
        auto dev =
            runSgdMulti(*c.dev, cfg, l, params, grads, bufs, flag, false);
        auto devSingle =
            runSgdMulti(*c.dev, cfg, l, params, grads, bufs, flag, true);
        const std::string what = std::string("sgd_multi ") + cfg.name + " " +
                                 std::to_string(count) + " buffers" +
                                 (flag ? " skipped" : "");
        for (size_t i = 0; i < ref.size(); ++i) {
          const std::string at = what + " output " + std::to_string(i);
          c.expectClose(at, ref[i], dev[i], Tolerance::exact());
          c.expectClose(at + " vs per-buffer calls", devSingle[i], dev[i],
                        Tolerance::exact());
          if (flag) // a skipped step copies the params, keeps the buffers
            expectSameBytes(c, at + " copy",
                            i < params.size() ? params[i]
                                              : bufs[i - params.size()],
                            dev[i]);
        }
      }
    }
}

//===----------------------------------------------------------------------===//
// Adam and AdamW
//===----------------------------------------------------------------------===//

/// One amp_adam_update on `b`: {new_param, new_m, new_v, new_step}, then
/// with AMSGrad the new max_exp_avg_sq (its input `vmax`).
std::vector<Host> runAdam(Backend &b, const AdamCfg &cfg, const Host &param,
                          const Host &grad, const Host &m, const Host &v,
                          const Host &vmax, float step, bool inPlace,
                          int64_t offset, int8_t flag, bool withFlag,
                          const float *factor = nullptr) {
  const amp_dtype_t dt = param.dtype;
  const int64_t n = param.numel();
  std::vector<Host> ins = {param, grad, m, v, scalarHost(AMP_DTYPE_F32, step)};
  std::vector<int64_t> offsets = {offset, offset, offset, offset, 0};
  std::vector<Host> outs = {zeros(dt, n), zeros(dt, n), zeros(dt, n),
                            zeros(AMP_DTYPE_F32, 1)};
  if (cfg.amsgrad) {
    ins.push_back(vmax);
    offsets.push_back(offset);
    outs.push_back(zeros(dt, n));
  }
  DevList in = uploadList(b, ins, offsets);
  DevList out = inPlace ? DevList() : uploadList(b, outs);
  // Outputs param, m, v, step, vmax; in place they are inputs 0, 2, 3, 4, 5.
  const int inIndex[5] = {0, 2, 3, 4, 5};
  auto o = [&](int k) { return inPlace ? in.ptrs[inIndex[k]] : out.ptrs[k]; };
  Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag)), lf;
  const float *lrFactor = uploadFactor(b, lf, factor);
  const int8_t *fp = withFlag ? static_cast<const int8_t *>(f.ptr) : nullptr;
  const float *step0 = static_cast<const float *>(in.ptrs[4]);
  float *step1 = static_cast<float *>(o(3));
  if (cfg.radam)
    b.ok(AMP_CALL(b, amp_radam_update, in.ptrs[0], in.ptrs[1], in.ptrs[2],
                  in.ptrs[3], step0, o(0), o(1), o(2), step1, n, dt, cfg.lr,
                  lrFactor, cfg.beta1, cfg.beta2, cfg.eps, cfg.weightDecay,
                  cfg.decoupled, fp, nullptr));
  else
    b.ok(AMP_CALL(b, amp_adam_update, in.ptrs[0], in.ptrs[1], in.ptrs[2],
                  in.ptrs[3], step0, cfg.amsgrad ? in.ptrs[5] : nullptr, o(0),
                  o(1), o(2), step1, cfg.amsgrad ? o(4) : nullptr, n, dt,
                  cfg.lr, lrFactor, cfg.beta1, cfg.beta2, cfg.eps,
                  cfg.weightDecay, cfg.decoupled, cfg.amsgrad, fp, nullptr));
  std::vector<Host> res = downloadList(b, inPlace ? in : out);
  if (inPlace)
    res.erase(res.begin() + 1); // the grad
  return res;
}

AMP_COMPARE_CASE(optimizer_adam) {
  for (const AdamCfg &cfg : kAdamCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (int64_t n : kSizes)
        for (float step : {0.0f, 9.0f, 12345.0f}) {
          const bool inPlace = step != 9.0f;
          Host p = randomHost(c.rng, dt, n, -1, 1);
          Host g = randomHost(c.rng, dt, n, -1, 1);
          Host m = randomHost(c.rng, dt, n, -0.1, 0.1);
          Host v = randomHost(c.rng, dt, n, 0, 0.01);
          // Maxima above and below v' (AMSGrad).
          Host vmax = randomHost(c.rng, dt, n, 0, 0.02);
          const int64_t offset = n % 2;
          const bool withFlag = n % 3 == 1;
          auto ref = runAdam(*c.ref, cfg, p, g, m, v, vmax, step, inPlace,
                             offset, 0, withFlag);
          auto dev = runAdam(*c.dev, cfg, p, g, m, v, vmax, step, inPlace,
                             offset, 0, withFlag);
          const std::string what = std::string("adam ") + cfg.name + " step " +
                                   std::to_string(int(step)) +
                                   (inPlace ? " in place" : "") +
                                   label("", dt, n);
          const char *names[] = {" param", " exp_avg", " exp_avg_sq", " step",
                                 " max_exp_avg_sq"};
          for (size_t k = 0; k < ref.size(); ++k)
            c.expectClose(what + names[k], ref[k], dev[k], Tolerance::exact());
        }
}

AMP_COMPARE_CASE(optimizer_adam_skip) {
  for (amp_dtype_t dt : floatDtypes())
    for (bool inPlace : {false, true}) {
      const int64_t n = 40000;
      Host p = randomHost(c.rng, dt, n, -1, 1);
      Host g = randomHost(c.rng, dt, n, -1, 1);
      Host m = randomHost(c.rng, dt, n, -1, 1);
      Host v = randomHost(c.rng, dt, n, 0, 1);
      Host vmax = randomHost(c.rng, dt, n, 0, 1);
      putSpecials(p);
      putSpecials(m);
      putSpecials(v);
      putSpecials(vmax);
      for (Backend *b : {c.ref, c.dev})
        for (const AdamCfg &cfg : {kAdamCfgs[0], kAdamCfgs[2], kAdamCfgs[4]}) {
          auto out =
              runAdam(*b, cfg, p, g, m, v, vmax, 7.0f, inPlace, 0, 1, true);
          const std::string what = b->name() + " skipped adam " + cfg.name +
                                   (inPlace ? " in place " : " ") +
                                   amp_dtype_name(dt);
          expectSameBytes(c, what + " param", p, out[0]);
          expectSameBytes(c, what + " exp_avg", m, out[1]);
          expectSameBytes(c, what + " exp_avg_sq", v, out[2]);
          expectSameBytes(c, what + " step", scalarHost(AMP_DTYPE_F32, 7.0),
                          out[3]);
          if (cfg.amsgrad)
            expectSameBytes(c, what + " max_exp_avg_sq", vmax, out[4]);
        }
    }
}

/// amp_adam_update_multi on `b` (or one amp_adam_update per buffer): the
/// new params, exp_avgs, exp_avg_sqs, with AMSGrad the max_exp_avg_sqs
/// (their inputs: the exp_avg_sqs halved), then the steps. Steps in place
/// for buffers i with inPlaceStep(i).
template <typename InPlaceStep>
std::vector<Host>
runAdamMulti(Backend &b, const AdamCfg &cfg, const MixedList &l,
             const std::vector<Host> &params, const std::vector<Host> &grads,
             const std::vector<Host> &ms, const std::vector<Host> &vs,
             InPlaceStep inPlaceStep, int8_t flag, bool perBuffer,
             const float *factor = nullptr) {
  const int32_t n = static_cast<int32_t>(l.sizes.size());
  DevList p = uploadList(b, params, l.offsets);
  DevList g = uploadList(b, grads, l.offsets);
  DevList m = uploadList(b, ms, l.offsets);
  DevList v = uploadList(b, vs, l.offsets);
  std::vector<Host> halves = vs;
  for (Host &h : halves)
    for (int64_t k = 0; k < h.numel(); ++k)
      h.set(k, h.get(k) / 2);
  DevList x =
      uploadList(b, cfg.amsgrad ? halves : std::vector<Host>(), l.offsets);
  auto xs = [&](int32_t i) { return cfg.amsgrad ? x.ptrs[i] : nullptr; };
  std::vector<Host> zero, stepHosts;
  for (int32_t i = 0; i < n; ++i) {
    zero.push_back(zeros(l.dtypes[i], l.sizes[i]));
    stepHosts.push_back(scalarHost(AMP_DTYPE_F32, (i % 4) * 1000.0 + i % 7));
  }
  DevList np = uploadList(b, zero); // m and v in place
  DevList steps = uploadList(b, stepHosts);
  DevList newSteps =
      uploadList(b, std::vector<Host>(n, zeros(AMP_DTYPE_F32, 1)));
  std::vector<const float *> sp;
  std::vector<float *> nsp;
  for (int32_t i = 0; i < n; ++i) {
    sp.push_back(static_cast<const float *>(steps.ptrs[i]));
    nsp.push_back(static_cast<float *>(inPlaceStep(i) ? steps.ptrs[i]
                                                      : newSteps.ptrs[i]));
  }
  Buf f = b.upload(scalarHost(AMP_DTYPE_BOOL, flag)), lf;
  const int8_t *fp = static_cast<const int8_t *>(f.ptr);
  const float *lrFactor = uploadFactor(b, lf, factor);
  if (cfg.radam && perBuffer) {
    for (int32_t i = 0; i < n; ++i)
      b.ok(AMP_CALL(b, amp_radam_update, p.ptrs[i], g.ptrs[i], m.ptrs[i],
                    v.ptrs[i], sp[i], np.ptrs[i], m.ptrs[i], v.ptrs[i], nsp[i],
                    l.sizes[i], l.dtypes[i], cfg.lr, lrFactor, cfg.beta1,
                    cfg.beta2, cfg.eps, cfg.weightDecay, cfg.decoupled, fp,
                    nullptr));
  } else if (cfg.radam) {
    b.ok(AMP_CALL(b, amp_radam_update_multi, n, p.in(), g.in(), m.in(), v.in(),
                  sp.data(), np.out(), m.out(), v.out(), nsp.data(),
                  l.sizes.data(), l.dtypes.data(), cfg.lr, lrFactor, cfg.beta1,
                  cfg.beta2, cfg.eps, cfg.weightDecay, cfg.decoupled, fp,
                  nullptr));
  } else if (perBuffer) {
    for (int32_t i = 0; i < n; ++i)
      b.ok(AMP_CALL(b, amp_adam_update, p.ptrs[i], g.ptrs[i], m.ptrs[i],
                    v.ptrs[i], sp[i], xs(i), np.ptrs[i], m.ptrs[i], v.ptrs[i],
                    nsp[i], xs(i), l.sizes[i], l.dtypes[i], cfg.lr, lrFactor,
                    cfg.beta1, cfg.beta2, cfg.eps, cfg.weightDecay,
                    cfg.decoupled, cfg.amsgrad, fp, nullptr));
  } else {
    b.ok(AMP_CALL(b, amp_adam_update_multi, n, p.in(), g.in(), m.in(), v.in(),
                  sp.data(), cfg.amsgrad ? x.in() : nullptr, np.out(), m.out(),
                  v.out(), nsp.data(), cfg.amsgrad ? x.out() : nullptr,
                  l.sizes.data(), l.dtypes.data(), cfg.lr, lrFactor, cfg.beta1,
                  cfg.beta2, cfg.eps, cfg.weightDecay, cfg.decoupled,
                  cfg.amsgrad, fp, nullptr));
  }
  std::vector<Host> res = downloadList(b, np);
  for (const DevList *d : {&m, &v, &x})
    for (Host &h : downloadList(b, *d))
      res.push_back(std::move(h));
  std::vector<Host> s = downloadList(b, steps), ns = downloadList(b, newSteps);
  for (int32_t i = 0; i < n; ++i)
    res.push_back(inPlaceStep(i) ? s[i] : ns[i]);
  return res;
}

AMP_COMPARE_CASE(optimizer_adam_multi) {
  // 30 mixed buffers in one launch; 400 small ones need two (the CUDA table
  // holds 320). Steps out of place (new_step written by the update kernel),
  // in place (a second kernel), or mixed.
  for (int count : {30, 400})
    for (int stepMode : {0, 1, 2}) {
      auto inPlaceStep = [&](int32_t i) {
        return stepMode == 1 || (stepMode == 2 && i % 3 == 0);
      };
      // AMSGrad (kAdamCfgs[2]) and RAdam in every step mode, the others
      // alternating.
      for (const AdamCfg &cfg : {kAdamCfgs[stepMode % 2], kAdamCfgs[2],
                                 kAdamCfgs[4 + stepMode % 2]}) {
        MixedList l = mixedList(count, count > 100);
        auto params = randomList(c, l, -1, 1);
        auto grads = randomList(c, l, -1, 1);
        auto ms = randomList(c, l, -0.1, 0.1);
        auto vs = randomList(c, l, 0, 0.01);
        for (int8_t flag : {0, 1}) {
          auto ref = runAdamMulti(*c.ref, cfg, l, params, grads, ms, vs,
                                  inPlaceStep, flag, false);
          auto dev = runAdamMulti(*c.dev, cfg, l, params, grads, ms, vs,
                                  inPlaceStep, flag, false);
          auto devSingle = runAdamMulti(*c.dev, cfg, l, params, grads, ms, vs,
                                        inPlaceStep, flag, true);
          const std::string what =
              std::string("adam_multi ") + cfg.name + " " +
              std::to_string(count) + " buffers, step mode " +
              std::to_string(stepMode) + (flag ? " skipped" : "");
          for (size_t i = 0; i < ref.size(); ++i) {
            const std::string at = what + " output " + std::to_string(i);
            c.expectClose(at, ref[i], dev[i], Tolerance::exact());
            c.expectClose(at + " vs per-buffer calls", devSingle[i], dev[i],
                          Tolerance::exact());
          }
          if (flag)
            for (size_t i = 0; i < params.size(); ++i)
              expectSameBytes(c, what + " param copy " + std::to_string(i),
                              params[i], dev[i]);
        }
      }
    }
}

//===----------------------------------------------------------------------===//
// Updates without Adam's scalars (RMSprop, Adagrad), single and multi
//===----------------------------------------------------------------------===//

/// The inputs of an update of a buffer list: the params, the gradients and
/// the state lists the update's configuration uses, in the kernel's order;
/// with `counted`, the last list holds the step counters (0-d f32).
struct UpdateInputs {
  std::vector<Host> params, grads;
  std::vector<std::vector<Host>> state;
  bool counted = false;

  /// What a skipped update leaves in its outputs: the params, then the
  /// state lists.
  std::vector<Host> updated() const {
    std::vector<Host> all = params;
    for (const std::vector<Host> &list : state)
      all.insert(all.end(), list.begin(), list.end());
    return all;
  }
};

/// An update's buffers on a backend: list 0 the params, then the state
/// lists; outputs in place, or zeroed buffers.
struct UpdateIo {
  DevList grads;
  std::vector<DevList> in, out;
  bool inPlace = false;

  /// Buffer i of list k (an output with `output`); NULL for k < 0, a list
  /// the configuration does not use.
  void *at(bool output, int k, int32_t i) const {
    return k < 0 ? nullptr : lists(output)[k].ptrs[i];
  }
  /// The pointer array of list k (NULL for k < 0).
  void *const *array(bool output, int k) const {
    return k < 0 ? nullptr : lists(output)[k].out();
  }

private:
  const std::vector<DevList> &lists(bool output) const {
    return output && !inPlace ? out : in;
  }
};

/// Uploads `x` to `b` (offsets from `l`), runs `call(io)` and returns the
/// new params, then the new state lists.
template <typename Call>
std::vector<Host> runUpdate(Backend &b, const MixedList &l,
                            const UpdateInputs &x, bool inPlace, Call call) {
  UpdateIo io;
  io.inPlace = inPlace;
  io.grads = uploadList(b, x.grads, l.offsets);
  std::vector<const std::vector<Host> *> lists = {&x.params};
  for (const std::vector<Host> &list : x.state)
    lists.push_back(&list);
  for (const std::vector<Host> *list : lists) {
    std::vector<Host> zero;
    for (const Host &h : *list)
      zero.push_back(zeros(h.dtype, h.numel()));
    io.in.push_back(uploadList(b, *list, l.offsets));
    io.out.push_back(inPlace ? DevList() : uploadList(b, zero));
  }
  call(io);
  std::vector<Host> res;
  for (const DevList &d : inPlace ? io.in : io.out)
    for (Host &h : downloadList(b, d))
      res.push_back(std::move(h));
  return res;
}

/// Runs an update with a found_inf (NULL: none) and an lr factor (NULL:
/// none), once per buffer or as one multi call, with lr `lr`.
using UpdateRunner = std::function<std::vector<Host>(
    Backend &b, const MixedList &l, const UpdateInputs &x, bool inPlace,
    const int8_t *flag, bool perBuffer, const float *factor, float lr)>;

/// The single-buffer sizes of every float dtype as one list (odd sizes
/// also unaligned: the unpacked path).
MixedList singleSizes() {
  MixedList l;
  for (amp_dtype_t dt : floatDtypes())
    for (int64_t n : kSizes) {
      l.sizes.push_back(n);
      l.dtypes.push_back(dt);
      l.offsets.push_back(n % 2);
    }
  return l;
}

/// One configuration of an update, per buffer at every single size, out
/// of place (found_inf NULL) and in place (a clear flag): bitwise the
/// reference's.
void compareUpdateSingle(
    Context &c, const std::string &what, float lr,
    const std::function<UpdateInputs(const MixedList &)> &inputs,
    const UpdateRunner &run) {
  const MixedList l = singleSizes();
  for (bool inPlace : {false, true}) {
    const UpdateInputs x = inputs(l);
    const int8_t clear = 0;
    const int8_t *flag = inPlace ? &clear : nullptr;
    auto ref = run(*c.ref, l, x, inPlace, flag, true, nullptr, lr);
    auto dev = run(*c.dev, l, x, inPlace, flag, true, nullptr, lr);
    for (size_t i = 0; i < ref.size(); ++i) {
      const size_t k = i % l.sizes.size();
      c.expectClose(what + (inPlace ? " in place" : "") + " output " +
                        std::to_string(i / l.sizes.size()) +
                        label("", l.dtypes[k], l.sizes[k]),
                    ref[i], dev[i], Tolerance::exact());
    }
  }
}

/// One configuration of an update over 40 mixed buffers (one launch) and
/// 700 small ones (more than one), skipped or not, with a schedule's
/// factor: bitwise the reference's, the per-buffer calls' and the update
/// given lr' itself; a skipped one copies every input it updates.
void compareUpdateMulti(
    Context &c, const std::string &what, float lr,
    const std::function<UpdateInputs(const MixedList &)> &inputs,
    const UpdateRunner &run) {
  for (int count : {40, 700}) {
    MixedList l = mixedList(count, count > 100);
    UpdateInputs x = inputs(l);
    putSpecials(x.params.back());
    // Not in a step counter: a NaN count would compare NaN payloads.
    for (size_t k = 0; k < x.state.size() - (x.counted ? 1 : 0); ++k)
      putSpecials(x.state[k].back());
    const std::vector<Host> updated = x.updated();
    for (int8_t flag : {0, 1}) {
      const float factor = 0.375f;
      auto ref = run(*c.ref, l, x, false, &flag, false, &factor, lr);
      auto dev = run(*c.dev, l, x, false, &flag, false, &factor, lr);
      auto devSingle = run(*c.dev, l, x, false, &flag, true, &factor, lr);
      auto devScaled = run(*c.dev, l, x, false, &flag, false, nullptr,
                           scheduledLr(lr, factor));
      const std::string at0 = what + " " + std::to_string(count) + " buffers" +
                              (flag ? " skipped" : "");
      for (size_t i = 0; i < ref.size(); ++i) {
        const std::string at = at0 + " output " + std::to_string(i);
        c.expectClose(at, ref[i], dev[i], Tolerance::exact());
        c.expectClose(at + " vs per-buffer calls", devSingle[i], dev[i],
                      Tolerance::exact());
        c.expectClose(at + " vs lr'", devScaled[i], dev[i], Tolerance::exact());
        if (flag)
          expectSameBytes(c, at + " copy", updated[i], dev[i]);
      }
    }
  }
}

/// found_inf and the lr factor in `b`'s memory (NULL for NULL).
struct Scalars {
  Buf flagBuf, factorBuf;
  const int8_t *flag = nullptr;
  const float *factor = nullptr;
  Scalars(Backend &b, const int8_t *flagValue, const float *factorValue) {
    if (flagValue) {
      flagBuf = b.upload(scalarHost(AMP_DTYPE_BOOL, *flagValue));
      flag = static_cast<const int8_t *>(flagBuf.ptr);
    }
    factor = uploadFactor(b, factorBuf, factorValue);
  }
};

//===----------------------------------------------------------------------===//
// RMSprop
//===----------------------------------------------------------------------===//

struct RmspropCfg {
  const char *name;
  float lr, alpha, eps, weightDecay, momentum;
  int32_t centered;
};

const RmspropCfg kRmspropCfgs[] = {
    {"plain", 1e-2f, 0.99f, 1e-8f, 0.0f, 0.0f, 0},
    {"weight_decay", 1e-2f, 0.9f, 1e-6f, 0.1f, 0.0f, 0},
    {"momentum", 1e-3f, 0.99f, 1e-8f, 1e-4f, 0.9f, 0},
    {"centered", 2e-3f, 0.9f, 1e-6f, 0.0f, 0.0f, 1},
    // 1 - alpha >= 0.5: the other branch of PyTorch's lerp.
    {"centered_momentum", 2e-3f, 0.3f, 1e-6f, 1e-2f, 0.8f, 1},
};

/// The inputs of `cfg`: square averages, then momentum buffers and
/// gradient averages if it has them. The square averages exceed the
/// squared gradient averages by 0.25 or more, so a centered step's
/// variance stays positive.
UpdateInputs rmspropInputs(Context &c, const RmspropCfg &cfg,
                           const MixedList &l) {
  UpdateInputs x{randomList(c, l, -1, 1), randomList(c, l, -1, 1), {}};
  x.state.push_back(randomList(c, l, 0.5, 1));
  if (cfg.momentum > 0.0f)
    x.state.push_back(randomList(c, l, -0.5, 0.5));
  if (cfg.centered)
    x.state.push_back(randomList(c, l, -0.5, 0.5));
  return x;
}

/// amp_rmsprop_update per buffer, or amp_rmsprop_update_multi, of `cfg`.
UpdateRunner rmspropRunner(const RmspropCfg &cfg) {
  return [cfg](Backend &b, const MixedList &l, const UpdateInputs &x,
               bool inPlace, const int8_t *flag, bool perBuffer,
               const float *factor, float lr) {
    const Scalars s(b, flag, factor);
    // The lists: param, square_avg, then those present.
    const int buf = cfg.momentum > 0.0f ? 2 : -1;
    const int avg = cfg.centered ? (buf < 0 ? 2 : 3) : -1;
    return runUpdate(b, l, x, inPlace, [&](const UpdateIo &io) {
      if (perBuffer) {
        for (int32_t i = 0; i < static_cast<int32_t>(l.sizes.size()); ++i)
          b.ok(AMP_CALL(
              b, amp_rmsprop_update, io.at(false, 0, i), io.grads.ptrs[i],
              io.at(false, 1, i), io.at(false, buf, i), io.at(false, avg, i),
              io.at(true, 0, i), io.at(true, 1, i), io.at(true, buf, i),
              io.at(true, avg, i), l.sizes[i], l.dtypes[i], lr, s.factor,
              cfg.alpha, cfg.eps, cfg.weightDecay, cfg.momentum, cfg.centered,
              s.flag, nullptr));
        return;
      }
      b.ok(AMP_CALL(
          b, amp_rmsprop_update_multi, static_cast<int32_t>(l.sizes.size()),
          io.array(false, 0), io.grads.in(), io.array(false, 1),
          io.array(false, buf), io.array(false, avg), io.array(true, 0),
          io.array(true, 1), io.array(true, buf), io.array(true, avg),
          l.sizes.data(), l.dtypes.data(), lr, s.factor, cfg.alpha, cfg.eps,
          cfg.weightDecay, cfg.momentum, cfg.centered, s.flag, nullptr));
    });
  };
}

AMP_COMPARE_CASE(optimizer_rmsprop) {
  for (const RmspropCfg &cfg : kRmspropCfgs)
    compareUpdateSingle(
        c, std::string("rmsprop ") + cfg.name, cfg.lr,
        [&](const MixedList &l) { return rmspropInputs(c, cfg, l); },
        rmspropRunner(cfg));
}

AMP_COMPARE_CASE(optimizer_rmsprop_multi) {
  for (const RmspropCfg &cfg : kRmspropCfgs)
    compareUpdateMulti(
        c, std::string("rmsprop_multi ") + cfg.name, cfg.lr,
        [&](const MixedList &l) { return rmspropInputs(c, cfg, l); },
        rmspropRunner(cfg));
}

//===----------------------------------------------------------------------===//
// Adagrad
//===----------------------------------------------------------------------===//

struct AdagradCfg {
  const char *name;
  float lr, eps, weightDecay;
  float lrDecay = 0.0f; // > 0: a step counter per buffer
};

const AdagradCfg kAdagradCfgs[] = {
    {"defaults", 1e-2f, 1e-10f, 0.0f},
    {"weight_decay", 5e-2f, 1e-10f, 0.1f},
    {"large_eps", 0.1f, 1e-2f, 1e-3f},
    {"lr_decay", 5e-2f, 1e-10f, 1e-2f, 0.05f},
};

/// Adagrad's inputs: sums of squares >= 0 (zero among them: putSpecials
/// and sizes with zeros), and with lr_decay step counters of various
/// counts.
UpdateInputs adagradInputs(Context &c, const AdagradCfg &cfg,
                           const MixedList &l) {
  UpdateInputs x{randomList(c, l, -1, 1),
                 randomList(c, l, -1, 1),
                 {randomList(c, l, 0, 2)}};
  if (cfg.lrDecay > 0.0f) {
    std::vector<Host> steps;
    for (size_t i = 0; i < l.sizes.size(); ++i)
      steps.push_back(scalarHost(AMP_DTYPE_F32, (i % 5) * 300.0 + i % 3));
    x.state.push_back(std::move(steps));
    x.counted = true;
  }
  return x;
}

/// amp_adagrad_update per buffer, or amp_adagrad_update_multi, of `cfg`.
UpdateRunner adagradRunner(const AdagradCfg &cfg) {
  return [cfg](Backend &b, const MixedList &l, const UpdateInputs &x,
               bool inPlace, const int8_t *flag, bool perBuffer,
               const float *factor, float lr) {
    const Scalars s(b, flag, factor);
    // The lists: param, state_sum, then the counters with lr_decay.
    const int step = cfg.lrDecay > 0.0f ? 2 : -1;
    return runUpdate(b, l, x, inPlace, [&](const UpdateIo &io) {
      if (perBuffer) {
        for (int32_t i = 0; i < static_cast<int32_t>(l.sizes.size()); ++i)
          b.ok(AMP_CALL(b, amp_adagrad_update, io.at(false, 0, i),
                        io.grads.ptrs[i], io.at(false, 1, i),
                        static_cast<const float *>(io.at(false, step, i)),
                        io.at(true, 0, i), io.at(true, 1, i),
                        static_cast<float *>(io.at(true, step, i)), l.sizes[i],
                        l.dtypes[i], lr, s.factor, cfg.lrDecay, cfg.eps,
                        cfg.weightDecay, s.flag, nullptr));
        return;
      }
      b.ok(AMP_CALL(
          b, amp_adagrad_update_multi, static_cast<int32_t>(l.sizes.size()),
          io.array(false, 0), io.grads.in(), io.array(false, 1),
          reinterpret_cast<const float *const *>(io.array(false, step)),
          io.array(true, 0), io.array(true, 1),
          reinterpret_cast<float *const *>(io.array(true, step)),
          l.sizes.data(), l.dtypes.data(), lr, s.factor, cfg.lrDecay, cfg.eps,
          cfg.weightDecay, s.flag, nullptr));
    });
  };
}

AMP_COMPARE_CASE(optimizer_adagrad) {
  for (const AdagradCfg &cfg : kAdagradCfgs)
    compareUpdateSingle(
        c, std::string("adagrad ") + cfg.name, cfg.lr,
        [&](const MixedList &l) { return adagradInputs(c, cfg, l); },
        adagradRunner(cfg));
}

AMP_COMPARE_CASE(optimizer_adagrad_multi) {
  for (const AdagradCfg &cfg : kAdagradCfgs)
    compareUpdateMulti(
        c, std::string("adagrad_multi ") + cfg.name, cfg.lr,
        [&](const MixedList &l) { return adagradInputs(c, cfg, l); },
        adagradRunner(cfg));
}

//===----------------------------------------------------------------------===//
// Adafactor
//===----------------------------------------------------------------------===//
//
// Tolerances: Adafactor's step sums (the squares of the grad along each row
// and each column, the stored row variances, the squares of the param and
// of the update direction), and the CUDA kernel sums in another order than
// the reference (per-thread strided sums then trees, columns in runs of
// rows: cuda/KernelsAdafactor.cu), so that only the step counter and an
// unfactored variance (element-wise, the same f32 operations; f64 pow() as
// Adam's above) are bitwise. The rest is within the sum of both backends'
// worst-case bounds, propagated, with u = 2^-24 (adafactorTolerances):
//   - a sum of m terms >= 0: the reference's rows and norms in blocks of
//     256, (256 + m/256) u, its columns and row means in order, m u; CUDA's
//     rows and row means by a thread, a warp or the block, (m/32 + 16) u,
//     its columns in runs of rows, (m + 1) u, its norms as
//     amp_clip_grad_norm's, (100 + n/2^22) u;
//   - a stored row_var' or col_var': its sum's, 16 u for the square root,
//     square, division and lerp on both sides, and one rounding that flips
//     in the state's dtype (2^-23, 2^-10, 2^-7 of the value);
//   - the direction u = g / sqrt(max(row * col / mean, eps1^2)): the three
//     states' (the row mean sums the stored row_var'), halved by the root;
//   - the step -alpha / denom: the param's norm's and the direction's;
//   - the param: p * decay is the same on both; the update negStep * u
//     within the last two compounded, times the largest |negStep * u| of
//     the step (adafactorUpdateScale), plus the f32 sum's rounding on both
//     sides and one flip of the dtype.
// In bf16 the states' flips dominate (about 4% of the update, a fraction
// of an ulp of the param); in f32 a [4096, 3] param's column sums allow
// about 1e-3 of the update, a few ulps of the param.
// Each step starts both backends from the reference's previous state, so
// that the bounds are one step's: the state and the counter carry over
// (t = 1..5 from zero states, as PyTorch starts, and t = 12345..12346,
// where rho = 1/sqrt(t) < lr), in place every other step.

struct AdafactorCfg {
  const char *name;
  float lr, beta2Decay, eps1, eps2, d, weightDecay;
};

const AdafactorCfg kAdafactorCfgs[] = {
    // torch.optim.Adafactor's defaults (eps1 None: f32's epsilon, as
    // nn-autodiff passes it).
    {"defaults", 1e-2f, -0.8f, 1.1920929e-7f, 1e-3f, 1.0f, 0.0f},
    {"weight_decay", 1e-2f, -0.8f, 1.1920929e-7f, 1e-3f, 1.0f, 0.1f},
    // lr above 1/sqrt(t) from t = 5 (rho = 1/sqrt(t)), a slower decay of
    // the state, d 2.
    {"large_lr", 0.5f, -0.5f, 1e-12f, 1e-3f, 2.0f, 1e-2f},
    // beta2_decay 0: beta = 1, each step's state replaces the last; eps1
    // above some g^2 (the variance clamped), eps2 above the params' RMS
    // (alpha = eps2 * rho).
    {"clamps", 3e-2f, 0.0f, 0.05f, 1.0f, 1.0f, 0.0f},
};

/// A param as the kernel sees it: n elements as [n / (rows * cols), rows,
/// cols] (factored), or a vector (rows = cols = 0).
struct AdafactorShape {
  const char *name; // PyTorch's
  int64_t n, rows, cols;
  bool factored() const { return rows > 0; }
};

/// Factored params (PyTorch factors those of 2 dims or more over their
/// last two), by the CUDA kernel's paths: a row of the grad summed by one
/// thread (cols <= 16), a warp (< 1024) or the block; a column by one
/// thread, or in runs of rows (fewer than 2^18 columns and more than 64
/// rows); the row means likewise by rows; chunks of 16384 and a tail.
const AdafactorShape kAdafactorMatrices[] = {
    {"[5, 4]", 20, 5, 4},
    {"[64, 100]", 6400, 64, 100},
    {"[8, 6, 3, 3]", 432, 3, 3},        // a conv weight: 48 matrices
    {"[5, 130, 70]", 45500, 130, 70},   // 3 runs per column, 3 chunks
    {"[4096, 3]", 12288, 4096, 3},      // tall and narrow: 64 runs
    {"[3, 4096]", 12288, 3, 4096},      // wide: a block per row
    {"[257, 1023]", 262911, 257, 1023}, // 5 runs, 17 chunks
    {"[1, 1]", 1, 1, 1},
    {"[1, 300]", 300, 1, 300},
    {"[300, 1]", 300, 300, 1},
};

/// Unfactored params: a 0-d scalar, vectors short, odd and around the
/// chunk.
const AdafactorShape kAdafactorVectors[] = {
    {"[]", 1, 0, 0},          {"[7]", 7, 0, 0},
    {"[1000]", 1000, 0, 0},   {"[16384]", 16384, 0, 0},
    {"[16385]", 16385, 0, 0}, {"[50001]", 50001, 0, 0},
};

/// One buffer's state: the param, row_var [B, rows] and col_var [B, cols]
/// (factored) or variance (not), and the step counter.
struct AdafactorState {
  Host param, rowVar, colVar, variance, step;

  bool factored() const { return rowVar.numel() > 0; }
  /// What the step updates, named.
  std::vector<std::pair<const char *, const Host *>> parts() const {
    if (factored())
      return {{" param", &param},
              {" row_var", &rowVar},
              {" col_var", &colVar},
              {" step", &step}};
    return {{" param", &param}, {" variance", &variance}, {" step", &step}};
  }
};

/// A random param of shape `s` in `dt` at counter `step`, with zero states
/// at 0 (as PyTorch starts) and random ones (>= 0) later.
AdafactorState adafactorInputs(Context &c, const AdafactorShape &s,
                               amp_dtype_t dt, double step) {
  AdafactorState x;
  x.param = randomHost(c.rng, dt, s.n, -1, 1);
  auto state = [&](int64_t m) {
    return step == 0 ? zeros(dt, m) : randomHost(c.rng, dt, m, 0, 0.5);
  };
  if (s.factored()) {
    const int64_t batch = s.n / (s.rows * s.cols);
    x.rowVar = state(batch * s.rows);
    x.colVar = state(batch * s.cols);
  } else {
    x.variance = state(s.n);
  }
  x.step = scalarHost(AMP_DTYPE_F32, step);
  return x;
}

/// Every part of two states bitwise: byte for byte (`bytes`: copies, NaN
/// payloads included) or as Tolerance::exact.
void expectSameState(Context &c, const std::string &what,
                     const AdafactorState &expected,
                     const AdafactorState &actual, bool bytes) {
  const auto e = expected.parts(), a = actual.parts();
  for (size_t k = 0; k < e.size(); ++k) {
    if (bytes)
      expectSameBytes(c, what + e[k].first, *e[k].second, *a[k].second);
    else
      c.expectClose(what + e[k].first, *e[k].second, *a[k].second,
                    Tolerance::exact());
  }
}

/// One buffer on a backend: the inputs (param, grad, the state, the step
/// counter; the state's at element `offset` of its buffers) and, out of
/// place, zeroed outputs in the same order.
struct AdafactorIo {
  DevList in, out;
  bool inPlace = false, factored = false;

  void *at(bool output, int k) const {
    return (output && !inPlace ? out : in).ptrs[k];
  }
  void *param(bool output) const { return at(output, 0); }
  const void *grad() const { return in.ptrs[1]; }
  void *rowVar(bool output) const { return factored ? at(output, 2) : nullptr; }
  void *colVar(bool output) const { return factored ? at(output, 3) : nullptr; }
  void *variance(bool output) const {
    return factored ? nullptr : at(output, 2);
  }
  float *step(bool output) const {
    return static_cast<float *>(at(output, factored ? 4 : 3));
  }
};

AdafactorIo uploadAdafactor(Backend &b, const AdafactorState &x,
                            const Host &grad, bool inPlace, int64_t offset) {
  AdafactorIo io;
  io.inPlace = inPlace;
  io.factored = x.factored();
  std::vector<Host> ins = {x.param, grad};
  if (io.factored) {
    ins.push_back(x.rowVar);
    ins.push_back(x.colVar);
  } else {
    ins.push_back(x.variance);
  }
  ins.push_back(x.step);
  std::vector<int64_t> offsets(ins.size(), offset);
  offsets.back() = 0;
  io.in = uploadList(b, ins, offsets);
  if (!inPlace) {
    std::vector<Host> zero;
    for (const Host &h : ins)
      zero.push_back(zeros(h.dtype, h.numel()));
    io.out = uploadList(b, zero, offsets);
  }
  return io;
}

AdafactorState downloadAdafactor(Backend &b, const AdafactorIo &io) {
  std::vector<Host> h = downloadList(b, io.inPlace ? io.in : io.out);
  AdafactorState y;
  y.param = std::move(h[0]);
  if (io.factored) {
    y.rowVar = std::move(h[2]);
    y.colVar = std::move(h[3]);
  } else {
    y.variance = std::move(h[2]);
  }
  y.step = std::move(h.back());
  return y;
}

/// amp_adafactor_update of `io` (shape `s`, dtype `dt`) on `b`.
amp_status_t callAdafactor(Backend &b, const AdafactorCfg &cfg,
                           const AdafactorShape &s, amp_dtype_t dt,
                           const AdafactorIo &io, const Scalars &sc, float lr) {
  return AMP_CALL(b, amp_adafactor_update, io.param(false), io.grad(),
                  io.rowVar(false), io.colVar(false), io.variance(false),
                  io.step(false), io.param(true), io.rowVar(true),
                  io.colVar(true), io.variance(true), io.step(true), s.n, dt,
                  s.rows, s.cols, lr, sc.factor, cfg.beta2Decay, cfg.eps1,
                  cfg.eps2, cfg.d, cfg.weightDecay, sc.flag, nullptr);
}

/// One amp_adafactor_update on `b` from `x` with `grad`: the new state.
/// found_inf and the schedule's factor NULL for none; lr as given.
AdafactorState runAdafactor(Backend &b, const AdafactorCfg &cfg,
                            const AdafactorShape &s, const AdafactorState &x,
                            const Host &grad, bool inPlace, int64_t offset,
                            const int8_t *flag, const float *factor, float lr) {
  const AdafactorIo io = uploadAdafactor(b, x, grad, inPlace, offset);
  const Scalars sc(b, flag, factor);
  b.ok(callAdafactor(b, cfg, s, x.param.dtype, io, sc, lr));
  return downloadAdafactor(b, io);
}

/// The largest |negStep * u| of the step from `x` with `grad` (lr the
/// scheduled one), in f64 from the reference's new state `y`: alpha / denom
/// * max |u|, with a quarter more for the f32 arithmetic's departures from
/// it.
double adafactorUpdateScale(const AdafactorCfg &cfg, const AdafactorShape &s,
                            const AdafactorState &x, const Host &grad,
                            const AdafactorState &y, float lr) {
  const double n = static_cast<double>(s.n), eps1 = cfg.eps1;
  double paramSq = 0;
  for (int64_t i = 0; i < s.n; ++i)
    paramSq += x.param.get(i) * x.param.get(i);
  const double t = x.step.get(0) + 1;
  const double rho = std::min(static_cast<double>(lr), 1 / std::sqrt(t));
  const double alpha =
      std::max(static_cast<double>(cfg.eps2), std::sqrt(paramSq / n)) * rho;
  std::vector<double> means;
  if (s.factored())
    for (int64_t b = 0; b < s.n / (s.rows * s.cols); ++b) {
      double sum = 0;
      for (int64_t r = 0; r < s.rows; ++r)
        sum += y.rowVar.get(b * s.rows + r);
      means.push_back(std::max(sum / static_cast<double>(s.rows), eps1));
    }
  double dirSq = 0, dirMax = 0;
  for (int64_t i = 0; i < s.n; ++i) {
    double v;
    if (s.factored()) {
      const int64_t row = i / s.cols, b = row / s.rows;
      v = y.rowVar.get(row) * y.colVar.get(b * s.cols + i % s.cols) /
          means[static_cast<size_t>(b)];
    } else {
      v = y.variance.get(i);
    }
    const double u = grad.get(i) / std::sqrt(std::max(v, eps1 * eps1));
    dirSq += u * u;
    dirMax = std::max(dirMax, std::fabs(u));
  }
  const double denom = std::max(1.0, std::sqrt(dirSq / n) / double(cfg.d));
  return 1.25 * alpha / denom * dirMax;
}

/// An ulp of a normal value v of `dt` is at most this times |v|.
double ulpRel(amp_dtype_t dt) {
  return std::ldexp(1.0, dt == AMP_DTYPE_F16    ? -10
                         : dt == AMP_DTYPE_BF16 ? -7
                                                : -23);
}

/// The relative error bounds of the sums of m terms >= 0 (the comment
/// above): the reference's in blocks of 256, CUDA's by a thread, a warp or
/// the block, CUDA's norms.
double blockedSumBound(double m) {
  return (256 + m / 256) * std::ldexp(1.0, -24);
}
double groupSumBound(double m) { return (m / 32 + 16) * std::ldexp(1.0, -24); }
double normSumBound(double n) {
  return (100 + n / 4194304) * std::ldexp(1.0, -24);
}

struct AdafactorTolerances {
  Tolerance param, rowVar, colVar;
};

/// How far a backend's step from `x` with `grad` may be from the
/// reference's `y` (the comment above); lr the scheduled one.
AdafactorTolerances adafactorTolerances(const AdafactorCfg &cfg,
                                        const AdafactorShape &s,
                                        const AdafactorState &x,
                                        const Host &grad,
                                        const AdafactorState &y, float lr) {
  const double u = std::ldexp(1.0, -24), flip = ulpRel(x.param.dtype);
  const double n = static_cast<double>(s.n);
  const double rows = static_cast<double>(s.rows);
  const double cols = static_cast<double>(s.cols);
  AdafactorTolerances t;
  double dir = 0; // of u = g / sqrt(v): 0 with v the bitwise variance
  if (s.factored()) {
    const double row =
        blockedSumBound(cols) + groupSumBound(cols) + 16 * u + flip;
    const double col = (2 * rows + 1 + 16) * u + flip;
    const double mean = row + rows * u + groupSumBound(rows) + 2 * u;
    const double v = (1 + row) * (1 + col) / (1 - mean) - 1 + 4 * u;
    dir = 1 / std::sqrt(1 - v) - 1 + 6 * u;
    t.rowVar = Tolerance{0, row, 2, false};
    t.colVar = Tolerance{0, col, 2, false};
  }
  const double sums = blockedSumBound(n) + normSumBound(n);
  const double paramNorm = sums / 2 + 2 * u;
  const double dirSq = (1 + dir) * (1 + dir) - 1 + 2 * u + sums;
  const double dirNorm = 1 - std::sqrt(1 - dirSq) + 2 * u;
  const double negStep = (1 + paramNorm) / (1 - dirNorm) - 1 + 4 * u;
  const double update = (1 + negStep) * (1 + dir) - 1 + 2 * u;
  t.param = Tolerance{update * adafactorUpdateScale(cfg, s, x, grad, y, lr),
                      4 * u + flip, 2, false};
  return t;
}

/// Both backends' new states from the same step: the counter and an
/// unfactored variance bitwise, the rest within adafactorTolerances.
void compareAdafactor(Context &c, const std::string &what,
                      const AdafactorCfg &cfg, const AdafactorShape &s,
                      const AdafactorState &x, const Host &grad, float lr,
                      const AdafactorState &ref, const AdafactorState &dev) {
  const AdafactorTolerances tol = adafactorTolerances(cfg, s, x, grad, ref, lr);
  c.expectClose(what + " param", ref.param, dev.param, tol.param);
  if (s.factored()) {
    c.expectClose(what + " row_var", ref.rowVar, dev.rowVar, tol.rowVar);
    c.expectClose(what + " col_var", ref.colVar, dev.colVar, tol.colVar);
  } else {
    c.expectClose(what + " variance", ref.variance, dev.variance,
                  Tolerance::exact());
  }
  c.expectClose(what + " step", ref.step, dev.step, Tolerance::exact());
}

/// `steps` consecutive steps of `cfg` on a param of shape `s` in `dt` from
/// counter `start`, each from the reference's previous state with a new
/// grad: in place every other step, aligned and one element past (the
/// unpacked path) in turn, found_inf NULL or clear, and every third step
/// with a schedule's factor (on the device also bitwise the step given lr'
/// itself).
void compareAdafactorSteps(Context &c, const AdafactorCfg &cfg,
                           const AdafactorShape &s, amp_dtype_t dt,
                           double start, int steps) {
  AdafactorState x = adafactorInputs(c, s, dt, start);
  const int8_t clear = 0;
  const float factor = 0.3f;
  for (int k = 0; k < steps; ++k) {
    const Host grad = randomHost(c.rng, dt, s.n, -1, 1);
    const bool inPlace = k % 2 == 1;
    const int64_t offset = (s.n + k) % 2;
    const int8_t *flag = k % 3 == 1 ? &clear : nullptr;
    const float *f = k % 3 == 2 ? &factor : nullptr;
    const float lr = f ? scheduledLr(cfg.lr, factor) : cfg.lr;
    AdafactorState ref =
        runAdafactor(*c.ref, cfg, s, x, grad, inPlace, offset, flag, f, cfg.lr);
    AdafactorState dev =
        runAdafactor(*c.dev, cfg, s, x, grad, inPlace, offset, flag, f, cfg.lr);
    const std::string what =
        std::string("adafactor ") + cfg.name + " " + amp_dtype_name(dt) + " " +
        s.name + " t=" + std::to_string(static_cast<int64_t>(start) + k + 1) +
        (inPlace ? " in place" : "") + (f ? " with a factor" : "");
    compareAdafactor(c, what, cfg, s, x, grad, lr, ref, dev);
    if (f)
      expectSameState(c, what + " vs lr'", dev,
                      runAdafactor(*c.dev, cfg, s, x, grad, inPlace, offset,
                                   flag, nullptr, lr),
                      false);
    x = std::move(ref);
  }
}

AMP_COMPARE_CASE(optimizer_adafactor) {
  std::vector<AdafactorShape> shapes(std::begin(kAdafactorMatrices),
                                     std::end(kAdafactorMatrices));
  shapes.insert(shapes.end(), std::begin(kAdafactorVectors),
                std::end(kAdafactorVectors));
  for (const AdafactorCfg &cfg : kAdafactorCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (const AdafactorShape &s : shapes) {
        compareAdafactorSteps(c, cfg, s, dt, 0, 5);
        compareAdafactorSteps(c, cfg, s, dt, 12344, 2);
      }
}

AMP_COMPARE_CASE(optimizer_adafactor_large) {
  // 257 chunks: the neg-step kernel's threads add more than one chunk's
  // sums; a block per row, 33 runs per column. And a vector of as many.
  const AdafactorShape shapes[] = {{"[2049, 2049]", 2049 * 2049, 2049, 2049},
                                   {"[4198401]", 2049 * 2049, 0, 0}};
  for (const AdafactorShape &s : shapes)
    compareAdafactorSteps(c, kAdafactorCfgs[1], s, AMP_DTYPE_F32, 0, 2);
}

AMP_COMPARE_CASE(optimizer_adafactor_skip) {
  // A set found_inf: every output a byte-exact copy of its input (NaN
  // payloads included), with weight decay and a schedule's factor.
  const AdafactorShape shapes[] = {kAdafactorMatrices[2], kAdafactorMatrices[4],
                                   kAdafactorMatrices[6], kAdafactorVectors[0],
                                   kAdafactorVectors[4]};
  const AdafactorCfg &cfg = kAdafactorCfgs[1];
  const int8_t set = 1;
  const float factor = 0.3f;
  for (amp_dtype_t dt : floatDtypes())
    for (const AdafactorShape &s : shapes)
      for (bool inPlace : {false, true}) {
        AdafactorState x = adafactorInputs(c, s, dt, 7);
        putSpecials(x.param);
        putSpecials(s.factored() ? x.rowVar : x.variance);
        if (s.factored())
          putSpecials(x.colVar);
        const Host grad = randomHost(c.rng, dt, s.n, -1, 1);
        for (Backend *b : {c.ref, c.dev})
          expectSameState(c,
                          b->name() + " skipped adafactor " +
                              amp_dtype_name(dt) + " " + s.name +
                              (inPlace ? " in place" : ""),
                          x,
                          runAdafactor(*b, cfg, s, x, grad, inPlace, s.n % 2,
                                       &set, &factor, cfg.lr),
                          true);
      }
}

/// Buffers for amp_adafactor_update_multi (every one factored or none),
/// with mixed dtypes, some one element past a 16-byte boundary and some
/// updated in place.
struct AdafactorList {
  std::vector<AdafactorShape> shapes;
  std::vector<amp_dtype_t> dtypes;
  std::vector<int64_t> offsets;
  std::vector<bool> inPlace;
};

AdafactorList adafactorList(bool factored) {
  AdafactorList l;
  if (factored)
    l.shapes.assign(std::begin(kAdafactorMatrices),
                    std::end(kAdafactorMatrices));
  else
    l.shapes = {kAdafactorVectors[0], kAdafactorVectors[1],
                kAdafactorVectors[2], {"[33]", 33, 0, 0},
                kAdafactorVectors[4], kAdafactorVectors[3],
                kAdafactorVectors[5], {"[3]", 3, 0, 0}};
  for (size_t i = 0; i < l.shapes.size(); ++i) {
    l.dtypes.push_back(floatDtypes()[i % 3]);
    l.offsets.push_back(i % 4 == 3 ? 1 : 0);
    l.inPlace.push_back(i % 3 == 0);
  }
  return l;
}

/// amp_adafactor_update_multi on `b` over `l` (or one amp_adafactor_update
/// per buffer): the new states.
std::vector<AdafactorState>
runAdafactorMulti(Backend &b, const AdafactorCfg &cfg, const AdafactorList &l,
                  const std::vector<AdafactorState> &xs,
                  const std::vector<Host> &grads, int8_t flag, bool perBuffer,
                  const float *factor, float lr) {
  const size_t count = l.shapes.size();
  std::vector<AdafactorIo> io;
  for (size_t i = 0; i < count; ++i)
    io.push_back(
        uploadAdafactor(b, xs[i], grads[i], l.inPlace[i], l.offsets[i]));
  const Scalars sc(b, &flag, factor);
  if (perBuffer) {
    for (size_t i = 0; i < count; ++i)
      b.ok(callAdafactor(b, cfg, l.shapes[i], l.dtypes[i], io[i], sc, lr));
  } else {
    std::vector<const void *> params, gs, rowVars, colVars, variances;
    std::vector<void *> newParams, newRowVars, newColVars, newVariances;
    std::vector<const float *> steps;
    std::vector<float *> newSteps;
    std::vector<int64_t> sizes, rows, cols;
    for (size_t i = 0; i < count; ++i) {
      params.push_back(io[i].param(false));
      gs.push_back(io[i].grad());
      rowVars.push_back(io[i].rowVar(false));
      colVars.push_back(io[i].colVar(false));
      variances.push_back(io[i].variance(false));
      steps.push_back(io[i].step(false));
      newParams.push_back(io[i].param(true));
      newRowVars.push_back(io[i].rowVar(true));
      newColVars.push_back(io[i].colVar(true));
      newVariances.push_back(io[i].variance(true));
      newSteps.push_back(io[i].step(true));
      sizes.push_back(l.shapes[i].n);
      rows.push_back(l.shapes[i].rows);
      cols.push_back(l.shapes[i].cols);
    }
    const bool f = l.shapes[0].factored();
    b.ok(AMP_CALL(
        b, amp_adafactor_update_multi, static_cast<int32_t>(count),
        params.data(), gs.data(), f ? rowVars.data() : nullptr,
        f ? colVars.data() : nullptr, f ? nullptr : variances.data(),
        steps.data(), newParams.data(), f ? newRowVars.data() : nullptr,
        f ? newColVars.data() : nullptr, f ? nullptr : newVariances.data(),
        newSteps.data(), sizes.data(), l.dtypes.data(),
        f ? rows.data() : nullptr, f ? cols.data() : nullptr, lr, sc.factor,
        cfg.beta2Decay, cfg.eps1, cfg.eps2, cfg.d, cfg.weightDecay, sc.flag,
        nullptr));
  }
  std::vector<AdafactorState> res;
  for (size_t i = 0; i < count; ++i)
    res.push_back(downloadAdafactor(b, io[i]));
  return res;
}

AMP_COMPARE_CASE(optimizer_adafactor_multi) {
  // Every buffer with its own counter (0, 1, 12346, 3, ...), two steps in
  // a row, with a schedule's factor: within the tolerances of the
  // reference, bitwise the per-buffer calls' and the call given lr'
  // itself; a skipped one copies every state (the last buffer's with
  // NaN, inf, -0 and a subnormal).
  const float factor = 0.375f;
  for (const AdafactorCfg &cfg : {kAdafactorCfgs[1], kAdafactorCfgs[2]})
    for (bool factored : {true, false})
      for (int8_t flag : {0, 1}) {
        const AdafactorList l = adafactorList(factored);
        std::vector<AdafactorState> xs;
        for (size_t i = 0; i < l.shapes.size(); ++i)
          xs.push_back(adafactorInputs(c, l.shapes[i], l.dtypes[i],
                                       i % 3 == 2 ? 12344.0 + i : double(i)));
        if (flag) {
          AdafactorState &last = xs.back();
          putSpecials(last.param);
          putSpecials(factored ? last.rowVar : last.variance);
          if (factored)
            putSpecials(last.colVar);
        }
        const float lr = scheduledLr(cfg.lr, factor);
        for (int step = 0; step < 2; ++step) {
          std::vector<Host> grads;
          for (size_t i = 0; i < l.shapes.size(); ++i)
            grads.push_back(
                randomHost(c.rng, l.dtypes[i], l.shapes[i].n, -1, 1));
          auto ref = runAdafactorMulti(*c.ref, cfg, l, xs, grads, flag, false,
                                       &factor, cfg.lr);
          auto dev = runAdafactorMulti(*c.dev, cfg, l, xs, grads, flag, false,
                                       &factor, cfg.lr);
          auto devSingle = runAdafactorMulti(*c.dev, cfg, l, xs, grads, flag,
                                             true, &factor, cfg.lr);
          auto devScaled = runAdafactorMulti(*c.dev, cfg, l, xs, grads, flag,
                                             false, nullptr, lr);
          const std::string what = std::string("adafactor_multi ") + cfg.name +
                                   (factored ? " factored" : " unfactored") +
                                   " step " + std::to_string(step) +
                                   (flag ? " skipped" : "");
          for (size_t i = 0; i < l.shapes.size(); ++i) {
            const std::string at = what + " buffer " + std::to_string(i) + " " +
                                   amp_dtype_name(l.dtypes[i]) + " " +
                                   l.shapes[i].name;
            if (flag) {
              expectSameState(c, at + " reference copy", xs[i], ref[i], true);
              expectSameState(c, at + " copy", xs[i], dev[i], true);
            } else {
              compareAdafactor(c, at, cfg, l.shapes[i], xs[i], grads[i], lr,
                               ref[i], dev[i]);
            }
            expectSameState(c, at + " vs per-buffer calls", devSingle[i],
                            dev[i], false);
            expectSameState(c, at + " vs lr'", devScaled[i], dev[i], false);
          }
          xs = std::move(ref);
        }
      }
  // No buffers: nothing to do, on both.
  auto none = [](Backend &b) {
    return AMP_CALL(b, amp_adafactor_update_multi, 0, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 1e-2f,
                    nullptr, -0.8f, 1e-3f, 1e-3f, 1.0f, 0.0f, nullptr, nullptr);
  };
  const amp_status_t refNone = none(*c.ref);
  if (c.expectSameStatus("adafactor_multi no buffers", refNone, none(*c.dev)) &&
      refNone != AMP_STATUS_OK)
    c.fail("adafactor_multi no buffers: returned " + std::to_string(refNone) +
           ": " + c.ref->lastError());
}

AMP_COMPARE_CASE(optimizer_adafactor_errors) {
  // Calls on host memory that the shared checks reject, each a change of
  // one of two well-formed calls (an unfactored vector of 4 f32 elements, a
  // factored [2, 2] matrix; and their _multi forms over two buffers), which
  // the reference first accepts.
  alignas(16) static char host[256];
  void *a = host;
  void *odd = host + 1;
  float *step = reinterpret_cast<float *>(host + 128);
  struct Single {
    const void *rowVar, *colVar, *variance;
    void *newRowVar, *newColVar, *newVariance;
    const float *step;
    float *newStep;
    int64_t n;
    amp_dtype_t dtype;
    int64_t rows, cols;
    float lr, beta2Decay, eps1, eps2, d, weightDecay;
  };
  const Single unfactored{
      nullptr,       nullptr, a, nullptr, nullptr, a,     step,  step, 4,
      AMP_DTYPE_F32, 0,       0, 1e-2f,   -0.8f,   1e-3f, 1e-3f, 1.0f, 0.0f};
  Single factored = unfactored;
  factored.rowVar = factored.colVar = a;
  factored.newRowVar = factored.newColVar = a;
  factored.variance = factored.newVariance = nullptr;
  factored.rows = factored.cols = 2;
  auto callSingle = [&](Backend &b, const Single &x) {
    return AMP_CALL(b, amp_adafactor_update, a, a, x.rowVar, x.colVar,
                    x.variance, x.step, a, x.newRowVar, x.newColVar,
                    x.newVariance, x.newStep, x.n, x.dtype, x.rows, x.cols,
                    x.lr, nullptr, x.beta2Decay, x.eps1, x.eps2, x.d,
                    x.weightDecay, nullptr, nullptr);
  };
  auto single = [&](const char *what, Single x, auto change) {
    change(x);
    expectRejected(c, std::string("adafactor ") + what,
                   [&](Backend &b) { return callSingle(b, x); });
  };

  const void *ins[2] = {a, a};
  void *outs[2] = {a, a};
  const void *oddIns[2] = {a, odd};
  const float *steps[2] = {step, step};
  float *newSteps[2] = {step, step};
  const int64_t sizes[2] = {4, 4};
  const int64_t withEmpty[2] = {4, 0};
  const int64_t twos[2] = {2, 2};
  const int64_t badRows[2] = {2, 3};
  const amp_dtype_t dtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_F32};
  const amp_dtype_t badDtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_I32};
  struct Multi {
    int32_t count;
    const void *const *rowVars;
    const void *const *colVars;
    const void *const *variances;
    void *const *newRowVars;
    void *const *newColVars;
    void *const *newVariances;
    const float *const *steps;
    const int64_t *sizes;
    const amp_dtype_t *dtypes;
    const int64_t *rows, *cols;
    float beta2Decay, d;
  };
  const Multi unfactoredMulti{2,       nullptr, nullptr, ins,   nullptr,
                              nullptr, outs,    steps,   sizes, dtypes,
                              nullptr, nullptr, -0.8f,   1.0f};
  Multi factoredMulti = unfactoredMulti;
  factoredMulti.rowVars = factoredMulti.colVars = ins;
  factoredMulti.newRowVars = factoredMulti.newColVars = outs;
  factoredMulti.variances = nullptr;
  factoredMulti.newVariances = nullptr;
  factoredMulti.rows = factoredMulti.cols = twos;
  auto callMulti = [&](Backend &b, const Multi &x) {
    return AMP_CALL(b, amp_adafactor_update_multi, x.count, ins, ins, x.rowVars,
                    x.colVars, x.variances, x.steps, outs, x.newRowVars,
                    x.newColVars, x.newVariances, newSteps, x.sizes, x.dtypes,
                    x.rows, x.cols, 1e-2f, nullptr, x.beta2Decay, 1e-3f, 1e-3f,
                    x.d, 0.0f, nullptr, nullptr);
  };
  auto multi = [&](const char *what, Multi x, auto change) {
    change(x);
    expectRejected(c, std::string("adafactor_multi ") + what,
                   [&](Backend &b) { return callMulti(b, x); });
  };

  // The reference alone (host memory): the unchanged calls are accepted.
  for (const Single &x : {unfactored, factored}) {
    ++c.checks;
    if (callSingle(*c.ref, x) != AMP_STATUS_OK)
      c.fail("adafactor: a well-formed call failed: " + c.ref->lastError());
  }
  for (const Multi &x : {unfactoredMulti, factoredMulti}) {
    ++c.checks;
    if (callMulti(*c.ref, x) != AMP_STATUS_OK)
      c.fail("adafactor_multi: a well-formed call failed: " +
             c.ref->lastError());
  }

  single("n 0", unfactored, [](Single &x) { x.n = 0; });
  single("factored n 0", factored, [](Single &x) { x.n = 0; });
  single("rows 0", factored, [](Single &x) { x.rows = 0; });
  single("cols -2", factored, [](Single &x) { x.cols = -2; });
  single("rows not dividing n", factored, [](Single &x) { x.rows = 3; });
  single("rows * cols not dividing n", factored, [](Single &x) { x.n = 6; });
  single("rows without row_var", unfactored, [](Single &x) {
    x.rows = 2;
    x.cols = 2;
  });
  single("beta2_decay 0.5", unfactored, [](Single &x) { x.beta2Decay = 0.5f; });
  single("beta2_decay NaN", unfactored, [](Single &x) { x.beta2Decay = NAN; });
  single("d 0.5", unfactored, [](Single &x) { x.d = 0.5f; });
  single("d inf", unfactored, [](Single &x) { x.d = INFINITY; });
  single("lr NaN", unfactored, [](Single &x) { x.lr = NAN; });
  single("eps1 -1e-30", unfactored, [](Single &x) { x.eps1 = -1e-30f; });
  single("eps2 inf", unfactored, [](Single &x) { x.eps2 = INFINITY; });
  single("weight_decay -0.1", unfactored,
         [](Single &x) { x.weightDecay = -0.1f; });
  single("row_var without col_var", factored,
         [](Single &x) { x.colVar = nullptr; });
  single("row_var without new_row_var", factored,
         [](Single &x) { x.newRowVar = nullptr; });
  single("row_var and variance", factored, [&](Single &x) {
    x.variance = a;
    x.newVariance = a;
  });
  single("neither row_var nor variance", unfactored, [](Single &x) {
    x.variance = nullptr;
    x.newVariance = nullptr;
  });
  single("variance without new_variance", unfactored,
         [](Single &x) { x.newVariance = nullptr; });
  single("i32", unfactored, [](Single &x) { x.dtype = AMP_DTYPE_I32; });
  single("NULL step", unfactored, [](Single &x) { x.step = nullptr; });
  single("NULL new_step", factored, [](Single &x) { x.newStep = nullptr; });
  single("misaligned variance", unfactored,
         [&](Single &x) { x.variance = odd; });
  single("misaligned new_col_var", factored,
         [&](Single &x) { x.newColVar = odd; });

  multi("n_buffers -1", unfactoredMulti, [](Multi &x) { x.count = -1; });
  // The hyperparameters are checked without buffers too.
  multi("no buffers, d 0.5", unfactoredMulti, [](Multi &x) {
    x.count = 0;
    x.d = 0.5f;
  });
  multi("no buffers, beta2_decay 0.1", factoredMulti, [](Multi &x) {
    x.count = 0;
    x.beta2Decay = 0.1f;
  });
  multi("NULL steps", unfactoredMulti, [](Multi &x) { x.steps = nullptr; });
  multi("NULL sizes", factoredMulti, [](Multi &x) { x.sizes = nullptr; });
  multi("row_vars without rows", factoredMulti,
        [](Multi &x) { x.rows = nullptr; });
  multi("row_vars without new_col_vars", factoredMulti,
        [](Multi &x) { x.newColVars = nullptr; });
  multi("row_vars and variances", factoredMulti, [&](Multi &x) {
    x.variances = ins;
    x.newVariances = outs;
  });
  multi("variances with rows and cols", unfactoredMulti, [&](Multi &x) {
    x.rows = twos;
    x.cols = twos;
  });
  multi("col_vars without row_vars", unfactoredMulti,
        [&](Multi &x) { x.colVars = ins; });
  multi("size 0", unfactoredMulti, [&](Multi &x) { x.sizes = withEmpty; });
  multi("factored size 0", factoredMulti,
        [&](Multi &x) { x.sizes = withEmpty; });
  multi("rows 3 of size 4", factoredMulti, [&](Multi &x) { x.rows = badRows; });
  multi("beta2_decay 0.1", factoredMulti,
        [](Multi &x) { x.beta2Decay = 0.1f; });
  multi("d 0.99", unfactoredMulti, [](Multi &x) { x.d = 0.99f; });
  multi("misaligned col_var", factoredMulti,
        [&](Multi &x) { x.colVars = oddIns; });
  multi("i32 buffer", unfactoredMulti, [&](Multi &x) { x.dtypes = badDtypes; });
}

//===----------------------------------------------------------------------===//
// Learning-rate schedules
//===----------------------------------------------------------------------===//

struct ScheduleCfg {
  const char *name;
  amp_lr_schedule_t kind;
  int64_t warmupSteps;
  float warmupStartFactor;
  int64_t totalSteps;
  float finalFactor;
  int64_t stepSize;
  float gamma;
  float power = 1.0f;
  std::vector<int64_t> milestones = {};
};

const ScheduleCfg kScheduleCfgs[] = {
    {"constant, LinearLR warmup", AMP_LR_SCHEDULE_CONSTANT, 5, 1.0f / 3.0f, 0,
     0.0f, 0, 0.0f},
    {"linear", AMP_LR_SCHEDULE_LINEAR, 10, 0.0f, 100, 0.0f, 0, 0.0f},
    {"linear with a floor", AMP_LR_SCHEDULE_LINEAR, 4, 0.25f, 20, 0.1f, 0,
     0.0f},
    {"cosine", AMP_LR_SCHEDULE_COSINE, 10, 0.0f, 100, 0.0f, 0, 0.0f},
    {"cosine with a floor", AMP_LR_SCHEDULE_COSINE, 100, 0.01f, 10000, 0.05f, 0,
     0.0f},
    {"step", AMP_LR_SCHEDULE_STEP, 0, 0.0f, 0, 0.0f, 3, 0.1f},
    {"step after warmup", AMP_LR_SCHEDULE_STEP, 4, 0.5f, 0, 0.0f, 2, 0.5f},
    {"exponential", AMP_LR_SCHEDULE_EXPONENTIAL, 0, 0.0f, 0, 0.0f, 0, 0.95f},
    {"exponential after warmup", AMP_LR_SCHEDULE_EXPONENTIAL, 3, 0.0f, 0, 0.0f,
     0, 0.999f},
    {"polynomial", AMP_LR_SCHEDULE_POLYNOMIAL, 0, 0.0f, 100, 0.0f, 0, 0.0f,
     2.0f},
    {"polynomial with warmup and a floor", AMP_LR_SCHEDULE_POLYNOMIAL, 10, 0.0f,
     10000, 0.01f, 0, 0.0f, 0.5f},
    {"multistep",
     AMP_LR_SCHEDULE_MULTISTEP,
     0,
     0.0f,
     0,
     0.0f,
     0,
     0.1f,
     1.0f,
     {3, 50, 100, 9999}},
    {"multistep after warmup",
     AMP_LR_SCHEDULE_MULTISTEP,
     5,
     0.1f,
     0,
     0.0f,
     0,
     0.5f,
     1.0f,
     {0, 4, 5, 1000000}},
};

/// One amp_lr_schedule on `b` at counter value `count`: {factor,
/// new_count}, the counter in place when asked.
std::vector<Host> runSchedule(Backend &b, const ScheduleCfg &cfg, double count,
                              bool inPlace) {
  DevList d = uploadList(b, {scalarHost(AMP_DTYPE_F32, count),
                             zeros(AMP_DTYPE_F32, 1), zeros(AMP_DTYPE_F32, 1)});
  float *countPtr = static_cast<float *>(d.ptrs[0]);
  b.ok(AMP_CALL(b, amp_lr_schedule, countPtr, static_cast<float *>(d.ptrs[1]),
                inPlace ? countPtr : static_cast<float *>(d.ptrs[2]), cfg.kind,
                cfg.warmupSteps, cfg.warmupStartFactor, cfg.totalSteps,
                cfg.finalFactor, cfg.stepSize, cfg.gamma, cfg.power,
                cfg.milestones.empty() ? nullptr : cfg.milestones.data(),
                static_cast<int32_t>(cfg.milestones.size()), nullptr));
  std::vector<Host> res = downloadList(b, d);
  return {res[1], inPlace ? res[0] : res[2]};
}

AMP_COMPARE_CASE(optimizer_lr_schedule) {
  // s = 0, inside and at the end of each warmup, the middles, around each
  // T, far past them, the f32 counter's last exact step, and counts taken
  // as 0 (negative, -0, NaN).
  const double counts[] = {0,    1,     2,     3,          4,   5,    9,
                           10,   11,    50,    99,         100, 101,  5000,
                           9999, 10000, 10001, 123457,     1e6, 1e30, 16777215,
                           -3,   -0.0,  -1e30, double(NAN)};
  for (const ScheduleCfg &cfg : kScheduleCfgs)
    for (double count : counts)
      for (bool inPlace : {false, true}) {
        auto ref = runSchedule(*c.ref, cfg, count, inPlace);
        auto dev = runSchedule(*c.dev, cfg, count, inPlace);
        const std::string what = std::string("lr_schedule ") + cfg.name +
                                 " count " + std::to_string(count) +
                                 (inPlace ? " in place" : "");
        c.expectClose(what + " factor", ref[0], dev[0], Tolerance::ulpsOf(1));
        c.expectClose(what + " new_count", ref[1], dev[1], Tolerance::exact());
      }
}

AMP_COMPARE_CASE(optimizer_lr_factor) {
  // Products lr * factor that f32 does not hold, 0, a warmup's start.
  const float factors[] = {0.3f, 0.0f, 1.0f / 3.0f};
  for (const SgdCfg &cfg : kSgdCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (int64_t n : {int64_t{7}, int64_t{16385}})
        for (float factor : factors) {
          Host p = randomHost(c.rng, dt, n, -1, 1);
          Host g = randomHost(c.rng, dt, n, -1, 1);
          Host buf = randomHost(c.rng, dt, n, -0.5, 0.5);
          const bool inPlace = n == 7;
          SgdCfg scheduled = cfg;
          scheduled.lr = scheduledLr(cfg.lr, factor);
          auto ref =
              runSgd(*c.ref, cfg, p, g, buf, inPlace, 0, 0, false, &factor);
          auto dev =
              runSgd(*c.dev, cfg, p, g, buf, inPlace, 0, 0, false, &factor);
          auto devLr = runSgd(*c.dev, scheduled, p, g, buf, inPlace, 0, 0,
                              false, nullptr);
          const std::string what = std::string("sgd ") + cfg.name + " factor " +
                                   std::to_string(factor) + label("", dt, n);
          for (size_t k = 0; k < ref.size(); ++k) {
            const std::string at = what + " output " + std::to_string(k);
            c.expectClose(at, ref[k], dev[k], Tolerance::exact());
            c.expectClose(at + " vs lr'", devLr[k], dev[k], Tolerance::exact());
          }
          // A skipped step copies, whatever the factor.
          auto skipped =
              runSgd(*c.dev, cfg, p, g, buf, false, 0, 1, true, &factor);
          expectSameBytes(c, what + " skipped param", p, skipped[0]);
        }
  for (const AdamCfg &cfg : kAdamCfgs)
    for (amp_dtype_t dt : floatDtypes())
      for (int64_t n : {int64_t{7}, int64_t{16385}})
        for (float factor : factors) {
          Host p = randomHost(c.rng, dt, n, -1, 1);
          Host g = randomHost(c.rng, dt, n, -1, 1);
          Host m = randomHost(c.rng, dt, n, -0.1, 0.1);
          Host v = randomHost(c.rng, dt, n, 0, 0.01);
          const bool inPlace = n == 7;
          AdamCfg scheduled = cfg;
          scheduled.lr = scheduledLr(cfg.lr, factor);
          auto ref = runAdam(*c.ref, cfg, p, g, m, v, v, 3.0f, inPlace, 0, 0,
                             false, &factor);
          auto dev = runAdam(*c.dev, cfg, p, g, m, v, v, 3.0f, inPlace, 0, 0,
                             false, &factor);
          auto devLr = runAdam(*c.dev, scheduled, p, g, m, v, v, 3.0f, inPlace,
                               0, 0, false, nullptr);
          const std::string what = std::string("adam ") + cfg.name +
                                   " factor " + std::to_string(factor) +
                                   label("", dt, n);
          for (size_t k = 0; k < ref.size(); ++k) {
            const std::string at = what + " output " + std::to_string(k);
            c.expectClose(at, ref[k], dev[k], Tolerance::exact());
            c.expectClose(at + " vs lr'", devLr[k], dev[k], Tolerance::exact());
          }
          auto skipped = runAdam(*c.dev, cfg, p, g, m, v, v, 3.0f, false, 0, 1,
                                 true, &factor);
          expectSameBytes(c, what + " skipped param", p, skipped[0]);
          expectSameBytes(c, what + " skipped step",
                          scalarHost(AMP_DTYPE_F32, 3.0), skipped[3]);
        }
}

AMP_COMPARE_CASE(optimizer_lr_factor_multi) {
  const float factor = 0.3f;
  for (int8_t flag : {0, 1}) {
    MixedList l = mixedList(40, false);
    auto params = randomList(c, l, -1, 1);
    auto grads = randomList(c, l, -1, 1);
    auto bufs = randomList(c, l, -0.5, 0.5);
    const SgdCfg &cfg = kSgdCfgs[3];
    auto ref =
        runSgdMulti(*c.ref, cfg, l, params, grads, bufs, flag, false, &factor);
    auto dev =
        runSgdMulti(*c.dev, cfg, l, params, grads, bufs, flag, false, &factor);
    auto devSingle =
        runSgdMulti(*c.dev, cfg, l, params, grads, bufs, flag, true, &factor);
    const std::string what =
        std::string("sgd_multi with a factor") + (flag ? " skipped" : "");
    for (size_t i = 0; i < ref.size(); ++i) {
      const std::string at = what + " output " + std::to_string(i);
      c.expectClose(at, ref[i], dev[i], Tolerance::exact());
      c.expectClose(at + " vs per-buffer calls", devSingle[i], dev[i],
                    Tolerance::exact());
    }
  }
  for (int8_t flag : {0, 1}) {
    MixedList l = mixedList(30, false);
    auto params = randomList(c, l, -1, 1);
    auto grads = randomList(c, l, -1, 1);
    auto ms = randomList(c, l, -0.1, 0.1);
    auto vs = randomList(c, l, 0, 0.01);
    auto inPlaceStep = [](int32_t i) { return i % 2 == 0; };
    const AdamCfg &cfg = kAdamCfgs[0];
    auto ref = runAdamMulti(*c.ref, cfg, l, params, grads, ms, vs, inPlaceStep,
                            flag, false, &factor);
    auto dev = runAdamMulti(*c.dev, cfg, l, params, grads, ms, vs, inPlaceStep,
                            flag, false, &factor);
    auto devSingle = runAdamMulti(*c.dev, cfg, l, params, grads, ms, vs,
                                  inPlaceStep, flag, true, &factor);
    const std::string what =
        std::string("adam_multi with a factor") + (flag ? " skipped" : "");
    for (size_t i = 0; i < ref.size(); ++i) {
      const std::string at = what + " output " + std::to_string(i);
      c.expectClose(at, ref[i], dev[i], Tolerance::exact());
      c.expectClose(at + " vs per-buffer calls", devSingle[i], dev[i],
                    Tolerance::exact());
    }
  }
}

//===----------------------------------------------------------------------===//
// Gradient-norm clipping
//===----------------------------------------------------------------------===//

/// The (grad, clipped) lists of a clipping call on `b`: `call(in, out)`,
/// out of place or in place; returns the clipped buffers.
template <typename Call>
std::vector<Host> runClipping(Backend &b, const MixedList &l,
                              const std::vector<Host> &grads, bool inPlace,
                              Call call) {
  const int32_t n = static_cast<int32_t>(l.sizes.size());
  DevList g = uploadList(b, grads, l.offsets);
  std::vector<Host> zero;
  for (int32_t i = 0; i < n; ++i)
    zero.push_back(zeros(l.dtypes[i], l.sizes[i]));
  DevList out = inPlace ? DevList() : uploadList(b, zero, l.offsets);
  call(n, g.in(), inPlace ? g.out() : out.out());
  return downloadList(b, inPlace ? g : out);
}

/// amp_clip_grad_norm on `b`: the clipped buffers, then the total norm.
std::vector<Host> runClip(Backend &b, const MixedList &l,
                          const std::vector<Host> &grads, float maxNorm,
                          bool inPlace, float normType = 2.0f) {
  Buf total = b.upload(zeros(AMP_DTYPE_F32, 1));
  std::vector<Host> res = runClipping(
      b, l, grads, inPlace,
      [&](int32_t n, const void *const *in, void *const *out) {
        b.ok(AMP_CALL(b, amp_clip_grad_norm, n, in, out, l.sizes.data(),
                      l.dtypes.data(), maxNorm, normType,
                      static_cast<float *>(total.ptr), nullptr));
      });
  res.push_back(b.download(total));
  return res;
}

/// The relative error bound of the 2-norm and the 1-norm on either backend,
/// added: the reference's (256 + n/256 + buffers + 6) u (blocks of 256
/// sequential terms, OptimizerTest.cpp) and the CUDA kernels' (64
/// sequential terms per thread, three trees of 256, n/2^22 and buffers/256
/// sequential terms, the square roots: 100 + n/2^22 + buffers/256) u, with
/// u = 2^-24. A general p adds powf's error on both (glibc's 1 ulp and
/// CUDA's 4, in the terms and the root: 16 u), the sum's error scaled by
/// the root's 1/p; the maximum of the inf norm is exact.
double normBound(const MixedList &l, float normType = 2.0f) {
  if (std::isinf(normType))
    return 0;
  double n = 0;
  for (int64_t s : l.sizes)
    n += double(s);
  const double buffers = double(l.sizes.size());
  const double sums =
      (256 + n / 256 + buffers + 6 + 100 + n / 4194304 + buffers / 256) *
      std::ldexp(1.0, -24);
  if (normType == 1.0f || normType == 2.0f)
    return sums;
  return sums * std::max(1.0, 1.0 / normType) + 16 * std::ldexp(1.0, -24);
}

void compareClip(Context &c, const std::string &what, const MixedList &l,
                 const std::vector<Host> &grads, float maxNorm, bool inPlace,
                 bool exactValues, float normType = 2.0f) {
  auto ref = runClip(*c.ref, l, grads, maxNorm, inPlace, normType);
  auto dev = runClip(*c.dev, l, grads, maxNorm, inPlace, normType);
  const double rel = normBound(l, normType);
  c.expectClose(what + " total_norm", ref.back(), dev.back(),
                Tolerance::close(0, rel));
  // coef = max_norm / (total + 1e-6): the norm's error plus one rounding
  // of the coefficient and of the product, and one ulp of the output dtype
  // for a rounding that flips.
  const Tolerance values =
      exactValues ? Tolerance::exact()
                  : Tolerance{0, rel + std::ldexp(1.0, -22), 1, false};
  for (size_t i = 0; i + 1 < ref.size(); ++i)
    c.expectClose(what + " clipped " + std::to_string(i), ref[i], dev[i],
                  values);
}

AMP_COMPARE_CASE(optimizer_clip_grad_norm) {
  for (bool inPlace : {false, true}) {
    const std::string mode = inPlace ? " in place" : "";
    MixedList l = mixedList(23, false);
    auto grads = randomList(c, l, -1, 1);
    compareClip(c, "clip 23 buffers" + mode, l, grads, 1.0f, inPlace, false);
    // coef clamps to 1: the clipped values are the grads.
    compareClip(c, "clip 23 buffers, no clipping" + mode, l, grads, 1e30f,
                inPlace, true);
  }
  // One large buffer (many chunks), one element, only empty buffers.
  for (int64_t n : {int64_t{3} << 20, int64_t{1}}) {
    MixedList l{{n}, {AMP_DTYPE_F32}, {0}};
    compareClip(c, "clip n=" + std::to_string(n), l, randomList(c, l, -1, 1),
                0.5f, false, false);
  }
  MixedList empty{{0, 0}, {AMP_DTYPE_F16, AMP_DTYPE_F32}, {0, 0}};
  compareClip(c, "clip empty buffers", empty, randomList(c, empty, -1, 1), 1.0f,
              false, true);
  // More buffers than one CUDA launch holds (1089).
  MixedList many = mixedList(1200, true);
  compareClip(c, "clip 1200 buffers", many, randomList(c, many, -1, 1), 2.0f,
              false, false);
}

AMP_COMPARE_CASE(optimizer_clip_grad_norm_types) {
  // clip_grad_norm_'s other norms: the 1-norm, the max norm (its blocks and
  // trees take the NaN-winning maximum) and general p, over mixed buffers,
  // one large buffer and more buffers than one CUDA launch holds.
  for (float p : {1.0f, INFINITY, 3.0f, 0.5f}) {
    const std::string norm = " norm_type " + std::to_string(p);
    MixedList l = mixedList(23, false);
    auto grads = randomList(c, l, -1, 1);
    for (bool inPlace : {false, true})
      compareClip(c, "clip 23 buffers" + norm + (inPlace ? " in place" : ""), l,
                  grads, 0.5f, inPlace, false, p);
    compareClip(c, "clip 23 buffers, no clipping" + norm, l, grads, 1e30f,
                false, true, p);
    MixedList big{{int64_t{3} << 20}, {AMP_DTYPE_F32}, {0}};
    compareClip(c, "clip n=3M" + norm, big, randomList(c, big, -1, 1), 0.5f,
                false, false, p);
    MixedList many = mixedList(1200, true);
    compareClip(c, "clip 1200 buffers" + norm, many, randomList(c, many, -1, 1),
                2.0f, false, false, p);
  }
}

AMP_COMPARE_CASE(optimizer_clip_grad_norm_nonfinite) {
  // A NaN or an inf in the last element of the last buffer: the total norm
  // is NaN or inf on both backends, and so is every coefficient (NaN: every
  // value NaN; inf: coef 0, so zeros, and NaN for the inf itself), for the
  // 2-norm, the max norm and a general p.
  // The last buffer: 7 f32 elements, or 16385 f16 ones (past a chunk).
  for (float p : {2.0f, INFINITY, 3.0f})
    for (auto [special, count] :
         {std::pair{double(NAN), 13}, std::pair{double(INFINITY), 16},
          std::pair{double(NAN), 16}}) {
      MixedList l = mixedList(count, false);
      auto grads = randomList(c, l, -1, 1);
      grads.back().set(grads.back().numel() - 1, special);
      auto ref = runClip(*c.ref, l, grads, 1.0f, false, p);
      auto dev = runClip(*c.dev, l, grads, 1.0f, false, p);
      const std::string what = std::string("clip with ") +
                               (std::isnan(special) ? "NaN" : "inf") +
                               " norm_type " + std::to_string(p);
      for (size_t i = 0; i < ref.size(); ++i)
        c.expectClose(what + " output " + std::to_string(i), ref[i], dev[i],
                      Tolerance::exact());
      ++c.checks;
      if (std::isnan(special) != std::isnan(dev.back().get(0)) ||
          std::isinf(special) != std::isinf(dev.back().get(0)))
        c.fail(what + ": total_norm " + std::to_string(dev.back().get(0)));
    }
}

//===----------------------------------------------------------------------===//
// Gradient-value clipping
//===----------------------------------------------------------------------===//

/// amp_clip_grad_value on `b`: the clipped buffers.
std::vector<Host> runClipValue(Backend &b, const MixedList &l,
                               const std::vector<Host> &grads, float clipValue,
                               bool inPlace) {
  return runClipping(b, l, grads, inPlace,
                     [&](int32_t n, const void *const *in, void *const *out) {
                       b.ok(AMP_CALL(b, amp_clip_grad_value, n, in, out,
                                     l.sizes.data(), l.dtypes.data(), clipValue,
                                     nullptr));
                     });
}

AMP_COMPARE_CASE(optimizer_clip_grad_value) {
  // A clamp: bitwise on both backends, NaN payloads and infinities in
  // every dtype included.
  auto compare = [&](const std::string &what, const MixedList &l,
                     const std::vector<Host> &grads, float clipValue,
                     bool inPlace) {
    auto ref = runClipValue(*c.ref, l, grads, clipValue, inPlace);
    auto dev = runClipValue(*c.dev, l, grads, clipValue, inPlace);
    for (size_t i = 0; i < ref.size(); ++i)
      c.expectClose(what + " clipped " + std::to_string(i), ref[i], dev[i],
                    Tolerance::exact());
  };
  for (bool inPlace : {false, true}) {
    MixedList l = mixedList(23, false);
    auto grads = randomList(c, l, -2, 2);
    grads.front().set(0, NAN);
    grads.back().set(grads.back().numel() - 1, -INFINITY);
    for (float v : {0.5f, 0.1f, INFINITY})
      compare("clip value " + std::to_string(v) + (inPlace ? " in place" : ""),
              l, grads, v, inPlace);
  }
  MixedList big{{int64_t{3} << 20}, {AMP_DTYPE_BF16}, {0}};
  compare("clip value n=3M", big, randomList(c, big, -1, 1), 0.25f, false);
  MixedList many = mixedList(1200, true);
  compare("clip value 1200 buffers", many, randomList(c, many, -1, 1), 0.25f,
          false);
  MixedList empty{{0, 0}, {AMP_DTYPE_F16, AMP_DTYPE_F32}, {0, 0}};
  compare("clip value empty buffers", empty, randomList(c, empty, -1, 1), 1.0f,
          false);
}

//===----------------------------------------------------------------------===//
// Moving averages
//===----------------------------------------------------------------------===//

AMP_COMPARE_CASE(optimizer_ema_update) {
  // The lerp of every buffer, the weight read from (device) memory:
  // bitwise on both backends, in place or not, NaN and inf included.
  auto compare = [&](const std::string &what, const MixedList &l, float w,
                     bool inPlace) {
    auto averages = randomList(c, l, -1, 1);
    auto values = randomList(c, l, -2, 2);
    if (l.sizes.front() > 0) {
      averages.front().set(0, NAN);
      values.front().set(l.sizes.front() - 1, INFINITY);
    }
    auto run = [&](Backend &b) {
      DevList v = uploadList(b, values, l.offsets);
      Buf weight = b.upload(scalarHost(AMP_DTYPE_F32, w));
      return runClipping(
          b, l, averages, inPlace,
          [&](int32_t n, const void *const *in, void *const *out) {
            b.ok(AMP_CALL(b, amp_ema_update, n, in, v.in(), out, l.sizes.data(),
                          l.dtypes.data(),
                          static_cast<const float *>(weight.ptr), nullptr));
          });
    };
    auto ref = run(*c.ref);
    auto dev = run(*c.dev);
    for (size_t i = 0; i < ref.size(); ++i)
      c.expectClose(what + " average " + std::to_string(i), ref[i], dev[i],
                    Tolerance::exact());
  };
  for (bool inPlace : {false, true})
    for (float w : {1.0f, 0.25f, 0.001f})
      compare("ema w " + std::to_string(w) + (inPlace ? " in place" : ""),
              mixedList(23, false), w, inPlace);
  compare("ema n=3M", MixedList{{int64_t{3} << 20}, {AMP_DTYPE_F32}, {0}},
          0.01f, true);
  compare("ema 1200 buffers", mixedList(1200, true), 0.01f, false);
  compare("ema empty buffers",
          MixedList{{0, 0}, {AMP_DTYPE_F16, AMP_DTYPE_F32}, {0, 0}}, 0.5f,
          false);
}

//===----------------------------------------------------------------------===//
// Malformed calls
//===----------------------------------------------------------------------===//

AMP_COMPARE_CASE(optimizer_errors) {
  alignas(16) static char host[256];
  void *a = host;
  void *odd = host + 1;
  float *step = reinterpret_cast<float *>(host + 128);
  const void *ins[2] = {a, a};
  void *outs[2] = {a, a};
  const void *oddIns[2] = {a, odd};
  const float *steps[2] = {step, step};
  float *newSteps[2] = {step, step};
  const int64_t sizes[2] = {4, 4};
  const amp_dtype_t dtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_F32};
  const amp_dtype_t badDtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_I32};
  auto both = [&](const char *what, auto call) {
    expectRejected(c, what, call);
  };
  both("sgd NULL grad", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update, a, nullptr, nullptr, a, nullptr, 4,
                    AMP_DTYPE_F32, 0.1f, nullptr, 0.0f, 0.0f, 0.0f, 0, nullptr,
                    nullptr);
  });
  both("sgd i32", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update, a, a, nullptr, a, nullptr, 4,
                    AMP_DTYPE_I32, 0.1f, nullptr, 0.0f, 0.0f, 0.0f, 0, nullptr,
                    nullptr);
  });
  both("sgd nesterov with dampening", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update, a, a, a, a, a, 4, AMP_DTYPE_F32, 0.1f,
                    nullptr, 0.9f, 0.1f, 0.0f, 1, nullptr, nullptr);
  });
  both("sgd momentum without buffers", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update, a, a, nullptr, a, nullptr, 4,
                    AMP_DTYPE_F32, 0.1f, nullptr, 0.9f, 0.0f, 0.0f, 0, nullptr,
                    nullptr);
  });
  both("sgd_multi n_buffers -1", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update_multi, -1, ins, ins, nullptr, outs,
                    nullptr, sizes, dtypes, 0.1f, nullptr, 0.0f, 0.0f, 0.0f, 0,
                    nullptr, nullptr);
  });
  both("sgd_multi buffers without momentum", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update_multi, 2, ins, ins, ins, outs, outs,
                    sizes, dtypes, 0.1f, nullptr, 0.0f, 0.0f, 0.0f, 0, nullptr,
                    nullptr);
  });
  both("sgd_multi misaligned grad", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update_multi, 2, ins, oddIns, nullptr, outs,
                    nullptr, sizes, dtypes, 0.1f, nullptr, 0.0f, 0.0f, 0.0f, 0,
                    nullptr, nullptr);
  });
  both("sgd_multi i32 buffer", [&](Backend &b) {
    return AMP_CALL(b, amp_sgd_update_multi, 2, ins, ins, nullptr, outs,
                    nullptr, sizes, badDtypes, 0.1f, nullptr, 0.0f, 0.0f, 0.0f,
                    0, nullptr, nullptr);
  });
  both("adam NULL new_step", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update, a, a, a, a, step, nullptr, a, a, a,
                    nullptr, nullptr, 4, AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f,
                    0.999f, 1e-8f, 0.0f, 1, 0, nullptr, nullptr);
  });
  both("adam beta1 1", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update, a, a, a, a, step, nullptr, a, a, a,
                    step, nullptr, 4, AMP_DTYPE_F32, 1e-3f, nullptr, 1.0f,
                    0.999f, 1e-8f, 0.0f, 1, 0, nullptr, nullptr);
  });
  both("adam amsgrad NULL max_exp_avg_sq", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update, a, a, a, a, step, nullptr, a, a, a,
                    step, nullptr, 4, AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f,
                    0.999f, 1e-8f, 0.0f, 1, 1, nullptr, nullptr);
  });
  both("adam_multi max arrays without amsgrad", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update_multi, 2, ins, ins, ins, ins, steps, ins,
                    outs, outs, outs, newSteps, outs, sizes, dtypes, 1e-3f,
                    nullptr, 0.9f, 0.999f, 1e-8f, 0.0f, 1, 0, nullptr, nullptr);
  });
  both("adam_multi NULL steps", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update_multi, 2, ins, ins, ins, ins, nullptr,
                    nullptr, outs, outs, outs, newSteps, nullptr, sizes, dtypes,
                    1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0.0f, 1, 0, nullptr,
                    nullptr);
  });
  both("adam_multi misaligned exp_avg", [&](Backend &b) {
    return AMP_CALL(b, amp_adam_update_multi, 2, ins, ins, oddIns, ins, steps,
                    nullptr, outs, outs, outs, newSteps, nullptr, sizes, dtypes,
                    1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0.0f, 1, 0, nullptr,
                    nullptr);
  });
  both("rmsprop centered without grad_avg", [&](Backend &b) {
    return AMP_CALL(b, amp_rmsprop_update, a, a, a, nullptr, nullptr, a, a,
                    nullptr, nullptr, 4, AMP_DTYPE_F32, 1e-2f, nullptr, 0.99f,
                    1e-8f, 0.0f, 0.0f, 1, nullptr, nullptr);
  });
  both("rmsprop momentum buffer without momentum", [&](Backend &b) {
    return AMP_CALL(b, amp_rmsprop_update, a, a, a, a, nullptr, a, a, a,
                    nullptr, 4, AMP_DTYPE_F32, 1e-2f, nullptr, 0.99f, 1e-8f,
                    0.0f, 0.0f, 0, nullptr, nullptr);
  });
  both("rmsprop alpha 1.5", [&](Backend &b) {
    return AMP_CALL(b, amp_rmsprop_update, a, a, a, nullptr, nullptr, a, a,
                    nullptr, nullptr, 4, AMP_DTYPE_F32, 1e-2f, nullptr, 1.5f,
                    1e-8f, 0.0f, 0.0f, 0, nullptr, nullptr);
  });
  both("rmsprop_multi NULL square_avgs", [&](Backend &b) {
    return AMP_CALL(b, amp_rmsprop_update_multi, 2, ins, ins, nullptr, nullptr,
                    nullptr, outs, outs, nullptr, nullptr, sizes, dtypes, 1e-2f,
                    nullptr, 0.99f, 1e-8f, 0.0f, 0.0f, 0, nullptr, nullptr);
  });
  both("rmsprop_multi misaligned square_avg", [&](Backend &b) {
    return AMP_CALL(b, amp_rmsprop_update_multi, 2, ins, ins, oddIns, nullptr,
                    nullptr, outs, outs, nullptr, nullptr, sizes, dtypes, 1e-2f,
                    nullptr, 0.99f, 1e-8f, 0.0f, 0.0f, 0, nullptr, nullptr);
  });
  both("adagrad NULL state_sum", [&](Backend &b) {
    return AMP_CALL(b, amp_adagrad_update, a, a, nullptr, nullptr, a, a,
                    nullptr, 4, AMP_DTYPE_F32, 1e-2f, nullptr, 0.0f, 1e-10f,
                    0.0f, nullptr, nullptr);
  });
  both("adagrad lr_decay without a counter", [&](Backend &b) {
    return AMP_CALL(b, amp_adagrad_update, a, a, a, nullptr, a, a, nullptr, 4,
                    AMP_DTYPE_F32, 1e-2f, nullptr, 0.1f, 1e-10f, 0.0f, nullptr,
                    nullptr);
  });
  both("adagrad_multi counters without lr_decay", [&](Backend &b) {
    return AMP_CALL(b, amp_adagrad_update_multi, 2, ins, ins, ins, steps, outs,
                    outs, newSteps, sizes, dtypes, 1e-2f, nullptr, 0.0f, 1e-10f,
                    0.0f, nullptr, nullptr);
  });
  both("adagrad eps nan", [&](Backend &b) {
    return AMP_CALL(b, amp_adagrad_update, a, a, a, nullptr, a, a, nullptr, 4,
                    AMP_DTYPE_F32, 1e-2f, nullptr, 0.0f, NAN, 0.0f, nullptr,
                    nullptr);
  });
  both("adagrad_multi misaligned state_sum", [&](Backend &b) {
    return AMP_CALL(b, amp_adagrad_update_multi, 2, ins, ins, oddIns, nullptr,
                    outs, outs, nullptr, sizes, dtypes, 1e-2f, nullptr, 0.0f,
                    1e-10f, 0.0f, nullptr, nullptr);
  });
  both("lr_schedule NULL count", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, nullptr, step, step,
                    AMP_LR_SCHEDULE_CONSTANT, 0, 0.0f, 0, 0.0f, 0, 0.0f, 1.0f,
                    nullptr, 0, nullptr);
  });
  both("lr_schedule cosine T <= W", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_COSINE, 10, 0.0f, 10, 0.0f, 0, 0.0f, 1.0f,
                    nullptr, 0, nullptr);
  });
  both("lr_schedule step_size 0", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_STEP, 0, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f,
                    nullptr, 0, nullptr);
  });
  both("lr_schedule gamma inf", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_EXPONENTIAL, 0, 0.0f, 0, 0.0f, 0, INFINITY,
                    1.0f, nullptr, 0, nullptr);
  });
  both("lr_schedule polynomial power 0", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_POLYNOMIAL, 0, 0.0f, 10, 0.0f, 0, 0.0f,
                    0.0f, nullptr, 0, nullptr);
  });
  both("lr_schedule multistep milestones not increasing", [&](Backend &b) {
    const int64_t milestones[] = {4, 4};
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_MULTISTEP, 0, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f,
                    milestones, 2, nullptr);
  });
  both("lr_schedule multistep 17 milestones", [&](Backend &b) {
    int64_t milestones[17];
    for (int i = 0; i < 17; ++i)
      milestones[i] = i;
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_MULTISTEP, 0, 0.0f, 0, 0.0f, 0, 0.5f, 1.0f,
                    milestones, 17, nullptr);
  });
  both("lr_schedule warmup_start_factor 2", [&](Backend &b) {
    return AMP_CALL(b, amp_lr_schedule, step, step + 1, step,
                    AMP_LR_SCHEDULE_LINEAR, 1, 2.0f, 10, 0.0f, 0, 0.0f, 1.0f,
                    nullptr, 0, nullptr);
  });
  both("clip no buffers", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_norm, 0, ins, outs, sizes, dtypes, 1.0f,
                    2.0f, step, nullptr);
  });
  both("clip max_norm 0", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_norm, 2, ins, outs, sizes, dtypes, 0.0f,
                    2.0f, step, nullptr);
  });
  both("clip norm_type 0", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_norm, 2, ins, outs, sizes, dtypes, 1.0f,
                    0.0f, step, nullptr);
  });
  both("clip NULL total_norm", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_norm, 2, ins, outs, sizes, dtypes, 1.0f,
                    2.0f, nullptr, nullptr);
  });
  both("clip value no buffers", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_value, 0, ins, outs, sizes, dtypes, 1.0f,
                    nullptr);
  });
  both("ema no buffers", [&](Backend &b) {
    return AMP_CALL(b, amp_ema_update, 0, ins, ins, outs, sizes, dtypes, step,
                    nullptr);
  });
  both("ema NULL weight", [&](Backend &b) {
    return AMP_CALL(b, amp_ema_update, 2, ins, ins, outs, sizes, dtypes,
                    nullptr, nullptr);
  });
  both("clip value NaN", [&](Backend &b) {
    return AMP_CALL(b, amp_clip_grad_value, 2, ins, outs, sizes, dtypes, NAN,
                    nullptr);
  });
}

} // namespace
