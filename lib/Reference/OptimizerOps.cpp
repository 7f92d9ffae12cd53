//===- OptimizerOps.cpp - f64 evaluators of the optimizer ops -------------===//
//
// nn.clip_grad_norm and nn.clip_grad_value (which nn-autodiff adds with
// clip-norm > 0 and clip-value > 0, also with optimizer=none),
// nn.ema_update (ema-decay), nn.lr_schedule and the updates (nn.sgd_update,
// nn.adam_update, nn.radam_update, nn.rmsprop_update, nn.adagrad_update,
// nn.adafactor_update), from the formulas of their ODS descriptions
// (PyTorch's SGD, Adam, AdamW, RAdam, RMSprop, Adagrad and Adafactor).
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace amp::nn;
using namespace amp::reference;

namespace {

/// Every gradient times min(1, max_norm / (total_norm + 1e-6)), then the
/// total norm: the p-norm of every element together, or the largest
/// magnitude for p = inf (NaN wins).
Results evalClipGradNorm(ClipGradNormOp op, Operands in) {
  double p = op.getNormTypeAttr().getValueAsDouble();
  double acc = 0;
  for (const RefTensor *g : in)
    for (double v : g->data) {
      double a = std::fabs(v);
      if (p == 2)
        acc += a * a;
      else if (!std::isinf(p))
        acc += std::pow(a, p);
      else if (a > acc || std::isnan(a))
        acc = a;
    }
  double norm = p == 2          ? std::sqrt(acc)
                : std::isinf(p) ? acc
                                : std::pow(acc, 1.0 / p);
  double coef =
      std::min(1.0, op.getMaxNormAttr().getValueAsDouble() / (norm + 1e-6));
  Results results;
  for (const RefTensor *g : in) {
    results.push_back(*g);
    for (double &v : results.back().data)
      v *= coef;
  }
  results.push_back(RefTensor({}, norm));
  return results;
}

/// Every gradient clamped to [-clip_value, clip_value] (NaN stays NaN).
Results evalClipGradValue(ClipGradValueOp op, Operands in) {
  double c = op.getClipValueAttr().getValueAsDouble();
  Results results;
  for (const RefTensor *g : in) {
    results.push_back(*g);
    for (double &v : results.back().data)
      v = v < -c ? -c : (v > c ? c : v);
  }
  return results;
}

/// Every average moved toward its value: average + w * (value - average).
Results evalEmaUpdate(EmaUpdateOp op, Operands in) {
  size_t n = op.getAverages().size();
  double w = in.back()->data.front();
  Results results;
  for (size_t i = 0; i < n; ++i) {
    results.push_back(*in[i]);
    const std::vector<double> &value = in[n + i]->data;
    for (auto [k, a] : llvm::enumerate(results.back().data))
      a += w * (value[k] - a);
  }
  return results;
}

/// nn.lr_schedule's factor of the base lr at step `s` (>= 0): the formula
/// of its ODS description.
double scheduleFactor(const LrSchedule &p, double s) {
  double w = static_cast<double>(p.warmupSteps);
  if (s < w)
    return p.warmupStartFactor + (1.0 - p.warmupStartFactor) * s / w;
  double d = s - w;
  double b = p.finalFactor.value_or(0.0);
  switch (p.kind) {
  case LrScheduleKind::Constant:
    return 1.0;
  case LrScheduleKind::Linear: {
    double span = static_cast<double>(*p.totalSteps - p.warmupSteps);
    return b + (1.0 - b) * std::max(span - d, 0.0) / span;
  }
  case LrScheduleKind::Cosine: {
    double span = static_cast<double>(*p.totalSteps - p.warmupSteps);
    double progress = std::min(d / span, 1.0);
    return b + (1.0 - b) * (1.0 + std::cos(M_PI * progress)) / 2.0;
  }
  case LrScheduleKind::Step:
    return std::pow(*p.gamma, std::floor(d / static_cast<double>(*p.stepSize)));
  case LrScheduleKind::Exponential:
    return std::pow(*p.gamma, d);
  case LrScheduleKind::Polynomial: {
    double span = static_cast<double>(*p.totalSteps - p.warmupSteps);
    return b + (1.0 - b) * std::pow(std::max(span - d, 0.0) / span,
                                    p.power.value_or(1.0));
  }
  case LrScheduleKind::Multistep: {
    // MultiStepLR: gamma once per milestone reached.
    double factor = 1.0;
    for (int64_t m : *p.milestones)
      if (static_cast<double>(m) <= d)
        factor *= *p.gamma;
    return factor;
  }
  }
  return 1.0;
}

/// nn.lr_schedule: the factor at step `count` (a negative count is 0, as
/// in the runtime), and count + 1.
Results evalLrSchedule(LrScheduleOp op, Operands in) {
  double count = in[0]->data[0];
  double s = count > 0 ? count : 0.0;
  return {RefTensor({}, scheduleFactor(op.getSchedule(), s)),
          RefTensor({}, s + 1)};
}

/// An update's lr: the attribute times its lr_factor operand (the last
/// operand) when it has one.
template <typename Op> double scheduledLr(Op op, Operands in) {
  double lr = op.getLrAttr().getValueAsDouble();
  return op.getLrFactor() ? lr * in.back()->data[0] : lr;
}

Results evalSgdUpdate(SgdUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  double lr = scheduledLr(op, in);
  double momentum = op.getMomentumAttr().getValueAsDouble();
  double dampening = op.getDampeningAttr().getValueAsDouble();
  double decay = op.getWeightDecayAttr().getValueAsDouble();
  bool hasBuffer = op.getMomentumBuffer() != nullptr;
  Results results{param};
  if (hasBuffer)
    results.push_back(*in[2]);
  for (int64_t i = 0; i < param.getNumElements(); ++i) {
    double g = grad.data[i] + decay * param.data[i];
    double step = g;
    if (hasBuffer) {
      double &buf = results[1].data[i];
      buf = momentum * buf + (1 - dampening) * g;
      step = op.getNesterov() ? g + momentum * buf : buf;
    }
    results[0].data[i] -= lr * step;
  }
  return results;
}

/// The scalars of Adam's and RAdam's step: the scheduled lr, the betas,
/// eps, the param's decay factor (decoupled weight decay, AdamW's) and the
/// L2 weight (the penalty's gradient added to the gradient), and the step
/// t (the counter, operand 4, + 1).
struct AdamScalars {
  double lr, beta1, beta2, eps, paramDecay, l2, t;
};

template <typename Op> AdamScalars adamScalars(Op op, Operands in) {
  AdamScalars k;
  k.lr = scheduledLr(op, in);
  k.beta1 = op.getBeta1Attr().getValueAsDouble();
  k.beta2 = op.getBeta2Attr().getValueAsDouble();
  k.eps = op.getEpsAttr().getValueAsDouble();
  double decay = op.getWeightDecayAttr().getValueAsDouble();
  bool decoupled = op.getDecoupledWeightDecay();
  k.paramDecay = decoupled ? 1 - k.lr * decay : 1.0;
  k.l2 = decoupled ? 0.0 : decay;
  k.t = in[4]->data[0] + 1;
  return k;
}

Results evalAdamUpdate(AdamUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  const auto [lr, beta1, beta2, eps, paramDecay, l2, t] = adamScalars(op, in);
  Results results{param, *in[2], *in[3], RefTensor({}, t)};
  // AMSGrad's running maximum of v (operand 5) is the last result.
  if (op.getAmsgrad())
    results.push_back(*in[5]);
  RefTensor &p = results[0], &m = results[1], &v = results[2];
  for (int64_t i = 0; i < param.getNumElements(); ++i) {
    double g = grad.data[i] + l2 * param.data[i];
    m.data[i] = beta1 * m.data[i] + (1 - beta1) * g;
    v.data[i] = beta2 * v.data[i] + (1 - beta2) * g * g;
    double vUsed = v.data[i];
    if (op.getAmsgrad()) {
      double &vmax = results[4].data[i];
      vmax =
          std::isnan(vmax) || std::isnan(vUsed) ? NAN : std::max(vmax, vUsed);
      vUsed = vmax;
    }
    double mHat = m.data[i] / (1 - std::pow(beta1, t));
    double vHat = vUsed / (1 - std::pow(beta2, t));
    p.data[i] = p.data[i] * paramDecay - lr * mHat / (std::sqrt(vHat) + eps);
  }
  return results;
}

Results evalRadamUpdate(RadamUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  const auto [lr, beta1, beta2, eps, paramDecay, l2, t] = adamScalars(op, in);
  // The variance rectification of Liu et al. (2020), as torch.optim.RAdam.
  double bc1 = 1 - std::pow(beta1, t), bc2 = 1 - std::pow(beta2, t);
  double rhoInf = 2 / (1 - beta2) - 1;
  double rhoT = rhoInf - 2 * t * std::pow(beta2, t) / bc2;
  bool rectified = rhoT > 5;
  double rect = rectified ? std::sqrt((rhoT - 4) * (rhoT - 2) * rhoInf /
                                      ((rhoInf - 4) * (rhoInf - 2) * rhoT))
                          : 0.0;
  Results results{param, *in[2], *in[3], RefTensor({}, t)};
  RefTensor &p = results[0], &m = results[1], &v = results[2];
  for (int64_t i = 0; i < param.getNumElements(); ++i) {
    double g = grad.data[i] + l2 * param.data[i];
    m.data[i] = beta1 * m.data[i] + (1 - beta1) * g;
    v.data[i] = beta2 * v.data[i] + (1 - beta2) * g * g;
    double step = lr * m.data[i] / bc1;
    if (rectified)
      step *= rect * std::sqrt(bc2) / (std::sqrt(v.data[i]) + eps);
    p.data[i] = p.data[i] * paramDecay - step;
  }
  return results;
}

Results evalRmspropUpdate(RmspropUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  double lr = scheduledLr(op, in);
  double alpha = op.getAlphaAttr().getValueAsDouble();
  double eps = op.getEpsAttr().getValueAsDouble();
  double decay = op.getWeightDecayAttr().getValueAsDouble();
  double momentum = op.getMomentumAttr().getValueAsDouble();
  // The results: param, square_avg, then the momentum buffer and the
  // gradient average when present (operands 3 and on, in that order).
  Results results{param, *in[2]};
  size_t bufAt = 0, avgAt = 0;
  if (op.getMomentumBuffer()) {
    bufAt = results.size();
    results.push_back(*in[bufAt + 1]);
  }
  if (op.getGradAvg()) {
    avgAt = results.size();
    results.push_back(*in[avgAt + 1]);
  }
  RefTensor &p = results[0], &v = results[1];
  RefTensor *buf = bufAt ? &results[bufAt] : nullptr;
  RefTensor *avg = avgAt ? &results[avgAt] : nullptr;
  for (int64_t i = 0; i < param.getNumElements(); ++i) {
    double g = grad.data[i] + decay * param.data[i];
    v.data[i] = alpha * v.data[i] + (1 - alpha) * g * g;
    double variance = v.data[i];
    if (avg) {
      avg->data[i] = alpha * avg->data[i] + (1 - alpha) * g;
      variance -= avg->data[i] * avg->data[i];
    }
    double step = g / (std::sqrt(variance) + eps);
    if (buf) {
      buf->data[i] = momentum * buf->data[i] + step;
      step = buf->data[i];
    }
    p.data[i] -= lr * step;
  }
  return results;
}

Results evalAdagradUpdate(AdagradUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  double lr = scheduledLr(op, in);
  double eps = op.getEpsAttr().getValueAsDouble();
  double decay = op.getWeightDecayAttr().getValueAsDouble();
  Results results{param, *in[2]};
  // With lr_decay, PyTorch's clr from the count of earlier steps (operand
  // 3), and the new count as the last result.
  if (op.getStep()) {
    double step = in[3]->data[0];
    lr /= 1 + step * op.getLrDecayAttr().getValueAsDouble();
    results.push_back(RefTensor({}, step + 1));
  }
  RefTensor &p = results[0], &sum = results[1];
  for (int64_t i = 0; i < param.getNumElements(); ++i) {
    double g = grad.data[i] + decay * param.data[i];
    sum.data[i] += g * g;
    p.data[i] -= lr * g / (std::sqrt(sum.data[i]) + eps);
  }
  return results;
}

/// The L2 norm of a tensor's elements over the square root of their count.
double rootMeanSquare(const std::vector<double> &x) {
  double squares = 0;
  for (double v : x)
    squares += v * v;
  return std::sqrt(squares / static_cast<double>(x.size()));
}

Results evalAdafactorUpdate(AdafactorUpdateOp op, Operands in) {
  const RefTensor &param = *in[0], &grad = *in[1];
  double lr = scheduledLr(op, in);
  double eps1 = op.getEps1Attr().getValueAsDouble();
  double eps2 = op.getEps2Attr().getValueAsDouble();
  double decay = op.getWeightDecayAttr().getValueAsDouble();
  size_t numState = op.isFactored() ? 2 : 1;
  double t = in[2 + numState]->data[0] + 1;
  double beta = std::pow(t, op.getBeta2DecayAttr().getValueAsDouble());
  double alpha = std::max(eps2, rootMeanSquare(param.data)) *
                 std::min(lr, 1 / std::sqrt(t));
  Results results{param};
  RefTensor &p = results[0];
  for (double &v : p.data)
    v *= 1 - lr * decay;
  auto lerp = [&](double &state, double target) {
    state += beta * (target - state);
  };
  int64_t n = param.getNumElements();
  std::vector<double> v(n);
  if (op.isFactored()) {
    int64_t cols = param.shape.back();
    int64_t rows = param.shape[param.shape.size() - 2];
    RefTensor rowVar = *in[2], colVar = *in[3];
    for (int64_t b = 0; b < n / (rows * cols); ++b) {
      double rowVarSum = 0;
      for (int64_t r = 0; r < rows; ++r) {
        double squares = 0;
        for (int64_t c = 0; c < cols; ++c)
          squares += std::pow(grad.data[(b * rows + r) * cols + c], 2);
        lerp(rowVar.data[b * rows + r], squares / cols);
        rowVarSum += rowVar.data[b * rows + r];
      }
      for (int64_t c = 0; c < cols; ++c) {
        double squares = 0;
        for (int64_t r = 0; r < rows; ++r)
          squares += std::pow(grad.data[(b * rows + r) * cols + c], 2);
        lerp(colVar.data[b * cols + c], squares / rows);
      }
      double mean = std::max(rowVarSum / rows, eps1);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          v[(b * rows + r) * cols + c] =
              rowVar.data[b * rows + r] * colVar.data[b * cols + c] / mean;
    }
    results.append({rowVar, colVar});
  } else {
    RefTensor variance = *in[2];
    for (int64_t i = 0; i < n; ++i) {
      lerp(variance.data[i], grad.data[i] * grad.data[i]);
      v[i] = variance.data[i];
    }
    results.push_back(variance);
  }
  std::vector<double> u(n);
  for (int64_t i = 0; i < n; ++i)
    u[i] = grad.data[i] / std::sqrt(std::max(v[i], eps1 * eps1));
  double denom =
      std::max(1.0, rootMeanSquare(u) / op.getDAttr().getValueAsDouble());
  for (int64_t i = 0; i < n; ++i)
    p.data[i] -= alpha / denom * u[i];
  results.push_back(RefTensor({}, t));
  return results;
}

} // namespace

void amp::reference::registerOptimizerOps(EvaluatorTable &table) {
  table.add<ClipGradNormOp>(evalClipGradNorm);
  table.add<ClipGradValueOp>(evalClipGradValue);
  table.add<EmaUpdateOp>(evalEmaUpdate);
  table.add<LrScheduleOp>(evalLrSchedule);
  table.add<SgdUpdateOp>(evalSgdUpdate);
  table.add<AdamUpdateOp>(evalAdamUpdate);
  table.add<RadamUpdateOp>(evalRadamUpdate);
  table.add<RmspropUpdateOp>(evalRmspropUpdate);
  table.add<AdagradUpdateOp>(evalAdagradUpdate);
  table.add<AdafactorUpdateOp>(evalAdafactorUpdate);
}
