//===- ReduceChecks.cpp - Argument checks of the reductions ---------------===//

#include "reference/ReduceChecks.h"

using namespace amp::runtime::kernels;

namespace {

/// Also checks that x_dtype is a float dtype and y_dtype x's or f32.
amp_status_t checkReduction(Checker &check, const int64_t *xDims, int32_t xRank,
                            const int64_t *axes, int32_t nAxes,
                            amp_dtype_t xDtype, amp_dtype_t yDtype,
                            Reduction *r) {
  if (amp_status_t s = check.dtype("x_dtype", xDtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.accumulatorDtype("y_dtype", yDtype, xDtype))
    return s;
  if (amp_status_t s = check.shape("x", xDims, xRank, &r->nx))
    return s;
  if (nAxes < 0 || nAxes > xRank)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "n_axes (%d) is not in [0, rank %d]", (int)nAxes,
                      (int)xRank);
  if (nAxes > 0 && !axes)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "axes is NULL");
  for (int32_t i = 0; i < nAxes; ++i) {
    int32_t a;
    if (amp_status_t s = check.axis("axis", axes[i], xRank, &a))
      return s;
    if (r->reduced[a])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "axis %lld is reduced more than once",
                        (long long)axes[i]);
    r->reduced[a] = true;
  }
  r->rank = xRank;
  r->loop.rank = xRank;
  contiguousStrides(xDims, xRank, r->loop.strides[0]);
  int64_t stride = 1;
  for (int32_t i = xRank - 1; i >= 0; --i) {
    r->dims[i] = xDims[i];
    r->loop.dims[i] = xDims[i];
    r->loop.strides[1][i] = r->reduced[i] ? 0 : stride;
    if (!r->reduced[i])
      stride *= xDims[i];
    (r->reduced[i] ? r->count : r->ny) *= xDims[i];
  }
  r->loop.simplify();
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkReduce(
    Checker &check, amp_reduce_op_t op, const void *x, const void *y,
    const int64_t *xDims, int32_t xRank, const int64_t *axes, int32_t nAxes,
    amp_dtype_t xDtype, amp_dtype_t yDtype, int32_t *rawOp, Reduction *r) {
  *rawOp = rawEnum(op);
  if (*rawOp < AMP_REDUCE_SUM || *rawOp > AMP_REDUCE_MAX)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", *rawOp);
  if (amp_status_t s =
          checkReduction(check, xDims, xRank, axes, nAxes, xDtype, yDtype, r))
    return s;
  if (*rawOp == AMP_REDUCE_MAX && r->count == 0 && r->ny > 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "max over an empty set of elements");
  return check.pointers({{"x", x, r->nx, xDtype}, {"y", y, r->ny, yDtype}});
}

amp_status_t
amp::runtime::kernels::checkGlobalAvgPool(Checker &check, const void *x,
                                          const void *y, const int64_t *xDims,
                                          amp_dtype_t dtype, Reduction *r) {
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  const int64_t spatial[] = {2, 3};
  if (amp_status_t s =
          checkReduction(check, xDims, 4, spatial, 2, dtype, dtype, r))
    return s;
  return check.pointers({{"x", x, r->nx, dtype}, {"y", y, r->ny, dtype}});
}

amp_status_t amp::runtime::kernels::checkReduceMaxGrad(
    Checker &check, const void *dy, const void *x, const void *y,
    const void *dx, const int64_t *xDims, int32_t xRank, const int64_t *axes,
    int32_t nAxes, amp_dtype_t xDtype, amp_dtype_t yDtype, Reduction *r) {
  if (amp_status_t s =
          checkReduction(check, xDims, xRank, axes, nAxes, xDtype, yDtype, r))
    return s;
  if (amp_status_t s = check.pointers({{"dy", dy, r->ny, yDtype},
                                       {"x", x, r->nx, xDtype},
                                       {"y", y, r->ny, yDtype},
                                       {"dx", dx, r->nx, xDtype}}))
    return s;
  if (r->nx > 0 && (dx == dy || dx == x || dx == y))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "dx aliases an input");
  return AMP_STATUS_OK;
}

namespace {

/// The dtype (float, i32 or i64), shape and axis of a scan along one axis.
amp_status_t checkScan(Checker &check, const int64_t *dims, int32_t rank,
                       int64_t axis, amp_dtype_t dtype, Scan *scan) {
  if (amp_status_t s = check.dtype("dtype", dtype, kNumericDtypes))
    return s;
  if (amp_status_t s = check.shape("x", dims, rank, &scan->n))
    return s;
  int32_t a;
  if (amp_status_t s = check.axis("axis", axis, rank, &a))
    return s;
  scan->len = dims[a];
  for (int32_t i = 0; i < a; ++i)
    scan->outer *= dims[i];
  for (int32_t i = a + 1; i < rank; ++i)
    scan->inner *= dims[i];
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkCumsum(Checker &check, const void *x,
                                                const void *y,
                                                const int64_t *dims,
                                                int32_t rank, int64_t axis,
                                                amp_dtype_t dtype, Scan *scan) {
  if (amp_status_t s = checkScan(check, dims, rank, axis, dtype, scan))
    return s;
  return check.pointers({{"x", x, scan->n, dtype}, {"y", y, scan->n, dtype}});
}

namespace {

/// y (`count` i64 values) is a valid pointer that overlaps no element of x.
amp_status_t checkIndexOutput(Checker &check, const void *x, const int64_t *y,
                              int64_t count, amp_dtype_t dtype,
                              const Scan &scan) {
  if (amp_status_t s = check.pointers(
          {{"x", x, scan.n, dtype}, {"y", y, count, AMP_DTYPE_I64}}))
    return s;
  const char *xb = static_cast<const char *>(x);
  const char *yb = reinterpret_cast<const char *>(y);
  if (scan.n > 0 && count > 0 && xb < yb + count * 8 &&
      yb < xb + scan.n * amp_dtype_size(dtype))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y overlaps x");
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkArgmax(Checker &check, const void *x,
                                                const int64_t *y,
                                                const int64_t *dims,
                                                int32_t rank, int64_t axis,
                                                amp_dtype_t dtype, Scan *scan) {
  if (amp_status_t s = checkScan(check, dims, rank, axis, dtype, scan))
    return s;
  if (scan->len == 0 && scan->lines() > 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "argmax along an empty axis");
  return checkIndexOutput(check, x, y, scan->lines(), dtype, *scan);
}

amp_status_t amp::runtime::kernels::checkTopk(Checker &check, const void *x,
                                              const int64_t *y,
                                              const int64_t *dims, int32_t rank,
                                              int64_t axis, int64_t k,
                                              amp_dtype_t dtype, Scan *scan) {
  if (amp_status_t s = checkScan(check, dims, rank, axis, dtype, scan))
    return s;
  if (k < 0 || k > scan->len)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "k = %lld outside [0, %lld]",
                      static_cast<long long>(k),
                      static_cast<long long>(scan->len));
  // lines() * k <= n, which the shape check bounded.
  return checkIndexOutput(check, x, y, scan->lines() * k, dtype, *scan);
}
