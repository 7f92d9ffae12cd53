//===- KernelsConv.cpp - 2-D convolution and its gradients ----------------===//
//
// amp_conv2d, amp_conv2d_grad_input and amp_conv2d_grad_filter on the
// reference backend: direct convolution over an f32, zero-padded copy of
// each image, with f32 products and sums and one rounding per output. The
// loops keep the output column (or, for the filter gradient, four
// independent partial sums) innermost so that they run at a useful speed
// for the small CNNs trained on the CPU in CI.
//
//===----------------------------------------------------------------------===//

#include "reference/ConvChecks.h"
#include "reference/KernelCommon.h"

#include <algorithm>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

/// Image `img` of x widened into a zero-padded [C, HP, WP] f32 buffer.
template <typename T>
void padImage(const ConvGeometry &g, const T *x, int64_t img, float *xp) {
  std::fill(xp, xp + g.c * g.hp * g.wp, 0.0f);
  const T *src = x + img * g.c * g.h * g.w;
  for (int64_t ch = 0; ch < g.c; ++ch)
    for (int64_t r = 0; r < g.h; ++r) {
      float *dst = xp + (ch * g.hp + r + g.pt) * g.wp + g.pl;
      const T *row = src + (ch * g.h + r) * g.w;
      for (int64_t q = 0; q < g.w; ++q)
        dst[q] = toF32(row[q]);
    }
}

template <typename T> void widen(const T *src, int64_t count, float *dst) {
  for (int64_t i = 0; i < count; ++i)
    dst[i] = toF32(src[i]);
}

template <typename T> void narrow(const float *src, int64_t count, T *dst) {
  for (int64_t i = 0; i < count; ++i)
    dst[i] = fromF32<T>(src[i]);
}

/// y[n, oc] = sum over (ic, i, j) of w[oc, ic, i, j] * xpad[...], in that
/// order, for every output pixel at once.
template <typename TI, typename TO>
void convForward(const ConvGeometry &g, const TI *x, const TI *w, TO *y) {
  std::vector<float> xp(static_cast<size_t>(g.c * g.hp * g.wp));
  std::vector<float> wf(static_cast<size_t>(g.filterSize()));
  std::vector<float> acc(static_cast<size_t>(g.oh * g.ow));
  widen(w, g.filterSize(), wf.data());
  for (int64_t img = 0; img < g.n; ++img) {
    padImage(g, x, img, xp.data());
    for (int64_t oc = 0; oc < g.o; ++oc) {
      const int64_t grp = oc / g.og;
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int64_t ic = 0; ic < g.cg; ++ic) {
        const float *plane = xp.data() + (grp * g.cg + ic) * g.hp * g.wp;
        const float *wk = wf.data() + (oc * g.cg + ic) * g.kh * g.kw;
        for (int64_t i = 0; i < g.kh; ++i)
          for (int64_t j = 0; j < g.kw; ++j) {
            const float wv = wk[i * g.kw + j];
            for (int64_t r = 0; r < g.oh; ++r) {
              const float *row =
                  plane + (r * g.sh + i * g.dh) * g.wp + j * g.dw;
              float *a = acc.data() + r * g.ow;
              if (g.sw == 1)
                for (int64_t q = 0; q < g.ow; ++q)
                  a[q] += wv * row[q];
              else
                for (int64_t q = 0; q < g.ow; ++q)
                  a[q] += wv * row[q * g.sw];
            }
          }
      }
      narrow(acc.data(), g.oh * g.ow, y + (img * g.o + oc) * g.oh * g.ow);
    }
  }
}

/// dx = the transposed convolution of dy with w: every dy pixel scatters
/// w * dy into a padded f32 image, which is then cropped and rounded.
template <typename TI, typename TO>
void convGradInput(const ConvGeometry &g, const TI *dy, const TI *w, TO *dx) {
  std::vector<float> dxp(static_cast<size_t>(g.c * g.hp * g.wp));
  std::vector<float> wf(static_cast<size_t>(g.filterSize()));
  std::vector<float> dyf(static_cast<size_t>(g.o * g.oh * g.ow));
  widen(w, g.filterSize(), wf.data());
  for (int64_t img = 0; img < g.n; ++img) {
    std::fill(dxp.begin(), dxp.end(), 0.0f);
    widen(dy + img * g.o * g.oh * g.ow, g.o * g.oh * g.ow, dyf.data());
    for (int64_t oc = 0; oc < g.o; ++oc) {
      const int64_t grp = oc / g.og;
      const float *d = dyf.data() + oc * g.oh * g.ow;
      for (int64_t ic = 0; ic < g.cg; ++ic) {
        float *plane = dxp.data() + (grp * g.cg + ic) * g.hp * g.wp;
        const float *wk = wf.data() + (oc * g.cg + ic) * g.kh * g.kw;
        for (int64_t i = 0; i < g.kh; ++i)
          for (int64_t j = 0; j < g.kw; ++j) {
            const float wv = wk[i * g.kw + j];
            for (int64_t r = 0; r < g.oh; ++r) {
              float *row = plane + (r * g.sh + i * g.dh) * g.wp + j * g.dw;
              const float *dr = d + r * g.ow;
              if (g.sw == 1)
                for (int64_t q = 0; q < g.ow; ++q)
                  row[q] += wv * dr[q];
              else
                for (int64_t q = 0; q < g.ow; ++q)
                  row[q * g.sw] += wv * dr[q];
            }
          }
      }
    }
    TO *out = dx + img * g.c * g.h * g.w;
    for (int64_t ch = 0; ch < g.c; ++ch)
      for (int64_t r = 0; r < g.h; ++r)
        narrow(dxp.data() + (ch * g.hp + r + g.pt) * g.wp + g.pl, g.w,
               out + (ch * g.h + r) * g.w);
  }
}

/// dw[oc, ic, i, j] = sum over images and output pixels of dy * xpad, in f32
/// with four partial sums per (row, weight) that are added in a fixed order.
template <typename TI, typename TO>
void convGradFilter(const ConvGeometry &g, const TI *dy, const TI *x, TO *dw) {
  std::vector<float> xp(static_cast<size_t>(g.c * g.hp * g.wp));
  std::vector<float> dyf(static_cast<size_t>(g.o * g.oh * g.ow));
  std::vector<float> acc(static_cast<size_t>(g.filterSize()), 0.0f);
  for (int64_t img = 0; img < g.n; ++img) {
    padImage(g, x, img, xp.data());
    widen(dy + img * g.o * g.oh * g.ow, g.o * g.oh * g.ow, dyf.data());
    for (int64_t oc = 0; oc < g.o; ++oc) {
      const int64_t grp = oc / g.og;
      const float *d = dyf.data() + oc * g.oh * g.ow;
      for (int64_t ic = 0; ic < g.cg; ++ic) {
        const float *plane = xp.data() + (grp * g.cg + ic) * g.hp * g.wp;
        float *ak = acc.data() + (oc * g.cg + ic) * g.kh * g.kw;
        for (int64_t i = 0; i < g.kh; ++i)
          for (int64_t j = 0; j < g.kw; ++j) {
            float sum = ak[i * g.kw + j];
            for (int64_t r = 0; r < g.oh; ++r) {
              const float *row =
                  plane + (r * g.sh + i * g.dh) * g.wp + j * g.dw;
              const float *dr = d + r * g.ow;
              float p[4] = {0.0f, 0.0f, 0.0f, 0.0f};
              int64_t q = 0;
              for (; q + 4 <= g.ow; q += 4)
                for (int l = 0; l < 4; ++l)
                  p[l] += dr[q + l] * row[(q + l) * g.sw];
              for (; q < g.ow; ++q)
                p[0] += dr[q] * row[q * g.sw];
              sum += (p[0] + p[1]) + (p[2] + p[3]);
            }
            ak[i * g.kw + j] = sum;
          }
      }
    }
  }
  narrow(acc.data(), g.filterSize(), dw);
}

} // namespace

amp_status_t amp::runtime::kernels::convolve(Checker &check, ConvKind kind,
                                             const ConvGeometry &g,
                                             const void *a, const void *b,
                                             void *out, amp_dtype_t inDtype,
                                             amp_dtype_t outDtype,
                                             void * /*stream*/) {
  return guarded(check, [&] {
    dispatchFloat(inDtype, [&](auto ti) {
      using TI = decltype(ti);
      const TI *pa = static_cast<const TI *>(a);
      const TI *pb = static_cast<const TI *>(b);
      dispatchFloat(outDtype, [&](auto to) {
        using TO = decltype(to);
        TO *po = static_cast<TO *>(out);
        switch (kind) {
        case ConvKind::Forward:
          return convForward(g, pa, pb, po);
        case ConvKind::GradInput:
          return convGradInput(g, pa, pb, po);
        case ConvKind::GradFilter:
          return convGradFilter(g, pa, pb, po);
        }
      });
    });
  });
}
