//===- KernelsSelect.cpp - where and the gradients that route dy ----------===//
//
// amp_where (a broadcasting select of any dtype), amp_where_grad and
// amp_maximum_grad / amp_minimum_grad on the reference backend: each output
// element is dy, 0 or dy / 2, chosen by comparing operands broadcast to dy's
// shape, so the results are exact.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// out = cond ? lhs : rhs over a loop nest (operands: out, cond, lhs, rhs).
template <typename T>
void runWhere(const StridedLoop<4> &loop, const void *cond, const void *lhs,
              const void *rhs, void *out) {
  const uint8_t *c = static_cast<const uint8_t *>(cond);
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  T *y = static_cast<T *>(out);
  loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    for (int64_t i = 0; i < len; ++i)
      y[off[0] + i * inner[0]] = c[off[1] + i * inner[1]]
                                     ? a[off[2] + i * inner[2]]
                                     : b[off[3] + i * inner[3]];
  });
}

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

/// dlhs and drhs of maximum (IsMax) or minimum for one element: PyTorch's
/// rule, where a NaN operand makes every comparison false and gives dy to
/// both.
template <bool IsMax>
inline void routeExtremum(float g, float a, float b, float *ga, float *gb) {
  if (a == b) {
    *ga = *gb = g * 0.5f;
    return;
  }
  const bool aLoses = IsMax ? a < b : a > b;
  const bool bLoses = IsMax ? a > b : a < b;
  *ga = aLoses ? 0.0f : g;
  *gb = bLoses ? 0.0f : g;
}

template <typename T, bool IsMax>
void runExtremumGrad(const StridedLoop<3> &loop, const void *dy,
                     const void *lhs, const void *rhs, void *dlhs, void *drhs) {
  const T *g = static_cast<const T *>(dy);
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  T *ga = static_cast<T *>(dlhs);
  T *gb = static_cast<T *>(drhs);
  loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    for (int64_t i = 0; i < len; ++i) {
      const int64_t o = off[0] + i * inner[0];
      float da, db;
      routeExtremum<IsMax>(toF32(g[o]), toF32(a[off[1] + i * inner[1]]),
                           toF32(b[off[2] + i * inner[2]]), &da, &db);
      ga[o] = fromF32<T>(da);
      gb[o] = fromF32<T>(db);
    }
  });
}

amp_status_t extremumGrad(const char *fn, bool isMax, const void *dy,
                          const void *lhs, const void *rhs, void *dlhs,
                          void *drhs, const int64_t *dyDims, int32_t dyRank,
                          const int64_t *lhsDims, int32_t lhsRank,
                          const int64_t *rhsDims, int32_t rhsRank,
                          amp_dtype_t dtype) {
  Checker check(fn);
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
  const StridedLoop<3> loop =
      broadcastLoop<3>(dyDims, dyRank, {lhsShape, rhsShape});
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    if (isMax)
      runExtremumGrad<T, true>(loop, dy, lhs, rhs, dlhs, drhs);
    else
      runExtremumGrad<T, false>(loop, dy, lhs, rhs, dlhs, drhs);
  });
  return AMP_STATUS_OK;
}

} // namespace

extern "C" {

amp_status_t amp_where(const void *cond, const void *lhs, const void *rhs,
                       void *out, const int64_t *cond_dims, int32_t cond_rank,
                       const int64_t *lhs_dims, int32_t lhs_rank,
                       const int64_t *rhs_dims, int32_t rhs_rank,
                       const int64_t *out_dims, int32_t out_rank,
                       amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_where");
  int64_t nc, nl, nr, no;
  if (amp_status_t s = check.dtype("dtype", dtype, kAnyDtype))
    return s;
  if (amp_status_t s = check.shape("cond", cond_dims, cond_rank, &nc))
    return s;
  if (amp_status_t s = check.shape("lhs", lhs_dims, lhs_rank, &nl))
    return s;
  if (amp_status_t s = check.shape("rhs", rhs_dims, rhs_rank, &nr))
    return s;
  if (amp_status_t s = check.shape("out", out_dims, out_rank, &no))
    return s;
  const ShapeRef condShape{"cond", cond_dims, cond_rank},
      lhsShape{"lhs", lhs_dims, lhs_rank}, rhsShape{"rhs", rhs_dims, rhs_rank};
  if (amp_status_t s = check.broadcastResult({condShape, lhsShape, rhsShape},
                                             {"out", out_dims, out_rank}))
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
  const StridedLoop<4> loop =
      broadcastLoop<4>(out_dims, out_rank, {condShape, lhsShape, rhsShape});
  dispatchBits(dtype, [&](auto bits) {
    runWhere<decltype(bits)>(loop, cond, lhs, rhs, out);
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_where_grad(const void *dy, const void *cond, void *dlhs,
                            void *drhs, const int64_t *dy_dims, int32_t dy_rank,
                            const int64_t *cond_dims, int32_t cond_rank,
                            amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_where_grad");
  int64_t n, nc;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.shape("dy", dy_dims, dy_rank, &n))
    return s;
  if (amp_status_t s = check.shape("cond", cond_dims, cond_rank, &nc))
    return s;
  const ShapeRef condShape{"cond", cond_dims, cond_rank};
  if (amp_status_t s = check.broadcastsTo(condShape, {"dy", dy_dims, dy_rank}))
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
  const StridedLoop<2> loop = broadcastLoop<2>(dy_dims, dy_rank, {condShape});
  // A select of bit patterns: +0 is all-zero bits in every float dtype.
  dispatchBits(dtype, [&](auto bits) {
    using U = decltype(bits);
    const U *g = static_cast<const U *>(dy);
    const uint8_t *c = static_cast<const uint8_t *>(cond);
    U *ga = static_cast<U *>(dlhs);
    U *gb = static_cast<U *>(drhs);
    loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
      for (int64_t i = 0; i < len; ++i) {
        const int64_t o = off[0] + i * inner[0];
        const U v = g[o];
        const bool take = c[off[1] + i * inner[1]] != 0;
        ga[o] = take ? v : U{0};
        gb[o] = take ? U{0} : v;
      }
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_maximum_grad(const void *dy, const void *lhs, const void *rhs,
                              void *dlhs, void *drhs, const int64_t *dy_dims,
                              int32_t dy_rank, const int64_t *lhs_dims,
                              int32_t lhs_rank, const int64_t *rhs_dims,
                              int32_t rhs_rank, amp_dtype_t dtype,
                              void * /*stream*/) {
  return extremumGrad("amp_maximum_grad", true, dy, lhs, rhs, dlhs, drhs,
                      dy_dims, dy_rank, lhs_dims, lhs_rank, rhs_dims, rhs_rank,
                      dtype);
}

amp_status_t amp_minimum_grad(const void *dy, const void *lhs, const void *rhs,
                              void *dlhs, void *drhs, const int64_t *dy_dims,
                              int32_t dy_rank, const int64_t *lhs_dims,
                              int32_t lhs_rank, const int64_t *rhs_dims,
                              int32_t rhs_rank, amp_dtype_t dtype,
                              void * /*stream*/) {
  return extremumGrad("amp_minimum_grad", false, dy, lhs, rhs, dlhs, drhs,
                      dy_dims, dy_rank, lhs_dims, lhs_rank, rhs_dims, rhs_rank,
                      dtype);
}

} // extern "C"
