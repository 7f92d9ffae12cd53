//===- OptimizerTest.cpp - the optimizer updates, clipping, skipped steps -===//
//
// The optimizer kernels against PyTorch's update rules written out here
// (PyTorch is not a dependency): once in f64, compared with tolerances, and
// once as the f32 op sequence of torch.optim's single-tensor step (each
// tensor op rounded to f32, scalars formed in f64 from Python floats and
// passed as f32), which f32 kernels must match bitwise. Several steps run
// with the kernel's own outputs fed back; every step is checked against the
// formulas applied to the kernel's stored inputs of that step.
//
// Tolerances (doubled): SGD param 8u (|p| + |p'| + lr (|g| + wd|p| + m|buf|
// + 2|buf'|)), buffer 8u (m|buf| + |g| + wd|p| + |buf'|). AdamW with
// D = sqrt(v'/bc2) + eps and S = lr/bc1: m' 4u (|m| + |g|), v' 4u (|v| +
// g^2), param u (2|p| + |p'|) + S (4u (|m| + |g|) + 4u|m'|) / D + 3u|S m'/D|.
// RMSprop, with G = |g| + wd|p|: v' 8u (|v| + G^2), a' 4u (|a| + G), the
// variance V = v' - a'^2 within E = e(v') + 2|a'| e(a') + 2u (v' + a'^2),
// d = sqrt(V) + eps within E / (2 sqrt V) + 2u d (sqrt(E) when V <= E),
// q = g'/d within (2uG + |q| e(d)) / d + u|q|, buf' within 2u (m|buf| +
// |buf'|) + e(q), param within lr (e(step) + u|step|) + u (|p| + |p'|).
// Adagrad, with G = |g| + wd|p|: sum' 4u (|sum| + G^2), d = sqrt(sum') +
// eps within e(sum') / (2 sqrt(sum')) + 2u d, param within
// lr (2uG + |q| e(d)) / d + 2u lr |q| + u (|p| + |p'|), q = g'/d.
// Adafactor (f64 only: its norms' summation order is the backend's), with
// s(k) = min(k, 258 + k/256) the relative bound (u) of an f32 sum of k
// non-negative terms: a moment lerp'ed towards b (a mean square within
// (s(size) + 4) u, or g^2 within u) within 8u|a'| + 6u beta|b - a| +
// 2 e(b) beta |b|; the estimate v formed from the stored moments within
// (s(rows) + 3) u (u unfactored), an element of u within e(v)/2 + 3u, the
// norms ||p|| and ||u|| within s(n)/2 + 2u (plus u's own), the update
// alpha/denom u within the sum of those and 3u, the param within
// 2 (3u|p decay| + u|p'| + e(update)|update|).
// clip_grad_norm: the total norm within (256 + n/256 + buffers + 6) u of
// relative error (blocked f32 sums of squares or magnitudes; 8u more for a
// general p's powf, all times 1/p when p < 1; exact for inf), each clipped
// value within that plus 4u, relative. clip_grad_value: bitwise torch.clamp.
// ema_update: bitwise the three f32 roundings of the lerp.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace amp::test;

namespace {

/// The cases of an optimizer's update test: each of its `configs`
/// configurations in each float dtype, out of place and in place.
auto optimizerCases(size_t configs) {
  return ::testing::Combine(
      ::testing::Range(0, static_cast<int>(configs)),
      ::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16),
      ::testing::Bool());
}

/// A case's name: the configuration's (from Configs()), the dtype and
/// "_inplace".
template <auto Configs> struct OptimizerCaseName {
  template <typename Info> std::string operator()(const Info &info) const {
    const auto [config, dtype, inPlace] = info.param;
    return std::string(Configs()[config].name) + "_" + dtypeName(dtype) +
           (inPlace ? "_inplace" : "");
  }
};

//===----------------------------------------------------------------------===//
// SGD
//===----------------------------------------------------------------------===//

struct SgdConfig {
  const char *name;
  float lr, momentum, dampening, weightDecay;
  bool nesterov;
};

const std::vector<SgdConfig> &sgdConfigs() {
  static const std::vector<SgdConfig> configs = {
      {"plain", 0.1f, 0.0f, 0.0f, 0.0f, false},
      {"weight_decay", 0.05f, 0.0f, 0.0f, 1e-2f, false},
      {"momentum", 0.01f, 0.9f, 0.0f, 1e-4f, false},
      {"dampening", 0.02f, 0.9f, 0.1f, 1e-2f, false},
      {"nesterov", 0.03f, 0.8f, 0.0f, 5e-4f, true},
  };
  return configs;
}

/// torch.optim.SGD's single-tensor step for one element, in f32, in
/// PyTorch's op order (grad.add(param, alpha=wd); buf.mul_(momentum)
/// .add_(grad, alpha=1 - dampening); grad.add(buf, alpha=momentum);
/// param.add_(grad, alpha=-lr)), with the buffer starting at zero as the
/// nn.sgd_update op defines it.
void torchSgdF32(const SgdConfig &c, float &p, float g, float &buf) {
  if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * p;
  if (c.momentum != 0.0f) {
    buf = buf * c.momentum;
    buf = buf + static_cast<float>(1.0 - double(c.dampening)) * g;
    g = c.nesterov ? g + c.momentum * buf : buf;
  }
  p = p + (-c.lr) * g;
}

class SgdTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(SgdTest, MatchesPyTorchOverSeveralSteps) {
  const SgdConfig c = sgdConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const bool hasBuf = c.momentum > 0.0f;
  const int64_t n = 257;
  std::mt19937 rng(71);
  Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
  Tensor buf(dtype, {n}); // zero
  for (int step = 0; step < 3; ++step) {
    Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nb = inPlace ? buf : sentinelTensor(dtype, {n});
    ASSERT_TRUE(isOk(amp_sgd_update(
        inPlace ? np.data() : p.data(), g.data(),
        hasBuf ? (inPlace ? nb.data() : buf.data()) : nullptr, np.data(),
        hasBuf ? nb.data() : nullptr, n, dtype, c.lr, nullptr, c.momentum,
        c.dampening, c.weightDecay, c.nesterov, nullptr, nullptr)));
    std::vector<double> pRef, pTol, bRef, bTol;
    for (int64_t i = 0; i < n; ++i) {
      // PyTorch's rule in f64.
      double pv = p.get(i), gv = g.get(i), bv = buf.get(i);
      double g1 = gv + double(c.weightDecay) * pv;
      double b1 = hasBuf ? c.momentum * bv + (1.0 - c.dampening) * g1 : 0.0;
      double d = !hasBuf ? g1 : c.nesterov ? g1 + c.momentum * b1 : b1;
      double p1 = pv - double(c.lr) * d;
      pRef.push_back(p1);
      pTol.push_back(outTol(
          dtype, p1,
          16 * kU *
              (std::fabs(pv) + std::fabs(p1) +
               c.lr * (std::fabs(gv) + c.weightDecay * std::fabs(pv) +
                       c.momentum * std::fabs(bv) + 2 * std::fabs(b1)))));
      bRef.push_back(b1);
      bTol.push_back(
          outTol(dtype, b1,
                 16 * kU *
                     (c.momentum * std::fabs(bv) + std::fabs(gv) +
                      c.weightDecay * std::fabs(pv) + std::fabs(b1))));
    }
    EXPECT_TRUE(
        allClose(np, pRef, pTol, "param, step " + std::to_string(step)));
    if (hasBuf) {
      EXPECT_TRUE(
          allClose(nb, bRef, bTol, "buf, step " + std::to_string(step)));
    }
    if (dtype == AMP_DTYPE_F32) {
      Tensor tp = p, tb = buf;
      for (int64_t i = 0; i < n; ++i) {
        float pf = static_cast<float>(p.get(i)),
              bf = static_cast<float>(buf.get(i));
        torchSgdF32(c, pf, static_cast<float>(g.get(i)), bf);
        tp.set(i, pf);
        tb.set(i, bf);
      }
      EXPECT_TRUE(np.sameBits(tp)) << "param differs from the f32 PyTorch step";
      if (hasBuf) {
        EXPECT_TRUE(nb.sameBits(tb)) << "buf differs from the f32 PyTorch step";
      }
    }
    p = np;
    if (hasBuf)
      buf = nb;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, SgdTest, optimizerCases(sgdConfigs().size()),
                         OptimizerCaseName<sgdConfigs>());

TEST(Sgd, RejectsInconsistentHyperparameters) {
  Tensor p(AMP_DTYPE_F32, {4}), g(AMP_DTYPE_F32, {4}), b(AMP_DTYPE_F32, {4});
  auto run = [&](float momentum, float dampening, int nesterov, bool buf,
                 float lr = 0.1f) {
    return amp_sgd_update(p.data(), g.data(), buf ? b.data() : nullptr,
                          p.data(), buf ? b.data() : nullptr, 4, AMP_DTYPE_F32,
                          lr, nullptr, momentum, dampening, 0.0f, nesterov,
                          nullptr, nullptr);
  };
  EXPECT_TRUE(failsWith(run(0.9f, 0.0f, 0, false), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when momentum > 0"));
  EXPECT_TRUE(failsWith(run(0.0f, 0.0f, 0, true), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when momentum > 0"));
  EXPECT_TRUE(failsWith(run(0.9f, 0.1f, 1, true), AMP_STATUS_INVALID_ARGUMENT,
                        "nesterov"));
  EXPECT_TRUE(failsWith(run(0.0f, 0.0f, 1, false), AMP_STATUS_INVALID_ARGUMENT,
                        "nesterov"));
  EXPECT_TRUE(failsWith(run(0.9f, 0.0f, 2, true), AMP_STATUS_INVALID_ARGUMENT,
                        "nesterov (2)"));
  EXPECT_TRUE(failsWith(run(0.9f, 1.5f, 0, true), AMP_STATUS_INVALID_ARGUMENT,
                        "dampening"));
  EXPECT_TRUE(failsWith(run(0.0f, 0.0f, 0, false, -1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "lr"));
  EXPECT_TRUE(failsWith(run(0.0f, 0.0f, 0, false, NAN),
                        AMP_STATUS_INVALID_ARGUMENT, "lr"));
}

//===----------------------------------------------------------------------===//
// AdamW
//===----------------------------------------------------------------------===//

struct AdamConfig {
  const char *name;
  float lr, beta1, beta2, eps, weightDecay;
  /// 1: AdamW's decoupled weight decay; 0: Adam's L2 penalty.
  int32_t decoupled;
  /// 1: AMSGrad (the running maximum of v' in the denominator).
  int32_t amsgrad = 0;
};

const std::vector<AdamConfig> &adamConfigs() {
  static const std::vector<AdamConfig> configs = {
      {"defaults", 1e-3f, 0.9f, 0.999f, 1e-8f, 1e-2f, 1},
      {"fast", 0.05f, 0.5f, 0.9f, 1e-6f, 0.0f, 1},
      {"no_momentum", 1e-2f, 0.0f, 0.99f, 1e-3f, 0.1f, 1},
      {"adam_l2", 1e-2f, 0.9f, 0.999f, 1e-8f, 0.5f, 0},
      {"adam_l2_fast", 0.05f, 0.5f, 0.9f, 1e-6f, 1e-2f, 0},
      {"amsgrad", 1e-3f, 0.9f, 0.999f, 1e-8f, 1e-2f, 1, 1},
      {"adam_l2_amsgrad_fast", 0.05f, 0.5f, 0.9f, 1e-6f, 1e-2f, 0, 1},
  };
  return configs;
}

/// torch.optim.AdamW's single-tensor step for one element in f32, in
/// PyTorch's op order: param.mul_(1 - lr * wd); exp_avg.lerp_(grad, 1 -
/// beta1); exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2);
/// denom = (exp_avg_sq.sqrt() / sqrt(bc2)).add_(eps); param.addcdiv_(
/// exp_avg, denom, value=-lr / bc1), with bc_i = 1 - beta_i ** step in
/// Python floats and step the f32 counter after its increment. Adam's L2
/// penalty (c.decoupled = 0) is grad = grad.add(param, alpha=wd) first,
/// rounded twice here as in amp's SGD (PyTorch's vectorized CPU add fuses
/// it into one fma). With AMSGrad, torch.maximum(max_exp_avg_sq,
/// exp_avg_sq, out=max_exp_avg_sq) replaces exp_avg_sq in denom.
void torchAdamWF32(const AdamConfig &c, float step, float &p, float g, float &m,
                   float &v, float &vmax) {
  const double bc1 = 1.0 - std::pow(double(c.beta1), double(step));
  const double bc2 = 1.0 - std::pow(double(c.beta2), double(step));
  if (c.decoupled)
    p = p * static_cast<float>(1.0 - double(c.lr) * double(c.weightDecay));
  else if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * p;
  const float w = static_cast<float>(1.0 - double(c.beta1));
  m = std::fabs(w) < 0.5f ? m + w * (g - m) : g - (g - m) * (1.0f - w);
  v = v * c.beta2;
  v = v + static_cast<float>(1.0 - double(c.beta2)) * g * g;
  float used = v;
  if (c.amsgrad) {
    vmax = std::isnan(vmax) || std::isnan(v) ? NAN : std::max(vmax, v);
    used = vmax;
  }
  const float denom =
      std::sqrt(used) / static_cast<float>(std::sqrt(bc2)) + c.eps;
  p = p + static_cast<float>(-(double(c.lr) / bc1)) * m / denom;
}

/// One element of an Adam-family step (Adam's, RAdam's) in f64: the
/// param after decoupled decay, m' and v', and the gradient's magnitude for
/// the bounds (an L2 sum is rounded relative to its terms).
struct MomentsF64 {
  double decayed, gMag, m1, v1;
};

/// MomentsF64 for configuration `c` (AdamConfig, RadamConfig) on p, g, m,
/// v; appends m' and v' with their bounds of the header to the lists.
template <typename Config>
MomentsF64 momentsF64(const Config &c, amp_dtype_t dtype, double pv, double gv,
                      double mv, double vv, std::vector<double> &mRef,
                      std::vector<double> &mTol, std::vector<double> &vRef,
                      std::vector<double> &vTol) {
  MomentsF64 r;
  r.decayed = c.decoupled ? pv * (1 - double(c.lr) * c.weightDecay) : pv;
  r.gMag = std::fabs(gv);
  if (!c.decoupled) {
    r.gMag += double(c.weightDecay) * std::fabs(pv);
    gv += double(c.weightDecay) * pv;
  }
  r.m1 = c.beta1 * mv + (1 - double(c.beta1)) * gv;
  r.v1 = c.beta2 * vv + (1 - double(c.beta2)) * gv * gv;
  mRef.push_back(r.m1);
  mTol.push_back(outTol(dtype, r.m1, 8 * kU * (std::fabs(mv) + r.gMag)));
  vRef.push_back(r.v1);
  vTol.push_back(outTol(dtype, r.v1, 8 * kU * (vv + r.gMag * r.gMag)));
  return r;
}

class AdamTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(AdamTest, MatchesPyTorchOverSeveralSteps) {
  const AdamConfig c = adamConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const int64_t n = 301;
  std::mt19937 rng(81);
  Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
  Tensor m(dtype, {n}), v(dtype, {n}), vmax(dtype, {n});
  float step = 0.0f;
  for (int s = 0; s < 4; ++s) {
    Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
    if (s == 3)
      for (int64_t i = 0; i < n; i += 3)
        g.set(i, 0.0); // v' can shrink to where eps matters (and below the
                       // AMSGrad maximum)
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nm = inPlace ? m : sentinelTensor(dtype, {n});
    Tensor nv = inPlace ? v : sentinelTensor(dtype, {n});
    Tensor nvmax = inPlace ? vmax : sentinelTensor(dtype, {n});
    float newStep = -1.0f;
    float *stepOut = inPlace ? &step : &newStep;
    const float stepBefore = step;
    ASSERT_TRUE(isOk(amp_adam_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? nm.data() : m.data(), inPlace ? nv.data() : v.data(), &step,
        c.amsgrad ? (inPlace ? nvmax.data() : vmax.data()) : nullptr, np.data(),
        nm.data(), nv.data(), stepOut, c.amsgrad ? nvmax.data() : nullptr, n,
        dtype, c.lr, nullptr, c.beta1, c.beta2, c.eps, c.weightDecay,
        c.decoupled, c.amsgrad, nullptr, nullptr)));
    EXPECT_EQ(*stepOut, stepBefore + 1.0f); // the counter is exact
    const double t = stepBefore + 1.0;
    const double bc1 = 1 - std::pow(double(c.beta1), t);
    const double bc2 = 1 - std::pow(double(c.beta2), t);
    const double stepSize = c.lr / bc1;
    std::vector<double> pRef, pTol, mRef, mTol, vRef, vTol, vmaxRef;
    for (int64_t i = 0; i < n; ++i) {
      // AdamW (or Adam with its L2 penalty) in f64.
      const double pv = p.get(i), mv = m.get(i);
      const auto [decayed, gMag, m1, v1] = momentsF64(
          c, dtype, pv, g.get(i), mv, v.get(i), mRef, mTol, vRef, vTol);
      // AMSGrad divides by max(vmax, v'), within v''s bound (max is
      // 1-Lipschitz).
      double w = c.amsgrad ? std::max(vmax.get(i), v1) : v1;
      vmaxRef.push_back(w);
      double denom = std::sqrt(w / bc2) + c.eps;
      double update = stepSize * m1 / denom;
      double p1 = decayed - update;
      pRef.push_back(p1);
      pTol.push_back(outTol(
          dtype, p1,
          2 * (kU * (2 * std::fabs(pv) + std::fabs(p1)) +
               stepSize *
                   (4 * kU * (std::fabs(mv) + gMag) + 4 * kU * std::fabs(m1)) /
                   denom +
               3 * kU * std::fabs(update))));
    }
    const std::string when = " at step " + std::to_string(s);
    EXPECT_TRUE(allClose(np, pRef, pTol, "param" + when));
    EXPECT_TRUE(allClose(nm, mRef, mTol, "exp_avg" + when));
    EXPECT_TRUE(allClose(nv, vRef, vTol, "exp_avg_sq" + when));
    if (c.amsgrad)
      EXPECT_TRUE(allClose(nvmax, vmaxRef, vTol, "max_exp_avg_sq" + when));
    if (dtype == AMP_DTYPE_F32) {
      Tensor tp = p, tm = m, tv = v, tvmax = vmax;
      for (int64_t i = 0; i < n; ++i) {
        float pf = static_cast<float>(p.get(i)),
              mf = static_cast<float>(m.get(i)),
              vf = static_cast<float>(v.get(i)),
              vmaxf = static_cast<float>(vmax.get(i));
        torchAdamWF32(c, stepBefore + 1.0f, pf, static_cast<float>(g.get(i)),
                      mf, vf, vmaxf);
        tp.set(i, pf);
        tm.set(i, mf);
        tv.set(i, vf);
        tvmax.set(i, vmaxf);
      }
      EXPECT_TRUE(np.sameBits(tp)) << "param differs from PyTorch's f32 step";
      EXPECT_TRUE(nm.sameBits(tm)) << "exp_avg differs from PyTorch's f32 step";
      EXPECT_TRUE(nv.sameBits(tv))
          << "exp_avg_sq differs from PyTorch's f32 step";
      if (c.amsgrad)
        EXPECT_TRUE(nvmax.sameBits(tvmax))
            << "max_exp_avg_sq differs from PyTorch's f32 step";
    }
    p = np;
    m = nm;
    v = nv;
    vmax = nvmax;
    step = *stepOut;
  }
  EXPECT_EQ(step, 4.0f);
}

INSTANTIATE_TEST_SUITE_P(Configs, AdamTest,
                         optimizerCases(adamConfigs().size()),
                         OptimizerCaseName<adamConfigs>());

TEST(Adam, StepCounterIsAnF32Counter) {
  // t = step + 1 in f32: exact up to 2^24, where the counter stops (as an
  // f32 tensor counter does in PyTorch).
  float p = 1.0f, g = 0.5f, m = 0.0f, v = 0.0f;
  for (float before : {0.0f, 1.0f, 99.0f, 16777215.0f, 16777216.0f}) {
    float after = -1.0f;
    ASSERT_TRUE(isOk(amp_adam_update(&p, &g, &m, &v, &before, nullptr, &p, &m,
                                     &v, &after, nullptr, 1, AMP_DTYPE_F32,
                                     1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0.0f,
                                     1, 0, nullptr, nullptr)));
    EXPECT_EQ(after, before == 16777216.0f ? 16777216.0f : before + 1.0f);
  }
}

TEST(Adam, FirstStepMovesEveryParamByAboutLr) {
  // With m = v = 0 and no decay, step 1 gives m'/sqrt(v') = sign(g) after
  // bias correction: every param moves by lr (to eps's precision).
  Tensor p(AMP_DTYPE_F32, {4}), g(AMP_DTYPE_F32, {4}), m(AMP_DTYPE_F32, {4}),
      v(AMP_DTYPE_F32, {4});
  const double grads[] = {3.0, -0.25, 1e-3, -7.0};
  for (int i = 0; i < 4; ++i)
    g.set(i, grads[i]);
  float step = 0.0f;
  ASSERT_TRUE(isOk(amp_adam_update(
      p.data(), g.data(), m.data(), v.data(), &step, nullptr, p.data(),
      m.data(), v.data(), &step, nullptr, 4, AMP_DTYPE_F32, 0.01f, nullptr,
      0.9f, 0.999f, 1e-8f, 0.0f, 1, 0, nullptr, nullptr)));
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(p.get(i), grads[i] > 0 ? -0.01 : 0.01, 1e-6) << i;
}

TEST(Adam, RejectsBadHyperparameters) {
  float p = 1, g = 1, m = 0, v = 0, step = 0;
  EXPECT_TRUE(failsWith(amp_adam_update(&p, &g, &m, &v, &step, nullptr, &p, &m,
                                        &v, &step, nullptr, 1, AMP_DTYPE_F32,
                                        1e-3f, nullptr, 1.0f, 0.999f, 1e-8f,
                                        0.0f, 1, 0, nullptr, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "beta1"));
  EXPECT_TRUE(failsWith(
      amp_adam_update(&p, &g, &m, &v, nullptr, nullptr, &p, &m, &v, &step,
                      nullptr, 1, AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f, 0.999f,
                      1e-8f, 0.0f, 1, 0, nullptr, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "step is NULL"));
  EXPECT_TRUE(failsWith(amp_adam_update(&p, &g, &m, &v, &step, nullptr, &p, &m,
                                        &v, &step, nullptr, 1, AMP_DTYPE_F32,
                                        1e-3f, nullptr, 0.9f, 0.999f, -1.0f,
                                        0.0f, 1, 0, nullptr, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "eps"));
  EXPECT_TRUE(failsWith(amp_adam_update(&p, &g, &m, &v, &step, nullptr, &p, &m,
                                        &v, &step, nullptr, 1, AMP_DTYPE_F32,
                                        1e-3f, nullptr, 0.9f, 0.999f, 1e-8f,
                                        0.0f, 2, 0, nullptr, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "decoupled_weight_decay (2) must be 0 or 1"));
  // AMSGrad's maxima exactly with amsgrad = 1, and the flag 0 or 1.
  float vmax = 0;
  EXPECT_TRUE(failsWith(amp_adam_update(&p, &g, &m, &v, &step, nullptr, &p, &m,
                                        &v, &step, nullptr, 1, AMP_DTYPE_F32,
                                        1e-3f, nullptr, 0.9f, 0.999f, 1e-8f,
                                        0.0f, 1, 1, nullptr, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "max_exp_avg_sq and new_max_exp_avg_sq must be given "
                        "exactly when amsgrad = 1 (amsgrad = 1)"));
  EXPECT_TRUE(failsWith(
      amp_adam_update(&p, &g, &m, &v, &step, &vmax, &p, &m, &v, &step, &vmax, 1,
                      AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0.0f,
                      1, 0, nullptr, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "exactly when amsgrad = 1 (amsgrad = 0)"));
  EXPECT_TRUE(
      failsWith(amp_adam_update(&p, &g, &m, &v, &step, &vmax, &p, &m, &v, &step,
                                &vmax, 1, AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f,
                                0.999f, 1e-8f, 0.0f, 1, 2, nullptr, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "amsgrad (2) must be 0 or 1"));
  EXPECT_EQ(vmax, 0.0f);
  EXPECT_EQ(p, 1.0f);
  EXPECT_EQ(step, 0.0f);
}

TEST(Adam, L2PenaltyIsAddedToTheGradient) {
  // Adam (decoupled_weight_decay = 0) with weight decay wd on (p, g) is
  // Adam without decay on (p, g + wd * p); AdamW instead scales p by
  // 1 - lr * wd and leaves the moments those of g.
  const float lr = 0.01f, wd = 0.5f;
  float p[2] = {2.0f, -4.0f}, g[2] = {0.25f, 1.0f};
  float penalized[2] = {g[0] + wd * p[0], g[1] + wd * p[1]};
  float out[3][2], m[3][2], v[3][2], step[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    float zero[2] = {0, 0};
    ASSERT_TRUE(isOk(amp_adam_update(
        p, k == 1 ? penalized : g, zero, zero, &step[k], nullptr, out[k], m[k],
        v[k], &step[k], nullptr, 2, AMP_DTYPE_F32, lr, nullptr, 0.9f, 0.999f,
        1e-8f, k == 1 ? 0.0f : wd, k == 2 ? 1 : 0, 0, nullptr, nullptr)));
  }
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(out[0][i], out[1][i]) << i;
    EXPECT_EQ(m[0][i], m[1][i]) << i;
    EXPECT_EQ(v[0][i], v[1][i]) << i;
    // AdamW's first moment is that of g itself: (1 - beta1) * g.
    EXPECT_EQ(m[2][i], static_cast<float>(1.0 - double(0.9f)) * g[i]) << i;
  }
  // Step 1 moves by lr * sign(g'): p - 0.01 * sign(g + wd p) for Adam;
  // AdamW decays p by (1 - lr * wd) first.
  EXPECT_NEAR(out[0][0], 2.0f - 0.01f, 1e-5);
  EXPECT_NEAR(out[0][1], -4.0f + 0.01f, 1e-5);
  EXPECT_NEAR(out[2][1], -4.0f * (1 - lr * wd) - 0.01f, 1e-5);
}

//===----------------------------------------------------------------------===//
// RAdam
//===----------------------------------------------------------------------===//

struct RadamConfig {
  const char *name;
  float lr, beta1, beta2, eps, weightDecay;
  int32_t decoupled;
  /// The counter before the test's first step: rho_t > 5 (the rectified
  /// update) from t = 6 with beta2 = 0.999, t = 6 with beta2 = 0.9.
  float firstStep;
};

const std::vector<RadamConfig> &radamConfigs() {
  static const std::vector<RadamConfig> configs = {
      {"first_steps", 1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 0, 0.0f},
      {"crossing", 1e-2f, 0.9f, 0.9f, 1e-6f, 1e-2f, 0, 3.0f},
      {"rectified_l2", 1e-3f, 0.9f, 0.999f, 1e-8f, 0.5f, 0, 40.0f},
      {"rectified_decoupled", 5e-3f, 0.5f, 0.99f, 1e-3f, 0.1f, 1, 1000.0f},
  };
  return configs;
}

/// PyTorch's RAdam scalars in Python floats for the counter t after its
/// increment: bias corrections, rho_t and the rectification.
struct TorchRadamScalars {
  double bc1, bc2, rect;
  bool rectified;
  TorchRadamScalars(const RadamConfig &c, double t) {
    bc1 = 1.0 - std::pow(double(c.beta1), t);
    bc2 = 1.0 - std::pow(double(c.beta2), t);
    const double rhoInf = 2.0 / (1.0 - double(c.beta2)) - 1.0;
    const double rhoT = rhoInf - 2.0 * t * std::pow(double(c.beta2), t) / bc2;
    rectified = rhoT > 5.0;
    rect = rectified ? std::sqrt((rhoT - 4.0) * (rhoT - 2.0) * rhoInf /
                                 ((rhoInf - 4.0) * (rhoInf - 2.0) * rhoT))
                     : 0.0;
  }
};

/// torch.optim.RAdam's single-tensor step for one element in f32, in
/// PyTorch's op order: param.mul_(1 - lr * wd) or grad.add(param,
/// alpha=wd); exp_avg.lerp_; exp_avg_sq.mul_(beta2).addcmul_;
/// bias_corrected = exp_avg / bc1; rectified: (bias_corrected * lr *
/// (exp_avg_sq.sqrt().add_(eps).reciprocal() * bc2 ** 0.5) * rect), else
/// bias_corrected * lr; param.add_(x, alpha=-1).
void torchRadamF32(const RadamConfig &c, float t, float &p, float g, float &m,
                   float &v) {
  const TorchRadamScalars k(c, t);
  if (c.decoupled)
    p = p * static_cast<float>(1.0 - double(c.lr) * double(c.weightDecay));
  else if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * p;
  const float w = static_cast<float>(1.0 - double(c.beta1));
  m = std::fabs(w) < 0.5f ? m + w * (g - m) : g - (g - m) * (1.0f - w);
  v = v * c.beta2;
  v = v + static_cast<float>(1.0 - double(c.beta2)) * g * g;
  float x = m / static_cast<float>(k.bc1) * c.lr;
  if (k.rectified) {
    const float adaptive =
        1.0f / (std::sqrt(v) + c.eps) * static_cast<float>(std::sqrt(k.bc2));
    x = x * adaptive * static_cast<float>(k.rect);
  }
  p = p + -1.0f * x;
}

class RadamTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(RadamTest, MatchesPyTorchOverSeveralSteps) {
  const RadamConfig c = radamConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const int64_t n = 293;
  std::mt19937 rng(131);
  Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
  // Moments as after the counter's earlier steps.
  Tensor m = randomTensor(dtype, {n}, rng, c.firstStep > 0 ? -0.1 : 0,
                          c.firstStep > 0 ? 0.1 : 0);
  Tensor v = randomTensor(dtype, {n}, rng, 0, c.firstStep > 0 ? 0.01 : 0);
  float step = c.firstStep;
  for (int s = 0; s < 4; ++s) {
    Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nm = inPlace ? m : sentinelTensor(dtype, {n});
    Tensor nv = inPlace ? v : sentinelTensor(dtype, {n});
    float newStep = -1.0f;
    float *stepOut = inPlace ? &step : &newStep;
    const float stepBefore = step;
    ASSERT_TRUE(isOk(amp_radam_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? nm.data() : m.data(), inPlace ? nv.data() : v.data(), &step,
        np.data(), nm.data(), nv.data(), stepOut, n, dtype, c.lr, nullptr,
        c.beta1, c.beta2, c.eps, c.weightDecay, c.decoupled, nullptr,
        nullptr)));
    EXPECT_EQ(*stepOut, stepBefore + 1.0f);
    const TorchRadamScalars k(c, stepBefore + 1.0);
    std::vector<double> pRef, pTol, mRef, mTol, vRef, vTol;
    for (int64_t i = 0; i < n; ++i) {
      // RAdam in f64: update = S m' / D with S = lr r sqrt(bc2) / bc1 and
      // D = sqrt(v') + eps when rectified, else S = lr / bc1 and D = 1.
      const double pv = p.get(i), mv = m.get(i);
      const auto [decayed, gMag, m1, v1] = momentsF64(
          c, dtype, pv, g.get(i), mv, v.get(i), mRef, mTol, vRef, vTol);
      double stepSize = c.lr / k.bc1, denom = 1.0;
      if (k.rectified) {
        stepSize *= k.rect * std::sqrt(k.bc2);
        denom = std::sqrt(v1) + c.eps;
      }
      double update = stepSize * m1 / denom;
      double p1 = decayed - update;
      pRef.push_back(p1);
      // The scalars' and the chain's roundings (up to 8, relative), m''s
      // error through S / D, and v''s (4u relative in sqrt).
      pTol.push_back(
          outTol(dtype, p1,
                 2 * (kU * (2 * std::fabs(pv) + std::fabs(p1)) +
                      stepSize * 4 * kU *
                          (std::fabs(mv) + gMag + std::fabs(m1)) / denom +
                      12 * kU * std::fabs(update))));
    }
    const std::string when = " at step " + std::to_string(s);
    EXPECT_TRUE(allClose(np, pRef, pTol, "param" + when));
    EXPECT_TRUE(allClose(nm, mRef, mTol, "exp_avg" + when));
    EXPECT_TRUE(allClose(nv, vRef, vTol, "exp_avg_sq" + when));
    if (dtype == AMP_DTYPE_F32) {
      Tensor tp = p, tm = m, tv = v;
      for (int64_t i = 0; i < n; ++i) {
        float pf = static_cast<float>(p.get(i)),
              mf = static_cast<float>(m.get(i)),
              vf = static_cast<float>(v.get(i));
        torchRadamF32(c, stepBefore + 1.0f, pf, static_cast<float>(g.get(i)),
                      mf, vf);
        tp.set(i, pf);
        tm.set(i, mf);
        tv.set(i, vf);
      }
      EXPECT_TRUE(np.sameBits(tp)) << "param differs from PyTorch's f32 step";
      EXPECT_TRUE(nm.sameBits(tm)) << "exp_avg differs from PyTorch's f32 step";
      EXPECT_TRUE(nv.sameBits(tv))
          << "exp_avg_sq differs from PyTorch's f32 step";
    }
    p = np;
    m = nm;
    v = nv;
    step = *stepOut;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, RadamTest,
                         optimizerCases(radamConfigs().size()),
                         OptimizerCaseName<radamConfigs>());

TEST(Radam, FirstStepsAreSgdWithMomentum) {
  // While rho_t <= 5 (t <= 5 for beta2 = 0.999) the update is
  // lr * m' / bc1, whatever v: at t = 1, m' / bc1 = g.
  float p[2] = {1.0f, -1.0f}, g[2] = {0.5f, 2.0f}, m[2] = {0, 0}, v[2] = {0, 0},
        step = 0.0f;
  ASSERT_TRUE(isOk(amp_radam_update(p, g, m, v, &step, p, m, v, &step, 2,
                                    AMP_DTYPE_F32, 0.1f, nullptr, 0.9f, 0.999f,
                                    1e-8f, 0.0f, 0, nullptr, nullptr)));
  EXPECT_NEAR(p[0], 1.0 - 0.05, 1e-6);
  EXPECT_NEAR(p[1], -1.0 - 0.2, 1e-6);
  EXPECT_EQ(step, 1.0f);
}

TEST(Radam, RejectsBadHyperparameters) {
  float p = 1, g = 1, m = 0, v = 0, step = 0;
  auto run = [&](float beta2, float *counter, int32_t decoupled) {
    return amp_radam_update(&p, &g, &m, &v, counter, &p, &m, &v, counter, 1,
                            AMP_DTYPE_F32, 1e-3f, nullptr, 0.9f, beta2, 1e-8f,
                            0.0f, decoupled, nullptr, nullptr);
  };
  EXPECT_TRUE(failsWith(run(1.0f, &step, 0), AMP_STATUS_INVALID_ARGUMENT,
                        "amp_radam_update: lr (0.001), eps (1e-08) and "
                        "weight_decay (0) must be finite and >= 0, beta1 "
                        "(0.9) and beta2 (1) in [0, 1)"));
  EXPECT_TRUE(failsWith(run(0.999f, nullptr, 0), AMP_STATUS_INVALID_ARGUMENT,
                        "step is NULL"));
  EXPECT_TRUE(failsWith(run(0.999f, &step, 3), AMP_STATUS_INVALID_ARGUMENT,
                        "decoupled_weight_decay (3) must be 0 or 1"));
  EXPECT_EQ(p, 1.0f);
  EXPECT_EQ(step, 0.0f);
}

//===----------------------------------------------------------------------===//
// RMSprop
//===----------------------------------------------------------------------===//

struct RmspropConfig {
  const char *name;
  float lr, alpha, eps, weightDecay, momentum;
  bool centered;
};

const std::vector<RmspropConfig> &rmspropConfigs() {
  static const std::vector<RmspropConfig> configs = {
      {"defaults", 1e-2f, 0.99f, 1e-8f, 0.0f, 0.0f, false},
      {"weight_decay", 1e-2f, 0.9f, 1e-6f, 0.1f, 0.0f, false},
      {"momentum", 1e-3f, 0.99f, 1e-8f, 1e-4f, 0.9f, false},
      {"centered", 2e-3f, 0.9f, 1e-6f, 0.0f, 0.0f, true},
      // 1 - alpha >= 0.5: the other branch of PyTorch's lerp.
      {"centered_momentum", 2e-3f, 0.3f, 1e-3f, 1e-2f, 0.8f, true},
  };
  return configs;
}

/// torch.optim.RMSprop's single-tensor step for one element in f32, in
/// PyTorch's op order: grad = grad.add(param, alpha=wd);
/// square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha); centered:
/// grad_avg.lerp_(grad, 1 - alpha), avg = square_avg.addcmul(grad_avg,
/// grad_avg, value=-1).sqrt_(), else avg = square_avg.sqrt(); avg =
/// avg.add_(eps); momentum: buf.mul_(momentum).addcdiv_(grad, avg),
/// param.add_(buf, alpha=-lr); else param.addcdiv_(grad, avg, value=-lr).
void torchRmspropF32(const RmspropConfig &c, float &p, float g, float &v,
                     float &a, float &buf) {
  const float w = static_cast<float>(1.0 - double(c.alpha));
  if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * p;
  v = v * c.alpha;
  v = v + w * g * g;
  float avg;
  if (c.centered) {
    a = std::fabs(w) < 0.5f ? a + w * (g - a) : g - (g - a) * (1.0f - w);
    avg = std::sqrt(v + -1.0f * a * a);
  } else {
    avg = std::sqrt(v);
  }
  avg = avg + c.eps;
  if (c.momentum > 0.0f) {
    buf = buf * c.momentum;
    buf = buf + 1.0f * g / avg;
    p = p + -c.lr * buf;
  } else {
    p = p + -c.lr * g / avg;
  }
}

class RmspropTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(RmspropTest, MatchesPyTorchOverSeveralSteps) {
  const RmspropConfig c = rmspropConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const bool hasBuf = c.momentum > 0.0f;
  const int64_t n = 263;
  std::mt19937 rng(101);
  Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
  Tensor v(dtype, {n}), a(dtype, {n}), buf(dtype, {n}); // zero, as PyTorch's
  for (int s = 0; s < 4; ++s) {
    Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
    if (s == 3)
      for (int64_t i = 0; i < n; i += 3)
        g.set(i, 0.0); // where eps matters
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nv = inPlace ? v : sentinelTensor(dtype, {n});
    Tensor na = inPlace ? a : sentinelTensor(dtype, {n});
    Tensor nb = inPlace ? buf : sentinelTensor(dtype, {n});
    ASSERT_TRUE(isOk(amp_rmsprop_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? nv.data() : v.data(),
        hasBuf ? (inPlace ? nb.data() : buf.data()) : nullptr,
        c.centered ? (inPlace ? na.data() : a.data()) : nullptr, np.data(),
        nv.data(), hasBuf ? nb.data() : nullptr,
        c.centered ? na.data() : nullptr, n, dtype, c.lr, nullptr, c.alpha,
        c.eps, c.weightDecay, c.momentum, c.centered, nullptr, nullptr)));
    std::vector<double> pRef, pTol, vRef, vTol, aRef, aTol, bRef, bTol;
    for (int64_t i = 0; i < n; ++i) {
      // RMSprop in f64, with the error bounds of the header.
      const double pv = p.get(i), gv = g.get(i), vv = v.get(i), av = a.get(i),
                   bv = buf.get(i), alpha = c.alpha;
      const double G = std::fabs(gv) + c.weightDecay * std::fabs(pv);
      const double g1 = gv + double(c.weightDecay) * pv;
      const double v1 = alpha * vv + (1 - alpha) * g1 * g1;
      const double ev = 8 * kU * (vv + G * G);
      const double a1 = c.centered ? alpha * av + (1 - alpha) * g1 : 0.0;
      const double ea = 4 * kU * (std::fabs(av) + G);
      const double var = v1 - a1 * a1;
      const double eVar = ev + (c.centered ? 2 * std::fabs(a1) * ea : 0.0) +
                          2 * kU * (v1 + a1 * a1);
      const double root = std::sqrt(var);
      const double d = root + c.eps;
      const double ed =
          (var > eVar ? eVar / (2 * root) : std::sqrt(eVar)) + 2 * kU * d;
      const double q = g1 / d;
      const double eq =
          (2 * kU * G + std::fabs(q) * ed) / d + kU * std::fabs(q);
      const double b1 = hasBuf ? c.momentum * bv + q : 0.0;
      const double eb =
          2 * kU * (c.momentum * std::fabs(bv) + std::fabs(b1)) + eq;
      const double stepV = hasBuf ? b1 : q, eStep = hasBuf ? eb : eq;
      const double p1 = pv - double(c.lr) * stepV;
      pRef.push_back(p1);
      pTol.push_back(outTol(dtype, p1,
                            2 * (c.lr * (eStep + kU * std::fabs(stepV)) +
                                 kU * (std::fabs(pv) + std::fabs(p1)))));
      vRef.push_back(v1);
      vTol.push_back(outTol(dtype, v1, 2 * ev));
      aRef.push_back(a1);
      aTol.push_back(outTol(dtype, a1, 2 * ea));
      bRef.push_back(b1);
      bTol.push_back(outTol(dtype, b1, 2 * eb));
    }
    const std::string when = " at step " + std::to_string(s);
    EXPECT_TRUE(allClose(np, pRef, pTol, "param" + when));
    EXPECT_TRUE(allClose(nv, vRef, vTol, "square_avg" + when));
    if (c.centered) {
      EXPECT_TRUE(allClose(na, aRef, aTol, "grad_avg" + when));
    }
    if (hasBuf) {
      EXPECT_TRUE(allClose(nb, bRef, bTol, "momentum_buffer" + when));
    }
    if (dtype == AMP_DTYPE_F32) {
      Tensor tp = p, tv = v, ta = a, tb = buf;
      for (int64_t i = 0; i < n; ++i) {
        float pf = static_cast<float>(p.get(i)),
              vf = static_cast<float>(v.get(i)),
              af = static_cast<float>(a.get(i)),
              bf = static_cast<float>(buf.get(i));
        torchRmspropF32(c, pf, static_cast<float>(g.get(i)), vf, af, bf);
        tp.set(i, pf);
        tv.set(i, vf);
        ta.set(i, af);
        tb.set(i, bf);
      }
      EXPECT_TRUE(np.sameBits(tp)) << "param differs from PyTorch's f32 step";
      EXPECT_TRUE(nv.sameBits(tv))
          << "square_avg differs from PyTorch's f32 step";
      if (c.centered) {
        EXPECT_TRUE(na.sameBits(ta))
            << "grad_avg differs from PyTorch's f32 step";
      }
      if (hasBuf) {
        EXPECT_TRUE(nb.sameBits(tb))
            << "momentum_buffer differs from PyTorch's f32 step";
      }
    }
    p = np;
    v = nv;
    if (c.centered)
      a = na;
    if (hasBuf)
      buf = nb;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, RmspropTest,
                         optimizerCases(rmspropConfigs().size()),
                         OptimizerCaseName<rmspropConfigs>());

TEST(Rmsprop, RejectsInconsistentHyperparameters) {
  Tensor p(AMP_DTYPE_F32, {4}), g(AMP_DTYPE_F32, {4}), v(AMP_DTYPE_F32, {4}),
      b(AMP_DTYPE_F32, {4}), a(AMP_DTYPE_F32, {4});
  auto run = [&](float momentum, int32_t centered, bool buf, bool avg,
                 float alpha = 0.99f, float eps = 1e-8f) {
    return amp_rmsprop_update(
        p.data(), g.data(), v.data(), buf ? b.data() : nullptr,
        avg ? a.data() : nullptr, p.data(), v.data(), buf ? b.data() : nullptr,
        avg ? a.data() : nullptr, 4, AMP_DTYPE_F32, 1e-2f, nullptr, alpha, eps,
        0.0f, momentum, centered, nullptr, nullptr);
  };
  EXPECT_TRUE(isOk(run(0.9f, 1, true, true)));
  EXPECT_TRUE(failsWith(run(0.9f, 0, false, false), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when momentum > 0"));
  EXPECT_TRUE(failsWith(run(0.0f, 0, true, false), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when momentum > 0"));
  EXPECT_TRUE(failsWith(run(0.0f, 1, false, false), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when centered = 1"));
  EXPECT_TRUE(failsWith(run(0.0f, 0, false, true), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when centered = 1"));
  EXPECT_TRUE(failsWith(run(0.0f, 2, false, true), AMP_STATUS_INVALID_ARGUMENT,
                        "centered (2)"));
  EXPECT_TRUE(failsWith(run(0.0f, 0, false, false, 1.5f),
                        AMP_STATUS_INVALID_ARGUMENT, "alpha"));
  EXPECT_TRUE(failsWith(run(0.0f, 0, false, false, NAN),
                        AMP_STATUS_INVALID_ARGUMENT, "alpha"));
  EXPECT_TRUE(failsWith(run(0.0f, 0, false, false, 0.99f, -1.0f),
                        AMP_STATUS_INVALID_ARGUMENT, "eps"));
}

//===----------------------------------------------------------------------===//
// Adagrad
//===----------------------------------------------------------------------===//

struct AdagradConfig {
  const char *name;
  float lr, eps, weightDecay, initialSum;
  /// > 0: a step counter, and clr = lr / (1 + step * lrDecay).
  float lrDecay = 0.0f;
  /// The counter before the first step of the test.
  float firstStep = 0.0f;
};

const std::vector<AdagradConfig> &adagradConfigs() {
  static const std::vector<AdagradConfig> configs = {
      {"defaults", 1e-2f, 1e-10f, 0.0f, 0.0f},
      {"weight_decay", 5e-2f, 1e-10f, 0.1f, 0.1f},
      {"large_eps", 0.1f, 1e-2f, 1e-3f, 0.0f},
      {"lr_decay", 5e-2f, 1e-10f, 0.0f, 0.0f, 0.3f},
      {"lr_decay_late", 0.1f, 1e-10f, 1e-2f, 0.1f, 1e-3f, 999.0f},
  };
  return configs;
}

/// PyTorch's clr = lr / (1 + (step - 1) * lr_decay) in Python floats for
/// the counter after its increment, passed to addcdiv_ as an f32 value.
float torchAdagradLr(const AdagradConfig &c, float stepAfter) {
  return static_cast<float>(
      double(c.lr) / (1.0 + (double(stepAfter) - 1.0) * double(c.lrDecay)));
}

/// torch.optim.Adagrad's single-tensor step for one element in f32, in
/// PyTorch's op order: grad = grad.add(param, alpha=wd);
/// state_sum.addcmul_(grad, grad, value=1); std = state_sum.sqrt().add_(eps);
/// param.addcdiv_(grad, std, value=-clr).
void torchAdagradF32(const AdagradConfig &c, float clr, float &p, float g,
                     float &sum) {
  if (c.weightDecay != 0.0f)
    g = g + c.weightDecay * p;
  sum = sum + 1.0f * g * g;
  const float denom = std::sqrt(sum) + c.eps;
  p = p + -clr * g / denom;
}

class AdagradTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(AdagradTest, MatchesPyTorchOverSeveralSteps) {
  const AdagradConfig c = adagradConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const int64_t n = 271;
  std::mt19937 rng(111);
  Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
  Tensor sum(dtype, {n});
  for (int64_t i = 0; i < n; ++i)
    sum.set(i, c.initialSum); // initial_accumulator_value
  const bool counted = c.lrDecay > 0.0f;
  float step = c.firstStep;
  for (int s = 0; s < 4; ++s) {
    Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
    if (s == 0)
      for (int64_t i = 0; i < n; i += 5)
        g.set(i, 0.0); // a zero sum where eps matters
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor ns = inPlace ? sum : sentinelTensor(dtype, {n});
    float newStep = -1.0f;
    float *stepOut = inPlace ? &step : &newStep;
    const float stepBefore = step;
    ASSERT_TRUE(isOk(amp_adagrad_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? ns.data() : sum.data(), counted ? &step : nullptr, np.data(),
        ns.data(), counted ? stepOut : nullptr, n, dtype, c.lr, nullptr,
        c.lrDecay, c.eps, c.weightDecay, nullptr, nullptr)));
    if (counted)
      EXPECT_EQ(*stepOut, stepBefore + 1.0f);
    // clr in f64 (the f32 rounding of the kernel's clr is within u|clr|,
    // part of the param bound's 2u lr |q| term).
    const double lr =
        double(c.lr) / (1.0 + double(stepBefore) * double(c.lrDecay));
    std::vector<double> pRef, pTol, sRef, sTol;
    for (int64_t i = 0; i < n; ++i) {
      // Adagrad in f64, with the error bounds of the header.
      const double pv = p.get(i), gv = g.get(i), sv = sum.get(i);
      const double G = std::fabs(gv) + c.weightDecay * std::fabs(pv);
      const double g1 = gv + double(c.weightDecay) * pv;
      const double s1 = sv + g1 * g1;
      const double es = 4 * kU * (sv + G * G);
      const double root = std::sqrt(s1);
      const double d = root + c.eps;
      const double ed =
          (s1 > es ? es / (2 * root) : std::sqrt(es)) + 2 * kU * d;
      const double q = g1 / d;
      const double p1 = pv - lr * q;
      pRef.push_back(p1);
      pTol.push_back(outTol(dtype, p1,
                            2 * (lr * (2 * kU * G + std::fabs(q) * ed) / d +
                                 2 * kU * lr * std::fabs(q) +
                                 kU * (std::fabs(pv) + std::fabs(p1)))));
      sRef.push_back(s1);
      sTol.push_back(outTol(dtype, s1, 2 * es));
    }
    const std::string when = " at step " + std::to_string(s);
    EXPECT_TRUE(allClose(np, pRef, pTol, "param" + when));
    EXPECT_TRUE(allClose(ns, sRef, sTol, "state_sum" + when));
    if (dtype == AMP_DTYPE_F32) {
      Tensor tp = p, ts = sum;
      for (int64_t i = 0; i < n; ++i) {
        float pf = static_cast<float>(p.get(i)),
              sf = static_cast<float>(sum.get(i));
        torchAdagradF32(c,
                        counted ? torchAdagradLr(c, stepBefore + 1.0f) : c.lr,
                        pf, static_cast<float>(g.get(i)), sf);
        tp.set(i, pf);
        ts.set(i, sf);
      }
      EXPECT_TRUE(np.sameBits(tp)) << "param differs from PyTorch's f32 step";
      EXPECT_TRUE(ns.sameBits(ts))
          << "state_sum differs from PyTorch's f32 step";
    }
    p = np;
    sum = ns;
    if (counted)
      step = *stepOut;
  }
  if (counted)
    EXPECT_EQ(step, c.firstStep + 4.0f);
}

INSTANTIATE_TEST_SUITE_P(Configs, AdagradTest,
                         optimizerCases(adagradConfigs().size()),
                         OptimizerCaseName<adagradConfigs>());

TEST(Adagrad, RejectsBadHyperparameters) {
  Tensor p(AMP_DTYPE_F32, {4}), g(AMP_DTYPE_F32, {4}), s(AMP_DTYPE_F32, {4});
  auto run = [&](float lr, float eps, float wd, void *sum) {
    return amp_adagrad_update(p.data(), g.data(), sum, nullptr, p.data(), sum,
                              nullptr, 4, AMP_DTYPE_F32, lr, nullptr, 0.0f, eps,
                              wd, nullptr, nullptr);
  };
  EXPECT_TRUE(isOk(run(1e-2f, 1e-10f, 0.0f, s.data())));
  EXPECT_TRUE(failsWith(run(-1.0f, 1e-10f, 0.0f, s.data()),
                        AMP_STATUS_INVALID_ARGUMENT, "lr"));
  EXPECT_TRUE(failsWith(run(1e-2f, NAN, 0.0f, s.data()),
                        AMP_STATUS_INVALID_ARGUMENT, "eps"));
  EXPECT_TRUE(failsWith(run(1e-2f, 1e-10f, INFINITY, s.data()),
                        AMP_STATUS_INVALID_ARGUMENT, "weight_decay"));
  EXPECT_TRUE(failsWith(run(1e-2f, 1e-10f, 0.0f, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT, "state_sum"));
  // The step counters exactly when lr_decay > 0, which is finite and >= 0.
  float step = 0.0f;
  auto decayed = [&](float lrDecay, float *counter) {
    return amp_adagrad_update(p.data(), g.data(), s.data(), counter, p.data(),
                              s.data(), counter, 4, AMP_DTYPE_F32, 1e-2f,
                              nullptr, lrDecay, 1e-10f, 0.0f, nullptr, nullptr);
  };
  EXPECT_TRUE(failsWith(decayed(0.1f, nullptr), AMP_STATUS_INVALID_ARGUMENT,
                        "step and new_step must be given exactly when "
                        "lr_decay > 0 (lr_decay = 0.1)"));
  EXPECT_TRUE(failsWith(decayed(0.0f, &step), AMP_STATUS_INVALID_ARGUMENT,
                        "exactly when lr_decay > 0 (lr_decay = 0)"));
  EXPECT_TRUE(failsWith(decayed(-0.1f, &step), AMP_STATUS_INVALID_ARGUMENT,
                        "lr_decay (-0.1)"));
  EXPECT_TRUE(failsWith(decayed(INFINITY, &step), AMP_STATUS_INVALID_ARGUMENT,
                        "lr_decay (inf)"));
  EXPECT_EQ(step, 0.0f);
  // Without elements the counter still advances, as Adam's does.
  EXPECT_TRUE(isOk(amp_adagrad_update(
      nullptr, nullptr, nullptr, &step, nullptr, nullptr, &step, 0,
      AMP_DTYPE_F32, 1e-2f, nullptr, 0.1f, 1e-10f, 0.0f, nullptr, nullptr)));
  EXPECT_EQ(step, 1.0f);
}

//===----------------------------------------------------------------------===//
// Skip-step predication
//===----------------------------------------------------------------------===//

/// Random values with NaN payloads and infinities sprinkled in, so that
/// "bitwise unchanged" means more than "numerically equal".
Tensor stateWithOddBits(amp_dtype_t dtype, int64_t n, std::mt19937 &rng) {
  Tensor t = randomTensor(dtype, {n}, rng);
  t.setBits(0, dtype == AMP_DTYPE_F32 ? 0x7fa12345u : 0x7d21u);
  t.set(1, -0.0);
  t.set(2, std::numeric_limits<double>::infinity());
  return t;
}

class SkipStepTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, bool>> {};

TEST_P(SkipStepTest, FoundInfLeavesEverythingBitwiseUnchanged) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const bool inPlace = std::get<1>(GetParam());
  const int64_t n = 67;
  std::mt19937 rng(91);
  const Tensor p = stateWithOddBits(dtype, n, rng);
  const Tensor g = stateWithOddBits(dtype, n, rng);
  const Tensor buf = stateWithOddBits(dtype, n, rng);
  const Tensor m = stateWithOddBits(dtype, n, rng);
  const Tensor v = stateWithOddBits(dtype, n, rng);
  const int8_t found = 1, clean = 0;

  for (float momentum : {0.0f, 0.9f}) {
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nb = inPlace ? buf : sentinelTensor(dtype, {n});
    const bool hasBuf = momentum > 0;
    ASSERT_TRUE(isOk(
        amp_sgd_update(inPlace ? np.data() : p.data(), g.data(),
                       hasBuf ? (inPlace ? nb.data() : buf.data()) : nullptr,
                       np.data(), hasBuf ? nb.data() : nullptr, n, dtype, 0.1f,
                       nullptr, momentum, 0.0f, 1e-2f, 0, &found, nullptr)));
    EXPECT_TRUE(np.sameBits(p)) << "sgd param, momentum " << momentum;
    if (hasBuf) {
      EXPECT_TRUE(nb.sameBits(buf)) << "sgd buffer";
    }
  }

  Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
  Tensor nm = inPlace ? m : sentinelTensor(dtype, {n});
  Tensor nv = inPlace ? v : sentinelTensor(dtype, {n});
  float step = 41.0f, newStep = -1.0f;
  ASSERT_TRUE(isOk(amp_adam_update(
      inPlace ? np.data() : p.data(), g.data(), inPlace ? nm.data() : m.data(),
      inPlace ? nv.data() : v.data(), &step, nullptr, np.data(), nm.data(),
      nv.data(), inPlace ? &step : &newStep, nullptr, n, dtype, 1e-3f, nullptr,
      0.9f, 0.999f, 1e-8f, 1e-2f, 1, 0, &found, nullptr)));
  EXPECT_TRUE(np.sameBits(p));
  EXPECT_TRUE(nm.sameBits(m));
  EXPECT_TRUE(nv.sameBits(v));
  const float expectedStep = 41.0f;
  EXPECT_EQ(std::memcmp(inPlace ? &step : &newStep, &expectedStep, 4), 0);

  // AMSGrad keeps its maxima; a counted Adagrad (lr_decay > 0) its sums and
  // counter.
  {
    Tensor np = inPlace ? p : sentinelTensor(dtype, {n});
    Tensor nm = inPlace ? m : sentinelTensor(dtype, {n});
    Tensor nv = inPlace ? v : sentinelTensor(dtype, {n});
    Tensor nvmax = inPlace ? buf : sentinelTensor(dtype, {n});
    float newStep = -1.0f;
    ASSERT_TRUE(isOk(amp_adam_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? nm.data() : m.data(), inPlace ? nv.data() : v.data(), &step,
        inPlace ? nvmax.data() : buf.data(), np.data(), nm.data(), nv.data(),
        inPlace ? &step : &newStep, nvmax.data(), n, dtype, 1e-3f, nullptr,
        0.9f, 0.999f, 1e-8f, 0.0f, 0, 1, &found, nullptr)));
    EXPECT_TRUE(np.sameBits(p) && nm.sameBits(m) && nv.sameBits(v));
    EXPECT_TRUE(nvmax.sameBits(buf)) << "amsgrad max_exp_avg_sq";
    EXPECT_EQ(std::memcmp(inPlace ? &step : &newStep, &expectedStep, 4), 0);
    Tensor ns = inPlace ? v : sentinelTensor(dtype, {n});
    np = inPlace ? p : sentinelTensor(dtype, {n});
    newStep = -1.0f;
    ASSERT_TRUE(isOk(amp_adagrad_update(
        inPlace ? np.data() : p.data(), g.data(),
        inPlace ? ns.data() : v.data(), &step, np.data(), ns.data(),
        inPlace ? &step : &newStep, n, dtype, 1e-2f, nullptr, 0.1f, 1e-10f,
        1e-2f, &found, nullptr)));
    EXPECT_TRUE(np.sameBits(p) && ns.sameBits(v)) << "adagrad";
    EXPECT_EQ(std::memcmp(inPlace ? &step : &newStep, &expectedStep, 4), 0);
  }

  // A clear flag is the same as no predicate.
  Tensor a = sentinelTensor(dtype, {n}), b = sentinelTensor(dtype, {n});
  Tensor am = sentinelTensor(dtype, {n}), bm = sentinelTensor(dtype, {n});
  Tensor av = sentinelTensor(dtype, {n}), bv = sentinelTensor(dtype, {n});
  float as = 0, bs = 0;
  ASSERT_TRUE(isOk(amp_adam_update(
      p.data(), g.data(), m.data(), v.data(), &step, nullptr, a.data(),
      am.data(), av.data(), &as, nullptr, n, dtype, 1e-3f, nullptr, 0.9f,
      0.999f, 1e-8f, 1e-2f, 1, 0, &clean, nullptr)));
  ASSERT_TRUE(isOk(amp_adam_update(
      p.data(), g.data(), m.data(), v.data(), &step, nullptr, b.data(),
      bm.data(), bv.data(), &bs, nullptr, n, dtype, 1e-3f, nullptr, 0.9f,
      0.999f, 1e-8f, 1e-2f, 1, 0, nullptr, nullptr)));
  EXPECT_TRUE(a.sameBits(b) && am.sameBits(bm) && av.sameBits(bv));
  EXPECT_EQ(as, bs);
  EXPECT_EQ(as, step + 1.0f);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, SkipStepTest,
                         ::testing::Combine(::testing::Values(AMP_DTYPE_F32,
                                                              AMP_DTYPE_F16,
                                                              AMP_DTYPE_BF16),
                                            ::testing::Bool()),
                         [](const auto &info) {
                           return std::string(
                                      dtypeName(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) ? "_inplace" : "");
                         });

//===----------------------------------------------------------------------===//
// The multi-buffer updates
//===----------------------------------------------------------------------===//

/// Buffers of mixed sizes (empty ones included) and dtypes, with odd bits
/// (NaN, inf) in one of them.
struct MultiState {
  std::vector<int64_t> sizes;
  std::vector<amp_dtype_t> dtypes;
  std::vector<Tensor> params, grads, bufs, ms, vs;
  std::vector<float> steps;
};

MultiState multiState(std::mt19937 &rng) {
  const int64_t sizes[] = {257, 0, 1, 64, 33, 7, 1000};
  const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
  MultiState s;
  for (int i = 0; i < 7; ++i) {
    const amp_dtype_t dt = dtypes[i % 3];
    s.sizes.push_back(sizes[i]);
    s.dtypes.push_back(dt);
    s.params.push_back(i == 4 ? stateWithOddBits(dt, sizes[i], rng)
                              : randomTensor(dt, {sizes[i]}, rng));
    s.grads.push_back(randomTensor(dt, {sizes[i]}, rng));
    s.bufs.push_back(randomTensor(dt, {sizes[i]}, rng, -0.5, 0.5));
    s.ms.push_back(randomTensor(dt, {sizes[i]}, rng, -0.1, 0.1));
    s.vs.push_back(randomTensor(dt, {sizes[i]}, rng, 0.0, 0.01));
    s.steps.push_back(float(i * 3));
  }
  return s;
}

template <typename T> std::vector<const void *> constPtrs(std::vector<T> &v) {
  std::vector<const void *> out;
  for (auto &t : v)
    out.push_back(t.data());
  return out;
}

template <typename T> std::vector<void *> ptrs(std::vector<T> &v) {
  std::vector<void *> out;
  for (auto &t : v)
    out.push_back(t.data());
  return out;
}

TEST(SgdMulti, EqualsThePerBufferCallsBitwise) {
  std::mt19937 rng(111);
  for (const SgdConfig &c : sgdConfigs())
    for (int flag : {-1, 0, 1}) {
      const int8_t found = static_cast<int8_t>(flag);
      const int8_t *foundInf = flag < 0 ? nullptr : &found;
      const bool hasBuf = c.momentum > 0.0f;
      MultiState s = multiState(rng);
      const int32_t n = static_cast<int32_t>(s.sizes.size());
      // Per buffer: params out of place, buffers in place.
      std::vector<Tensor> np1, nb1 = s.bufs, np2, nb2 = s.bufs;
      for (int32_t i = 0; i < n; ++i) {
        np1.push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
        np2.push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
        ASSERT_TRUE(isOk(
            amp_sgd_update(s.params[i].data(), s.grads[i].data(),
                           hasBuf ? nb1[i].data() : nullptr, np1[i].data(),
                           hasBuf ? nb1[i].data() : nullptr, s.sizes[i],
                           s.dtypes[i], c.lr, nullptr, c.momentum, c.dampening,
                           c.weightDecay, c.nesterov, foundInf, nullptr)));
      }
      std::vector<const void *> p = constPtrs(s.params), g = constPtrs(s.grads),
                                b = constPtrs(nb2);
      std::vector<void *> npp = ptrs(np2), nbp = ptrs(nb2);
      ASSERT_TRUE(isOk(amp_sgd_update_multi(
          n, p.data(), g.data(), hasBuf ? b.data() : nullptr, npp.data(),
          hasBuf ? nbp.data() : nullptr, s.sizes.data(), s.dtypes.data(), c.lr,
          nullptr, c.momentum, c.dampening, c.weightDecay, c.nesterov, foundInf,
          nullptr)));
      for (int32_t i = 0; i < n; ++i) {
        EXPECT_TRUE(np1[i].sameBits(np2[i])) << c.name << " param " << i;
        EXPECT_TRUE(nb1[i].sameBits(nb2[i])) << c.name << " buffer " << i;
        if (flag == 1) {
          EXPECT_TRUE(np2[i].sameBits(s.params[i])) << c.name << " skipped";
        }
      }
    }
}

TEST(AdamMulti, EqualsThePerBufferCallsBitwise) {
  std::mt19937 rng(113);
  for (int flag : {-1, 0, 1})
    for (bool stepInPlace : {false, true}) {
      const int8_t found = static_cast<int8_t>(flag);
      const int8_t *foundInf = flag < 0 ? nullptr : &found;
      MultiState s = multiState(rng);
      const int32_t n = static_cast<int32_t>(s.sizes.size());
      // Params out of place, moments in place; steps as asked.
      std::vector<Tensor> np1, np2, m1 = s.ms, m2 = s.ms, v1 = s.vs, v2 = s.vs;
      std::vector<float> st1 = s.steps, st2 = s.steps, ns1(n, -1.0f),
                         ns2(n, -1.0f);
      for (int32_t i = 0; i < n; ++i) {
        np1.push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
        np2.push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
        ASSERT_TRUE(isOk(amp_adam_update(
            s.params[i].data(), s.grads[i].data(), m1[i].data(), v1[i].data(),
            &st1[i], nullptr, np1[i].data(), m1[i].data(), v1[i].data(),
            stepInPlace ? &st1[i] : &ns1[i], nullptr, s.sizes[i], s.dtypes[i],
            1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 1e-2f, 1, 0, foundInf,
            nullptr)));
      }
      std::vector<const void *> p = constPtrs(s.params), g = constPtrs(s.grads),
                                m = constPtrs(m2), v = constPtrs(v2);
      std::vector<void *> npp = ptrs(np2), nm = ptrs(m2), nv = ptrs(v2);
      std::vector<const float *> sp;
      std::vector<float *> nsp;
      for (int32_t i = 0; i < n; ++i) {
        sp.push_back(&st2[i]);
        nsp.push_back(stepInPlace ? &st2[i] : &ns2[i]);
      }
      ASSERT_TRUE(isOk(amp_adam_update_multi(
          n, p.data(), g.data(), m.data(), v.data(), sp.data(), nullptr,
          npp.data(), nm.data(), nv.data(), nsp.data(), nullptr, s.sizes.data(),
          s.dtypes.data(), 1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 1e-2f, 1, 0,
          foundInf, nullptr)));
      for (int32_t i = 0; i < n; ++i) {
        EXPECT_TRUE(np1[i].sameBits(np2[i])) << "param " << i;
        EXPECT_TRUE(m1[i].sameBits(m2[i])) << "exp_avg " << i;
        EXPECT_TRUE(v1[i].sameBits(v2[i])) << "exp_avg_sq " << i;
        const float a = stepInPlace ? st1[i] : ns1[i],
                    b = stepInPlace ? st2[i] : ns2[i];
        EXPECT_EQ(std::memcmp(&a, &b, 4), 0) << "step " << i;
        EXPECT_EQ(b, flag == 1 ? s.steps[i] : s.steps[i] + 1.0f);
      }
    }
}

TEST(SgdMulti, RejectsMalformedCallsWithoutWriting) {
  float param[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  const void *ins[1] = {param};
  void *outs[1] = {out};
  const int64_t sizes[1] = {4};
  const amp_dtype_t dtypes[1] = {AMP_DTYPE_F32};
  const amp_dtype_t badDtypes[1] = {AMP_DTYPE_I32};
  EXPECT_EQ(amp_sgd_update_multi(-1, ins, ins, nullptr, outs, nullptr, sizes,
                                 dtypes, 0.1f, nullptr, 0, 0, 0, 0, nullptr,
                                 nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  // Buffers given without momentum, none given with it.
  EXPECT_EQ(amp_sgd_update_multi(1, ins, ins, ins, outs, outs, sizes, dtypes,
                                 0.1f, nullptr, 0, 0, 0, 0, nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(amp_sgd_update_multi(1, ins, ins, nullptr, outs, nullptr, sizes,
                                 dtypes, 0.1f, nullptr, 0.9f, 0, 0, 0, nullptr,
                                 nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(amp_sgd_update_multi(1, ins, ins, nullptr, outs, nullptr, sizes,
                                 badDtypes, 0.1f, nullptr, 0, 0, 0, 0, nullptr,
                                 nullptr),
            AMP_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(
      std::string(amp_kernel_last_error()).rfind("amp_sgd_update_multi: ", 0),
      0u)
      << amp_kernel_last_error();
  EXPECT_EQ(amp_sgd_update_multi(0, nullptr, nullptr, nullptr, nullptr, nullptr,
                                 nullptr, nullptr, 0.1f, nullptr, 0, 0, 0, 0,
                                 nullptr, nullptr),
            AMP_STATUS_OK);
  for (float v : out)
    EXPECT_EQ(v, 0.0f);
}

TEST(AdamMulti, RejectsMalformedCallsWithoutWriting) {
  float param[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0}, step = 0;
  const void *ins[1] = {param};
  void *outs[1] = {out};
  const float *steps[1] = {&step};
  float *newSteps[1] = {&step};
  const int64_t sizes[1] = {4};
  const amp_dtype_t dtypes[1] = {AMP_DTYPE_F32};
  EXPECT_EQ(amp_adam_update_multi(1, ins, ins, ins, ins, nullptr, nullptr, outs,
                                  outs, outs, newSteps, nullptr, sizes, dtypes,
                                  1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0, 1, 0,
                                  nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(amp_adam_update_multi(1, ins, ins, ins, ins, steps, nullptr, outs,
                                  outs, outs, newSteps, nullptr, sizes, dtypes,
                                  1e-3f, nullptr, 1.0f, 0.999f, 1e-8f, 0, 1, 0,
                                  nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(amp_adam_update_multi(1, ins, ins, ins, ins, steps, nullptr, outs,
                                  outs, outs, newSteps, nullptr, sizes, dtypes,
                                  1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0, -1, 0,
                                  nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  // AMSGrad's arrays exactly with amsgrad = 1.
  EXPECT_EQ(amp_adam_update_multi(1, ins, ins, ins, ins, steps, nullptr, outs,
                                  outs, outs, newSteps, nullptr, sizes, dtypes,
                                  1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0, 1, 1,
                                  nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(amp_adam_update_multi(1, ins, ins, ins, ins, steps, ins, outs, outs,
                                  outs, newSteps, outs, sizes, dtypes, 1e-3f,
                                  nullptr, 0.9f, 0.999f, 1e-8f, 0, 1, 0,
                                  nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  // The hyperparameters are checked without buffers too.
  EXPECT_EQ(amp_adam_update_multi(
                0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                1e-3f, nullptr, 0.9f, 0.999f, 1e-8f, 0, 2, 0, nullptr, nullptr),
            AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(step, 0.0f);
  for (float v : out)
    EXPECT_EQ(v, 0.0f);
}

//===----------------------------------------------------------------------===//
// lr_factor: a scheduled learning rate
//===----------------------------------------------------------------------===//

/// The factors the scheduled updates run with: products lr * factor that
/// f32 does not hold exactly, 1, 0, a warmup's first factor, and one above
/// 1 (nothing bounds a factor).
const float kLrFactors[] = {0.3f, 0.7071f, 1.0f, 0.0f, 1.0f / 3.0f, 2.5f};

/// lr' as kernels.h defines it: (float)((double)lr * (double)factor).
float scheduledLr(float lr, float factor) {
  return static_cast<float>(static_cast<double>(lr) *
                            static_cast<double>(factor));
}

TEST(AdagradMulti, CountersAreGivenExactlyWithLrDecay) {
  float param[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0}, sum[4] = {0, 0, 0, 0};
  float step[2] = {5, 0};
  // Buffer 1 has no elements.
  const void *params[2] = {param, nullptr}, *sums[2] = {sum, nullptr};
  void *newParams[2] = {out, nullptr}, *newSums[2] = {sum, nullptr};
  const float *steps[2] = {&step[0], &step[1]};
  float *newSteps[2] = {&step[0], &step[1]};
  const int64_t sizes[2] = {4, 0};
  const amp_dtype_t dtypes[2] = {AMP_DTYPE_F32, AMP_DTYPE_F32};
  auto run = [&](const float *const *in, float *const *out, float lrDecay) {
    return amp_adagrad_update_multi(2, params, params, sums, in, newParams,
                                    newSums, out, sizes, dtypes, 1e-2f, nullptr,
                                    lrDecay, 0.0f, 0.0f, nullptr, nullptr);
  };
  EXPECT_EQ(run(nullptr, nullptr, 0.1f), AMP_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(run(steps, newSteps, 0.0f), AMP_STATUS_INVALID_ARGUMENT);
  for (float v : out)
    EXPECT_EQ(v, 0.0f);
  // Each buffer counts its own steps, the empty one too; the first runs
  // with clr = lr / (1 + 5 * lr_decay). With g = p and eps = 0, sum' = p^2
  // and p' = p - clr * p / |p|, in the kernel's f32 order.
  ASSERT_TRUE(isOk(run(steps, newSteps, 0.1f)));
  EXPECT_EQ(step[0], 6.0f);
  EXPECT_EQ(step[1], 1.0f);
  const float clr =
      static_cast<float>(double(1e-2f) / (1.0 + 5.0 * double(0.1f)));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(sum[i], param[i] * param[i]) << i;
    EXPECT_EQ(out[i], param[i] + -clr * param[i] / param[i]) << i;
  }
}

TEST(LrFactor, SgdEqualsTheCallWithTheScheduledLrBitwise) {
  std::mt19937 rng(121);
  const int64_t n = 129;
  for (const SgdConfig &c : sgdConfigs())
    for (amp_dtype_t dtype : floatDtypes())
      for (float factor : kLrFactors) {
        const bool hasBuf = c.momentum > 0.0f;
        Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
        Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
        Tensor buf = randomTensor(dtype, {n}, rng, -0.5, 0.5);
        Tensor np[2], nb[2];
        for (int k = 0; k < 2; ++k) {
          np[k] = sentinelTensor(dtype, {n});
          nb[k] = sentinelTensor(dtype, {n});
          // k = 0: lr and the factor; k = 1: lr' and no factor.
          ASSERT_TRUE(isOk(amp_sgd_update(
              p.data(), g.data(), hasBuf ? buf.data() : nullptr, np[k].data(),
              hasBuf ? nb[k].data() : nullptr, n, dtype,
              k == 0 ? c.lr : scheduledLr(c.lr, factor),
              k == 0 ? &factor : nullptr, c.momentum, c.dampening,
              c.weightDecay, c.nesterov, nullptr, nullptr)));
        }
        const std::string what = std::string(c.name) + " " + dtypeName(dtype) +
                                 " factor " + std::to_string(factor);
        EXPECT_TRUE(np[0].sameBits(np[1])) << what;
        if (hasBuf) {
          EXPECT_TRUE(nb[0].sameBits(nb[1])) << what;
        }
      }
}

TEST(LrFactor, AdamEqualsTheCallWithTheScheduledLrBitwise) {
  std::mt19937 rng(123);
  const int64_t n = 131;
  for (const AdamConfig &c : adamConfigs())
    for (amp_dtype_t dtype : floatDtypes())
      for (float factor : kLrFactors)
        for (float step : {0.0f, 5.0f}) {
          Tensor p = randomTensor(dtype, {n}, rng, -2, 2);
          Tensor g = randomTensor(dtype, {n}, rng, -1, 1);
          Tensor m = randomTensor(dtype, {n}, rng, -0.1, 0.1);
          Tensor v = randomTensor(dtype, {n}, rng, 0.0, 0.01);
          Tensor np[2], nm[2], nv[2];
          float newStep[2] = {-1.0f, -1.0f};
          for (int k = 0; k < 2; ++k) {
            np[k] = sentinelTensor(dtype, {n});
            nm[k] = sentinelTensor(dtype, {n});
            nv[k] = sentinelTensor(dtype, {n});
            ASSERT_TRUE(isOk(amp_adam_update(
                p.data(), g.data(), m.data(), v.data(), &step, nullptr,
                np[k].data(), nm[k].data(), nv[k].data(), &newStep[k], nullptr,
                n, dtype, k == 0 ? c.lr : scheduledLr(c.lr, factor),
                k == 0 ? &factor : nullptr, c.beta1, c.beta2, c.eps,
                c.weightDecay, c.decoupled, 0, nullptr, nullptr)));
          }
          const std::string what =
              std::string(c.name) + " " + dtypeName(dtype) + " factor " +
              std::to_string(factor) + " step " + std::to_string(step);
          EXPECT_TRUE(np[0].sameBits(np[1])) << what;
          EXPECT_TRUE(nm[0].sameBits(nm[1])) << what;
          EXPECT_TRUE(nv[0].sameBits(nv[1])) << what;
          EXPECT_EQ(newStep[0], step + 1.0f) << what;
          EXPECT_EQ(newStep[1], step + 1.0f) << what;
        }
}

TEST(LrFactor, ScalesTheLearningRate) {
  // Plain SGD on one element: param' = param - lr' * grad, exactly when
  // every value is a power of two.
  float p = 1.0f, g = 0.5f, out = 0.0f, factor = 0.25f;
  ASSERT_TRUE(isOk(amp_sgd_update(&p, &g, nullptr, &out, nullptr, 1,
                                  AMP_DTYPE_F32, 0.5f, &factor, 0.0f, 0.0f,
                                  0.0f, 0, nullptr, nullptr)));
  EXPECT_EQ(out, 1.0f - 0.125f * 0.5f);
  // AdamW's decoupled weight decay uses lr' too: with a zero gradient and
  // zero moments (beta1 = beta2 = 0, eps = 1) the step adds -0, leaving
  // param * (1 - lr' * wd).
  float m = 0.0f, v = 0.0f, step = 0.0f, newStep = 0.0f, zero = 0.0f;
  out = 0.0f;
  ASSERT_TRUE(
      isOk(amp_adam_update(&p, &zero, &m, &v, &step, nullptr, &out, &m, &v,
                           &newStep, nullptr, 1, AMP_DTYPE_F32, 0.5f, &factor,
                           0.0f, 0.0f, 1.0f, 0.5f, 1, 0, nullptr, nullptr)));
  EXPECT_EQ(out, 1.0f - 0.125f * 0.5f);
}

TEST(LrFactor, SkippedStepsStillCopyBitwise) {
  // A set found_inf copies every input, whatever the factor (NaN too).
  std::mt19937 rng(127);
  const int64_t n = 67;
  const int8_t found = 1;
  for (amp_dtype_t dtype : floatDtypes())
    for (float factor : {0.3f, std::numeric_limits<float>::quiet_NaN()}) {
      const Tensor p = stateWithOddBits(dtype, n, rng);
      const Tensor g = stateWithOddBits(dtype, n, rng);
      const Tensor buf = stateWithOddBits(dtype, n, rng);
      const Tensor m = stateWithOddBits(dtype, n, rng);
      const Tensor v = stateWithOddBits(dtype, n, rng);
      Tensor np = sentinelTensor(dtype, {n}), nb = sentinelTensor(dtype, {n});
      ASSERT_TRUE(isOk(amp_sgd_update(p.data(), g.data(), buf.data(), np.data(),
                                      nb.data(), n, dtype, 0.1f, &factor, 0.9f,
                                      0.0f, 1e-2f, 1, &found, nullptr)));
      EXPECT_TRUE(np.sameBits(p)) << dtypeName(dtype);
      EXPECT_TRUE(nb.sameBits(buf)) << dtypeName(dtype);
      Tensor nm = sentinelTensor(dtype, {n}), nv = sentinelTensor(dtype, {n});
      np = sentinelTensor(dtype, {n});
      float step = 9.0f, newStep = -1.0f;
      ASSERT_TRUE(isOk(amp_adam_update(
          p.data(), g.data(), m.data(), v.data(), &step, nullptr, np.data(),
          nm.data(), nv.data(), &newStep, nullptr, n, dtype, 1e-3f, &factor,
          0.9f, 0.999f, 1e-8f, 1e-2f, 1, 0, &found, nullptr)));
      EXPECT_TRUE(np.sameBits(p) && nm.sameBits(m) && nv.sameBits(v))
          << dtypeName(dtype);
      EXPECT_EQ(newStep, 9.0f);
    }
}

TEST(LrFactor, MultiEqualsTheCallsWithTheScheduledLrBitwise) {
  std::mt19937 rng(131);
  const float factor = 0.3f;
  for (int flag : {-1, 0, 1}) {
    const int8_t found = static_cast<int8_t>(flag);
    const int8_t *foundInf = flag < 0 ? nullptr : &found;
    // SGD with momentum: params out of place, buffers in place.
    const SgdConfig &c = sgdConfigs()[3];
    MultiState s = multiState(rng);
    const int32_t n = static_cast<int32_t>(s.sizes.size());
    std::vector<Tensor> np[2], nb[2] = {s.bufs, s.bufs};
    for (int k = 0; k < 2; ++k) {
      for (int32_t i = 0; i < n; ++i)
        np[k].push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
      std::vector<const void *> p = constPtrs(s.params), g = constPtrs(s.grads),
                                b = constPtrs(nb[k]);
      std::vector<void *> npp = ptrs(np[k]), nbp = ptrs(nb[k]);
      ASSERT_TRUE(isOk(amp_sgd_update_multi(
          n, p.data(), g.data(), b.data(), npp.data(), nbp.data(),
          s.sizes.data(), s.dtypes.data(),
          k == 0 ? c.lr : scheduledLr(c.lr, factor), k == 0 ? &factor : nullptr,
          c.momentum, c.dampening, c.weightDecay, c.nesterov, foundInf,
          nullptr)));
    }
    for (int32_t i = 0; i < n; ++i) {
      EXPECT_TRUE(np[0][i].sameBits(np[1][i])) << "sgd param " << i;
      EXPECT_TRUE(nb[0][i].sameBits(nb[1][i])) << "sgd buffer " << i;
      if (flag == 1) {
        EXPECT_TRUE(np[0][i].sameBits(s.params[i])) << "sgd skipped " << i;
      }
    }
    // AdamW: params out of place, moments and steps in place.
    std::vector<Tensor> ap[2], am[2] = {s.ms, s.ms}, av[2] = {s.vs, s.vs};
    std::vector<float> st[2] = {s.steps, s.steps};
    for (int k = 0; k < 2; ++k) {
      for (int32_t i = 0; i < n; ++i)
        ap[k].push_back(sentinelTensor(s.dtypes[i], {s.sizes[i]}));
      std::vector<const void *> p = constPtrs(s.params), g = constPtrs(s.grads),
                                m = constPtrs(am[k]), v = constPtrs(av[k]);
      std::vector<void *> npp = ptrs(ap[k]), nm = ptrs(am[k]), nv = ptrs(av[k]);
      std::vector<const float *> sp;
      std::vector<float *> nsp;
      for (int32_t i = 0; i < n; ++i) {
        sp.push_back(&st[k][i]);
        nsp.push_back(&st[k][i]);
      }
      ASSERT_TRUE(isOk(amp_adam_update_multi(
          n, p.data(), g.data(), m.data(), v.data(), sp.data(), nullptr,
          npp.data(), nm.data(), nv.data(), nsp.data(), nullptr, s.sizes.data(),
          s.dtypes.data(), k == 0 ? 1e-3f : scheduledLr(1e-3f, factor),
          k == 0 ? &factor : nullptr, 0.9f, 0.999f, 1e-8f, 1e-2f, 1, 0,
          foundInf, nullptr)));
    }
    for (int32_t i = 0; i < n; ++i) {
      EXPECT_TRUE(ap[0][i].sameBits(ap[1][i])) << "adam param " << i;
      EXPECT_TRUE(am[0][i].sameBits(am[1][i])) << "adam exp_avg " << i;
      EXPECT_TRUE(av[0][i].sameBits(av[1][i])) << "adam exp_avg_sq " << i;
      EXPECT_EQ(st[0][i], st[1][i]) << "adam step " << i;
      if (flag == 1) {
        EXPECT_TRUE(ap[0][i].sameBits(s.params[i])) << "adam skipped " << i;
      }
    }
  }
}

TEST(LrFactor, FollowsTheScheduleOverSteps) {
  // amp_lr_schedule's factor feeding amp_sgd_update step by step, the
  // counter in place: the same as the calls with lr' formed here.
  const float lr = 0.1f;
  float count = 0.0f, factor = -1.0f;
  float p[2] = {1.0f, -2.0f}, q[2] = {1.0f, -2.0f};
  const float g[2] = {0.25f, 0.75f};
  for (int s = 0; s < 12; ++s) {
    ASSERT_TRUE(isOk(amp_lr_schedule(&count, &factor, &count,
                                     AMP_LR_SCHEDULE_COSINE, 3, 0.1f, 10, 0.0f,
                                     0, 0.0f, 1.0f, nullptr, 0, nullptr)));
    ASSERT_TRUE(
        isOk(amp_sgd_update(p, g, nullptr, p, nullptr, 2, AMP_DTYPE_F32, lr,
                            &factor, 0.0f, 0.0f, 0.0f, 0, nullptr, nullptr)));
    ASSERT_TRUE(isOk(amp_sgd_update(q, g, nullptr, q, nullptr, 2, AMP_DTYPE_F32,
                                    scheduledLr(lr, factor), nullptr, 0.0f,
                                    0.0f, 0.0f, 0, nullptr, nullptr)));
    EXPECT_EQ(std::memcmp(p, q, sizeof p), 0) << "step " << s;
  }
  EXPECT_EQ(count, 12.0f);
  EXPECT_EQ(factor, 0.0f); // past T
}

//===----------------------------------------------------------------------===//
// clip_grad_norm
//===----------------------------------------------------------------------===//

/// Runs `call(in, out)` over the gradients `grads`, out of place or in
/// place, and returns the buffers it wrote.
template <typename Call>
std::vector<Tensor> runClipping(const std::vector<Tensor> &grads, bool inPlace,
                                Call call) {
  std::vector<Tensor> out;
  for (const Tensor &g : grads)
    out.push_back(inPlace ? g : sentinelTensor(g.dtype(), g.shape()));
  std::vector<const void *> inPtrs;
  std::vector<void *> outPtrs;
  for (size_t i = 0; i < grads.size(); ++i) {
    inPtrs.push_back(inPlace ? out[i].data() : grads[i].data());
    outPtrs.push_back(out[i].data());
  }
  call(inPtrs.data(), outPtrs.data());
  return out;
}

/// Three gradients of mixed dtypes and sizes, values in [-1, 1].
struct MixedGrads {
  const amp_dtype_t dtypes[3] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
  const int64_t sizes[3] = {1000, 37, 129};
  std::vector<Tensor> grads;
  explicit MixedGrads(unsigned seed) {
    std::mt19937 rng(seed);
    for (int i = 0; i < 3; ++i)
      grads.push_back(randomTensor(dtypes[i], {sizes[i]}, rng));
  }
};

TEST(ClipGradNorm, MatchesPyTorchOverMixedBuffers) {
  MixedGrads m(101);
  // torch.nn.utils.clip_grad_norm_(norm_type=p) in f64: the p-norm of the
  // per-gradient p-norms (the largest magnitude for inf), coef = max_norm /
  // (total + 1e-6) clamped to 1.
  for (float p : {2.0f, 1.0f, INFINITY, 3.0f, 0.5f}) {
    double acc = 0;
    for (const Tensor &g : m.grads)
      for (int64_t k = 0; k < g.size(); ++k) {
        const double a = std::fabs(g.get(k));
        acc = std::isinf(p) ? std::max(acc, a) : acc + std::pow(a, p);
      }
    const double total = std::isinf(p) ? acc : std::pow(acc, 1.0 / p);
    // Blocked f32 sums of the terms (the maximum is exact); a power's
    // terms and root add powf's error, scaled by the root's 1 / p.
    const bool power = !std::isinf(p) && p != 1.0f && p != 2.0f;
    const double relTotal =
        std::isinf(p) ? 0.0
                      : (256 + 1000.0 / 256 + 3 + 6 + (power ? 8 : 0)) * kU *
                            std::max(1.0, 1.0 / p);
    for (float maxNorm : {1.0f, 5.5f, 100.0f, INFINITY}) {
      for (bool inPlace : {false, true}) {
        float norm = -1.0f;
        std::vector<Tensor> out =
            runClipping(m.grads, inPlace, [&](const void **in, void **outs) {
              ASSERT_TRUE(isOk(amp_clip_grad_norm(
                  3, in, outs, m.sizes, m.dtypes, maxNorm, p, &norm, nullptr)));
            });
        std::string what =
            "p " + std::to_string(p) + " max_norm " + std::to_string(maxNorm);
        EXPECT_NEAR(norm, total, 2 * relTotal * total) << what;
        const double coef = std::min(1.0, maxNorm / (total + 1e-6));
        for (int i = 0; i < 3; ++i) {
          if (coef == 1.0) { // multiplying by exactly 1 changes no bits
            EXPECT_TRUE(out[i].sameBits(m.grads[i])) << what;
            continue;
          }
          std::vector<double> ref, tol;
          for (int64_t k = 0; k < m.sizes[i]; ++k) {
            double r = m.grads[i].get(k) * coef;
            ref.push_back(r);
            tol.push_back(
                outTol(m.dtypes[i], r, 2 * std::fabs(r) * (relTotal + 4 * kU)));
          }
          EXPECT_TRUE(allClose(out[i], ref, tol,
                               what + " clipped buffer " + std::to_string(i)));
        }
      }
    }
  }
}

/// The 2-norm through amp_clip_grad_norm's p-norm path (p = 2 rounded up
/// to the next float) and its own agree to the sums' rounding.
TEST(ClipGradNorm, PowerPathAgreesWithSquares) {
  MixedGrads m(7);
  float two = 2.0f, nearTwo = std::nextafter(2.0f, 3.0f), normTwo = 0,
        normNear = 0;
  for (auto [p, norm] : {std::pair{two, &normTwo}, {nearTwo, &normNear}})
    runClipping(m.grads, false, [&](const void **in, void **out) {
      ASSERT_TRUE(isOk(amp_clip_grad_norm(3, in, out, m.sizes, m.dtypes,
                                          INFINITY, p, norm, nullptr)));
    });
  EXPECT_NEAR(normNear, normTwo, 1e-5 * normTwo);
  EXPECT_NE(normNear, 0.0f);
}

TEST(ClipGradNorm, NaNPropagatesAsInPyTorch) {
  // Every norm: a NaN element makes the total and every clipped value NaN.
  for (float p : {2.0f, 1.0f, INFINITY, 3.0f}) {
    Tensor g(AMP_DTYPE_F32, {3});
    g.set(0, 1.0);
    g.set(1, std::numeric_limits<double>::quiet_NaN());
    g.set(2, -4.0);
    const void *in[] = {g.data()};
    void *out[] = {g.data()};
    const int64_t size = 3;
    const amp_dtype_t dtype = AMP_DTYPE_F32;
    float norm = 0;
    ASSERT_TRUE(isOk(amp_clip_grad_norm(1, in, out, &size, &dtype, 1.0f, p,
                                        &norm, nullptr)));
    EXPECT_TRUE(std::isnan(norm)) << "p " << p;
    EXPECT_TRUE(std::isnan(g.get(0)) && std::isnan(g.get(2))) << "p " << p;
  }
  // inf: the max norm is inf, the coefficient 0: the finite values become
  // 0 and the inf NaN (inf * 0), as PyTorch's.
  Tensor g(AMP_DTYPE_F32, {2});
  g.set(0, 0.5);
  g.set(1, -std::numeric_limits<double>::infinity());
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 2;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  float norm = 0;
  ASSERT_TRUE(isOk(amp_clip_grad_norm(1, in, out, &size, &dtype, 1.0f, INFINITY,
                                      &norm, nullptr)));
  EXPECT_EQ(norm, INFINITY);
  EXPECT_EQ(g.get(0), 0.0);
  EXPECT_TRUE(std::isnan(g.get(1)));
}

TEST(ClipGradNorm, RejectsBadArguments) {
  Tensor g(AMP_DTYPE_F32, {3});
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 3;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  float norm = 0;
  EXPECT_TRUE(failsWith(
      amp_clip_grad_norm(1, in, out, &size, &dtype, 0.0f, 2.0f, &norm, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "max_norm"));
  EXPECT_TRUE(failsWith(
      amp_clip_grad_norm(0, in, out, &size, &dtype, 1.0f, 2.0f, &norm, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "n_buffers"));
  for (float p : {0.0f, -1.0f, -INFINITY, NAN})
    EXPECT_TRUE(failsWith(
        amp_clip_grad_norm(1, in, out, &size, &dtype, 1.0f, p, &norm, nullptr),
        AMP_STATUS_INVALID_ARGUMENT, "norm_type"))
        << p;
}

//===----------------------------------------------------------------------===//
// clip_grad_value
//===----------------------------------------------------------------------===//

TEST(ClipGradValue, ClampsEveryDtypeBitwise) {
  MixedGrads m(33);
  for (float c : {0.25f, 0.1f, 1.0f, INFINITY}) {
    for (bool inPlace : {false, true}) {
      std::vector<Tensor> out =
          runClipping(m.grads, inPlace, [&](const void **in, void **outs) {
            ASSERT_TRUE(isOk(amp_clip_grad_value(3, in, outs, m.sizes, m.dtypes,
                                                 c, nullptr)));
          });
      // torch.clamp of each dtype with a Python float bound: compared in
      // f32, the bound rounded to the dtype where it clamps.
      for (int i = 0; i < 3; ++i) {
        Tensor ref(m.dtypes[i], {m.sizes[i]});
        int64_t clamped = 0;
        for (int64_t k = 0; k < m.sizes[i]; ++k) {
          const double v = m.grads[i].get(k);
          const double b = static_cast<double>(c);
          ref.set(k, v < -b ? roundViaF32(m.dtypes[i], -b)
                            : (v > b ? roundViaF32(m.dtypes[i], b) : v));
          clamped += std::fabs(v) > b;
        }
        EXPECT_TRUE(out[i].sameBits(ref))
            << "clip_value " << c << " buffer " << i;
        if (c == 0.25f)
          EXPECT_GT(clamped, 0) << "buffer " << i;
      }
    }
  }
}

TEST(ClipGradValue, KeepsNaNAndClampsInfinities) {
  Tensor g(AMP_DTYPE_BF16, {4});
  g.set(0, std::numeric_limits<double>::quiet_NaN());
  g.set(1, std::numeric_limits<double>::infinity());
  g.set(2, -std::numeric_limits<double>::infinity());
  g.set(3, 0.125);
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 4;
  const amp_dtype_t dtype = AMP_DTYPE_BF16;
  ASSERT_TRUE(
      isOk(amp_clip_grad_value(1, in, out, &size, &dtype, 0.5f, nullptr)));
  EXPECT_TRUE(std::isnan(g.get(0)));
  EXPECT_EQ(g.get(1), 0.5);
  EXPECT_EQ(g.get(2), -0.5);
  EXPECT_EQ(g.get(3), 0.125);
}

TEST(ClipGradValue, RejectsBadArguments) {
  Tensor g(AMP_DTYPE_F32, {3});
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 3;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  for (float c : {0.0f, -1.0f, NAN})
    EXPECT_TRUE(
        failsWith(amp_clip_grad_value(1, in, out, &size, &dtype, c, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT, "clip_value"))
        << c;
  EXPECT_TRUE(
      failsWith(amp_clip_grad_value(0, in, out, &size, &dtype, 1.0f, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "n_buffers"));
  const amp_dtype_t i32 = AMP_DTYPE_I32;
  EXPECT_FALSE(
      isOk(amp_clip_grad_value(1, in, out, &size, &i32, 1.0f, nullptr)));
}

//===----------------------------------------------------------------------===//
// ema_update
//===----------------------------------------------------------------------===//

/// torch._foreach_lerp_'s form for a weight below 0.5, as three f32
/// roundings (the reference's nn.sub, nn.mul and nn.add), rounded to the
/// dtype once.
double emaRef(amp_dtype_t dtype, double a, double v, float w) {
  const float d = static_cast<float>(v) - static_cast<float>(a);
  const float m = d * w;
  return roundViaF32(dtype, static_cast<float>(a) + m);
}

TEST(EmaUpdate, LerpsEveryDtypeBitwise) {
  MixedGrads averages(5), values(6);
  for (float w : {1.0f, 0.25f, 0.0009999871f, 0.0f}) {
    for (bool inPlace : {false, true}) {
      std::vector<const void *> valuePtrs;
      for (const Tensor &v : values.grads)
        valuePtrs.push_back(v.data());
      std::vector<Tensor> out = runClipping(
          averages.grads, inPlace, [&](const void **in, void **outs) {
            ASSERT_TRUE(isOk(amp_ema_update(3, in, valuePtrs.data(), outs,
                                            averages.sizes, averages.dtypes, &w,
                                            nullptr)));
          });
      for (int i = 0; i < 3; ++i) {
        Tensor ref(averages.dtypes[i], {averages.sizes[i]});
        for (int64_t k = 0; k < averages.sizes[i]; ++k)
          ref.set(k, emaRef(averages.dtypes[i], averages.grads[i].get(k),
                            values.grads[i].get(k), w));
        EXPECT_TRUE(out[i].sameBits(ref)) << "w " << w << " buffer " << i;
        // w = 0 keeps the averages.
        if (w == 0.0f)
          EXPECT_TRUE(out[i].sameBits(averages.grads[i]));
      }
    }
  }
  // The first update (w = 1 on averages that start at zero) copies the
  // values bitwise, as AveragedModel's first update_parameters does.
  std::vector<Tensor> zero;
  std::vector<const void *> valuePtrs;
  for (int i = 0; i < 3; ++i) {
    zero.push_back(Tensor(values.dtypes[i], {values.sizes[i]}));
    valuePtrs.push_back(values.grads[i].data());
  }
  const float one = 1.0f;
  std::vector<Tensor> copied =
      runClipping(zero, false, [&](const void **in, void **outs) {
        ASSERT_TRUE(
            isOk(amp_ema_update(3, in, valuePtrs.data(), outs, values.sizes,
                                values.dtypes, &one, nullptr)));
      });
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(copied[i].sameBits(values.grads[i])) << "buffer " << i;
}

TEST(EmaUpdate, RejectsBadArguments) {
  Tensor a(AMP_DTYPE_F32, {3});
  const void *in[] = {a.data()};
  void *out[] = {a.data()};
  const int64_t size = 3;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  const float w = 0.5f;
  EXPECT_TRUE(
      failsWith(amp_ema_update(0, in, in, out, &size, &dtype, &w, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "n_buffers"));
  EXPECT_TRUE(
      failsWith(amp_ema_update(1, in, in, out, &size, &dtype, nullptr, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "weight"));
  EXPECT_TRUE(
      failsWith(amp_ema_update(1, in, nullptr, out, &size, &dtype, &w, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "values"));
  const void *none[] = {nullptr};
  EXPECT_TRUE(
      failsWith(amp_ema_update(1, in, none, out, &size, &dtype, &w, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "values"));
}

//===----------------------------------------------------------------------===//
// Adafactor
//===----------------------------------------------------------------------===//

/// torch.optim.Adafactor's hyperparameters (its eps is (eps1, eps2)).
struct AdafactorHyper {
  float lr, beta2Decay, eps1, eps2, d, weightDecay;
};

/// torch.finfo(torch.float32).eps, PyTorch's eps1 when it is None.
constexpr float kF32Eps = std::numeric_limits<float>::epsilon();

/// PyTorch's defaults: lr 1e-2, beta2_decay -0.8, eps (None, 1e-3), d 1,
/// weight_decay 0.
constexpr AdafactorHyper kAdafactorDefaults = {1e-2f, -0.8f, kF32Eps,
                                               1e-3f, 1.0f,  0.0f};

/// An Adafactor buffer's layout: a vector of n (unfactored, rows = cols = 0)
/// or [batch, rows, cols] for a param of rank > 1 (factored along its last
/// two dimensions, as PyTorch factors it).
struct AdafactorLayout {
  int64_t n, batch = 0, rows = 0, cols = 0;
  explicit AdafactorLayout(const Shape &shape) : n(numel(shape)) {
    if (shape.size() > 1) {
      rows = shape[shape.size() - 2];
      cols = shape.back();
      batch = n / (rows * cols);
    }
  }
  bool factored() const { return rows > 0; }
};

/// A param with its Adafactor state: row_var [batch * rows] and col_var
/// [batch * cols] when factored, else variance [n], and the step counter.
struct AdafactorState {
  Tensor param, rowVar, colVar, variance;
  float step = 0.0f;
};

/// A state of layout `l`: the param uniform in [-2, 2] (or zero), the
/// second moments uniform in [0, maxVar] (zero, PyTorch's initial state,
/// for maxVar = 0), the counter `step`.
AdafactorState adafactorState(const AdafactorLayout &l, amp_dtype_t dtype,
                              std::mt19937 &rng, double maxVar, float step,
                              bool zeroParam = false) {
  AdafactorState s;
  s.param =
      zeroParam ? Tensor(dtype, {l.n}) : randomTensor(dtype, {l.n}, rng, -2, 2);
  if (l.factored()) {
    s.rowVar = randomTensor(dtype, {l.batch * l.rows}, rng, 0, maxVar);
    s.colVar = randomTensor(dtype, {l.batch * l.cols}, rng, 0, maxVar);
  } else {
    s.variance = randomTensor(dtype, {l.n}, rng, 0, maxVar);
  }
  s.step = step;
  return s;
}

/// Outputs of layout `l` that show what a kernel did not write: sentinel
/// tensors and the counter -1.
AdafactorState adafactorOutputs(const AdafactorLayout &l, amp_dtype_t dtype) {
  AdafactorState s;
  s.param = sentinelTensor(dtype, {l.n});
  if (l.factored()) {
    s.rowVar = sentinelTensor(dtype, {l.batch * l.rows});
    s.colVar = sentinelTensor(dtype, {l.batch * l.cols});
  } else {
    s.variance = sentinelTensor(dtype, {l.n});
  }
  s.step = -1.0f;
  return s;
}

/// amp_adafactor_update from `in` into `out`; in place when both are the
/// same object (every new_* equal to its input, the counter too).
amp_status_t adafactorUpdate(const AdafactorLayout &l, const AdafactorHyper &h,
                             const AdafactorState &in, const Tensor &grad,
                             AdafactorState &out,
                             const float *lrFactor = nullptr,
                             const int8_t *foundInf = nullptr) {
  const bool f = l.factored();
  return amp_adafactor_update(
      in.param.data(), grad.data(), f ? in.rowVar.data() : nullptr,
      f ? in.colVar.data() : nullptr, f ? nullptr : in.variance.data(),
      &in.step, out.param.data(), f ? out.rowVar.data() : nullptr,
      f ? out.colVar.data() : nullptr, f ? nullptr : out.variance.data(),
      &out.step, l.n, in.param.dtype(), l.rows, l.cols, h.lr, lrFactor,
      h.beta2Decay, h.eps1, h.eps2, h.d, h.weightDecay, foundInf, nullptr);
}

/// Every buffer of `a` and `b` (the counters too) is bitwise equal.
::testing::AssertionResult sameAdafactorBits(const AdafactorLayout &l,
                                             const AdafactorState &a,
                                             const AdafactorState &b) {
  if (!a.param.sameBits(b.param))
    return ::testing::AssertionFailure() << "param differs";
  if (l.factored() && !a.rowVar.sameBits(b.rowVar))
    return ::testing::AssertionFailure() << "row_var differs";
  if (l.factored() && !a.colVar.sameBits(b.colVar))
    return ::testing::AssertionFailure() << "col_var differs";
  if (!l.factored() && !a.variance.sameBits(b.variance))
    return ::testing::AssertionFailure() << "variance differs";
  if (std::memcmp(&a.step, &b.step, sizeof(float)) != 0)
    return ::testing::AssertionFailure()
           << "step differs: " << a.step << " vs " << b.step;
  return ::testing::AssertionSuccess();
}

/// The relative error bound, in units of u, of an f32 sum of k
/// non-negative terms as the kernels form it (blocks of 256 sequential
/// terms, as clip_grad_norm's bound).
double sumErrorU(int64_t k) {
  return std::min(static_cast<double>(k), 256.0 + k / 256.0 + 2.0);
}

/// What a test's steps exercised: the clip (||u|| / sqrt(n) > d), rho =
/// 1 / sqrt(t) < lr, alpha from eps2 (the param's RMS below it), an eps1
/// clamp (the factored row mean, or a variance of a nonzero gradient).
enum : unsigned {
  kSawClip = 1,
  kSawRhoInvSqrt = 2,
  kSawEps2 = 4,
  kSawEps1 = 8,
};

/// One Adafactor step in f64 with the bounds of the header, and what it
/// exercised.
struct AdafactorF64 {
  std::vector<double> rowVar, rowVarTol, colVar, colVarTol, variance,
      varianceTol, param, paramTol;
  unsigned saw = 0;
};

/// torch.optim.Adafactor's step (_single_tensor_adafactor) in f64 on the
/// kernel's stored inputs `in` and gradient g, with the scheduled lr `lr`:
/// t = step + 1, beta = t^beta2_decay, rho = min(lr, 1/sqrt(t)),
/// alpha = max(eps2, ||p|| / sqrt(n)) rho, p *= 1 - lr wd, the second
/// moments lerp_'ed towards the mean squares of g (rows and columns of
/// each [rows, cols] matrix, or g^2), v = row_var col_var / max(mean_r
/// row_var, eps1) or variance, u = g / sqrt(max(v, eps1^2)), p -= alpha /
/// max(1, ||u|| / (sqrt(n) d)) u. The new moments are checked against
/// their f64 values; the estimate v is formed from the stored new moments
/// of `out`, which PyTorch's in-place lerp_ has rounded to the dtype too.
AdafactorF64 adafactorF64(const AdafactorLayout &l, const AdafactorHyper &h,
                          double lr, const AdafactorState &in, const Tensor &g,
                          const AdafactorState &out) {
  const amp_dtype_t dtype = in.param.dtype();
  const int64_t n = l.n;
  AdafactorF64 r;
  const double t = double(in.step) + 1.0;
  const double beta = std::pow(t, double(h.beta2Decay));
  const double invSqrtT = 1.0 / std::sqrt(t);
  const double rho = std::min(lr, invSqrtT);
  if (invSqrtT < lr)
    r.saw |= kSawRhoInvSqrt;
  double paramSq = 0.0;
  for (int64_t i = 0; i < n; ++i)
    paramSq += in.param.get(i) * in.param.get(i);
  const double rms = std::sqrt(paramSq / double(n));
  if (rms < h.eps2)
    r.saw |= kSawEps2;
  const double alpha = std::max(double(h.eps2), rms) * rho;
  // a.lerp_(b, beta) = a + beta (b - a), with b within eb u relative: the
  // kernel's f32 lerp is within 4u|a'| + 3u beta |b - a| (beta's rounding
  // included) of it.
  auto lerp = [&](double a, double b, double eb, std::vector<double> &ref,
                  std::vector<double> &tol) {
    const double a1 = a + beta * (b - a);
    ref.push_back(a1);
    tol.push_back(outTol(dtype, a1,
                         2 * kU *
                             (4 * std::fabs(a1) + 3 * beta * std::fabs(b - a) +
                              eb * beta * std::fabs(b))));
  };
  std::vector<double> estimate(static_cast<size_t>(n));
  double estimateErrU; // the estimate's relative error from the stored state
  if (l.factored()) {
    const int64_t rows = l.rows, cols = l.cols;
    for (int64_t b = 0; b < l.batch; ++b) {
      const int64_t base = b * rows * cols;
      // Mean squares (||g||^2 / size: a sum of squares, its sqrt squared,
      // a division) within (sum + 4) u.
      for (int64_t i = 0; i < rows; ++i) {
        double sq = 0.0;
        for (int64_t k = 0; k < cols; ++k)
          sq += g.get(base + i * cols + k) * g.get(base + i * cols + k);
        lerp(in.rowVar.get(b * rows + i), sq / double(cols),
             sumErrorU(cols) + 4, r.rowVar, r.rowVarTol);
      }
      for (int64_t k = 0; k < cols; ++k) {
        double sq = 0.0;
        for (int64_t i = 0; i < rows; ++i)
          sq += g.get(base + i * cols + k) * g.get(base + i * cols + k);
        lerp(in.colVar.get(b * cols + k), sq / double(rows),
             sumErrorU(rows) + 4, r.colVar, r.colVarTol);
      }
      double rowSum = 0.0;
      for (int64_t i = 0; i < rows; ++i)
        rowSum += out.rowVar.get(b * rows + i);
      const double rowMean = rowSum / double(rows);
      if (rowMean < h.eps1)
        r.saw |= kSawEps1;
      const double clamped = std::max(rowMean, double(h.eps1));
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t k = 0; k < cols; ++k)
          estimate[base + i * cols + k] = out.rowVar.get(b * rows + i) *
                                          out.colVar.get(b * cols + k) /
                                          clamped;
    }
    // The row mean (a sum of rows, a division), the product, the quotient.
    estimateErrU = sumErrorU(l.rows) + 3;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const double gv = g.get(i);
      lerp(in.variance.get(i), gv * gv, 1, r.variance, r.varianceTol);
      estimate[i] = out.variance.get(i);
    }
    estimateErrU = 1; // eps1^2 rounded to f32
  }
  const double eps1Sq = double(h.eps1) * double(h.eps1);
  std::vector<double> dir(static_cast<size_t>(n));
  double dirSq = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double gv = g.get(i);
    double v = estimate[i];
    if (v < eps1Sq) {
      v = eps1Sq;
      if (gv != 0.0)
        r.saw |= kSawEps1;
    }
    dir[i] = gv / std::sqrt(v);
    dirSq += dir[i] * dir[i];
  }
  const double ratio = std::sqrt(dirSq) / (std::sqrt(double(n)) * h.d);
  if (ratio > 1.01)
    r.saw |= kSawClip;
  const double denom = std::max(1.0, ratio);
  const double decay =
      h.weightDecay != 0.0f ? 1.0 - lr * double(h.weightDecay) : 1.0;
  // Relative bounds in u: an element of u (the estimate's error halved by
  // the sqrt, then sqrt, 1/x and the product), the norms ||p|| and ||u||
  // (half the sum's, plus the sqrt), alpha (with lr's f32 rounding), the
  // step alpha / denom rounded to f32, an element of the update.
  const double dirErrU = estimateErrU / 2 + 3;
  const double normErrU = sumErrorU(n) / 2 + 2;
  const double stepErrU = (normErrU + 1) + (dirErrU + normErrU) + 1;
  const double updateErrU = stepErrU + dirErrU + 1;
  for (int64_t i = 0; i < n; ++i) {
    const double decayed = in.param.get(i) * decay;
    const double update = alpha / denom * dir[i];
    const double p1 = decayed - update;
    r.param.push_back(p1);
    // decay rounded (and formed from lr rounded), the product, the sum.
    r.paramTol.push_back(outTol(dtype, p1,
                                2 * kU *
                                    (3 * std::fabs(decayed) + std::fabs(p1) +
                                     updateErrU * std::fabs(update))));
  }
  return r;
}

struct AdafactorConfig {
  const char *name;
  Shape shape;
  AdafactorHyper h;
  /// > 0: passed as lr_factor (the scheduled lr is lr * lrFactor).
  float lrFactor = 0.0f;
  /// The counter before the test's first step; the moments start uniform
  /// in [0, initialVar] (zero, PyTorch's initial state, for 0).
  float firstStep = 0.0f;
  double initialVar = 0.0;
  /// The gradients are uniform in [-gradScale, gradScale] (4x that at the
  /// last step, so that the moments lag behind).
  double gradScale = 1.0;
  bool zeroParam = false;
  /// The kSaw* flags some step must show.
  unsigned expect = 0;
};

const std::vector<AdafactorConfig> &adafactorConfigs() {
  static const std::vector<AdafactorConfig> configs = {
      {"vector", {301}, kAdafactorDefaults},
      {"matrix", {12, 20}, kAdafactorDefaults},
      {"batched", {3, 4, 5}, kAdafactorDefaults},
      {"batched_wide", {2, 6, 300}, {0.05f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.0f}},
      {"weight_decay_vector",
       {257},
       {0.05f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.2f}},
      {"weight_decay_batched",
       {2, 9, 16},
       {0.05f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.2f}},
      {"lr_factor", {3, 8, 6}, {0.1f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.1f}, 0.3f},
      {"lr_factor_vector",
       {130},
       {0.1f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.1f},
       0.3f,
       5.0f,
       0.1},
      {"rho_inv_sqrt",
       {10, 12},
       {0.8f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.0f},
       0.0f,
       0.0f,
       0.0,
       1.0,
       false,
       kSawRhoInvSqrt},
      {"rho_inv_sqrt_late",
       {99},
       {0.3f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.0f},
       0.0f,
       20.0f,
       0.01,
       1.0,
       false,
       kSawRhoInvSqrt},
      {"clip",
       {8, 16},
       {0.05f, -0.5f, 1e-6f, 1e-3f, 1.0f, 0.0f},
       0.0f,
       10.0f,
       0.01,
       1.0,
       false,
       kSawClip},
      {"clip_d",
       {301},
       {0.05f, -0.3f, 1e-6f, 1e-3f, 1.5f, 0.0f},
       0.0f,
       50.0f,
       1e-3,
       1.0,
       false,
       kSawClip},
      {"large_d",
       {5, 6, 7},
       {0.05f, -0.6f, 1e-4f, 1e-2f, 8.0f, 0.0f},
       0.0f,
       3.0f,
       0.01},
      {"eps1_factored",
       {6, 10},
       {0.05f, -0.8f, 0.05f, 1e-3f, 1.0f, 0.0f},
       0.0f,
       0.0f,
       0.0,
       0.1,
       false,
       kSawEps1 | kSawClip},
      {"eps1_vector",
       {128},
       {0.05f, -0.8f, 0.1f, 1e-3f, 1.0f, 0.0f},
       0.0f,
       0.0f,
       0.0,
       0.2,
       false,
       kSawEps1},
      {"eps2_zero_param",
       {7, 9},
       {0.1f, -0.8f, kF32Eps, 1e-3f, 1.0f, 0.0f},
       0.0f,
       0.0f,
       0.0,
       1.0,
       true,
       kSawEps2},
      {"eps2_zero_param_vector",
       {50},
       {0.1f, -0.8f, kF32Eps, 1e-2f, 1.0f, 0.1f},
       0.0f,
       0.0f,
       0.0,
       1.0,
       true,
       kSawEps2},
  };
  return configs;
}

class AdafactorTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t, bool>> {};

TEST_P(AdafactorTest, MatchesPyTorchOverSeveralSteps) {
  const AdafactorConfig &c = adafactorConfigs()[std::get<0>(GetParam())];
  const amp_dtype_t dtype = std::get<1>(GetParam());
  const bool inPlace = std::get<2>(GetParam());
  const AdafactorLayout l(c.shape);
  std::mt19937 rng(151);
  AdafactorState state =
      adafactorState(l, dtype, rng, c.initialVar, c.firstStep, c.zeroParam);
  const float *lrFactor = c.lrFactor > 0.0f ? &c.lrFactor : nullptr;
  // The scheduled lr in f64 (the kernel's f32 rounding of it is within the
  // bounds).
  const double lr = lrFactor ? double(c.h.lr) * double(c.lrFactor) : c.h.lr;
  unsigned saw = 0;
  for (int s = 0; s < 4; ++s) {
    const double scale = c.gradScale * (s == 3 ? 4.0 : 1.0);
    Tensor g = randomTensor(dtype, {l.n}, rng, -scale, scale);
    if (s == 2)
      for (int64_t i = 0; i < l.n; i += 3)
        g.set(i, 0.0); // shrinking moments
    AdafactorState out = inPlace ? state : adafactorOutputs(l, dtype);
    ASSERT_TRUE(
        isOk(adafactorUpdate(l, c.h, inPlace ? out : state, g, out, lrFactor)));
    EXPECT_EQ(out.step, state.step + 1.0f); // the counter is exact
    const AdafactorF64 r = adafactorF64(l, c.h, lr, state, g, out);
    saw |= r.saw;
    const std::string when = " at step " + std::to_string(s);
    EXPECT_TRUE(allClose(out.param, r.param, r.paramTol, "param" + when));
    if (l.factored()) {
      EXPECT_TRUE(
          allClose(out.rowVar, r.rowVar, r.rowVarTol, "row_var" + when));
      EXPECT_TRUE(
          allClose(out.colVar, r.colVar, r.colVarTol, "col_var" + when));
    } else {
      EXPECT_TRUE(
          allClose(out.variance, r.variance, r.varianceTol, "variance" + when));
    }
    state = out;
  }
  EXPECT_EQ(state.step, c.firstStep + 4.0f);
  EXPECT_EQ(saw & c.expect, c.expect)
      << "the steps did not exercise what the configuration is for (saw " << saw
      << ")";
}

INSTANTIATE_TEST_SUITE_P(Configs, AdafactorTest,
                         optimizerCases(adafactorConfigs().size()),
                         OptimizerCaseName<adafactorConfigs>());

TEST(Adafactor, FirstStepIsSignDescentScaledByTheParamRms) {
  // At step 1 the lerp weight is 1^beta2_decay = 1: the moments are those
  // of g alone, whatever they were. With powers of two (and, factored, a
  // rank-1 g whose row and column norms are exact) every value below is
  // exact in f32: v = g^2, u = sign(g), ||u|| / sqrt(n) = 1, and p' =
  // p (1 - lr wd) - max(eps2, rms(p)) min(lr, 1) / max(1, 1/d) sign(g).
  const float g[4] = {4.0f, -0.25f, 0.5f, -2.0f};
  auto vectorStep = [&](const float *p, float lr, float eps2, float wd,
                        float *out) {
    float var[4] = {7, 7, 7, 7}, step = 0.0f, newStep = -1.0f;
    ASSERT_TRUE(isOk(amp_adafactor_update(
        p, g, nullptr, nullptr, var, &step, out, nullptr, nullptr, var,
        &newStep, 4, AMP_DTYPE_F32, 0, 0, lr, nullptr, -0.8f, 1e-3f, eps2, 1.0f,
        wd, nullptr, nullptr)));
    EXPECT_EQ(newStep, 1.0f);
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(var[i], g[i] * g[i]) << i;
  };
  const float p[4] = {2.0f, -2.0f, 2.0f, -2.0f}, zero[4] = {0, 0, 0, 0};
  float out[4];
  // rms(p) = 2, lr 0.25: alpha = 0.5; decayed by 1 - 0.25 * 0.5, with
  // alpha from the param before its decay.
  vectorStep(p, 0.25f, 1e-3f, 0.5f, out);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], p[i] * 0.875f - (g[i] > 0 ? 0.5f : -0.5f)) << i;
  // A zero param moves by eps2 * lr.
  vectorStep(zero, 0.25f, 0.5f, 0.0f, out);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], g[i] > 0 ? -0.125f : 0.125f) << i;

  // Factored [4, 4]: g = a_r b_c with a = (1, 2, -2, 4), |b_c| = 1/2:
  // row_var' = a_r^2 / 4, col_var' = 25 / 16, their row mean 25 / 16, so
  // v = row_var' and u = sign(g); ||u|| = 4 = sqrt(n).
  const float a[4] = {1.0f, 2.0f, -2.0f, 4.0f},
              b[4] = {0.5f, -0.5f, 0.5f, -0.5f};
  float gm[16], pm[16];
  for (int i = 0; i < 16; ++i) {
    gm[i] = a[i / 4] * b[i % 4];
    pm[i] = i % 3 ? 2.0f : -2.0f;
  }
  auto matrixStep = [&](float lr, float *outM) {
    float rv[4] = {3, 3, 3, 3}, cv[4] = {3, 3, 3, 3}, step = 0.0f;
    ASSERT_TRUE(isOk(amp_adafactor_update(
        pm, gm, rv, cv, nullptr, &step, outM, rv, cv, nullptr, &step, 16,
        AMP_DTYPE_F32, 4, 4, lr, nullptr, -0.8f, 1e-3f, 1e-3f, 1.0f, 0.0f,
        nullptr, nullptr)));
    EXPECT_EQ(step, 1.0f);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(rv[i], a[i] * a[i] / 4) << i;
      EXPECT_EQ(cv[i], 25.0f / 16.0f) << i;
    }
  };
  float outM[16];
  // lr 2: rho = min(2, 1/sqrt(1)) = 1, alpha = 2.
  matrixStep(2.0f, outM);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(outM[i], pm[i] - (gm[i] > 0 ? 2.0f : -2.0f)) << i;

  // Step 2 with beta2_decay -2: the weight is 2^-2 = 1/4, so from zero
  // moments v = g^2 / 4 and u = 2 sign(g), ||u|| / (sqrt(n) d) = 2 / d.
  // With alpha = rms(p) lr = 0.5, d = 1 clips the step to 0.25 (p moves by
  // 0.5), d = 2 is the edge (p moves by 1).
  for (float d : {1.0f, 2.0f}) {
    float var[4] = {0, 0, 0, 0}, step = 1.0f;
    ASSERT_TRUE(isOk(amp_adafactor_update(
        p, g, nullptr, nullptr, var, &step, out, nullptr, nullptr, var, &step,
        4, AMP_DTYPE_F32, 0, 0, 0.25f, nullptr, -2.0f, 1e-3f, 1e-3f, d, 0.0f,
        nullptr, nullptr)));
    EXPECT_EQ(step, 2.0f);
    const float move = d == 1.0f ? 0.5f : 1.0f;
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(var[i], g[i] * g[i] / 4) << i;
      EXPECT_EQ(out[i], p[i] - (g[i] > 0 ? move : -move)) << "d " << d;
    }
  }
}

TEST(Adafactor, InPlaceEqualsOutOfPlaceBitwise) {
  std::mt19937 rng(157);
  const AdafactorHyper h = {0.05f, -0.8f, 1e-3f, 1e-3f, 1.0f, 0.1f};
  const float factor = 0.7071f;
  for (amp_dtype_t dtype : floatDtypes())
    for (const Shape &shape :
         {Shape{301}, Shape{12, 20}, Shape{3, 4, 5}, Shape{2, 6, 300}}) {
      const AdafactorLayout l(shape);
      AdafactorState outOfPlace = adafactorState(l, dtype, rng, 0.01, 7.0f);
      AdafactorState inPlace = outOfPlace;
      for (int s = 0; s < 3; ++s) {
        const Tensor g = randomTensor(dtype, {l.n}, rng);
        AdafactorState out = adafactorOutputs(l, dtype);
        ASSERT_TRUE(isOk(adafactorUpdate(l, h, outOfPlace, g, out, &factor)));
        ASSERT_TRUE(isOk(adafactorUpdate(l, h, inPlace, g, inPlace, &factor)));
        EXPECT_TRUE(sameAdafactorBits(l, out, inPlace))
            << dtypeName(dtype) << " " << shapeName(shape) << " step " << s;
        EXPECT_EQ(out.step, 8.0f + s);
        outOfPlace = out;
      }
    }
}

TEST(AdafactorSkip, FoundInfLeavesEverythingBitwiseUnchanged) {
  std::mt19937 rng(163);
  const AdafactorHyper h = {0.05f, -0.8f, 1e-3f, 1e-3f, 1.0f, 0.1f};
  const float nanFactor = std::numeric_limits<float>::quiet_NaN();
  for (amp_dtype_t dtype : floatDtypes())
    for (const Shape &shape : {Shape{67}, Shape{3, 4, 5}}) {
      const AdafactorLayout l(shape);
      // Inputs with NaN payloads and infinities, the counter 41.
      AdafactorState in;
      in.param = stateWithOddBits(dtype, l.n, rng);
      if (l.factored()) {
        in.rowVar = stateWithOddBits(dtype, l.batch * l.rows, rng);
        in.colVar = stateWithOddBits(dtype, l.batch * l.cols, rng);
      } else {
        in.variance = stateWithOddBits(dtype, l.n, rng);
      }
      in.step = 41.0f;
      const Tensor g = stateWithOddBits(dtype, l.n, rng);
      const std::string what =
          std::string(dtypeName(dtype)) + " " + shapeName(shape);
      for (int8_t found : {int8_t(1), int8_t(-1)})
        for (bool inPlace : {false, true})
          for (const float *factor : {(const float *)nullptr, &nanFactor}) {
            AdafactorState out = inPlace ? in : adafactorOutputs(l, dtype);
            ASSERT_TRUE(isOk(adafactorUpdate(l, h, inPlace ? out : in, g, out,
                                             factor, &found)));
            EXPECT_TRUE(sameAdafactorBits(l, out, in))
                << what << (inPlace ? " in place" : "") << " found_inf "
                << int(found);
          }
      // A clear flag is the same as no predicate.
      AdafactorState clean = adafactorState(l, dtype, rng, 0.01, 41.0f);
      const Tensor cg = randomTensor(dtype, {l.n}, rng);
      const int8_t zero = 0;
      AdafactorState a = adafactorOutputs(l, dtype),
                     b = adafactorOutputs(l, dtype);
      ASSERT_TRUE(isOk(adafactorUpdate(l, h, clean, cg, a, nullptr, &zero)));
      ASSERT_TRUE(isOk(adafactorUpdate(l, h, clean, cg, b, nullptr, nullptr)));
      EXPECT_TRUE(sameAdafactorBits(l, a, b)) << what;
      EXPECT_EQ(a.step, 42.0f) << what;
      EXPECT_FALSE(a.param.sameBits(clean.param)) << what << ": no update";
    }
}

/// The buffers of one amp_adafactor_update_multi call from `in` into `out`
/// (element-wise the same objects: in place).
amp_status_t adafactorMulti(const std::vector<AdafactorLayout> &layouts,
                            const AdafactorHyper &h,
                            const std::vector<AdafactorState> &in,
                            const std::vector<Tensor> &grads,
                            std::vector<AdafactorState> &out,
                            const float *lrFactor, const int8_t *foundInf) {
  const bool factored = !layouts.empty() && layouts[0].factored();
  std::vector<const void *> p, g, rv, cv, var;
  std::vector<const float *> steps;
  std::vector<void *> np, nrv, ncv, nvar;
  std::vector<float *> newSteps;
  std::vector<int64_t> sizes, rows, cols;
  std::vector<amp_dtype_t> dtypes;
  for (size_t i = 0; i < layouts.size(); ++i) {
    p.push_back(in[i].param.data());
    g.push_back(grads[i].data());
    rv.push_back(in[i].rowVar.data());
    cv.push_back(in[i].colVar.data());
    var.push_back(in[i].variance.data());
    steps.push_back(&in[i].step);
    np.push_back(out[i].param.data());
    nrv.push_back(out[i].rowVar.data());
    ncv.push_back(out[i].colVar.data());
    nvar.push_back(out[i].variance.data());
    newSteps.push_back(&out[i].step);
    sizes.push_back(layouts[i].n);
    rows.push_back(layouts[i].rows);
    cols.push_back(layouts[i].cols);
    dtypes.push_back(in[i].param.dtype());
  }
  return amp_adafactor_update_multi(
      static_cast<int32_t>(layouts.size()), p.data(), g.data(),
      factored ? rv.data() : nullptr, factored ? cv.data() : nullptr,
      factored ? nullptr : var.data(), steps.data(), np.data(),
      factored ? nrv.data() : nullptr, factored ? ncv.data() : nullptr,
      factored ? nullptr : nvar.data(), newSteps.data(), sizes.data(),
      dtypes.data(), factored ? rows.data() : nullptr,
      factored ? cols.data() : nullptr, h.lr, lrFactor, h.beta2Decay, h.eps1,
      h.eps2, h.d, h.weightDecay, foundInf, nullptr);
}

TEST(AdafactorMulti, EqualsThePerBufferCallsBitwise) {
  std::mt19937 rng(167);
  const AdafactorHyper h = {0.05f, -0.6f, 1e-3f, 1e-3f, 1.0f, 0.1f};
  const float factor = 0.3f;
  const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
  const std::vector<Shape> factoredShapes = {{12, 20}, {3, 4, 5}, {1, 1},
                                             {2, 3},   {4, 1, 7}, {2, 6, 300}};
  const std::vector<Shape> vectorShapes = {{257}, {1}, {64}, {33}, {1000}};
  for (bool factored : {true, false})
    for (int flag : {-1, 0, 1})
      for (bool inPlace : {false, true}) {
        const int8_t found = static_cast<int8_t>(flag);
        const int8_t *foundInf = flag < 0 ? nullptr : &found;
        const float *lrFactor = inPlace ? &factor : nullptr;
        const std::vector<Shape> &shapes =
            factored ? factoredShapes : vectorShapes;
        std::vector<AdafactorLayout> layouts;
        std::vector<AdafactorState> in, single, multi;
        std::vector<Tensor> grads;
        for (size_t i = 0; i < shapes.size(); ++i) {
          const amp_dtype_t dtype = dtypes[i % 3];
          layouts.emplace_back(shapes[i]);
          in.push_back(
              adafactorState(layouts[i], dtype, rng, 0.01, float(3 * i)));
          grads.push_back(randomTensor(dtype, {layouts[i].n}, rng));
          single.push_back(inPlace ? in[i]
                                   : adafactorOutputs(layouts[i], dtype));
          multi.push_back(single[i]);
          ASSERT_TRUE(
              isOk(adafactorUpdate(layouts[i], h, inPlace ? single[i] : in[i],
                                   grads[i], single[i], lrFactor, foundInf)));
        }
        ASSERT_TRUE(isOk(adafactorMulti(layouts, h, inPlace ? multi : in, grads,
                                        multi, lrFactor, foundInf)));
        for (size_t i = 0; i < shapes.size(); ++i) {
          const std::string what = shapeName(shapes[i]) + " flag " +
                                   std::to_string(flag) +
                                   (inPlace ? " in place" : "");
          EXPECT_TRUE(sameAdafactorBits(layouts[i], single[i], multi[i]))
              << what;
          if (flag == 1) {
            EXPECT_TRUE(sameAdafactorBits(layouts[i], multi[i], in[i])) << what;
          } else {
            EXPECT_EQ(multi[i].step, in[i].step + 1.0f) << what;
          }
        }
      }
  // No buffers is a valid call.
  std::vector<AdafactorState> none;
  EXPECT_TRUE(isOk(adafactorMulti({}, h, none, {}, none, nullptr, nullptr)));
  EXPECT_TRUE(isOk(amp_adafactor_update_multi(
      0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, h.lr,
      nullptr, h.beta2Decay, h.eps1, h.eps2, h.d, h.weightDecay, nullptr,
      nullptr)));
}

TEST(Adafactor, RejectsBadArgumentsWithoutWriting) {
  std::mt19937 rng(173);
  const AdafactorLayout mat({3, 4}), vec({12});
  AdafactorState fs = adafactorState(mat, AMP_DTYPE_F32, rng, 0.01, 5.0f);
  AdafactorState vs = adafactorState(vec, AMP_DTYPE_F32, rng, 0.01, 5.0f);
  const AdafactorState fs0 = fs, vs0 = vs;
  const Tensor g = randomTensor(AMP_DTYPE_F32, {12}, rng);
  const AdafactorHyper ok = kAdafactorDefaults;
  // In place, factored with n, rows and cols as given.
  auto factored = [&](int64_t n, int64_t rows, int64_t cols,
                      const AdafactorHyper &h) {
    return amp_adafactor_update(
        fs.param.data(), g.data(), fs.rowVar.data(), fs.colVar.data(), nullptr,
        &fs.step, fs.param.data(), fs.rowVar.data(), fs.colVar.data(), nullptr,
        &fs.step, n, AMP_DTYPE_F32, rows, cols, h.lr, nullptr, h.beta2Decay,
        h.eps1, h.eps2, h.d, h.weightDecay, nullptr, nullptr);
  };
  auto unfactored = [&](int64_t n, int64_t rows, int64_t cols,
                        const AdafactorHyper &h) {
    return amp_adafactor_update(
        vs.param.data(), g.data(), nullptr, nullptr, vs.variance.data(),
        &vs.step, vs.param.data(), nullptr, nullptr, vs.variance.data(),
        &vs.step, n, AMP_DTYPE_F32, rows, cols, h.lr, nullptr, h.beta2Decay,
        h.eps1, h.eps2, h.d, h.weightDecay, nullptr, nullptr);
  };
  const amp_status_t kInvalid = AMP_STATUS_INVALID_ARGUMENT;
  EXPECT_TRUE(failsWith(factored(0, 3, 4, ok), kInvalid,
                        "amp_adafactor_update: n (0) must be >= 1"));
  EXPECT_TRUE(failsWith(unfactored(0, 0, 0, ok), kInvalid, "n (0)"));
  EXPECT_TRUE(failsWith(unfactored(-12, 0, 0, ok), kInvalid, "n (-12)"));
  // rows and cols: >= 1 with n a multiple of rows * cols when factored
  // (6 and 4 each divide 12, their product does not), 0 when not.
  EXPECT_TRUE(failsWith(factored(12, 5, 4, ok), kInvalid,
                        "rows (5) and cols (4) must be >= 1 and divide n "
                        "(12)"));
  EXPECT_TRUE(failsWith(factored(12, 3, 5, ok), kInvalid, "cols (5)"));
  EXPECT_TRUE(failsWith(factored(12, 6, 4, ok), kInvalid, "rows (6)"));
  EXPECT_TRUE(failsWith(factored(12, 0, 4, ok), kInvalid, "rows (0)"));
  EXPECT_TRUE(failsWith(factored(12, 3, 0, ok), kInvalid, "cols (0)"));
  EXPECT_TRUE(failsWith(factored(12, -3, -4, ok), kInvalid, "rows (-3)"));
  EXPECT_TRUE(failsWith(unfactored(12, 3, 4, ok), kInvalid,
                        "rows (3) and cols (4) must be 0 without row_var"));
  EXPECT_TRUE(failsWith(unfactored(12, 0, 1, ok), kInvalid, "cols (1)"));
  // The hyperparameters, each named with its value.
  auto with = [&](float AdafactorHyper::*field, float value) {
    AdafactorHyper h = ok;
    h.*field = value;
    return h;
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const struct {
    float AdafactorHyper::*field;
    float value;
    const char *message;
  } bad[] = {
      {&AdafactorHyper::lr, -1e-2f, "lr (-0.01)"},
      {&AdafactorHyper::lr, nan, "lr (nan)"},
      {&AdafactorHyper::lr, inf, "lr (inf)"},
      {&AdafactorHyper::beta2Decay, 0.5f, "beta2_decay (0.5)"},
      {&AdafactorHyper::beta2Decay, nan, "beta2_decay (nan)"},
      {&AdafactorHyper::beta2Decay, -inf, "beta2_decay (-inf)"},
      {&AdafactorHyper::eps1, -1e-3f, "eps1 (-0.001)"},
      {&AdafactorHyper::eps1, nan, "eps1 (nan)"},
      {&AdafactorHyper::eps2, -1e-3f, "eps2 (-0.001)"},
      {&AdafactorHyper::eps2, nan, "eps2 (nan)"},
      {&AdafactorHyper::d, 0.5f, "d (0.5)"},
      {&AdafactorHyper::d, 0.0f, "d (0)"},
      {&AdafactorHyper::d, nan, "d (nan)"},
      {&AdafactorHyper::d, inf, "d (inf)"},
      {&AdafactorHyper::weightDecay, -0.1f, "weight_decay (-0.1)"},
      {&AdafactorHyper::weightDecay, nan, "weight_decay (nan)"},
  };
  for (const auto &b : bad) {
    EXPECT_TRUE(failsWith(factored(12, 3, 4, with(b.field, b.value)), kInvalid,
                          b.message));
    EXPECT_TRUE(failsWith(unfactored(12, 0, 0, with(b.field, b.value)),
                          kInvalid, b.message));
  }
  // Exactly one of {row_var and col_var} and variance, with its new value.
  const char *exactlyOne = "row_var, col_var and their new values must be "
                           "given together, and variance and new_variance "
                           "exactly without them";
  float *st = &fs.step;
  void *p = fs.param.data(), *rv = fs.rowVar.data(), *cv = fs.colVar.data(),
       *var = vs.variance.data();
  auto states = [&](void *rowVar, void *colVar, void *variance, void *newRowVar,
                    void *newColVar, void *newVariance) {
    return amp_adafactor_update(p, g.data(), rowVar, colVar, variance, st, p,
                                newRowVar, newColVar, newVariance, st, 12,
                                AMP_DTYPE_F32, rowVar ? 3 : 0, rowVar ? 4 : 0,
                                ok.lr, nullptr, ok.beta2Decay, ok.eps1, ok.eps2,
                                ok.d, ok.weightDecay, nullptr, nullptr);
  };
  EXPECT_TRUE(failsWith(states(rv, nullptr, nullptr, rv, cv, nullptr), kInvalid,
                        exactlyOne)); // row_var without col_var
  EXPECT_TRUE(failsWith(states(rv, cv, nullptr, rv, nullptr, nullptr), kInvalid,
                        exactlyOne)); // no new_col_var
  EXPECT_TRUE(failsWith(states(rv, cv, var, rv, cv, nullptr), kInvalid,
                        exactlyOne)); // variance with row_var
  EXPECT_TRUE(failsWith(states(rv, cv, nullptr, rv, cv, var), kInvalid,
                        exactlyOne)); // new_variance with row_var
  EXPECT_TRUE(failsWith(states(nullptr, cv, var, nullptr, cv, var), kInvalid,
                        exactlyOne)); // col_var without row_var
  EXPECT_TRUE(
      failsWith(states(nullptr, nullptr, var, nullptr, nullptr, nullptr),
                kInvalid, exactlyOne)); // no new_variance
  EXPECT_TRUE(
      failsWith(states(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
                kInvalid, exactlyOne)); // no state at all
  // The counters are required; a float dtype.
  EXPECT_TRUE(failsWith(
      amp_adafactor_update(p, g.data(), rv, cv, nullptr, nullptr, p, rv, cv,
                           nullptr, st, 12, AMP_DTYPE_F32, 3, 4, ok.lr, nullptr,
                           ok.beta2Decay, ok.eps1, ok.eps2, ok.d,
                           ok.weightDecay, nullptr, nullptr),
      kInvalid, "step is NULL"));
  EXPECT_TRUE(failsWith(
      amp_adafactor_update(p, g.data(), rv, cv, nullptr, st, p, rv, cv, nullptr,
                           nullptr, 12, AMP_DTYPE_F32, 3, 4, ok.lr, nullptr,
                           ok.beta2Decay, ok.eps1, ok.eps2, ok.d,
                           ok.weightDecay, nullptr, nullptr),
      kInvalid, "new_step is NULL"));
  EXPECT_EQ(amp_adafactor_update(p, g.data(), rv, cv, nullptr, st, p, rv, cv,
                                 nullptr, st, 12, AMP_DTYPE_I32, 3, 4, ok.lr,
                                 nullptr, ok.beta2Decay, ok.eps1, ok.eps2, ok.d,
                                 ok.weightDecay, nullptr, nullptr),
            AMP_STATUS_NOT_SUPPORTED);
  // Nothing was written.
  EXPECT_TRUE(sameAdafactorBits(mat, fs, fs0));
  EXPECT_TRUE(sameAdafactorBits(vec, vs, vs0));
  // The bounds themselves are valid: lr, eps1, eps2, weight_decay and
  // beta2_decay 0 (the moments replaced by this step's), d 1.
  const AdafactorHyper edge = {0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  EXPECT_TRUE(isOk(factored(12, 3, 4, edge)));
  EXPECT_TRUE(isOk(unfactored(12, 0, 0, edge)));
  EXPECT_TRUE(fs.param.sameBits(fs0.param)); // lr 0: rho 0
  EXPECT_EQ(fs.step, 6.0f);
  for (int64_t i = 0; i < 12; ++i)
    EXPECT_EQ(vs.variance.get(i), float(g.get(i)) * float(g.get(i))) << i;
}

TEST(AdafactorMulti, RejectsInconsistentArraysWithoutWriting) {
  float param[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0, 0, 0, 0, 0, 0};
  float rv[2] = {0, 0}, cv[3] = {0, 0, 0}, var[6] = {0, 0, 0, 0, 0, 0};
  float step = 2.0f, newStep = -1.0f;
  const void *ins[1] = {param}, *rvs[1] = {rv}, *cvs[1] = {cv},
             *vars[1] = {var};
  void *outs[1] = {out}, *nrvs[1] = {rv}, *ncvs[1] = {cv}, *nvars[1] = {var};
  const float *steps[1] = {&step};
  float *newSteps[1] = {&newStep};
  const int64_t sizes[1] = {6}, rows[1] = {2}, cols[1] = {3}, badRows[1] = {4};
  const amp_dtype_t dtypes[1] = {AMP_DTYPE_F32};
  const AdafactorHyper ok = kAdafactorDefaults;
  auto run = [&](int32_t n, const void *const *rowVars,
                 const void *const *colVars, const void *const *variances,
                 void *const *newRowVars, void *const *newColVars,
                 void *const *newVariances, const int64_t *r, const int64_t *c,
                 const AdafactorHyper &h = kAdafactorDefaults) {
    return amp_adafactor_update_multi(
        n, ins, ins, rowVars, colVars, variances, steps, outs, newRowVars,
        newColVars, newVariances, newSteps, sizes, dtypes, r, c, h.lr, nullptr,
        h.beta2Decay, h.eps1, h.eps2, h.d, h.weightDecay, nullptr, nullptr);
  };
  const amp_status_t kInvalid = AMP_STATUS_INVALID_ARGUMENT;
  const char *exactlyOne = "the row_var, col_var, rows and cols arrays must be "
                           "given together, and the variance arrays exactly "
                           "without them";
  // The row_var arrays and the variance arrays both given.
  EXPECT_TRUE(failsWith(run(1, rvs, cvs, vars, nrvs, ncvs, nvars, rows, cols),
                        kInvalid, "amp_adafactor_update_multi: "));
  EXPECT_TRUE(failsWith(run(1, rvs, cvs, vars, nrvs, ncvs, nvars, rows, cols),
                        kInvalid, exactlyOne));
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nrvs, ncvs, nvars, rows, cols),
                kInvalid, exactlyOne));
  // Factored without col_var, new_row_var, rows or cols.
  EXPECT_TRUE(
      failsWith(run(1, rvs, nullptr, nullptr, nrvs, ncvs, nullptr, rows, cols),
                kInvalid, exactlyOne));
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nullptr, ncvs, nullptr, rows, cols),
                kInvalid, exactlyOne));
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nrvs, ncvs, nullptr, nullptr, cols),
                kInvalid, exactlyOne));
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nrvs, ncvs, nullptr, rows, nullptr),
                kInvalid, exactlyOne));
  // Unfactored with rows, cols or a col_var array, or no new_variances.
  EXPECT_TRUE(failsWith(
      run(1, nullptr, nullptr, vars, nullptr, nullptr, nvars, rows, cols),
      kInvalid, exactlyOne));
  EXPECT_TRUE(failsWith(
      run(1, nullptr, cvs, vars, nullptr, ncvs, nvars, nullptr, nullptr),
      kInvalid, exactlyOne));
  EXPECT_TRUE(failsWith(run(1, nullptr, nullptr, vars, nullptr, nullptr,
                            nullptr, nullptr, nullptr),
                        kInvalid, exactlyOne));
  EXPECT_TRUE(failsWith(run(1, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr),
                        kInvalid, exactlyOne));
  // A buffer's own checks: rows * cols must divide its size.
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nrvs, ncvs, nullptr, badRows, cols),
                kInvalid, "rows (4) and cols (3)"));
  EXPECT_TRUE(failsWith(run(-1, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr),
                        kInvalid, "n_buffers (-1)"));
  // The hyperparameters are checked without buffers too.
  AdafactorHyper bad = ok;
  bad.d = 0.5f;
  EXPECT_TRUE(failsWith(run(0, nullptr, nullptr, nullptr, nullptr, nullptr,
                            nullptr, nullptr, nullptr, bad),
                        kInvalid, "d (0.5)"));
  bad = ok;
  bad.beta2Decay = 0.8f;
  EXPECT_TRUE(
      failsWith(run(1, rvs, cvs, nullptr, nrvs, ncvs, nullptr, rows, cols, bad),
                kInvalid, "beta2_decay (0.8)"));
  EXPECT_EQ(step, 2.0f);
  EXPECT_EQ(newStep, -1.0f);
  for (float v : out)
    EXPECT_EQ(v, 0.0f);
  for (float v : rv)
    EXPECT_EQ(v, 0.0f);
  for (float v : var)
    EXPECT_EQ(v, 0.0f);
  // The consistent calls succeed.
  EXPECT_TRUE(isOk(run(1, rvs, cvs, nullptr, nrvs, ncvs, nullptr, rows, cols)));
  EXPECT_EQ(newStep, 3.0f);
  EXPECT_TRUE(isOk(run(1, nullptr, nullptr, vars, nullptr, nullptr, nvars,
                       nullptr, nullptr)));
}

} // namespace
