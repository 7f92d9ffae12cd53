//===- NormChecks.cpp - Argument checks of softmax and the norms ----------===//

#include "reference/NormChecks.h"

#include <cmath>

using namespace amp::runtime::kernels;

namespace {

/// The dtype checks shared by both normalizations and their gradients: x's
/// dtype, the affine parameters' dtypes.
amp_status_t checkNormDtypes(Checker &check, amp_dtype_t xDtype,
                             amp_dtype_t scaleDtype, amp_dtype_t biasDtype,
                             bool hasBias) {
  if (amp_status_t s = check.dtype("x_dtype", xDtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          check.accumulatorDtype("scale_dtype", scaleDtype, xDtype))
    return s;
  if (hasBias) {
    if (amp_status_t s =
            check.accumulatorDtype("bias_dtype", biasDtype, xDtype))
      return s;
  }
  return AMP_STATUS_OK;
}

amp_status_t checkEpsilon(Checker &check, float epsilon) {
  if (!(epsilon >= 0.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "epsilon (%g) is negative or NaN", (double)epsilon);
  return AMP_STATUS_OK;
}

/// The shape and axis of a layer norm: rows = dims[:axis], len =
/// dims[axis:]; *n is the element count.
amp_status_t checkLayerNormShape(Checker &check, const int64_t *dims,
                                 int32_t rank, int64_t axis, int64_t *n,
                                 LayerNormView *view) {
  int32_t a;
  if (amp_status_t s = check.shape("x", dims, rank, n))
    return s;
  if (amp_status_t s = check.axis("axis", axis, rank, &a))
    return s;
  view->rows = product(dims, 0, a);
  view->len = product(dims, a, rank);
  return AMP_STATUS_OK;
}

amp_status_t checkNormalizedLength(Checker &check, const LayerNormView &v) {
  if (v.len == 0 && v.rows > 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the normalized shape has no elements");
  return AMP_STATUS_OK;
}

/// The shape [N, C, ...] of a batch norm and its channel view.
amp_status_t checkBatchNormShape(Checker &check, const int64_t *dims,
                                 int32_t rank, int64_t *n,
                                 BatchNormView *view) {
  if (amp_status_t s = check.shape("x", dims, rank, n))
    return s;
  if (rank < 2)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "x must have rank >= 2 [N, C, ...], got rank %d",
                      (int)rank);
  view->batch = dims[0];
  view->channels = dims[1];
  view->spatial = product(dims, 2, rank);
  if (view->channels > 0 && view->batch * view->spatial == 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "each channel has no elements to normalize over");
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkSoftmax(
    Checker &check, const int64_t *dims, int32_t rank, amp_dtype_t dtype,
    int64_t axis,
    std::initializer_list<std::pair<const char *, const void *>> ptrs,
    AxisView *view) {
  int64_t n;
  int32_t a;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.shape("x", dims, rank, &n))
    return s;
  if (amp_status_t s = check.axis("axis", axis, rank, &a))
    return s;
  for (const auto &[name, ptr] : ptrs)
    if (amp_status_t s = check.pointer(name, ptr, n, dtype))
      return s;
  *view = {product(dims, 0, a), dims[a], product(dims, a + 1, rank)};
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkLayerNorm(
    Checker &check, const void *x, const void *scale, const void *bias,
    const void *y, const float *mean, const float *rstd, const int64_t *dims,
    int32_t rank, amp_dtype_t xDtype, amp_dtype_t scaleDtype,
    amp_dtype_t biasDtype, int64_t axis, float epsilon, LayerNormView *view) {
  int64_t n;
  if (amp_status_t s =
          checkNormDtypes(check, xDtype, scaleDtype, biasDtype, true))
    return s;
  if (amp_status_t s = checkLayerNormShape(check, dims, rank, axis, &n, view))
    return s;
  if (amp_status_t s = checkEpsilon(check, epsilon))
    return s;
  if (amp_status_t s = checkNormalizedLength(check, *view))
    return s;
  const int64_t rows = view->rows, len = view->len;
  return check.pointers({{"x", x, n, xDtype},
                         {"y", y, n, xDtype},
                         {"mean", mean, rows, AMP_DTYPE_F32},
                         {"rstd", rstd, rows, AMP_DTYPE_F32},
                         {"scale", scale, scale ? len : 0, scaleDtype},
                         {"bias", bias, bias ? len : 0, biasDtype}});
}

amp_status_t amp::runtime::kernels::checkLayerNormGrad(
    Checker &check, const void *dy, const void *x, const float *mean,
    const float *rstd, const void *scale, const void *dx, const void *dscale,
    const void *dbias, const int64_t *dims, int32_t rank, amp_dtype_t xDtype,
    amp_dtype_t scaleDtype, int64_t axis, LayerNormView *view) {
  int64_t n;
  if (amp_status_t s =
          checkNormDtypes(check, xDtype, scaleDtype, scaleDtype, false))
    return s;
  if (amp_status_t s = checkLayerNormShape(check, dims, rank, axis, &n, view))
    return s;
  if (amp_status_t s = checkNormalizedLength(check, *view))
    return s;
  const int64_t rows = view->rows, len = view->len;
  return check.pointers({{"dy", dy, n, xDtype},
                         {"x", x, n, xDtype},
                         {"dx", dx, n, xDtype},
                         {"mean", mean, rows, AMP_DTYPE_F32},
                         {"rstd", rstd, rows, AMP_DTYPE_F32},
                         {"scale", scale, scale ? len : 0, scaleDtype},
                         {"dscale", dscale, dscale ? len : 0, scaleDtype},
                         {"dbias", dbias, dbias ? len : 0, scaleDtype}});
}

amp_status_t amp::runtime::kernels::checkBatchNorm(
    Checker &check, const void *x, const void *scale, const void *bias,
    const void *y, const float *mean, const float *invstd, const int64_t *dims,
    int32_t rank, amp_dtype_t xDtype, amp_dtype_t scaleDtype,
    amp_dtype_t biasDtype, float epsilon, BatchNormView *view) {
  int64_t n = 0;
  if (amp_status_t s =
          checkNormDtypes(check, xDtype, scaleDtype, biasDtype, true))
    return s;
  if (amp_status_t s = checkBatchNormShape(check, dims, rank, &n, view))
    return s;
  if (amp_status_t s = checkEpsilon(check, epsilon))
    return s;
  const int64_t c = view->channels;
  return check.pointers({{"x", x, n, xDtype},
                         {"y", y, n, xDtype},
                         {"mean", mean, c, AMP_DTYPE_F32},
                         {"invstd", invstd, c, AMP_DTYPE_F32},
                         {"scale", scale, scale ? c : 0, scaleDtype},
                         {"bias", bias, bias ? c : 0, biasDtype}});
}

amp_status_t amp::runtime::kernels::checkBatchNormGrad(
    Checker &check, const void *dy, const void *x, const float *mean,
    const float *invstd, const void *scale, const void *dx, const void *dscale,
    const void *dbias, const int64_t *dims, int32_t rank, amp_dtype_t xDtype,
    amp_dtype_t scaleDtype, BatchNormView *view) {
  int64_t n = 0;
  if (amp_status_t s =
          checkNormDtypes(check, xDtype, scaleDtype, scaleDtype, false))
    return s;
  if (amp_status_t s = checkBatchNormShape(check, dims, rank, &n, view))
    return s;
  const int64_t c = view->channels;
  return check.pointers({{"dy", dy, n, xDtype},
                         {"x", x, n, xDtype},
                         {"dx", dx, n, xDtype},
                         {"mean", mean, c, AMP_DTYPE_F32},
                         {"invstd", invstd, c, AMP_DTYPE_F32},
                         {"scale", scale, scale ? c : 0, scaleDtype},
                         {"dscale", dscale, dscale ? c : 0, scaleDtype},
                         {"dbias", dbias, dbias ? c : 0, scaleDtype}});
}

amp_status_t amp::runtime::kernels::checkRunningStatsUpdate(
    Checker &check, const float *runningMean, const float *runningVar,
    const float *mean, const float *invstd, const float *newMean,
    const float *newVar, int64_t channels, float momentum, float epsilon,
    float correction) {
  if (amp_status_t s = check.count("channels", channels))
    return s;
  if (!(momentum >= 0.0f && momentum <= 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "momentum (%g) is not in [0, 1]", (double)momentum);
  if (amp_status_t s = checkEpsilon(check, epsilon))
    return s;
  if (!(correction >= 1.0f) || std::isinf(correction))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "correction (%g) is not a finite value >= 1",
                      (double)correction);
  return check.pointers({{"running_mean", runningMean, channels, AMP_DTYPE_F32},
                         {"running_var", runningVar, channels, AMP_DTYPE_F32},
                         {"mean", mean, channels, AMP_DTYPE_F32},
                         {"invstd", invstd, channels, AMP_DTYPE_F32},
                         {"new_mean", newMean, channels, AMP_DTYPE_F32},
                         {"new_var", newVar, channels, AMP_DTYPE_F32}});
}
