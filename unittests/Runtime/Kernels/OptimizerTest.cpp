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
// clip_grad_norm: the total norm within (256 + n/256 + buffers + 6) u of
// relative error (blocked f32 sums of squares), each clipped value within
// that plus 4u, relative.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

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

TEST(ClipGradNorm, MatchesPyTorchOverMixedBuffers) {
  std::mt19937 rng(101);
  const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16};
  const int64_t sizes[] = {1000, 37, 129};
  std::vector<Tensor> grads;
  for (int i = 0; i < 3; ++i)
    grads.push_back(randomTensor(dtypes[i], {sizes[i]}, rng));
  // torch.nn.utils.clip_grad_norm_ in f64: the norm of the per-gradient
  // norms, coef = max_norm / (total + 1e-6) clamped to 1.
  double sumNormsSq = 0;
  for (const Tensor &g : grads) {
    double sq = 0;
    for (int64_t k = 0; k < g.size(); ++k)
      sq += g.get(k) * g.get(k);
    sumNormsSq += sq;
  }
  const double total = std::sqrt(sumNormsSq);
  const double relTotal = (256 + 1000.0 / 256 + 3 + 6) * kU;
  for (float maxNorm : {1.0f, 5.5f, 100.0f, INFINITY}) {
    for (bool inPlace : {false, true}) {
      std::vector<Tensor> in = grads, out;
      std::vector<const void *> inPtrs;
      std::vector<void *> outPtrs;
      for (int i = 0; i < 3; ++i) {
        out.push_back(inPlace ? in[i] : sentinelTensor(dtypes[i], {sizes[i]}));
      }
      for (int i = 0; i < 3; ++i) {
        inPtrs.push_back(inPlace ? out[i].data() : in[i].data());
        outPtrs.push_back(out[i].data());
      }
      float norm = -1.0f;
      ASSERT_TRUE(
          isOk(amp_clip_grad_norm(3, inPtrs.data(), outPtrs.data(), sizes,
                                  dtypes, maxNorm, &norm, nullptr)));
      EXPECT_NEAR(norm, total, 2 * relTotal * total);
      const double coef = std::min(1.0, maxNorm / (total + 1e-6));
      for (int i = 0; i < 3; ++i) {
        if (coef == 1.0) { // multiplying by exactly 1 changes no bits
          EXPECT_TRUE(out[i].sameBits(grads[i])) << "max_norm " << maxNorm;
          continue;
        }
        std::vector<double> ref, tol;
        for (int64_t k = 0; k < sizes[i]; ++k) {
          double r = grads[i].get(k) * coef;
          ref.push_back(r);
          tol.push_back(
              outTol(dtypes[i], r, 2 * std::fabs(r) * (relTotal + 4 * kU)));
        }
        EXPECT_TRUE(
            allClose(out[i], ref, tol, "clipped buffer " + std::to_string(i)));
      }
    }
  }
}

TEST(ClipGradNorm, NaNPropagatesAsInPyTorch) {
  Tensor g(AMP_DTYPE_F32, {3});
  g.set(0, 1.0);
  g.set(1, std::numeric_limits<double>::quiet_NaN());
  const void *in[] = {g.data()};
  void *out[] = {g.data()};
  const int64_t size = 3;
  const amp_dtype_t dtype = AMP_DTYPE_F32;
  float norm = 0;
  ASSERT_TRUE(isOk(
      amp_clip_grad_norm(1, in, out, &size, &dtype, 1.0f, &norm, nullptr)));
  EXPECT_TRUE(std::isnan(norm));
  EXPECT_TRUE(std::isnan(g.get(0)) && std::isnan(g.get(2)));
  EXPECT_TRUE(failsWith(
      amp_clip_grad_norm(1, in, out, &size, &dtype, 0.0f, &norm, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "max_norm"));
  EXPECT_TRUE(failsWith(
      amp_clip_grad_norm(0, in, out, &size, &dtype, 1.0f, &norm, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "n_buffers"));
}

} // namespace
