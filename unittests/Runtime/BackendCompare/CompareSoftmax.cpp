//===- CompareSoftmax.cpp - amp_softmax, amp_log_softmax, _grad -----------===//
//
// Shapes cover each CUDA path: a warp per row (len <= 128 and <= 1024), a
// block per row (len > 1024, and len > 8 * 1024 where part of the row is
// read again from memory), and the strided kernel (a non-innermost axis).
//
// Tolerances (u = 2^-24, L = the row length). The max is exact on both
// backends. exp differs by at most 3 ulps = 6 u relative (CUDA's expf <= 2,
// glibc's < 1 ulp), log by at most 2 ulps. A sum of L terms in any order
// (sequential on the reference, a tree on CUDA) is within (L - 1) u of the
// exact sum relative to the sum of the |terms|, so the two sums differ by
// at most 2 L u of it. Hence
//   softmax:      relative (2 L + 20) u (s, exp's error, the divisions);
//   log_softmax:  absolute (2 L + 60) u (log s; logf's 2 ulps of |log s|
//                 <= 12 here), relative 2 u (the last subtraction);
//   softmax_grad: dx = y (dy - s), so absolute 2 (L + 2) u max|y| sum|dy y|
//                 <= 2.2 (L + 2) u max|y| (|dy| <= 1, y a probability
//                 vector rounded to the dtype), relative 4 u (the
//                 subtraction and the product).
// f16/bf16 outputs add one rounding of the f32 difference: 1 ulp of the
// dtype.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace amp::compare;

namespace {

constexpr double kU = 0x1p-24;

/// Relative size of one ulp of the output dtype (0 for f32: no extra
/// rounding).
double roundingOf(amp_dtype_t dt) {
  return dt == AMP_DTYPE_F16 ? 0x1p-10 : dt == AMP_DTYPE_BF16 ? 0x1p-7 : 0.0;
}

/// abs and rel in f32, plus one rounding to dt (relative, and the smallest
/// subnormal for results near 0).
Tolerance tol(amp_dtype_t dt, double abs, double rel) {
  const double tiny = dt == AMP_DTYPE_F16    ? 0x1p-24
                      : dt == AMP_DTYPE_BF16 ? 0x1p-133
                                             : 0x1p-149;
  return Tolerance{abs + tiny, rel + roundingOf(dt), 1, false};
}

struct Shape {
  std::vector<int64_t> dims;
  int64_t axis;
};

int64_t numelOf(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s.dims)
    n *= d;
  return n;
}

int64_t axisLen(const Shape &s) {
  const int64_t a = s.axis < 0 ? s.axis + int64_t(s.dims.size()) : s.axis;
  return s.dims[a];
}

std::string describe(const char *what, amp_dtype_t dt, const Shape &s) {
  std::string d = std::string(what) + " " + amp_dtype_name(dt) + " [";
  for (size_t i = 0; i < s.dims.size(); ++i)
    d += (i ? "," : "") + std::to_string(s.dims[i]);
  return d + "] axis " + std::to_string(s.axis);
}

const std::vector<Shape> &shapes() {
  static const std::vector<Shape> all = {
      {{1, 1}, -1},       {{3, 7}, 1},      {{67, 100}, -1}, {{5, 128}, 1},
      {{9, 129}, -1},     {{4, 1000}, -1},  {{3, 1024}, 1},  {{2, 1025}, -1},
      {{3, 3001}, -1},    {{2, 20000}, -1}, {{5, 37, 9}, 1}, {{300, 7}, 0},
      {{2, 3, 4, 5}, -3}, {{0, 5}, -1},     {{3, 0}, 1},     {{4, 0, 3}, 0},
      {{1000, 33}, -1},
  };
  return all;
}

/// softmax or log_softmax of x on b; in place when `inPlace`.
Host runForward(Backend &b, bool log, const Host &x, const Shape &s,
                bool inPlace) {
  Buf dx = b.upload(x);
  Buf dy = inPlace ? Buf() : b.alloc(x.dtype, x.numel());
  void *y = inPlace ? dx.get() : dy.get();
  const int32_t rank = int32_t(s.dims.size());
  if (log)
    b.ok(AMP_CALL(b, amp_log_softmax, dx, y, s.dims.data(), rank, x.dtype,
                  s.axis, nullptr));
  else
    b.ok(AMP_CALL(b, amp_softmax, dx, y, s.dims.data(), rank, x.dtype, s.axis,
                  nullptr));
  return b.download(inPlace ? dx : dy);
}

void compareForward(Context &c, bool log) {
  const char *name = log ? "log_softmax" : "softmax";
  for (amp_dtype_t dt : floatDtypes())
    for (const Shape &s : shapes()) {
      const Host x = randomHost(c.rng, dt, numelOf(s), -8, 8);
      const double len = double(axisLen(s));
      const Tolerance t = log ? tol(dt, (2 * len + 60) * kU, 2 * kU)
                              : tol(dt, 0, (2 * len + 20) * kU);
      c.expectClose(describe(name, dt, s), runForward(*c.ref, log, x, s, false),
                    runForward(*c.dev, log, x, s, false), t);
      c.expectClose(describe(name, dt, s) + " in place",
                    runForward(*c.ref, log, x, s, true),
                    runForward(*c.dev, log, x, s, true), t);
    }
}

/// A probability vector along the axis of every row, in dt.
Host probabilities(Context &c, amp_dtype_t dt, const Shape &s) {
  const int64_t n = numelOf(s), len = axisLen(s);
  Host y = randomHost(c.rng, AMP_DTYPE_F32, n, 0, 1);
  Host out = zeros(dt, n);
  if (n == 0)
    return out;
  // Rows along the axis: [outer, len, inner].
  const int64_t a = s.axis < 0 ? s.axis + int64_t(s.dims.size()) : s.axis;
  int64_t inner = 1;
  for (size_t i = size_t(a) + 1; i < s.dims.size(); ++i)
    inner *= s.dims[i];
  for (int64_t base = 0; base < n; ++base) {
    if ((base / inner) % len != 0)
      continue; // not a row's first element
    double sum = 0;
    for (int64_t i = 0; i < len; ++i)
      sum += y.get(base + i * inner);
    for (int64_t i = 0; i < len; ++i)
      out.set(base + i * inner, y.get(base + i * inner) / sum);
  }
  return out;
}

enum class Alias { None, DxIsDy, DxIsY };

Host runGrad(Backend &b, const Host &dy, const Host &y, const Shape &s,
             Alias alias) {
  Buf bdy = b.upload(dy), by = b.upload(y);
  Buf bdx = alias == Alias::None ? b.alloc(dy.dtype, dy.numel()) : Buf();
  Buf &out = alias == Alias::DxIsDy ? bdy : alias == Alias::DxIsY ? by : bdx;
  b.ok(AMP_CALL(b, amp_softmax_grad, bdy, by, out, s.dims.data(),
                int32_t(s.dims.size()), dy.dtype, s.axis, nullptr));
  return b.download(out);
}

} // namespace

AMP_COMPARE_CASE(softmax) { compareForward(c, false); }

AMP_COMPARE_CASE(log_softmax) { compareForward(c, true); }

AMP_COMPARE_CASE(softmax_grad) {
  for (amp_dtype_t dt : floatDtypes())
    for (const Shape &s : shapes()) {
      const Host dy = randomHost(c.rng, dt, numelOf(s), -1, 1);
      const Host y = probabilities(c, dt, s);
      const double len = double(axisLen(s));
      double maxY = 0;
      for (int64_t i = 0; i < y.numel(); ++i)
        maxY = std::max(maxY, std::fabs(y.get(i)));
      const Tolerance t = tol(dt, 2.2 * (len + 2) * kU * maxY, 4 * kU);
      for (auto [alias, what] :
           {std::pair{Alias::None, ""}, std::pair{Alias::DxIsDy, " dx=dy"},
            std::pair{Alias::DxIsY, " dx=y"}})
        c.expectClose(describe("softmax_grad", dt, s) + what,
                      runGrad(*c.ref, dy, y, s, alias),
                      runGrad(*c.dev, dy, y, s, alias), t);
    }
}

AMP_COMPARE_CASE(softmax_errors) {
  const int64_t dims[] = {2, 3}, nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  Buf bufs[2];
  int k = 0;
  for (Backend *b : {c.ref, c.dev})
    bufs[k++] = b->alloc(AMP_DTYPE_F32, 6);
  auto both = [&](const char *what, auto call) {
    c.expectSameStatus(what, call(*c.ref, bufs[0].get()),
                       call(*c.dev, bufs[1].get()));
  };
  both("i32 softmax", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax, p, p, dims, 2, AMP_DTYPE_I32, 1, nullptr);
  });
  both("axis 2 of rank 2", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_log_softmax, p, p, dims, 2, AMP_DTYPE_F32, 2,
                    nullptr);
  });
  both("axis -3 of rank 2", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax, p, p, dims, 2, AMP_DTYPE_F32, -3, nullptr);
  });
  both("rank 9", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax, p, p, nine, 9, AMP_DTYPE_F32, 0, nullptr);
  });
  both("NULL y", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax, p, nullptr, dims, 2, AMP_DTYPE_F32, 1,
                    nullptr);
  });
  both("NULL dx", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax_grad, p, p, nullptr, dims, 2, AMP_DTYPE_F16,
                    1, nullptr);
  });
  both("misaligned x", [&](Backend &b, void *p) {
    return AMP_CALL(b, amp_softmax, static_cast<char *>(p) + 1, p, dims, 2,
                    AMP_DTYPE_F32, 1, nullptr);
  });
}
