//===- KernelsSelect.cpp - where and the gradients that route dy ----------===//
//
// amp_where (a broadcasting select of any dtype), amp_where_grad and
// amp_maximum_grad / amp_minimum_grad on the reference backend: each output
// element is dy, 0 or dy / 2, chosen by comparing operands broadcast to dy's
// shape, so the results are exact.
//
//===----------------------------------------------------------------------===//

#include "reference/ElementwiseMath.h"
#include "reference/KernelCommon.h"
#include "reference/SelectChecks.h"

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
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s = checkExtremumGrad(check, dy, lhs, rhs, dlhs, drhs,
                                         dyDims, dyRank, lhsDims, lhsRank,
                                         rhsDims, rhsRank, dtype, &loop, &n))
    return s;
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
  StridedLoop<4> loop;
  int64_t n;
  if (amp_status_t s = checkWhere(
          check, cond, lhs, rhs, out, cond_dims, cond_rank, lhs_dims, lhs_rank,
          rhs_dims, rhs_rank, out_dims, out_rank, dtype, &loop, &n))
    return s;
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
  StridedLoop<2> loop;
  int64_t n;
  if (amp_status_t s =
          checkWhereGrad(check, dy, cond, dlhs, drhs, dy_dims, dy_rank,
                         cond_dims, cond_rank, dtype, &loop, &n))
    return s;
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
