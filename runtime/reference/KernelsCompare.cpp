//===- KernelsCompare.cpp - amp_compare with numpy broadcasting -----------===//
//
// amp_compare on the reference backend (and, compiled with OpenMP, the cpu
// backend): the six predicates of nn.compare over lhs and rhs of any dtype,
// broadcast to the bool result through the loop nest of the argument checks
// (reference/KernelCommon.h). Each element compares the values of
// compareValue (reference/ElementwiseMath.h, shared with the CUDA kernel):
// exact f32 values, signed integers, or 0/1 flags. Exact.
//
//===----------------------------------------------------------------------===//

#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"
#include "reference/KernelCommon.h"

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// out = lhs op rhs (1 or 0) over a loop nest (operands: out, lhs, rhs),
/// out contiguous.
template <typename T, int32_t Op>
void runCompare(const StridedLoop<3> &loop, const void *lhs, const void *rhs,
                void *out) {
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  uint8_t *y = static_cast<uint8_t *>(out);
  loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    uint8_t *yr = y + off[0];
    const T *ar = a + off[1];
    const T *br = b + off[2];
    const int64_t sa = inner[1], sb = inner[2];
    for (int64_t i = 0; i < len; ++i)
      yr[i] = compareOp<Op>(compareValue(ar[i * sa]), compareValue(br[i * sb]));
  });
}

template <typename T>
void dispatchCompare(int32_t op, const StridedLoop<3> &loop, const void *lhs,
                     const void *rhs, void *out) {
  switch (op) {
  case AMP_COMPARE_EQ:
    return runCompare<T, AMP_COMPARE_EQ>(loop, lhs, rhs, out);
  case AMP_COMPARE_NE:
    return runCompare<T, AMP_COMPARE_NE>(loop, lhs, rhs, out);
  case AMP_COMPARE_LT:
    return runCompare<T, AMP_COMPARE_LT>(loop, lhs, rhs, out);
  case AMP_COMPARE_LE:
    return runCompare<T, AMP_COMPARE_LE>(loop, lhs, rhs, out);
  case AMP_COMPARE_GT:
    return runCompare<T, AMP_COMPARE_GT>(loop, lhs, rhs, out);
  case AMP_COMPARE_GE:
    return runCompare<T, AMP_COMPARE_GE>(loop, lhs, rhs, out);
  }
}

} // namespace

extern "C" {

amp_status_t amp_compare(amp_compare_op_t op, const void *lhs, const void *rhs,
                         void *out, const int64_t *lhs_dims, int32_t lhs_rank,
                         const int64_t *rhs_dims, int32_t rhs_rank,
                         const int64_t *out_dims, int32_t out_rank,
                         amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_compare");
  const int32_t rawOp = rawEnum(op);
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s = checkCompare(check, rawOp, lhs, rhs, out, lhs_dims,
                                    lhs_rank, rhs_dims, rhs_rank, out_dims,
                                    out_rank, dtype, &loop, &n))
    return s;
  dispatchAny(dtype, [&](auto t) {
    dispatchCompare<decltype(t)>(rawOp, loop, lhs, rhs, out);
  });
  return AMP_STATUS_OK;
}

} // extern "C"
