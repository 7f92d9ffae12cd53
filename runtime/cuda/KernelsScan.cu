//===- KernelsScan.cu - amp_cumsum, amp_argmax, amp_topk ------------------===//
//
// The scans along one axis on the CUDA backend: one thread per line runs
// the reference's scanLine, argmaxLine or topkLine (reference/ScanMath.h),
// compiled with --fmad=false, so each output is bitwise the reference's. A
// line is sequential: the scans amp compiles (position ids from a mask, the
// last token of each row, a router's top experts) are short along the axis
// and many across it.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "reference/ReduceChecks.h"
#include "reference/ScanMath.h"

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

template <typename T>
__global__ void __launch_bounds__(kThreads)
    cumsumKernel(const T *x, T *y, Scan scan, bool exclusive, bool reverse) {
  AMP_GRID_STRIDE(line, scan.lines())
  scanLine(x, y, scan, line, exclusive, reverse);
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    argmaxKernel(const T *x, int64_t *y, Scan scan, bool selectLast) {
  AMP_GRID_STRIDE(line, scan.lines())
  y[line] = argmaxLine(x, scan, line, selectLast);
}

template <typename T>
__global__ void __launch_bounds__(kThreads)
    topkKernel(const T *x, int64_t *y, Scan scan, int64_t k, bool smallest) {
  AMP_GRID_STRIDE(line, scan.lines())
  topkLine(x, y, scan, line, k, smallest);
}

} // namespace

extern "C" {

amp_status_t amp_cumsum(const void *x, void *y, const int64_t *dims,
                        int32_t rank, int64_t axis, int32_t exclusive,
                        int32_t reverse, amp_dtype_t dtype, void *stream) {
  Checker check("amp_cumsum");
  Scan scan;
  if (amp_status_t s = checkCumsum(check, x, y, dims, rank, axis, dtype, &scan))
    return s;
  if (scan.n == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    cumsumKernel<T><<<gridFor(scan.lines()), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(x), static_cast<T *>(y), scan, exclusive != 0,
        reverse != 0);
  });
  return launched(check, "amp_cumsum");
}

amp_status_t amp_argmax(const void *x, int64_t *y, const int64_t *dims,
                        int32_t rank, int64_t axis, int32_t select_last,
                        amp_dtype_t dtype, void *stream) {
  Checker check("amp_argmax");
  Scan scan;
  if (amp_status_t s = checkArgmax(check, x, y, dims, rank, axis, dtype, &scan))
    return s;
  if (scan.n == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    argmaxKernel<T><<<gridFor(scan.lines()), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(x), y, scan, select_last != 0);
  });
  return launched(check, "amp_argmax");
}

amp_status_t amp_topk(const void *x, int64_t *y, const int64_t *dims,
                      int32_t rank, int64_t axis, int64_t k, int32_t smallest,
                      amp_dtype_t dtype, void *stream) {
  Checker check("amp_topk");
  Scan scan;
  if (amp_status_t s =
          checkTopk(check, x, y, dims, rank, axis, k, dtype, &scan))
    return s;
  if (scan.n == 0 || k == 0)
    return AMP_STATUS_OK;
  dispatchNumeric(dtype, [&](auto t) {
    using T = decltype(t);
    topkKernel<T><<<gridFor(scan.lines()), kThreads, 0, toStream(stream)>>>(
        static_cast<const T *>(x), y, scan, k, smallest != 0);
  });
  return launched(check, "amp_topk");
}

} // extern "C"
