//===- OptimizerChecks.cpp - Argument checks of the optimizer kernels -----===//

#include "reference/OptimizerChecks.h"

#include <utility>

using namespace amp::runtime::kernels;

namespace {

/// `value` is finite and >= 0 (NaN fails).
bool nonNegative(float value) {
  return value >= 0.0f && value <= 3.4028234663852886e38f;
}

/// `value` is in [0, 1] (NaN fails).
bool unitInterval(float value) { return value >= 0.0f && value <= 1.0f; }

/// The arrays of a multi-buffer call are non-NULL when there are buffers.
amp_status_t checkArrays(Checker &check, int32_t n,
                         std::initializer_list<const void *> arrays) {
  if (n < 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 0",
                      (int)n);
  for (const void *array : arrays)
    if (n > 0 && !array)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "the buffer, size and dtype arrays must not be NULL");
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkLrSchedule(
    Checker &check, const float *count, const float *factor,
    const float *new_count, amp_lr_schedule_t kind, int64_t warmup_steps,
    float warmup_start_factor, int64_t total_steps, float final_factor,
    int64_t step_size, float gamma, float power, const int64_t *milestones,
    int32_t num_milestones, LrSchedule *schedule) {
  if (amp_status_t s =
          check.pointers({{"count", count, 1, AMP_DTYPE_F32},
                          {"factor", factor, 1, AMP_DTYPE_F32},
                          {"new_count", new_count, 1, AMP_DTYPE_F32}}))
    return s;
  const int32_t raw = rawEnum(kind);
  if (raw < AMP_LR_SCHEDULE_CONSTANT || raw > AMP_LR_SCHEDULE_MULTISTEP)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown kind %d", raw);
  if (warmup_steps < 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "warmup_steps (%lld) is < 0",
                      (long long)warmup_steps);
  if (!unitInterval(warmup_start_factor))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "warmup_start_factor (%g) must be in [0, 1]",
                      (double)warmup_start_factor);
  const bool decays = raw == AMP_LR_SCHEDULE_LINEAR ||
                      raw == AMP_LR_SCHEDULE_COSINE ||
                      raw == AMP_LR_SCHEDULE_POLYNOMIAL;
  if (decays && total_steps <= warmup_steps)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "total_steps (%lld) must be > warmup_steps (%lld)",
                      (long long)total_steps, (long long)warmup_steps);
  if (decays && !unitInterval(final_factor))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "final_factor (%g) must be in [0, 1]",
                      (double)final_factor);
  if (raw == AMP_LR_SCHEDULE_STEP && step_size < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "step_size (%lld) is < 1",
                      (long long)step_size);
  if (raw == AMP_LR_SCHEDULE_POLYNOMIAL &&
      !(power > 0.0f && nonNegative(power)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "power (%g) must be positive and finite", (double)power);
  const bool decaysBy = raw == AMP_LR_SCHEDULE_STEP ||
                        raw == AMP_LR_SCHEDULE_EXPONENTIAL ||
                        raw == AMP_LR_SCHEDULE_MULTISTEP;
  if (decaysBy && !(gamma > 0.0f && nonNegative(gamma)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "gamma (%g) must be positive and finite", (double)gamma);
  *schedule = {
      raw,          warmup_steps, total_steps, step_size, warmup_start_factor,
      final_factor, gamma,        power,       0,         {}};
  if (raw != AMP_LR_SCHEDULE_MULTISTEP)
    return AMP_STATUS_OK;
  if (num_milestones < 1 || num_milestones > AMP_LR_SCHEDULE_MAX_MILESTONES)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "num_milestones (%d) must be in [1, %d]",
                      (int)num_milestones, AMP_LR_SCHEDULE_MAX_MILESTONES);
  if (!milestones)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "milestones must not be NULL");
  for (int32_t i = 0; i < num_milestones; ++i) {
    if (milestones[i] < 0 || (i > 0 && milestones[i] <= milestones[i - 1]))
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "milestones[%d] (%lld) must be >= 0 and greater than "
                        "the one before",
                        (int)i, (long long)milestones[i]);
    schedule->milestones[i] = milestones[i];
  }
  schedule->numMilestones = num_milestones;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkSgdUpdate(
    Checker &check, const void *param, const void *grad,
    const void *momentum_buf, const void *new_param,
    const void *new_momentum_buf, int64_t n, amp_dtype_t dtype, float lr,
    float momentum, float dampening, float weight_decay, int32_t nesterov,
    bool *hasMomentum) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (!nonNegative(lr) || !nonNegative(momentum) ||
      !nonNegative(weight_decay) || !(dampening >= 0.0f && dampening <= 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), momentum (%g) and weight_decay (%g) must be "
                      "finite and >= 0, dampening (%g) in [0, 1]",
                      (double)lr, (double)momentum, (double)weight_decay,
                      (double)dampening);
  if (nesterov != 0 && nesterov != 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "nesterov (%d) must be 0 or 1", (int)nesterov);
  if (nesterov && (momentum == 0.0f || dampening != 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "nesterov requires momentum > 0 and dampening = 0");
  *hasMomentum = momentum > 0.0f;
  const bool givesBuffer = momentum_buf || new_momentum_buf;
  if (*hasMomentum ? n > 0 && (!momentum_buf || !new_momentum_buf)
                   : givesBuffer)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "momentum_buf and new_momentum_buf must be given "
                      "exactly when momentum > 0 (momentum = %g)",
                      (double)momentum);
  if (amp_status_t s = check.pointers({{"param", param, n, dtype},
                                       {"grad", grad, n, dtype},
                                       {"new_param", new_param, n, dtype}}))
    return s;
  if (*hasMomentum)
    return check.pointers({{"momentum_buf", momentum_buf, n, dtype},
                           {"new_momentum_buf", new_momentum_buf, n, dtype}});
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkSgdUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *momentum_bufs,
    void *const *new_params, void *const *new_momentum_bufs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float momentum,
    float dampening, float weight_decay, int32_t nesterov, bool *hasMomentum) {
  if (amp_status_t s = checkArrays(check, n_buffers,
                                   {params, grads, new_params, sizes, dtypes}))
    return s;
  // The hyperparameters are checked even without buffers.
  if (amp_status_t s = checkSgdUpdate(
          check, nullptr, nullptr, nullptr, nullptr, nullptr, 0, AMP_DTYPE_F32,
          lr, momentum, dampening, weight_decay, nesterov, hasMomentum))
    return s;
  if (*hasMomentum ? n_buffers > 0 && (!momentum_bufs || !new_momentum_bufs)
                   : momentum_bufs || new_momentum_bufs)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "momentum_bufs and new_momentum_bufs must be given "
                      "exactly when momentum > 0 (momentum = %g)",
                      (double)momentum);
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s = checkSgdUpdate(
            check, params[i], grads[i],
            *hasMomentum ? momentum_bufs[i] : nullptr, new_params[i],
            *hasMomentum ? new_momentum_bufs[i] : nullptr, sizes[i], dtypes[i],
            lr, momentum, dampening, weight_decay, nesterov, hasMomentum))
      return s;
  return AMP_STATUS_OK;
}

/// An optional pair of buffers (`name`, new_`name`) and the option that
/// asks for it: `condition` on `option`'s `value`, `used` when it holds.
struct OptionalPair {
  const char *name, *condition, *option;
  double value;
  bool used;
};

/// The pair (or with `s` = "s" its buffer arrays) is given exactly when it
/// is used: both when used (either may be NULL when there are no elements
/// or buffers, `empty`), neither otherwise.
static amp_status_t checkOptionalPair(Checker &check, const OptionalPair &p,
                                      bool empty, const void *in,
                                      const void *out, const char *s) {
  if (p.used ? empty || (in && out) : !in && !out)
    return AMP_STATUS_OK;
  return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                    "%s%s and new_%s%s must be given exactly when %s (%s = %g)",
                    p.name, s, p.name, s, p.condition, p.option, p.value);
}

/// Whether an int32 flag argument is 0 or 1.
static amp_status_t checkFlag(Checker &check, const char *name, int32_t value) {
  if (value == 0 || value == 1)
    return AMP_STATUS_OK;
  return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s (%d) must be 0 or 1", name,
                    (int)value);
}

/// The hyperparameters of amp_adam_update and amp_adam_update_multi.
static amp_status_t checkAdamHyperparameters(Checker &check, float lr,
                                             float beta1, float beta2,
                                             float eps, float weight_decay,
                                             int32_t decoupled_weight_decay,
                                             int32_t amsgrad) {
  if (!nonNegative(lr) || !nonNegative(eps) || !nonNegative(weight_decay) ||
      !(beta1 >= 0.0f && beta1 < 1.0f) || !(beta2 >= 0.0f && beta2 < 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), eps (%g) and weight_decay (%g) must be finite "
                      "and >= 0, beta1 (%g) and beta2 (%g) in [0, 1)",
                      (double)lr, (double)eps, (double)weight_decay,
                      (double)beta1, (double)beta2);
  if (amp_status_t s =
          checkFlag(check, "decoupled_weight_decay", decoupled_weight_decay))
    return s;
  return checkFlag(check, "amsgrad", amsgrad);
}

/// AMSGrad's running maxima, given exactly when amsgrad = 1.
static OptionalPair amsgradPair(int32_t amsgrad) {
  return {"max_exp_avg_sq", "amsgrad = 1", "amsgrad", double(amsgrad),
          amsgrad != 0};
}

amp_status_t amp::runtime::kernels::checkAdamUpdate(
    Checker &check, const void *param, const void *grad, const void *exp_avg,
    const void *exp_avg_sq, const float *step, const void *max_exp_avg_sq,
    const void *new_param, const void *new_exp_avg, const void *new_exp_avg_sq,
    const float *new_step, const void *new_max_exp_avg_sq, int64_t n,
    amp_dtype_t dtype, float lr, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, int32_t amsgrad) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          checkAdamHyperparameters(check, lr, beta1, beta2, eps, weight_decay,
                                   decoupled_weight_decay, amsgrad))
    return s;
  if (amp_status_t s =
          checkOptionalPair(check, amsgradPair(amsgrad), n == 0, max_exp_avg_sq,
                            new_max_exp_avg_sq, ""))
    return s;
  const std::pair<const char *, const void *> tensors[] = {
      {"param", param},
      {"grad", grad},
      {"exp_avg", exp_avg},
      {"exp_avg_sq", exp_avg_sq},
      {"new_param", new_param},
      {"new_exp_avg", new_exp_avg},
      {"new_exp_avg_sq", new_exp_avg_sq},
      // AMSGrad's, checked only with amsgrad = 1.
      {"max_exp_avg_sq", max_exp_avg_sq},
      {"new_max_exp_avg_sq", new_max_exp_avg_sq}};
  for (size_t k = 0, e = amsgrad ? 9 : 7; k < e; ++k)
    if (amp_status_t s =
            check.pointer(tensors[k].first, tensors[k].second, n, dtype))
      return s;
  return check.pointers({{"step", step, 1, AMP_DTYPE_F32},
                         {"new_step", new_step, 1, AMP_DTYPE_F32}});
}

amp_status_t amp::runtime::kernels::checkAdamUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *exp_avgs,
    const void *const *exp_avg_sqs, const float *const *steps,
    const void *const *max_exp_avg_sqs, void *const *new_params,
    void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
    float *const *new_steps, void *const *new_max_exp_avg_sqs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    int32_t amsgrad) {
  if (amp_status_t s = checkArrays(check, n_buffers,
                                   {params, grads, exp_avgs, exp_avg_sqs, steps,
                                    new_params, new_exp_avgs, new_exp_avg_sqs,
                                    new_steps, sizes, dtypes}))
    return s;
  // The hyperparameters are checked even without buffers.
  if (amp_status_t s =
          checkAdamHyperparameters(check, lr, beta1, beta2, eps, weight_decay,
                                   decoupled_weight_decay, amsgrad))
    return s;
  if (amp_status_t s =
          checkOptionalPair(check, amsgradPair(amsgrad), n_buffers == 0,
                            max_exp_avg_sqs, new_max_exp_avg_sqs, "s"))
    return s;
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s = checkAdamUpdate(
            check, params[i], grads[i], exp_avgs[i], exp_avg_sqs[i], steps[i],
            amsgrad ? max_exp_avg_sqs[i] : nullptr, new_params[i],
            new_exp_avgs[i], new_exp_avg_sqs[i], new_steps[i],
            amsgrad ? new_max_exp_avg_sqs[i] : nullptr, sizes[i], dtypes[i], lr,
            beta1, beta2, eps, weight_decay, decoupled_weight_decay, amsgrad))
      return s;
  return AMP_STATUS_OK;
}

/// The hyperparameters of amp_rmsprop_update and amp_rmsprop_update_multi.
static amp_status_t checkRmspropHyperparameters(Checker &check, float lr,
                                                float alpha, float eps,
                                                float weight_decay,
                                                float momentum,
                                                int32_t centered) {
  if (!nonNegative(lr) || !nonNegative(eps) || !nonNegative(weight_decay) ||
      !nonNegative(momentum) || !unitInterval(alpha))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), eps (%g), weight_decay (%g) and momentum (%g) "
                      "must be finite and >= 0, alpha (%g) in [0, 1]",
                      (double)lr, (double)eps, (double)weight_decay,
                      (double)momentum, (double)alpha);
  return checkFlag(check, "centered", centered);
}

/// RMSprop's optional buffers, or with `s` = "s" buffer arrays: the
/// momentum pair exactly when momentum > 0, the grad_avg pair exactly when
/// centered (either may be NULL when there are no elements or buffers,
/// `empty`).
static amp_status_t checkRmspropOptionals(Checker &check, float momentum,
                                          int32_t centered, bool empty,
                                          const void *buf, const void *newBuf,
                                          const void *avg, const void *newAvg,
                                          const char *s) {
  if (amp_status_t st =
          checkOptionalPair(check,
                            {"momentum_buf", "momentum > 0", "momentum",
                             momentum, momentum > 0.0f},
                            empty, buf, newBuf, s))
    return st;
  return checkOptionalPair(
      check,
      {"grad_avg", "centered = 1", "centered", double(centered), centered != 0},
      empty, avg, newAvg, s);
}

amp_status_t amp::runtime::kernels::checkRmspropUpdate(
    Checker &check, const void *param, const void *grad, const void *square_avg,
    const void *momentum_buf, const void *grad_avg, const void *new_param,
    const void *new_square_avg, const void *new_momentum_buf,
    const void *new_grad_avg, int64_t n, amp_dtype_t dtype, float lr,
    float alpha, float eps, float weight_decay, float momentum,
    int32_t centered) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = checkRmspropHyperparameters(
          check, lr, alpha, eps, weight_decay, momentum, centered))
    return s;
  if (amp_status_t s =
          checkRmspropOptionals(check, momentum, centered, n == 0, momentum_buf,
                                new_momentum_buf, grad_avg, new_grad_avg, ""))
    return s;
  const bool hasMomentum = momentum > 0.0f;
  if (amp_status_t s =
          check.pointers({{"param", param, n, dtype},
                          {"grad", grad, n, dtype},
                          {"square_avg", square_avg, n, dtype},
                          {"new_param", new_param, n, dtype},
                          {"new_square_avg", new_square_avg, n, dtype}}))
    return s;
  if (hasMomentum)
    if (amp_status_t s =
            check.pointers({{"momentum_buf", momentum_buf, n, dtype},
                            {"new_momentum_buf", new_momentum_buf, n, dtype}}))
      return s;
  if (centered)
    return check.pointers({{"grad_avg", grad_avg, n, dtype},
                           {"new_grad_avg", new_grad_avg, n, dtype}});
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkRmspropUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *square_avgs,
    const void *const *momentum_bufs, const void *const *grad_avgs,
    void *const *new_params, void *const *new_square_avgs,
    void *const *new_momentum_bufs, void *const *new_grad_avgs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float alpha,
    float eps, float weight_decay, float momentum, int32_t centered) {
  if (amp_status_t s = checkArrays(check, n_buffers,
                                   {params, grads, square_avgs, new_params,
                                    new_square_avgs, sizes, dtypes}))
    return s;
  // The hyperparameters are checked even without buffers.
  if (amp_status_t s = checkRmspropHyperparameters(
          check, lr, alpha, eps, weight_decay, momentum, centered))
    return s;
  if (amp_status_t s = checkRmspropOptionals(
          check, momentum, centered, n_buffers == 0, momentum_bufs,
          new_momentum_bufs, grad_avgs, new_grad_avgs, "s"))
    return s;
  const bool hasMomentum = momentum > 0.0f;
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s = checkRmspropUpdate(
            check, params[i], grads[i], square_avgs[i],
            hasMomentum ? momentum_bufs[i] : nullptr,
            centered ? grad_avgs[i] : nullptr, new_params[i],
            new_square_avgs[i], hasMomentum ? new_momentum_bufs[i] : nullptr,
            centered ? new_grad_avgs[i] : nullptr, sizes[i], dtypes[i], lr,
            alpha, eps, weight_decay, momentum, centered))
      return s;
  return AMP_STATUS_OK;
}

/// The hyperparameters of amp_adagrad_update and amp_adagrad_update_multi.
static amp_status_t checkAdagradHyperparameters(Checker &check, float lr,
                                                float lr_decay, float eps,
                                                float weight_decay) {
  if (!nonNegative(lr) || !nonNegative(lr_decay) || !nonNegative(eps) ||
      !nonNegative(weight_decay))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), lr_decay (%g), eps (%g) and weight_decay (%g) "
                      "must be finite and >= 0",
                      (double)lr, (double)lr_decay, (double)eps,
                      (double)weight_decay);
  return AMP_STATUS_OK;
}

/// Adagrad's step counters, given exactly when lr_decay > 0.
static OptionalPair adagradStepPair(float lr_decay) {
  return {"step", "lr_decay > 0", "lr_decay", double(lr_decay),
          lr_decay > 0.0f};
}

amp_status_t amp::runtime::kernels::checkAdagradUpdate(
    Checker &check, const void *param, const void *grad, const void *state_sum,
    const float *step, const void *new_param, const void *new_state_sum,
    const float *new_step, int64_t n, amp_dtype_t dtype, float lr,
    float lr_decay, float eps, float weight_decay) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          checkAdagradHyperparameters(check, lr, lr_decay, eps, weight_decay))
    return s;
  // A counter advances even without elements, as Adam's does.
  if (amp_status_t s = checkOptionalPair(check, adagradStepPair(lr_decay),
                                         false, step, new_step, ""))
    return s;
  if (amp_status_t s =
          check.pointers({{"param", param, n, dtype},
                          {"grad", grad, n, dtype},
                          {"state_sum", state_sum, n, dtype},
                          {"new_param", new_param, n, dtype},
                          {"new_state_sum", new_state_sum, n, dtype}}))
    return s;
  if (!step)
    return AMP_STATUS_OK;
  return check.pointers({{"step", step, 1, AMP_DTYPE_F32},
                         {"new_step", new_step, 1, AMP_DTYPE_F32}});
}

amp_status_t amp::runtime::kernels::checkAdagradUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *state_sums,
    const float *const *steps, void *const *new_params,
    void *const *new_state_sums, float *const *new_steps, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, float lr_decay, float eps,
    float weight_decay) {
  if (amp_status_t s = checkArrays(check, n_buffers,
                                   {params, grads, state_sums, new_params,
                                    new_state_sums, sizes, dtypes}))
    return s;
  // The hyperparameters are checked even without buffers.
  if (amp_status_t s =
          checkAdagradHyperparameters(check, lr, lr_decay, eps, weight_decay))
    return s;
  if (amp_status_t s = checkOptionalPair(check, adagradStepPair(lr_decay),
                                         n_buffers == 0, steps, new_steps, "s"))
    return s;
  const bool counted = lr_decay > 0.0f;
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s = checkAdagradUpdate(
            check, params[i], grads[i], state_sums[i],
            counted ? steps[i] : nullptr, new_params[i], new_state_sums[i],
            counted ? new_steps[i] : nullptr, sizes[i], dtypes[i], lr, lr_decay,
            eps, weight_decay))
      return s;
  return AMP_STATUS_OK;
}

/// The hyperparameters of amp_adafactor_update and
/// amp_adafactor_update_multi (torch.optim.Adafactor's checks).
static amp_status_t checkAdafactorHyperparameters(Checker &check, float lr,
                                                  float beta2_decay, float eps1,
                                                  float eps2, float d,
                                                  float weight_decay) {
  if (!nonNegative(lr) || !nonNegative(eps1) || !nonNegative(eps2) ||
      !nonNegative(weight_decay) || !nonNegative(-beta2_decay) ||
      !(d >= 1.0f && nonNegative(d)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "lr (%g), eps1 (%g), eps2 (%g) and weight_decay (%g) "
                      "must be finite and >= 0, beta2_decay (%g) finite and "
                      "<= 0, d (%g) finite and >= 1",
                      (double)lr, (double)eps1, (double)eps2,
                      (double)weight_decay, (double)beta2_decay, (double)d);
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkAdafactorUpdate(
    Checker &check, const void *param, const void *grad, const void *row_var,
    const void *col_var, const void *variance, const float *step,
    const void *new_param, const void *new_row_var, const void *new_col_var,
    const void *new_variance, const float *new_step, int64_t n,
    amp_dtype_t dtype, int64_t rows, int64_t cols, float lr, float beta2_decay,
    float eps1, float eps2, float d, float weight_decay) {
  if (n < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "n (%lld) must be >= 1: Adafactor scales by the param's "
                      "root mean square",
                      (long long)n);
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = checkAdafactorHyperparameters(
          check, lr, beta2_decay, eps1, eps2, d, weight_decay))
    return s;
  const bool factored = row_var != nullptr;
  if (factored
          ? !col_var || !new_row_var || !new_col_var || variance || new_variance
          : col_var || new_row_var || new_col_var || !variance || !new_variance)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "row_var, col_var and their new values must be given "
                      "together, and variance and new_variance exactly "
                      "without them");
  if (factored ? rows < 1 || cols < 1 || n % rows != 0 || (n / rows) % cols != 0
               : rows != 0 || cols != 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      factored ? "rows (%lld) and cols (%lld) must be >= 1 "
                                 "and divide n (%lld) as [B, rows, cols]"
                               : "rows (%lld) and cols (%lld) must be 0 "
                                 "without row_var (n = %lld)",
                      (long long)rows, (long long)cols, (long long)n);
  if (amp_status_t s =
          check.pointers({{"param", param, n, dtype},
                          {"grad", grad, n, dtype},
                          {"new_param", new_param, n, dtype},
                          {"step", step, 1, AMP_DTYPE_F32},
                          {"new_step", new_step, 1, AMP_DTYPE_F32}}))
    return s;
  if (!factored)
    return check.pointers({{"variance", variance, n, dtype},
                           {"new_variance", new_variance, n, dtype}});
  return check.pointers({{"row_var", row_var, n / cols, dtype},
                         {"col_var", col_var, n / rows, dtype},
                         {"new_row_var", new_row_var, n / cols, dtype},
                         {"new_col_var", new_col_var, n / rows, dtype}});
}

amp_status_t amp::runtime::kernels::checkAdafactorUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *row_vars,
    const void *const *col_vars, const void *const *variances,
    const float *const *steps, void *const *new_params,
    void *const *new_row_vars, void *const *new_col_vars,
    void *const *new_variances, float *const *new_steps, const int64_t *sizes,
    const amp_dtype_t *dtypes, const int64_t *rows, const int64_t *cols,
    float lr, float beta2_decay, float eps1, float eps2, float d,
    float weight_decay, bool *factored) {
  *factored = row_vars != nullptr;
  if (amp_status_t s = checkArrays(
          check, n_buffers,
          {params, grads, steps, new_params, new_steps, sizes, dtypes}))
    return s;
  // The hyperparameters are checked even without buffers.
  if (amp_status_t s = checkAdafactorHyperparameters(
          check, lr, beta2_decay, eps1, eps2, d, weight_decay))
    return s;
  if (n_buffers > 0 &&
      (*factored ? !col_vars || !new_row_vars || !new_col_vars || !rows ||
                       !cols || variances || new_variances
                 : col_vars || new_row_vars || new_col_vars || rows || cols ||
                       !variances || !new_variances))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the row_var, col_var, rows and cols arrays must be "
                      "given together, and the variance arrays exactly "
                      "without them");
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s = checkAdafactorUpdate(
            check, params[i], grads[i], *factored ? row_vars[i] : nullptr,
            *factored ? col_vars[i] : nullptr,
            *factored ? nullptr : variances[i], steps[i], new_params[i],
            *factored ? new_row_vars[i] : nullptr,
            *factored ? new_col_vars[i] : nullptr,
            *factored ? nullptr : new_variances[i], new_steps[i], sizes[i],
            dtypes[i], *factored ? rows[i] : 0, *factored ? cols[i] : 0, lr,
            beta2_decay, eps1, eps2, d, weight_decay))
      return s;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkClipGradNorm(
    Checker &check, int32_t n_buffers, const void *const *grads,
    void *const *clipped, const int64_t *sizes, const amp_dtype_t *dtypes,
    float max_norm, float norm_type, const float *total_norm) {
  if (n_buffers < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 1",
                      (int)n_buffers);
  if (!(max_norm > 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "max_norm (%g) must be > 0",
                      (double)max_norm);
  if (!(norm_type > 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "norm_type (%g) must be > 0 or inf", (double)norm_type);
  if (amp_status_t s =
          check.pointer("total_norm", total_norm, 1, AMP_DTYPE_F32))
    return s;
  return check.bufferList(n_buffers, grads, clipped, sizes, dtypes);
}

amp_status_t amp::runtime::kernels::checkEmaUpdate(
    Checker &check, int32_t n_buffers, const void *const *averages,
    const void *const *values, void *const *new_averages, const int64_t *sizes,
    const amp_dtype_t *dtypes, const float *weight) {
  if (n_buffers < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 1",
                      (int)n_buffers);
  if (amp_status_t s = check.pointer("weight", weight, 1, AMP_DTYPE_F32))
    return s;
  if (amp_status_t s =
          check.bufferList(n_buffers, averages, new_averages, sizes, dtypes))
    return s;
  if (!values)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "values is NULL");
  for (int32_t i = 0; i < n_buffers; ++i)
    if (amp_status_t s =
            check.pointer("values[i]", values[i], sizes[i], dtypes[i]))
      return s;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkClipGradValue(
    Checker &check, int32_t n_buffers, const void *const *grads,
    void *const *clipped, const int64_t *sizes, const amp_dtype_t *dtypes,
    float clip_value) {
  if (n_buffers < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_buffers (%d) is < 1",
                      (int)n_buffers);
  if (!(clip_value > 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "clip_value (%g) must be > 0", (double)clip_value);
  return check.bufferList(n_buffers, grads, clipped, sizes, dtypes);
}
