//===- OptimizerChecks.h - Argument checks of the optimizer kernels -------===//
//
// The argument checks of amp_lr_schedule, amp_sgd_update, amp_adam_update,
// amp_rmsprop_update, amp_adagrad_update, amp_adafactor_update, their _multi
// forms,
// amp_clip_grad_norm, amp_clip_grad_value and amp_ema_update, shared by the
// reference and the CUDA backend (amp_kernel_core) so that a malformed call
// fails with the same status and message on both. They read only the arguments,
// never tensor contents (which may be device memory).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_OPTIMIZERCHECKS_H
#define AMP_RUNTIME_REFERENCE_OPTIMIZERCHECKS_H

#include "reference/KernelCommon.h"
#include "reference/OptimizerMath.h"

namespace amp {
namespace runtime {
namespace kernels {

/// amp_lr_schedule's checks (the error cases of kernels.h); *schedule: the
/// checked arguments for lrScheduleInMemory.
amp_status_t checkLrSchedule(Checker &check, const float *count,
                             const float *factor, const float *new_count,
                             amp_lr_schedule_t kind, int64_t warmup_steps,
                             float warmup_start_factor, int64_t total_steps,
                             float final_factor, int64_t step_size, float gamma,
                             float power, const int64_t *milestones,
                             int32_t num_milestones, LrSchedule *schedule);

/// amp_sgd_update's checks; *hasMomentum: momentum > 0 (the buffers are
/// used).
amp_status_t checkSgdUpdate(Checker &check, const void *param, const void *grad,
                            const void *momentum_buf, const void *new_param,
                            const void *new_momentum_buf, int64_t n,
                            amp_dtype_t dtype, float lr, float momentum,
                            float dampening, float weight_decay,
                            int32_t nesterov, bool *hasMomentum);

/// amp_sgd_update_multi's checks: n_buffers >= 0, the arrays non-NULL when
/// there are buffers (the momentum arrays exactly when momentum > 0), and
/// checkSgdUpdate for every buffer.
amp_status_t checkSgdUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *momentum_bufs,
    void *const *new_params, void *const *new_momentum_bufs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float momentum,
    float dampening, float weight_decay, int32_t nesterov, bool *hasMomentum);

/// amp_adam_update's checks (max_exp_avg_sq and its new value exactly
/// with amsgrad = 1), and amp_radam_update's (amsgrad = 0).
amp_status_t checkAdamUpdate(
    Checker &check, const void *param, const void *grad, const void *exp_avg,
    const void *exp_avg_sq, const float *step, const void *max_exp_avg_sq,
    const void *new_param, const void *new_exp_avg, const void *new_exp_avg_sq,
    const float *new_step, const void *new_max_exp_avg_sq, int64_t n,
    amp_dtype_t dtype, float lr, float beta1, float beta2, float eps,
    float weight_decay, int32_t decoupled_weight_decay, int32_t amsgrad);

/// amp_adam_update_multi's checks: n_buffers >= 0, the arrays non-NULL when
/// there are buffers (the max_exp_avg_sq arrays exactly with amsgrad = 1),
/// and checkAdamUpdate for every buffer.
amp_status_t checkAdamUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *exp_avgs,
    const void *const *exp_avg_sqs, const float *const *steps,
    const void *const *max_exp_avg_sqs, void *const *new_params,
    void *const *new_exp_avgs, void *const *new_exp_avg_sqs,
    float *const *new_steps, void *const *new_max_exp_avg_sqs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float beta1,
    float beta2, float eps, float weight_decay, int32_t decoupled_weight_decay,
    int32_t amsgrad);

/// amp_rmsprop_update's checks.
amp_status_t
checkRmspropUpdate(Checker &check, const void *param, const void *grad,
                   const void *square_avg, const void *momentum_buf,
                   const void *grad_avg, const void *new_param,
                   const void *new_square_avg, const void *new_momentum_buf,
                   const void *new_grad_avg, int64_t n, amp_dtype_t dtype,
                   float lr, float alpha, float eps, float weight_decay,
                   float momentum, int32_t centered);

/// amp_rmsprop_update_multi's checks: n_buffers >= 0, the arrays non-NULL
/// when there are buffers (the momentum arrays exactly when momentum > 0,
/// the grad_avg arrays exactly when centered), and checkRmspropUpdate for
/// every buffer.
amp_status_t checkRmspropUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *square_avgs,
    const void *const *momentum_bufs, const void *const *grad_avgs,
    void *const *new_params, void *const *new_square_avgs,
    void *const *new_momentum_bufs, void *const *new_grad_avgs,
    const int64_t *sizes, const amp_dtype_t *dtypes, float lr, float alpha,
    float eps, float weight_decay, float momentum, int32_t centered);

/// amp_adagrad_update's checks (the step counters exactly when
/// lr_decay > 0).
amp_status_t checkAdagradUpdate(Checker &check, const void *param,
                                const void *grad, const void *state_sum,
                                const float *step, const void *new_param,
                                const void *new_state_sum,
                                const float *new_step, int64_t n,
                                amp_dtype_t dtype, float lr, float lr_decay,
                                float eps, float weight_decay);

/// amp_adagrad_update_multi's checks: n_buffers >= 0, the arrays non-NULL
/// when there are buffers (the step arrays exactly when lr_decay > 0), and
/// checkAdagradUpdate for every buffer.
amp_status_t checkAdagradUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *state_sums,
    const float *const *steps, void *const *new_params,
    void *const *new_state_sums, float *const *new_steps, const int64_t *sizes,
    const amp_dtype_t *dtypes, float lr, float lr_decay, float eps,
    float weight_decay);

/// amp_adafactor_update's checks: factored when row_var is given (then
/// rows, cols >= 1 and n a multiple of rows * cols), else rows = cols = 0.
amp_status_t checkAdafactorUpdate(
    Checker &check, const void *param, const void *grad, const void *row_var,
    const void *col_var, const void *variance, const float *step,
    const void *new_param, const void *new_row_var, const void *new_col_var,
    const void *new_variance, const float *new_step, int64_t n,
    amp_dtype_t dtype, int64_t rows, int64_t cols, float lr, float beta2_decay,
    float eps1, float eps2, float d, float weight_decay);

/// amp_adafactor_update_multi's checks: n_buffers >= 0, the arrays non-NULL
/// when there are buffers (the row_var, col_var, rows and cols arrays, or
/// else the variance arrays), and checkAdafactorUpdate for every buffer;
/// *factored: the row_var arrays are given.
amp_status_t checkAdafactorUpdateMulti(
    Checker &check, int32_t n_buffers, const void *const *params,
    const void *const *grads, const void *const *row_vars,
    const void *const *col_vars, const void *const *variances,
    const float *const *steps, void *const *new_params,
    void *const *new_row_vars, void *const *new_col_vars,
    void *const *new_variances, float *const *new_steps, const int64_t *sizes,
    const amp_dtype_t *dtypes, const int64_t *rows, const int64_t *cols,
    float lr, float beta2_decay, float eps1, float eps2, float d,
    float weight_decay, bool *factored);

/// amp_clip_grad_norm's checks.
amp_status_t checkClipGradNorm(Checker &check, int32_t n_buffers,
                               const void *const *grads, void *const *clipped,
                               const int64_t *sizes, const amp_dtype_t *dtypes,
                               float max_norm, float norm_type,
                               const float *total_norm);

/// amp_ema_update's checks.
amp_status_t checkEmaUpdate(Checker &check, int32_t n_buffers,
                            const void *const *averages,
                            const void *const *values,
                            void *const *new_averages, const int64_t *sizes,
                            const amp_dtype_t *dtypes, const float *weight);

/// amp_clip_grad_value's checks.
amp_status_t checkClipGradValue(Checker &check, int32_t n_buffers,
                                const void *const *grads, void *const *clipped,
                                const int64_t *sizes, const amp_dtype_t *dtypes,
                                float clip_value);

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_OPTIMIZERCHECKS_H
