//===- ConvChecks.cpp - Argument checks of the convolution kernels --------===//

#include "reference/ConvChecks.h"

#include "amp_runtime/checked_size.h"

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

amp_status_t checkGeometry(Checker &check, const int64_t *xDims,
                           const int64_t *wDims, const int64_t *yDims,
                           amp_dtype_t inDtype, amp_dtype_t outDtype,
                           const int64_t *strides, const int64_t *padding,
                           const int64_t *dilation, int64_t groups,
                           ConvGeometry *g) {
  if (amp_status_t s = check.dtype("in_dtype", inDtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.accumulatorDtype("out_dtype", outDtype, inDtype))
    return s;
  int64_t unused;
  if (amp_status_t s = check.shape("x_dims", xDims, 4, &unused))
    return s;
  if (amp_status_t s = check.shape("w_dims", wDims, 4, &unused))
    return s;
  if (amp_status_t s = check.shape("y_dims", yDims, 4, &unused))
    return s;
  if (groups < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "groups (%lld) is < 1",
                      (long long)groups);
  *g = ConvGeometry{};
  g->n = xDims[0], g->c = xDims[1], g->h = xDims[2], g->w = xDims[3];
  g->o = wDims[0], g->cg = wDims[1], g->kh = wDims[2], g->kw = wDims[3];
  if (g->c < 1 || g->h < 1 || g->w < 1 || g->o < 1 || g->cg < 1 || g->kh < 1 ||
      g->kw < 1)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "C, H, W, O, C/groups, KH and KW must be >= 1");
  if (g->c != groups * g->cg || g->o % groups != 0)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "groups (%lld) must divide O (%lld) and C (%lld) = "
                      "groups * the filter's C/groups (%lld)",
                      (long long)groups, (long long)g->o, (long long)g->c,
                      (long long)g->cg);
  Window2d win;
  if (amp_status_t s = check.window2d(g->h, g->w, g->kh, g->kw, strides,
                                      padding, dilation, &win))
    return s;
  g->sh = win.sh, g->sw = win.sw, g->dh = win.dh, g->dw = win.dw;
  g->pt = win.pt, g->pl = win.pl, g->pb = win.pb, g->pr = win.pr;
  g->hp = g->h + win.pt + win.pb, g->wp = g->w + win.pl + win.pr;
  g->oh = win.oh, g->ow = win.ow;
  g->groups = groups, g->og = g->o / groups;
  // The f32 scratch holds one padded image.
  const int64_t paddedDims[3] = {g->c, g->hp, g->wp};
  if (!amp::checked::elementCount(paddedDims, 3, (int64_t{1} << 60) - 1))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "the padded input image is too large");
  if (yDims[0] != g->n || yDims[1] != g->o || yDims[2] != g->oh ||
      yDims[3] != g->ow)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "y_dims [%lld, %lld, %lld, %lld] do not match the "
                      "convolution's output [%lld, %lld, %lld, %lld]",
                      (long long)yDims[0], (long long)yDims[1],
                      (long long)yDims[2], (long long)yDims[3], (long long)g->n,
                      (long long)g->o, (long long)g->oh, (long long)g->ow);
  return AMP_STATUS_OK;
}

} // namespace

amp_status_t amp::runtime::kernels::checkConvCall(
    Checker &check, ConvKind kind, const void *a, const void *b,
    const void *out, const int64_t *xDims, const int64_t *wDims,
    const int64_t *yDims, amp_dtype_t inDtype, amp_dtype_t outDtype,
    const int64_t *strides, const int64_t *padding, const int64_t *dilation,
    int64_t groups, ConvGeometry *g) {
  if (amp_status_t s =
          checkGeometry(check, xDims, wDims, yDims, inDtype, outDtype, strides,
                        padding, dilation, groups, g))
    return s;
  // The operand and result roles of each kernel.
  const int64_t xSize = g->inputSize(), wSize = g->filterSize(),
                ySize = g->outputSize();
  const bool fwd = kind == ConvKind::Forward;
  const bool gradIn = kind == ConvKind::GradInput;
  const char *names[3] = {fwd ? "x" : "dy", gradIn || fwd ? "w" : "x",
                          fwd      ? "y"
                          : gradIn ? "dx"
                                   : "dw"};
  const int64_t sizes[3] = {fwd ? xSize : ySize, gradIn || fwd ? wSize : xSize,
                            convResultSize(kind, *g)};
  return check.pointers({{names[0], a, sizes[0], inDtype},
                         {names[1], b, sizes[1], inDtype},
                         {names[2], out, sizes[2], outDtype}});
}
