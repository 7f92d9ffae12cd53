//===- CompareConv.cpp - amp_conv2d and its gradients ---------------------===//
//
// cuDNN sums in another order than the reference (and its tensor cores add
// with truncation), so the outputs are compared with a bound per output
// element computed here in f64 from the same inputs: S = the sum of |p| over
// the element's n products p (those not in the padding). The reference's
// f32 sum has an error of at most n u S (u = 2^-24: one rounding per
// product and per addition); cuDNN's allowed algorithms (plain sums of
// products, KernelsConv.cpp) at most 2 n u S (exact products, one ulp per
// truncating addition). So |ref - cuda| <= (3 n + 4) u S, the 4 covering
// the second-order terms; for f16/bf16 results add one ulp of the result,
// half an ulp for each side's final rounding. Inputs are uniform in
// [-1, 1), so a wrong tap, offset or crop changes an output by about
// S / sqrt(n), far above the bound. Outputs are pre-filled with NaN, so an
// element cuDNN does not write fails too.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "CompareBuffers.h"

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace amp::compare;

namespace {

enum class Kind { Forward, GradInput, GradFilter };

const char *kindName(Kind k) {
  return k == Kind::Forward     ? "conv2d"
         : k == Kind::GradInput ? "grad_input"
                                : "grad_filter";
}

struct Shape {
  const char *name;
  int64_t n, c, h, w, o, kh, kw, groups;
  int64_t stride[2], pad[4], dil[2]; // pad: top, left, bottom, right

  int64_t oh() const {
    return (h + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) / stride[0] + 1;
  }
  int64_t ow() const {
    return (w + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) / stride[1] + 1;
  }
  int64_t cg() const { return c / groups; }
  int64_t xSize() const { return n * c * h * w; }
  int64_t wSize() const { return o * cg() * kh * kw; }
  int64_t ySize() const { return n * o * oh() * ow(); }
};

// 1x1; 3x3 stride 1 and 2; dilation 2; asymmetric padding (also wider than
// the kernel, which leaves outputs entirely in the padding); groups and
// depthwise; a rectangular kernel with every attribute uneven; odd channel
// counts; batch 1 and > 1; one size large enough for the tensor-core paths;
// one element.
const Shape kShapes[] = {
    {"1x1", 2, 5, 7, 9, 3, 1, 1, 1, {1, 1}, {0, 0, 0, 0}, {1, 1}},
    {"3x3_s1", 2, 3, 11, 13, 7, 3, 3, 1, {1, 1}, {1, 1, 1, 1}, {1, 1}},
    {"3x3_s2", 3, 6, 15, 16, 5, 3, 3, 1, {2, 2}, {1, 1, 1, 1}, {1, 1}},
    {"3x3_dil2_batch1", 1, 4, 12, 10, 6, 3, 3, 1, {1, 1}, {2, 2, 2, 2}, {2, 2}},
    {"3x3_s2_asym_pad", 2, 3, 10, 9, 4, 3, 3, 1, {2, 2}, {0, 1, 1, 2}, {1, 1}},
    {"asym_pad_wider_than_kernel",
     1,
     2,
     5,
     6,
     3,
     2,
     4,
     1,
     {1, 2},
     {3, 0, 1, 4},
     {1, 1}},
    {"grouped", 2, 6, 8, 8, 9, 3, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}},
    {"depthwise", 2, 8, 9, 9, 8, 3, 3, 8, {2, 2}, {1, 1, 1, 1}, {1, 1}},
    {"5x3_uneven", 2, 3, 13, 11, 5, 5, 3, 1, {2, 1}, {2, 1, 1, 3}, {1, 2}},
    {"odd_channels", 3, 19, 17, 23, 13, 3, 3, 1, {1, 1}, {1, 1, 1, 1}, {1, 1}},
    {"large", 4, 32, 28, 28, 48, 3, 3, 1, {1, 1}, {1, 1, 1, 1}, {1, 1}},
    {"single_element", 1, 1, 1, 1, 1, 1, 1, 1, {1, 1}, {0, 0, 0, 0}, {1, 1}},
};

struct DtypePair {
  amp_dtype_t in, out;
};
const DtypePair kDtypes[] = {{AMP_DTYPE_F32, AMP_DTYPE_F32},
                             {AMP_DTYPE_F16, AMP_DTYPE_F16},
                             {AMP_DTYPE_BF16, AMP_DTYPE_BF16},
                             {AMP_DTYPE_F16, AMP_DTYPE_F32},
                             {AMP_DTYPE_BF16, AMP_DTYPE_F32}};

std::vector<double> values(const Host &h) {
  std::vector<double> v(static_cast<size_t>(h.numel()));
  for (int64_t i = 0; i < h.numel(); ++i)
    v[i] = h.get(i);
  return v;
}

/// The bound of every output element of `kind` with operands a, b (x, w;
/// dy, w; dy, x), in the header's terms.
std::vector<double> bounds(const Shape &s, Kind kind, const Host &a,
                           const Host &b) {
  const std::vector<double> av = values(a), bv = values(b);
  const int64_t oh = s.oh(), ow = s.ow(), cg = s.cg(), og = s.o / s.groups;
  const int64_t outSize = kind == Kind::Forward     ? s.ySize()
                          : kind == Kind::GradInput ? s.xSize()
                                                    : s.wSize();
  std::vector<double> sum(static_cast<size_t>(outSize), 0.0);
  std::vector<int64_t> count(static_cast<size_t>(outSize), 0);
  for (int64_t img = 0; img < s.n; ++img)
    for (int64_t oc = 0; oc < s.o; ++oc)
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t q = 0; q < ow; ++q) {
          const int64_t yi = ((img * s.o + oc) * oh + r) * ow + q;
          for (int64_t ic = 0; ic < cg; ++ic) {
            const int64_t ch = oc / og * cg + ic;
            for (int64_t i = 0; i < s.kh; ++i) {
              const int64_t row = r * s.stride[0] - s.pad[0] + i * s.dil[0];
              if (row < 0 || row >= s.h)
                continue;
              for (int64_t j = 0; j < s.kw; ++j) {
                const int64_t col = q * s.stride[1] - s.pad[1] + j * s.dil[1];
                if (col < 0 || col >= s.w)
                  continue;
                const int64_t xi = ((img * s.c + ch) * s.h + row) * s.w + col;
                const int64_t wi = ((oc * cg + ic) * s.kh + i) * s.kw + j;
                const int64_t at = kind == Kind::Forward     ? yi
                                   : kind == Kind::GradInput ? xi
                                                             : wi;
                const double p = kind == Kind::Forward     ? av[xi] * bv[wi]
                                 : kind == Kind::GradInput ? av[yi] * bv[wi]
                                                           : av[yi] * bv[xi];
                sum[at] += std::fabs(p);
                ++count[at];
              }
            }
          }
        }
  std::vector<double> bound(sum.size());
  const double u = std::ldexp(1.0, -24);
  for (size_t k = 0; k < sum.size(); ++k)
    bound[k] = (3.0 * double(count[k]) + 4.0) * u * sum[k];
  return bound;
}

/// The spacing of `dtype` at |v| (its subnormal spacing near 0).
double ulpOf(amp_dtype_t dtype, double v) {
  const int mantissa = dtype == AMP_DTYPE_F16 ? 10 : 7;
  const int minExp = dtype == AMP_DTYPE_F16 ? -14 : -126;
  const int e = v == 0 ? minExp : std::max(std::ilogb(v), minExp);
  return std::ldexp(1.0, e - mantissa);
}

void expectWithin(Context &c, const std::string &what, const Host &ref,
                  const Host &dev, const std::vector<double> &bound) {
  ++c.checks;
  if (ref.dtype != dev.dtype || ref.numel() != dev.numel() ||
      ref.numel() != int64_t(bound.size())) {
    c.fail(what + ": the outputs differ in dtype or size");
    return;
  }
  const bool narrow = ref.dtype != AMP_DTYPE_F32;
  for (int64_t i = 0; i < ref.numel(); ++i) {
    const double r = ref.get(i), d = dev.get(i);
    double limit = bound[i];
    if (narrow)
      limit += ulpOf(ref.dtype, std::max(std::fabs(r), std::fabs(d)));
    if (std::fabs(r - d) <= limit) // false for a NaN
      continue;
    std::ostringstream os;
    os.precision(9);
    os << what << ": element " << i << " of " << ref.numel() << ": reference "
       << r << ", cuda " << d << ", bound " << limit << " ("
       << amp_dtype_name(ref.dtype) << ")";
    c.fail(os.str());
    return;
  }
}

amp_status_t call(Backend &b, Kind kind, const void *a, const void *w_or_x,
                  void *out, const Shape &s, amp_dtype_t in,
                  amp_dtype_t outDt) {
  const int64_t xd[4] = {s.n, s.c, s.h, s.w};
  const int64_t wd[4] = {s.o, s.cg(), s.kh, s.kw};
  const int64_t yd[4] = {s.n, s.o, s.oh(), s.ow()};
  switch (kind) {
  case Kind::Forward:
    return AMP_CALL(b, amp_conv2d, a, w_or_x, out, xd, wd, yd, in, outDt,
                    s.stride, s.pad, s.dil, s.groups, nullptr);
  case Kind::GradInput:
    return AMP_CALL(b, amp_conv2d_grad_input, a, w_or_x, out, xd, wd, yd, in,
                    outDt, s.stride, s.pad, s.dil, s.groups, nullptr);
  case Kind::GradFilter:
    return AMP_CALL(b, amp_conv2d_grad_filter, a, w_or_x, out, xd, wd, yd, in,
                    outDt, s.stride, s.pad, s.dil, s.groups, nullptr);
  }
  return AMP_STATUS_INVALID_ARGUMENT;
}

/// Element counts of the two operands and the result of `kind`.
void sizesOf(const Shape &s, Kind kind, int64_t &a, int64_t &b, int64_t &out) {
  a = kind == Kind::Forward ? s.xSize() : s.ySize();
  b = kind == Kind::GradFilter ? s.xSize() : s.wSize();
  out = kind == Kind::Forward     ? s.ySize()
        : kind == Kind::GradInput ? s.xSize()
                                  : s.wSize();
}

/// Runs `kind` on backend `b` with operands a and b, every buffer starting
/// `shift` elements into its allocation, the result pre-filled with NaN.
Host run(Backend &b, Kind kind, const Shape &s, const Host &a, const Host &w,
         amp_dtype_t outDt, int64_t shift = 0) {
  int64_t na, nb, nout;
  sizesOf(s, kind, na, nb, nout);
  const int64_t in = amp_dtype_size(a.dtype), os = amp_dtype_size(outDt);
  Buf da = b.alloc(a.dtype, na + shift), dw = b.alloc(a.dtype, nb + shift);
  Buf dout = b.alloc(outDt, nout + shift);
  char *pa = static_cast<char *>(da.get()) + shift * in;
  char *pb = static_cast<char *>(dw.get()) + shift * in;
  char *po = static_cast<char *>(dout.get()) + shift * os;
  b.ok(AMP_CALL(b, amp_memcpy, pa, a.bytes.data(), na * in, nullptr));
  b.ok(AMP_CALL(b, amp_memcpy, pb, w.bytes.data(), nb * in, nullptr));
  b.ok(AMP_CALL(b, amp_memset, dout, 0xff, dout.bytes, nullptr));
  b.ok(call(b, kind, pa, pb, po, s, a.dtype, outDt), kindName(kind));
  b.sync();
  Host h = zeros(outDt, nout);
  b.ok(AMP_CALL(b, amp_memcpy, h.bytes.data(), po, nout * os, nullptr));
  return h;
}

void compareShape(Context &c, const Shape &s, Kind kind, DtypePair dt,
                  int64_t shift = 0) {
  int64_t na, nb, nout;
  sizesOf(s, kind, na, nb, nout);
  const Host a = randomHost(c.rng, dt.in, na, -1, 1);
  const Host b = randomHost(c.rng, dt.in, nb, -1, 1);
  std::string what = std::string(kindName(kind)) + " " + s.name + " " +
                     amp_dtype_name(dt.in) + "->" + amp_dtype_name(dt.out);
  if (shift)
    what += " (pointers one element past alignment)";
  Host ref = run(*c.ref, kind, s, a, b, dt.out);
  Host dev = run(*c.dev, kind, s, a, b, dt.out, shift);
  expectWithin(c, what, ref, dev, bounds(s, kind, a, b));
}

void compareKind(Context &c, Kind kind) {
  for (const Shape &s : kShapes)
    for (DtypePair dt : kDtypes) {
      try {
        compareShape(c, s, kind, dt);
      } catch (const CaseFailure &f) {
        c.fail(f.message);
      }
    }
}

} // namespace

AMP_COMPARE_CASE(conv2d_forward) { compareKind(c, Kind::Forward); }

AMP_COMPARE_CASE(conv2d_grad_input) { compareKind(c, Kind::GradInput); }

AMP_COMPARE_CASE(conv2d_grad_filter) { compareKind(c, Kind::GradFilter); }

// Pointers aligned only to their element size (cuDNN refuses some
// algorithms for them; the backend must fall back to one that takes them),
// after an aligned call of the same shape has cached its plan.
AMP_COMPARE_CASE(conv2d_unaligned_pointers) {
  const Shape &s = kShapes[9]; // odd_channels
  for (Kind kind : {Kind::Forward, Kind::GradInput, Kind::GradFilter})
    for (DtypePair dt : {kDtypes[1], kDtypes[0]}) {
      compareShape(c, s, kind, dt);
      compareShape(c, s, kind, dt, /*shift=*/1);
    }
}

// An empty batch: nothing to do for y and dx; dw is all zeros.
AMP_COMPARE_CASE(conv2d_empty_batch) {
  Shape s = kShapes[1];
  s.n = 0;
  for (Kind kind : {Kind::Forward, Kind::GradInput, Kind::GradFilter})
    for (DtypePair dt : kDtypes) {
      int64_t na, nb, nout;
      sizesOf(s, kind, na, nb, nout);
      const Host a = randomHost(c.rng, dt.in, na, -1, 1);
      const Host b = randomHost(c.rng, dt.in, nb, -1, 1);
      Host ref = run(*c.ref, kind, s, a, b, dt.out);
      Host dev = run(*c.dev, kind, s, a, b, dt.out);
      c.expectClose(std::string(kindName(kind)) + " of an empty batch " +
                        amp_dtype_name(dt.in) + "->" + amp_dtype_name(dt.out),
                    ref, dev, Tolerance::exact());
    }
}

// Malformed calls fail with the reference's status and message.
AMP_COMPARE_CASE(conv2d_errors) {
  const Shape good = kShapes[2];
  float host[4] = {0, 0, 0, 0};
  struct Bad {
    const char *what;
    Shape s;
    amp_dtype_t in, out;
    Kind kind;
    bool nullOperand;
    int64_t yw; // y_dims[3] override (0: the right one)
  };
  Shape groups0 = good, groupsOdd = good, stride0 = good, negPad = good,
        tooWide = good;
  groups0.groups = 0;
  groupsOdd.groups = 4;
  stride0.stride[0] = 0;
  negPad.pad[3] = -1;
  tooWide.kw = 40;
  const Bad cases[] = {
      {"groups 0", groups0, AMP_DTYPE_F32, AMP_DTYPE_F32, Kind::Forward, false,
       0},
      {"groups not dividing C", groupsOdd, AMP_DTYPE_F16, AMP_DTYPE_F16,
       Kind::GradInput, false, 0},
      {"stride 0", stride0, AMP_DTYPE_F32, AMP_DTYPE_F32, Kind::GradFilter,
       false, 0},
      {"negative padding", negPad, AMP_DTYPE_BF16, AMP_DTYPE_F32, Kind::Forward,
       false, 0},
      {"kernel wider than the padded input", tooWide, AMP_DTYPE_F32,
       AMP_DTYPE_F32, Kind::Forward, false, 0},
      {"f32 in, f16 out", good, AMP_DTYPE_F32, AMP_DTYPE_F16, Kind::Forward,
       false, 0},
      {"unknown dtype", good, static_cast<amp_dtype_t>(7), AMP_DTYPE_F32,
       Kind::GradFilter, false, 0},
      {"NULL operand", good, AMP_DTYPE_F32, AMP_DTYPE_F32, Kind::GradInput,
       true, 0},
      {"y_dims mismatch", good, AMP_DTYPE_F32, AMP_DTYPE_F32, Kind::GradFilter,
       false, 3},
  };
  for (const Bad &bad : cases) {
    auto call = [&](Backend &b) {
      const int64_t xd[4] = {bad.s.n, bad.s.c, bad.s.h, bad.s.w};
      const int64_t cg = bad.s.groups > 0
                             ? std::max<int64_t>(1, bad.s.c / bad.s.groups)
                             : bad.s.c;
      const int64_t wd[4] = {bad.s.o, cg, bad.s.kh, bad.s.kw};
      // Shapes the y_dims check accepts, so that the intended check fails.
      Shape sane = good;
      sane.kh = bad.s.kh, sane.kw = std::min<int64_t>(bad.s.kw, 3);
      int64_t yd[4] = {bad.s.n, bad.s.o, sane.oh(), sane.ow()};
      if (bad.yw)
        yd[3] = bad.yw;
      const void *a = bad.nullOperand ? nullptr : host;
      // Every check before the pointers fails without reading memory; the
      // NULL case fails at the first pointer.
      switch (bad.kind) {
      case Kind::Forward:
        return AMP_CALL(b, amp_conv2d, a, host, host, xd, wd, yd, bad.in,
                        bad.out, bad.s.stride, bad.s.pad, bad.s.dil,
                        bad.s.groups, nullptr);
      case Kind::GradInput:
        return AMP_CALL(b, amp_conv2d_grad_input, a, host, host, xd, wd, yd,
                        bad.in, bad.out, bad.s.stride, bad.s.pad, bad.s.dil,
                        bad.s.groups, nullptr);
      case Kind::GradFilter:
        break;
      }
      return AMP_CALL(b, amp_conv2d_grad_filter, a, host, host, xd, wd, yd,
                      bad.in, bad.out, bad.s.stride, bad.s.pad, bad.s.dil,
                      bad.s.groups, nullptr);
    };
    expectRejected(c, std::string(kindName(bad.kind)) + ": " + bad.what, call);
  }
}
