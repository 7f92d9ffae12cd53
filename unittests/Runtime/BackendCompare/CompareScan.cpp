//===- CompareScan.cpp - amp_cumsum, amp_argmax, amp_topk -----------------===//
//
// Every dtype but bool, every axis of a rank-3 shape (the scan along the
// contiguous dimension, along a strided one, and along the outermost), each
// of exclusive and reverse, in place, long lines and many lines (threads
// loop over the grid), and empty tensors. Both backends run the same f32 (or
// wrapping integer) scan per line: exact (integers byte for byte). amp_argmax
// over the same shapes (but the empty axis) and inputs, first and last
// maxima: byte for byte. amp_topk over the same shapes and inputs, largest
// and smallest, k of 0, 1, 5 and the whole axis where it is short: byte for
// byte. The argument errors.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ElementwiseCompareUtil.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace amp::compare;

namespace {

/// Values of x: mixed floats, or integers with the type's extremes mixed in
/// so that the sums wrap.
Host scanInput(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n) {
  if (dtype <= AMP_DTYPE_BF16)
    return mixedHost(rng, dtype, n, -3, 3);
  Host h = zeros(dtype, n);
  const int64_t size = amp_dtype_size(dtype);
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = static_cast<int64_t>(rng() % 201) - 100;
    if (rng() % 17 == 0)
      v = dtype == AMP_DTYPE_I32 ? INT32_MAX : INT64_MAX;
    std::memcpy(h.bytes.data() + i * size, &v, static_cast<size_t>(size));
  }
  return h;
}

Host runCumsumOn(Backend &b, const Host &x, const Shape &dims, int64_t axis,
                 bool exclusive, bool reverse, bool inPlace) {
  Placed px = place(b, x, 0), py;
  if (!inPlace)
    py = place(b, zeros(x.dtype, numelOf(dims)), 0);
  const Placed &out = inPlace ? px : py;
  b.ok(AMP_CALL(b, amp_cumsum, px.ptr, out.ptr, dims.data(),
                static_cast<int32_t>(dims.size()), axis, exclusive, reverse,
                x.dtype, nullptr));
  return fetch(b, out);
}

/// Calls run(dtype, shape, axis, flags) for every dtype but bool, the scan
/// shapes (inner, strided, outermost and long lines, many lines, empty),
/// every axis and flags in [0, numFlags).
template <typename F> void forEachScanCase(int numFlags, F run) {
  const Shape shapes[] = {{3, 17, 5}, {2, 4097, 3}, {70001, 2, 1}, {0, 4, 2}};
  const amp_dtype_t dtypes[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
                                AMP_DTYPE_I32, AMP_DTYPE_I64};
  for (amp_dtype_t dt : dtypes)
    for (const Shape &s : shapes)
      for (int64_t axis : {0, 1, -1})
        for (int flags = 0; flags < numFlags; ++flags)
          run(dt, s, axis, flags);
}

} // namespace

AMP_COMPARE_CASE(cumsum) {
  forEachScanCase(
      4, [&](amp_dtype_t dt, const Shape &s, int64_t axis, int flags) {
        const bool exclusive = flags & 1, reverse = flags & 2;
        const Host x = scanInput(c.rng, dt, numelOf(s));
        const std::string what =
            "cumsum " + shapeName(s) + " axis " + std::to_string(axis) +
            (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "");
        // Floats: exact (a NaN matches any NaN, whose payload the hardware
        // picks); integers: byte for byte.
        auto same = [&](const std::string &w, const Host &r, const Host &d) {
          if (dt <= AMP_DTYPE_BF16)
            c.expectClose(w, r, d, Tolerance::exact());
          else
            expectSameBytes(c, w, r, d);
        };
        same(label(what, dt, numelOf(s)),
             runCumsumOn(*c.ref, x, s, axis, exclusive, reverse, false),
             runCumsumOn(*c.dev, x, s, axis, exclusive, reverse, false));
        if (flags == 3)
          same(label(what + " in place", dt, numelOf(s)),
               runCumsumOn(*c.ref, x, s, axis, exclusive, reverse, true),
               runCumsumOn(*c.dev, x, s, axis, exclusive, reverse, true));
      });
}

AMP_COMPARE_CASE(argmax) {
  forEachScanCase(
      2, [&](amp_dtype_t dt, const Shape &s, int64_t axis, int last) {
        const Host x = scanInput(c.rng, dt, numelOf(s));
        const int64_t len = s[axis < 0 ? s.size() - 1 : axis];
        if (len == 0)
          return; // an error (cumsum_errors' "argmax empty axis")
        const int64_t lines = numelOf(s) / len;
        auto run = [&](Backend &b) {
          Placed px = place(b, x, 0);
          Placed py = place(b, zeros(AMP_DTYPE_I64, lines), 0);
          b.ok(AMP_CALL(b, amp_argmax, px.ptr, static_cast<int64_t *>(py.ptr),
                        s.data(), static_cast<int32_t>(s.size()), axis, last,
                        dt, nullptr));
          return fetch(b, py);
        };
        expectSameBytes(c,
                        label("argmax " + shapeName(s) + " axis " +
                                  std::to_string(axis) +
                                  (last ? " last" : " first"),
                              dt, lines),
                        run(*c.ref), run(*c.dev));
      });
}

AMP_COMPARE_CASE(topk) {
  forEachScanCase(
      2, [&](amp_dtype_t dt, const Shape &s, int64_t axis, int smallest) {
        const Host x = scanInput(c.rng, dt, numelOf(s));
        const size_t a = axis < 0 ? s.size() - 1 : size_t(axis);
        const int64_t len = s[a];
        std::vector<int64_t> ks = {0, std::min<int64_t>(len, 1),
                                   std::min<int64_t>(len, 5)};
        if (len <= 32)
          ks.push_back(len);
        for (int64_t k : ks) {
          Shape ys = s;
          ys[a] = k;
          auto run = [&](Backend &b) {
            Placed px = place(b, x, 0);
            Placed py = place(b, zeros(AMP_DTYPE_I64, numelOf(ys)), 0);
            b.ok(AMP_CALL(b, amp_topk, px.ptr, static_cast<int64_t *>(py.ptr),
                          s.data(), static_cast<int32_t>(s.size()), axis, k,
                          smallest, dt, nullptr));
            return fetch(b, py);
          };
          expectSameBytes(c,
                          label("topk " + shapeName(s) + " axis " +
                                    std::to_string(axis) + " k " +
                                    std::to_string(k) +
                                    (smallest ? " smallest" : " largest"),
                                dt, numelOf(ys)),
                          run(*c.ref), run(*c.dev));
        }
      });
}

AMP_COMPARE_CASE(cumsum_errors) {
  alignas(8) char host[64] = {};
  void *p = host;
  const int64_t d23[] = {2, 3};
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("cumsum axis out of range", [&](Backend &b) {
    return AMP_CALL(b, amp_cumsum, p, p, d23, 2, 2, 0, 0, AMP_DTYPE_F32,
                    nullptr);
  });
  both("cumsum bool", [&](Backend &b) {
    return AMP_CALL(b, amp_cumsum, p, p, d23, 2, 0, 0, 0, AMP_DTYPE_BOOL,
                    nullptr);
  });
  both("cumsum rank 0", [&](Backend &b) {
    return AMP_CALL(b, amp_cumsum, p, p, d23, 0, 0, 0, 0, AMP_DTYPE_I64,
                    nullptr);
  });
  both("cumsum NULL y", [&](Backend &b) {
    return AMP_CALL(b, amp_cumsum, p, nullptr, d23, 2, -1, 1, 1, AMP_DTYPE_F16,
                    nullptr);
  });
  const int64_t d20[] = {2, 0};
  both("argmax empty axis", [&](Backend &b) {
    return AMP_CALL(b, amp_argmax, p, reinterpret_cast<int64_t *>(host + 32),
                    d20, 2, 1, 0, AMP_DTYPE_F32, nullptr);
  });
  both("argmax y overlaps x", [&](Backend &b) {
    return AMP_CALL(b, amp_argmax, p, reinterpret_cast<int64_t *>(host + 8),
                    d23, 2, 1, 0, AMP_DTYPE_I64, nullptr);
  });
  both("topk k above the axis", [&](Backend &b) {
    return AMP_CALL(b, amp_topk, p, reinterpret_cast<int64_t *>(host + 48), d23,
                    2, 1, 4, 0, AMP_DTYPE_F32, nullptr);
  });
  both("topk y overlaps x", [&](Backend &b) {
    return AMP_CALL(b, amp_topk, p, reinterpret_cast<int64_t *>(host + 8), d23,
                    2, 1, 2, 1, AMP_DTYPE_I64, nullptr);
  });
}
