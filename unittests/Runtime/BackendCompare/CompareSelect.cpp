//===- CompareSelect.cpp - where and the gradients that route dy ----------===//
//
// amp_where (every dtype), amp_where_grad, amp_maximum_grad and
// amp_minimum_grad over same shapes, scalars, row and two-sided broadcasts
// and rank 0, with outputs aliasing a same-shape input, ties and NaNs:
// selects and dy, 0 or dy * 0.5, so bitwise.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ElementwiseCompareUtil.h"

#include <cmath>

using namespace amp::compare;

namespace {

struct WhereShapes {
  Shape cond, lhs, rhs, out;
};

const WhereShapes kWhereShapes[] = {
    {{1003}, {1003}, {1003}, {1003}},
    {{(1 << 20) + 1}, {(1 << 20) + 1}, {(1 << 20) + 1}, {(1 << 20) + 1}},
    // More than one pass of the grid (32 blocks per SM of 256 threads).
    {{1200, 1}, {1200, 1001}, {1001}, {1200, 1001}},
    {{}, {4099}, {4099}, {4099}},
    {{4099}, {}, {4099}, {4099}},
    {{5, 1}, {1, 7}, {}, {5, 7}},
    {{4, 1, 6}, {3, 4, 5, 6}, {5, 1}, {3, 4, 5, 6}},
    {{}, {}, {}, {}},
    {{0, 2}, {2}, {1}, {0, 2}},
};

int32_t rankOf(const Shape &s) { return static_cast<int32_t>(s.size()); }

/// Values of `dtype` (floats with specials; integers; flags).
Host valuesOf(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n) {
  if (dtype == AMP_DTYPE_I32 || dtype == AMP_DTYPE_I64)
    return randomIndices(rng, dtype, n, 1000000);
  if (dtype == AMP_DTYPE_BOOL)
    return randomFlags(rng, n);
  return mixedHost(rng, dtype, n, -5, 5);
}

Host runWhereOn(Backend &b, const WhereShapes &s, const Host &cond,
                const Host &lhs, const Host &rhs, bool inPlace) {
  Buf pc = b.upload(cond), pl = b.upload(lhs), pr = b.upload(rhs);
  Buf po;
  Buf *out = &pl;
  if (!inPlace) {
    po = b.alloc(lhs.dtype, numelOf(s.out));
    out = &po;
  }
  b.ok(AMP_CALL(b, amp_where, pc, pl, pr, *out, s.cond.data(), rankOf(s.cond),
                s.lhs.data(), rankOf(s.lhs), s.rhs.data(), rankOf(s.rhs),
                s.out.data(), rankOf(s.out), lhs.dtype, nullptr));
  return b.download(*out);
}

} // namespace

AMP_COMPARE_CASE(where_broadcast) {
  const amp_dtype_t all[] = {AMP_DTYPE_F32, AMP_DTYPE_F16, AMP_DTYPE_BF16,
                             AMP_DTYPE_I32, AMP_DTYPE_I64, AMP_DTYPE_BOOL};
  for (amp_dtype_t dt : all)
    for (const WhereShapes &s : kWhereShapes) {
      Host cond = randomFlags(c.rng, numelOf(s.cond));
      Host lhs = valuesOf(c.rng, dt, numelOf(s.lhs));
      Host rhs = valuesOf(c.rng, dt, numelOf(s.rhs));
      const std::string what =
          "where " + shapeName(s.cond) + shapeName(s.lhs) + shapeName(s.rhs);
      c.expectClose(label(what, dt, numelOf(s.out)),
                    runWhereOn(*c.ref, s, cond, lhs, rhs, false),
                    runWhereOn(*c.dev, s, cond, lhs, rhs, false),
                    Tolerance::exact());
      if (s.lhs == s.out && numelOf(s.out) > 0)
        c.expectClose(label(what + " out=lhs", dt, numelOf(s.out)),
                      runWhereOn(*c.ref, s, cond, lhs, rhs, true),
                      runWhereOn(*c.dev, s, cond, lhs, rhs, true),
                      Tolerance::exact());
    }
}

namespace {

/// dlhs and drhs of where_grad on one backend; dlhs aliases dy when
/// `inPlace`.
std::pair<Host, Host> runWhereGradOn(Backend &b, const Shape &dyShape,
                                     const Shape &condShape, const Host &dy,
                                     const Host &cond, bool inPlace) {
  Buf pdy = b.upload(dy), pc = b.upload(cond);
  Buf pa, pb = b.alloc(dy.dtype, dy.numel());
  Buf *da = &pdy;
  if (!inPlace) {
    pa = b.alloc(dy.dtype, dy.numel());
    da = &pa;
  }
  b.ok(AMP_CALL(b, amp_where_grad, pdy, pc, *da, pb, dyShape.data(),
                rankOf(dyShape), condShape.data(), rankOf(condShape), dy.dtype,
                nullptr));
  return {b.download(*da), b.download(pb)};
}

} // namespace

AMP_COMPARE_CASE(where_grad_broadcast) {
  const std::pair<Shape, Shape> shapes[] = {
      {{1003}, {1003}},    {{(1 << 20) + 1}, {(1 << 20) + 1}},
      {{4099}, {}},        {{257, 33}, {33}},
      {{3, 4, 5}, {4, 1}}, {{}, {}},
      {{0, 5}, {5}},
  };
  for (amp_dtype_t dt : floatDtypes())
    for (const auto &[dyShape, condShape] : shapes)
      for (bool inPlace : {false, true}) {
        Host dy = mixedHost(c.rng, dt, numelOf(dyShape), -5, 5);
        Host cond = randomFlags(c.rng, numelOf(condShape));
        const std::string what = std::string("where_grad ") +
                                 shapeName(dyShape) + shapeName(condShape) +
                                 (inPlace ? " dlhs=dy" : "");
        auto ref =
            runWhereGradOn(*c.ref, dyShape, condShape, dy, cond, inPlace);
        auto dev =
            runWhereGradOn(*c.dev, dyShape, condShape, dy, cond, inPlace);
        c.expectClose(label(what + " dlhs", dt, dy.numel()), ref.first,
                      dev.first, Tolerance::exact());
        c.expectClose(label(what + " drhs", dt, dy.numel()), ref.second,
                      dev.second, Tolerance::exact());
      }
}

namespace {

struct ExtremumShapes {
  Shape dy, lhs, rhs;
};

/// dlhs and drhs of maximum_grad (isMax) or minimum_grad on one backend;
/// dlhs aliases dy and drhs aliases rhs (when it has dy's shape) when
/// `inPlace`.
std::pair<Host, Host> runExtremumOn(Backend &b, bool isMax,
                                    const ExtremumShapes &s, const Host &dy,
                                    const Host &lhs, const Host &rhs,
                                    bool inPlace) {
  Buf pdy = b.upload(dy), pl = b.upload(lhs), pr = b.upload(rhs);
  Buf pa, pb;
  Buf *da = &pdy, *db = &pr;
  if (!inPlace) {
    pa = b.alloc(dy.dtype, dy.numel());
    da = &pa;
  }
  if (!inPlace || rhs.numel() != dy.numel()) {
    pb = b.alloc(dy.dtype, dy.numel());
    db = &pb;
  }
  auto fn = isMax ? b.fn<decltype(&amp_maximum_grad)>("amp_maximum_grad")
                  : b.fn<decltype(&amp_minimum_grad)>("amp_minimum_grad");
  b.ok(fn(pdy, pl, pr, *da, *db, s.dy.data(), rankOf(s.dy), s.lhs.data(),
          rankOf(s.lhs), s.rhs.data(), rankOf(s.rhs), dy.dtype, nullptr));
  return {b.download(*da), b.download(*db)};
}

} // namespace

AMP_COMPARE_CASE(extremum_grads) {
  const ExtremumShapes shapes[] = {
      {{1003}, {1003}, {1003}},
      {{(1 << 20) + 1}, {(1 << 20) + 1}, {(1 << 20) + 1}},
      {{4099}, {4099}, {}},
      {{257, 33}, {33}, {257, 33}},
      {{4, 5, 6}, {4, 1, 6}, {5, 1}},
      {{}, {}, {}},
      {{0, 3}, {3}, {0, 3}},
  };
  for (bool isMax : {true, false})
    for (amp_dtype_t dt : floatDtypes())
      for (const ExtremumShapes &s : shapes)
        for (bool inPlace : {false, true}) {
          Host dy = mixedHost(c.rng, dt, numelOf(s.dy), -5, 5);
          // Values from a small set make ties; mixedHost adds NaN and inf.
          Host lhs = mixedHost(c.rng, dt, numelOf(s.lhs), -3, 3);
          Host rhs = mixedHost(c.rng, dt, numelOf(s.rhs), -3, 3);
          for (Host *h : {&lhs, &rhs})
            for (int64_t i = 0; i < h->numel(); i += 2)
              h->set(i, std::floor(h->get(i)));
          addComparisonPairs(lhs, rhs);
          const std::string what =
              std::string(isMax ? "maximum_grad " : "minimum_grad ") +
              shapeName(s.dy) + shapeName(s.lhs) + shapeName(s.rhs) +
              (inPlace ? " in place" : "");
          auto ref = runExtremumOn(*c.ref, isMax, s, dy, lhs, rhs, inPlace);
          auto dev = runExtremumOn(*c.dev, isMax, s, dy, lhs, rhs, inPlace);
          c.expectClose(label(what + " dlhs", dt, dy.numel()), ref.first,
                        dev.first, Tolerance::exact());
          c.expectClose(label(what + " drhs", dt, dy.numel()), ref.second,
                        dev.second, Tolerance::exact());
        }
}

AMP_COMPARE_CASE(select_errors) {
  char host[64] = {};
  void *p = host;
  const int64_t d3[] = {3}, d4[] = {4}, d1[] = {1};
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("where out aliases cond", [&](Backend &b) {
    return AMP_CALL(b, amp_where, p, host + 16, host + 32, p, d4, 1, d4, 1, d4,
                    1, d4, 1, AMP_DTYPE_BOOL, nullptr);
  });
  both("where shapes do not broadcast", [&](Backend &b) {
    return AMP_CALL(b, amp_where, p, host + 16, host + 32, host + 48, d3, 1, d4,
                    1, d4, 1, d4, 1, AMP_DTYPE_F32, nullptr);
  });
  both("where unknown dtype", [&](Backend &b) {
    return AMP_CALL(b, amp_where, p, host + 16, host + 32, host + 48, d4, 1, d4,
                    1, d4, 1, d4, 1, static_cast<amp_dtype_t>(7), nullptr);
  });
  both("where_grad dlhs == drhs", [&](Backend &b) {
    return AMP_CALL(b, amp_where_grad, p, host + 16, host + 32, host + 32, d4,
                    1, d4, 1, AMP_DTYPE_F32, nullptr);
  });
  both("where_grad i32", [&](Backend &b) {
    return AMP_CALL(b, amp_where_grad, p, host + 16, host + 32, host + 48, d4,
                    1, d4, 1, AMP_DTYPE_I32, nullptr);
  });
  both("maximum_grad output aliases a broadcast operand", [&](Backend &b) {
    return AMP_CALL(b, amp_maximum_grad, p, host + 16, host + 32, host + 32,
                    host + 48, d3, 1, d3, 1, d1, 1, AMP_DTYPE_F32, nullptr);
  });
  both("minimum_grad lhs does not broadcast", [&](Backend &b) {
    return AMP_CALL(b, amp_minimum_grad, p, host + 16, host + 32, host + 40,
                    host + 48, d3, 1, d4, 1, d1, 1, AMP_DTYPE_F16, nullptr);
  });
}
