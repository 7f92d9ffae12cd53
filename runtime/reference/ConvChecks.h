//===- ConvChecks.h - Argument checks of the convolution kernels ----------===//
//
// The checks of amp_conv2d, amp_conv2d_grad_input and amp_conv2d_grad_filter
// and the geometry they derive, shared by every backend through the entry
// points of ConvEntryPoints.cpp, so that a malformed call fails with the
// same status and message on each; a backend supplies convolve().
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_REFERENCE_CONVCHECKS_H
#define AMP_RUNTIME_REFERENCE_CONVCHECKS_H

#include "reference/KernelCommon.h"

#include <cstdint>

namespace amp {
namespace runtime {
namespace kernels {

/// Which of the three kernels a call is.
enum class ConvKind { Forward, GradInput, GradFilter };

/// Everything a convolution kernel needs, derived from the checked
/// arguments.
struct ConvGeometry {
  int64_t n, c, h, w;     // input  [N, C, H, W]
  int64_t o, cg, kh, kw;  // filter [O, C / groups, KH, KW]
  int64_t oh, ow;         // output [N, O, OH, OW]
  int64_t sh, sw, dh, dw; // strides and dilation
  int64_t pt, pl, pb, pr; // padding: top, left, bottom, right
  int64_t hp, wp;         // padded input extent
  int64_t groups, og;     // groups, O / groups

  int64_t inputSize() const { return n * c * h * w; }
  int64_t filterSize() const { return o * cg * kh * kw; }
  int64_t outputSize() const { return n * o * oh * ow; }
};

/// Every check of one call: dtypes (in_dtype a float dtype, out_dtype
/// in_dtype or f32), the three shapes against each other, groups, the
/// window, and the pointers in the roles of `kind` (a, b -> out: x, w -> y;
/// dy, w -> dx; dy, x -> dw). Fills *g on success.
amp_status_t checkConvCall(Checker &check, ConvKind kind, const void *a,
                           const void *b, const void *out, const int64_t *xDims,
                           const int64_t *wDims, const int64_t *yDims,
                           amp_dtype_t inDtype, amp_dtype_t outDtype,
                           const int64_t *strides, const int64_t *padding,
                           const int64_t *dilation, int64_t groups,
                           ConvGeometry *g);

/// One backend's convolution (each backend library defines it once; the
/// C entry points of ConvEntryPoints.cpp call it): `g` passed
/// checkConvCall, the result has at least one element, and the operands
/// a, b and the result out are in the roles of `kind`. Failures go to
/// `check`, whose name is the entry point's.
amp_status_t convolve(Checker &check, ConvKind kind, const ConvGeometry &g,
                      const void *a, const void *b, void *out,
                      amp_dtype_t inDtype, amp_dtype_t outDtype, void *stream);

/// The element count of the result of `kind`.
inline int64_t convResultSize(ConvKind kind, const ConvGeometry &g) {
  return kind == ConvKind::Forward     ? g.outputSize()
         : kind == ConvKind::GradInput ? g.inputSize()
                                       : g.filterSize();
}

} // namespace kernels
} // namespace runtime
} // namespace amp

#endif // AMP_RUNTIME_REFERENCE_CONVCHECKS_H
