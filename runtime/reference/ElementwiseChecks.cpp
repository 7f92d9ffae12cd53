//===- ElementwiseChecks.cpp - Argument checks of the elementwise kernels -===//

#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"

#include <cmath>
#include <initializer_list>
#include <utility>

using namespace amp::runtime::kernels;

namespace {

/// The common checks of the same-shape elementwise kernels.
amp_status_t checkFlat(
    Checker &check, int64_t n, amp_dtype_t dtype,
    std::initializer_list<std::pair<const char *, const void *>> pointers) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  for (const auto &[name, ptr] : pointers)
    if (amp_status_t s = check.pointer(name, ptr, n, dtype))
      return s;
  return AMP_STATUS_OK;
}

/// The bounds of clamp and clamp_grad: min <= max, neither NaN.
amp_status_t checkBounds(Checker &check, float min, float max) {
  if (!(min <= max))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "min (%g) must be <= max (%g), neither NaN", (double)min,
                      (double)max);
  return AMP_STATUS_OK;
}

/// The shapes and pointers of a broadcasting binary kernel: lhs and rhs of
/// `dtype`, out of `outDtype` exactly their broadcast; their element counts
/// in *nl, *nr, *no.
amp_status_t checkBroadcastPair(Checker &check, const void *lhs,
                                const void *rhs, const void *out,
                                const int64_t *lhsDims, int32_t lhsRank,
                                const int64_t *rhsDims, int32_t rhsRank,
                                const int64_t *outDims, int32_t outRank,
                                amp_dtype_t dtype, amp_dtype_t outDtype,
                                int64_t *nl, int64_t *nr, int64_t *no) {
  if (amp_status_t s = check.shape("lhs", lhsDims, lhsRank, nl))
    return s;
  if (amp_status_t s = check.shape("rhs", rhsDims, rhsRank, nr))
    return s;
  if (amp_status_t s = check.shape("out", outDims, outRank, no))
    return s;
  if (amp_status_t s = check.broadcastResult(
          {{"lhs", lhsDims, lhsRank}, {"rhs", rhsDims, rhsRank}},
          {"out", outDims, outRank}))
    return s;
  return check.pointers({{"lhs", lhs, *nl, dtype},
                         {"rhs", rhs, *nr, dtype},
                         {"out", out, *no, outDtype}});
}

} // namespace

amp_status_t amp::runtime::kernels::checkUnary(Checker &check, int32_t rawOp,
                                               const void *x, const void *y,
                                               int64_t n, amp_dtype_t dtype) {
  switch (rawOp) {
#define AMP_UNARY_CASE(OP) case OP:
    AMP_FOR_EACH_UNARY_OP(AMP_UNARY_CASE)
#undef AMP_UNARY_CASE
    return checkFlat(check, n, dtype, {{"x", x}, {"y", y}});
  default:
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  }
}

amp_status_t amp::runtime::kernels::checkFlatUnary(Checker &check,
                                                   const void *x, const void *y,
                                                   int64_t n,
                                                   amp_dtype_t dtype) {
  return checkFlat(check, n, dtype, {{"x", x}, {"y", y}});
}

amp_status_t amp::runtime::kernels::checkClamp(Checker &check, const void *x,
                                               const void *y, int64_t n,
                                               amp_dtype_t dtype, float min,
                                               float max) {
  if (amp_status_t s = checkBounds(check, min, max))
    return s;
  return checkFlatUnary(check, x, y, n, dtype);
}

amp_status_t amp::runtime::kernels::checkFlatGrad(Checker &check,
                                                  const char *vName,
                                                  const void *dy, const void *v,
                                                  const void *dx, int64_t n,
                                                  amp_dtype_t dtype) {
  return checkFlat(check, n, dtype, {{"dy", dy}, {vName, v}, {"dx", dx}});
}

amp_status_t
amp::runtime::kernels::checkClampGrad(Checker &check, const void *dy,
                                      const void *x, const void *dx, int64_t n,
                                      amp_dtype_t dtype, float min, float max) {
  if (amp_status_t s = checkBounds(check, min, max))
    return s;
  return checkFlatGrad(check, "x", dy, x, dx, n, dtype);
}

amp_status_t amp::runtime::kernels::checkDropout(Checker &check, const void *x,
                                                 const int64_t *seed,
                                                 const void *y, int64_t n,
                                                 amp_dtype_t dtype,
                                                 float rate) {
  if (!(rate >= 0.0f && rate < 1.0f))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "rate (%g) is not in [0, 1)",
                      (double)rate);
  if (amp_status_t s = checkFlat(check, n, dtype, {{"x", x}, {"y", y}}))
    return s;
  return check.pointer("seed", seed, 1, AMP_DTYPE_I64);
}

amp_status_t amp::runtime::kernels::checkBinary(
    Checker &check, int32_t rawOp, const void *lhs, const void *rhs,
    const void *out, const int64_t *lhsDims, int32_t lhsRank,
    const int64_t *rhsDims, int32_t rhsRank, const int64_t *outDims,
    int32_t outRank, amp_dtype_t dtype, StridedLoop<3> *loop, int64_t *numel) {
  switch (rawOp) {
#define AMP_BINARY_CASE(OP) case OP:
    AMP_FOR_EACH_BINARY_OP(AMP_BINARY_CASE)
#undef AMP_BINARY_CASE
    break;
  default:
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  }
  if (amp_status_t s =
          check.dtype("dtype", dtype,
                      binaryFloatOnly(rawOp) ? kFloatDtypes : kNumericDtypes))
    return s;
  int64_t nl, nr, no;
  if (amp_status_t s = checkBroadcastPair(check, lhs, rhs, out, lhsDims,
                                          lhsRank, rhsDims, rhsRank, outDims,
                                          outRank, dtype, dtype, &nl, &nr, &no))
    return s;
  if (no > 0 && ((out == lhs && nl != no) || (out == rhs && nr != no)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "out aliases a broadcast operand");
  *loop = broadcastLoop<3>(
      outDims, outRank, {{"lhs", lhsDims, lhsRank}, {"rhs", rhsDims, rhsRank}});
  *numel = no;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkCompare(
    Checker &check, int32_t rawOp, const void *lhs, const void *rhs,
    const void *out, const int64_t *lhsDims, int32_t lhsRank,
    const int64_t *rhsDims, int32_t rhsRank, const int64_t *outDims,
    int32_t outRank, amp_dtype_t dtype, StridedLoop<3> *loop, int64_t *numel) {
  if (rawOp < AMP_COMPARE_EQ || rawOp > AMP_COMPARE_GE)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  int64_t nl, nr, no;
  if (amp_status_t s = checkBroadcastPair(
          check, lhs, rhs, out, lhsDims, lhsRank, rhsDims, rhsRank, outDims,
          outRank, dtype, AMP_DTYPE_BOOL, &nl, &nr, &no))
    return s;
  if (no > 0 && (out == lhs || out == rhs))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "out aliases lhs or rhs");
  *loop = broadcastLoop<3>(
      outDims, outRank, {{"lhs", lhsDims, lhsRank}, {"rhs", rhsDims, rhsRank}});
  *numel = no;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkCast(Checker &check, const void *x,
                                              const void *y, int64_t n,
                                              amp_dtype_t xDtype,
                                              amp_dtype_t yDtype) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("x_dtype", xDtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.dtype("y_dtype", yDtype, kAnyDtype))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, n, xDtype}, {"y", y, n, yDtype}}))
    return s;
  if (xDtype != yDtype && n > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "y aliases x but the dtypes differ");
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkFill(Checker &check, const void *y,
                                              int64_t n, amp_dtype_t dtype,
                                              float value) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.pointer("y", y, n, dtype))
    return s;
  if (dtype == AMP_DTYPE_I32 || dtype == AMP_DTYPE_I64 ||
      dtype == AMP_DTYPE_BOOL) {
    // Integers and flags are stored exactly: the value must be one that f32
    // holds exactly (|value| <= 2^24) and the dtype too.
    const bool exact = std::trunc(value) == value &&
                       std::fabs(value) <= 16777216.0f &&
                       (dtype != AMP_DTYPE_BOOL || value == 0 || value == 1);
    if (!exact)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "value %g is not exactly a value of the integer or "
                        "bool dtype (integers up to 2^24 in magnitude; 0 or 1)",
                        static_cast<double>(value));
  }
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkScaledGradSeed(Checker &check,
                                                        const float *scale,
                                                        const void *y,
                                                        int64_t n,
                                                        amp_dtype_t dtype) {
  if (amp_status_t s = checkFlat(check, n, dtype, {{"y", y}}))
    return s;
  return check.pointer("scale", scale, 1, AMP_DTYPE_F32);
}
