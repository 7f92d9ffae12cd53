//===- KernelsScan.cpp - amp_cumsum, amp_argmax, amp_topk -----------------===//
//
// The scans along one axis on the reference backend (and, compiled with
// OpenMP, the cpu backend), the lines in parallel: amp_cumsum runs scanLine
// on each line, forward or in reverse (f32 sums for the float dtypes,
// rounded once per output, and wrapping integer sums for i32 and i64),
// amp_argmax runs argmaxLine and amp_topk topkLine (all reference/ScanMath.h,
// shared with the CUDA kernels).
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/ReduceChecks.h"
#include "reference/ScanMath.h"

using namespace amp::runtime;
using namespace amp::runtime::kernels;

extern "C" {

amp_status_t amp_cumsum(const void *x, void *y, const int64_t *dims,
                        int32_t rank, int64_t axis, int32_t exclusive,
                        int32_t reverse, amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_cumsum");
  Scan scan;
  if (amp_status_t s = checkCumsum(check, x, y, dims, rank, axis, dtype, &scan))
    return s;
  if (scan.n == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    const T *in = static_cast<const T *>(x);
    T *out = static_cast<T *>(y);
    parallelRanges(scan.lines(), scan.len, [&](int64_t b, int64_t e) {
      for (int64_t line = b; line < e; ++line)
        scanLine(in, out, scan, line, exclusive != 0, reverse != 0);
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_argmax(const void *x, int64_t *y, const int64_t *dims,
                        int32_t rank, int64_t axis, int32_t select_last,
                        amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_argmax");
  Scan scan;
  if (amp_status_t s = checkArgmax(check, x, y, dims, rank, axis, dtype, &scan))
    return s;
  if (scan.n == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    const T *in = static_cast<const T *>(x);
    parallelRanges(scan.lines(), scan.len, [&](int64_t b, int64_t e) {
      for (int64_t line = b; line < e; ++line)
        y[line] = argmaxLine(in, scan, line, select_last != 0);
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_topk(const void *x, int64_t *y, const int64_t *dims,
                      int32_t rank, int64_t axis, int64_t k, int32_t smallest,
                      amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_topk");
  Scan scan;
  if (amp_status_t s =
          checkTopk(check, x, y, dims, rank, axis, k, dtype, &scan))
    return s;
  if (scan.n == 0 || k == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    const T *in = static_cast<const T *>(x);
    parallelRanges(scan.lines(), scan.len * k, [&](int64_t b, int64_t e) {
      for (int64_t line = b; line < e; ++line)
        topkLine(in, y, scan, line, k, smallest != 0);
    });
  });
  return AMP_STATUS_OK;
}

} // extern "C"
