//===- ShapeChecks.cpp - Argument checks of the data-movement kernels -----===//

#include "reference/ShapeChecks.h"

#include <cstdio>

namespace amp {
namespace runtime {
namespace kernels {

amp_status_t checkReshape(Checker &check, const void *x, const void *y,
                          int64_t n, amp_dtype_t dtype) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  return check.pointers({{"x", x, n, dtype}, {"y", y, n, dtype}});
}

amp_status_t checkTranspose(Checker &check, const void *x, const void *y,
                            const int64_t *xDims, int32_t rank,
                            const int64_t *perm, amp_dtype_t dtype,
                            CopyPlan *plan) {
  int64_t n;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("x", xDims, rank, &n))
    return s;
  if (rank > 0 && !perm)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "perm is NULL");
  bool seen[kMaxRank] = {};
  for (int32_t i = 0; i < rank; ++i) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "perm is not a permutation of 0..%d", (int)rank - 1);
    seen[perm[i]] = true;
  }
  if (amp_status_t s = check.pointers({{"x", x, n, dtype}, {"y", y, n, dtype}}))
    return s;
  if (n > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");

  *plan = CopyPlan{};
  StridedLoop<2> &loop = plan->loop;
  loop.rank = rank;
  int64_t xStrides[kMaxRank];
  contiguousStrides(xDims, rank, xStrides);
  for (int32_t i = 0; i < rank; ++i) {
    loop.dims[i] = xDims[perm[i]];
    loop.strides[1][i] = xStrides[perm[i]];
  }
  contiguousStrides(loop.dims, rank, loop.strides[0]);
  loop.simplify();
  plan->count = n;
  return AMP_STATUS_OK;
}

amp_status_t checkBroadcastTo(Checker &check, const void *x, const void *y,
                              const int64_t *xDims, int32_t xRank,
                              const int64_t *yDims, int32_t yRank,
                              amp_dtype_t dtype, CopyPlan *plan) {
  int64_t nx, ny;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("x", xDims, xRank, &nx))
    return s;
  if (amp_status_t s = check.shape("y", yDims, yRank, &ny))
    return s;
  if (amp_status_t s =
          check.broadcastsTo({"x", xDims, xRank}, {"y", yDims, yRank}))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, nx, dtype}, {"y", y, ny, dtype}}))
    return s;
  if (ny > 0 && x == y && nx != ny)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");
  *plan = CopyPlan{};
  if (ny == 0 || x == y)
    return AMP_STATUS_OK;
  plan->loop = broadcastLoop<2>(yDims, yRank, {{"x", xDims, xRank}});
  plan->count = ny;
  return AMP_STATUS_OK;
}

amp_status_t checkConcat(Checker &check, int32_t nInputs,
                         const void *const *inputs, const void *out,
                         const int64_t *outDims, int32_t rank,
                         const int64_t *axisSizes, amp_dtype_t dtype,
                         int64_t axis, ConcatGeometry *geometry) {
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  int64_t no;
  if (amp_status_t s = check.shape("out", outDims, rank, &no))
    return s;
  int32_t ax;
  if (amp_status_t s = check.axis("axis", axis, rank, &ax))
    return s;
  if (nInputs < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "n_inputs (%d) is < 1",
                      (int)nInputs);
  if (!inputs || !axisSizes)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the inputs and axis_sizes arrays must not be NULL");
  if (amp_status_t s = check.pointer("out", out, no, dtype))
    return s;
  int64_t dims[kMaxRank], total = 0;
  for (int32_t d = 0; d < rank; ++d)
    dims[d] = outDims[d];
  for (int32_t i = 0; i < nInputs; ++i) {
    char name[32];
    std::snprintf(name, sizeof(name), "input %d", (int)i);
    dims[ax] = axisSizes[i];
    int64_t ni;
    if (amp_status_t s = check.shape(name, dims, rank, &ni))
      return s;
    if (amp_status_t s = check.pointer(name, inputs[i], ni, dtype))
      return s;
    if (ni > 0 && inputs[i] == out)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT, "out aliases %s", name);
    if (__builtin_add_overflow(total, axisSizes[i], &total))
      total = -1; // fails the check below
  }
  if (total != outDims[ax])
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the axis sizes sum to %lld, not out's dimension %d "
                      "(%lld)",
                      (long long)total, (int)ax, (long long)outDims[ax]);
  geometry->outer = product(outDims, 0, ax);
  geometry->inner = product(outDims, ax + 1, rank);
  geometry->numel = no;
  geometry->axis = ax;
  return AMP_STATUS_OK;
}

amp_status_t checkSlice(Checker &check, bool grad, const void *x, const void *y,
                        const int64_t *xDims, const int64_t *yDims,
                        int32_t rank, const int64_t *offsets,
                        const int64_t *strides, amp_dtype_t dtype,
                        CopyPlan *plan, int64_t *nx) {
  // Operand yOperand is y (contiguous), the other x (strided).
  const char *xName = grad ? "dx" : "x", *yName = grad ? "dy" : "y";
  const int yOperand = grad ? 1 : 0;
  int64_t ny;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape(xName, xDims, rank, nx))
    return s;
  if (amp_status_t s = check.shape(yName, yDims, rank, &ny))
    return s;
  if (rank > 0 && !offsets)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "offsets is NULL");
  int64_t xStrides[kMaxRank];
  contiguousStrides(xDims, rank, xStrides);
  *plan = CopyPlan{};
  StridedLoop<2> &loop = plan->loop;
  loop.rank = rank;
  contiguousStrides(yDims, rank, loop.strides[yOperand]);
  int64_t xBase = 0;
  for (int32_t d = 0; d < rank; ++d) {
    const int64_t stride = strides ? strides[d] : 1;
    if (stride == 0)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT, "stride %d is 0", (int)d);
    loop.dims[d] = yDims[d];
    loop.strides[1 - yOperand][d] = xStrides[d];
    if (yDims[d] == 0)
      continue;
    // The first and the last index read along d must lie in x.
    int64_t last;
    if (__builtin_mul_overflow(yDims[d] - 1, stride, &last) ||
        __builtin_add_overflow(last, offsets[d], &last) || offsets[d] < 0 ||
        offsets[d] >= xDims[d] || last < 0 || last >= xDims[d])
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "dimension %d: offset %lld with stride %lld reads "
                        "%lld elements outside [0, %lld)",
                        (int)d, (long long)offsets[d], (long long)stride,
                        (long long)yDims[d], (long long)xDims[d]);
    // In bounds, |stride| * (yDims[d] - 1) < xDims[d], so the element stride
    // fits (computing it before the check overflowed for a huge stride:
    // amp-kernel-args-fuzzer).
    if (yDims[d] > 1)
      loop.strides[1 - yOperand][d] = xStrides[d] * stride;
    xBase += offsets[d] * xStrides[d];
  }
  loop.simplify();
  if (amp_status_t s =
          check.pointers({{xName, x, *nx, dtype}, {yName, y, ny, dtype}}))
    return s;
  if (ny > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "%s aliases %s", yName,
                      xName);
  (grad ? plan->dstBase : plan->srcBase) = xBase;
  plan->count = ny;
  return AMP_STATUS_OK;
}

amp_status_t checkPad(Checker &check, const void *x, const void *y,
                      const int64_t *xDims, int32_t rank, const int64_t *low,
                      const int64_t *high, amp_dtype_t dtype,
                      PadGeometry *geometry) {
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  PadGeometry &g = *geometry;
  g = PadGeometry{};
  if (amp_status_t s = check.shape("x", xDims, rank, &g.nx))
    return s;
  if (rank > 0 && (!low || !high))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "low or high is NULL");
  for (int32_t d = 0; d < rank; ++d) {
    if (amp_status_t s = check.count("a low padding", low[d]))
      return s;
    if (amp_status_t s = check.count("a high padding", high[d]))
      return s;
    g.yDims[d] = low[d] + xDims[d] + high[d]; // < 3 * 2^60
  }
  if (amp_status_t s = check.shape("y", g.yDims, rank, &g.ny))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, g.nx, dtype}, {"y", y, g.ny, dtype}}))
    return s;
  if (g.ny > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "y aliases x");
  if (g.nx == 0)
    return AMP_STATUS_OK;
  // Operand 0: y's interior, starting at `low`; operand 1: x.
  CopyPlan &p = g.interior;
  p.loop.rank = rank;
  contiguousStrides(g.yDims, rank, p.loop.strides[0]);
  contiguousStrides(xDims, rank, p.loop.strides[1]);
  for (int32_t d = 0; d < rank; ++d) {
    p.loop.dims[d] = xDims[d];
    p.dstBase += low[d] * p.loop.strides[0][d];
  }
  p.loop.simplify();
  p.count = g.nx;
  return AMP_STATUS_OK;
}

} // namespace kernels
} // namespace runtime
} // namespace amp
