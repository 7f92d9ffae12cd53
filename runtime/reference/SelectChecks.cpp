//===- SelectChecks.cpp - Argument checks of where and the routing grads --===//

#include "reference/SelectChecks.h"

using namespace amp::runtime::kernels;

namespace {

/// The checks of the two-output gradients: dlhs and drhs are distinct and
/// alias no operand that is broadcast (same-shape aliases are read first).
amp_status_t checkGradOutputs(Checker &check, const void *dlhs,
                              const void *drhs, int64_t n,
                              std::initializer_list<Operand> operands) {
  if (n == 0)
    return AMP_STATUS_OK;
  if (dlhs == drhs)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "dlhs and drhs alias");
  for (const Operand &o : operands)
    if ((o.ptr == dlhs || o.ptr == drhs) && o.numel != n)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "an output aliases the broadcast operand %s", o.name);
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkWhere(
    Checker &check, const void *cond, const void *lhs, const void *rhs,
    const void *out, const int64_t *condDims, int32_t condRank,
    const int64_t *lhsDims, int32_t lhsRank, const int64_t *rhsDims,
    int32_t rhsRank, const int64_t *outDims, int32_t outRank, amp_dtype_t dtype,
    StridedLoop<4> *loop, int64_t *numel) {
  int64_t nc, nl, nr, no;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("cond", condDims, condRank, &nc))
    return s;
  if (amp_status_t s = check.shape("lhs", lhsDims, lhsRank, &nl))
    return s;
  if (amp_status_t s = check.shape("rhs", rhsDims, rhsRank, &nr))
    return s;
  if (amp_status_t s = check.shape("out", outDims, outRank, &no))
    return s;
  const ShapeRef condShape{"cond", condDims, condRank},
      lhsShape{"lhs", lhsDims, lhsRank}, rhsShape{"rhs", rhsDims, rhsRank};
  if (amp_status_t s = check.broadcastResult({condShape, lhsShape, rhsShape},
                                             {"out", outDims, outRank}))
    return s;
  if (amp_status_t s = check.pointers({{"cond", cond, nc, AMP_DTYPE_BOOL},
                                       {"lhs", lhs, nl, dtype},
                                       {"rhs", rhs, nr, dtype},
                                       {"out", out, no, dtype}}))
    return s;
  if (no > 0 &&
      (out == cond || (out == lhs && nl != no) || (out == rhs && nr != no)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "out aliases cond or a broadcast operand");
  *loop = broadcastLoop<4>(outDims, outRank, {condShape, lhsShape, rhsShape});
  *numel = no;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkWhereGrad(
    Checker &check, const void *dy, const void *cond, const void *dlhs,
    const void *drhs, const int64_t *dyDims, int32_t dyRank,
    const int64_t *condDims, int32_t condRank, amp_dtype_t dtype,
    StridedLoop<2> *loop, int64_t *numel) {
  int64_t n, nc;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.shape("dy", dyDims, dyRank, &n))
    return s;
  if (amp_status_t s = check.shape("cond", condDims, condRank, &nc))
    return s;
  const ShapeRef condShape{"cond", condDims, condRank};
  if (amp_status_t s = check.broadcastsTo(condShape, {"dy", dyDims, dyRank}))
    return s;
  if (amp_status_t s = check.pointers({{"dy", dy, n, dtype},
                                       {"cond", cond, nc, AMP_DTYPE_BOOL},
                                       {"dlhs", dlhs, n, dtype},
                                       {"drhs", drhs, n, dtype}}))
    return s;
  if (amp_status_t s = checkGradOutputs(check, dlhs, drhs, n,
                                        {{"cond", cond, nc, AMP_DTYPE_BOOL}}))
    return s;
  if (n > 0 && (cond == dlhs || cond == drhs))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "an output aliases cond");
  *loop = broadcastLoop<2>(dyDims, dyRank, {condShape});
  *numel = n;
  return AMP_STATUS_OK;
}

amp_status_t amp::runtime::kernels::checkExtremumGrad(
    Checker &check, const void *dy, const void *lhs, const void *rhs,
    const void *dlhs, const void *drhs, const int64_t *dyDims, int32_t dyRank,
    const int64_t *lhsDims, int32_t lhsRank, const int64_t *rhsDims,
    int32_t rhsRank, amp_dtype_t dtype, StridedLoop<3> *loop, int64_t *numel) {
  int64_t n, nl, nr;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.shape("dy", dyDims, dyRank, &n))
    return s;
  if (amp_status_t s = check.shape("lhs", lhsDims, lhsRank, &nl))
    return s;
  if (amp_status_t s = check.shape("rhs", rhsDims, rhsRank, &nr))
    return s;
  const ShapeRef dyShape{"dy", dyDims, dyRank},
      lhsShape{"lhs", lhsDims, lhsRank}, rhsShape{"rhs", rhsDims, rhsRank};
  if (amp_status_t s = check.broadcastsTo(lhsShape, dyShape))
    return s;
  if (amp_status_t s = check.broadcastsTo(rhsShape, dyShape))
    return s;
  if (amp_status_t s = check.pointers({{"dy", dy, n, dtype},
                                       {"lhs", lhs, nl, dtype},
                                       {"rhs", rhs, nr, dtype},
                                       {"dlhs", dlhs, n, dtype},
                                       {"drhs", drhs, n, dtype}}))
    return s;
  if (amp_status_t s =
          checkGradOutputs(check, dlhs, drhs, n,
                           {{"lhs", lhs, nl, dtype}, {"rhs", rhs, nr, dtype}}))
    return s;
  *loop = broadcastLoop<3>(dyDims, dyRank, {lhsShape, rhsShape});
  *numel = n;
  return AMP_STATUS_OK;
}
