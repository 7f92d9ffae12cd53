//===- CompareBinary.cpp - amp_binary with numpy broadcasting -------------===//
//
// Every op and float dtype over shapes that take each path of the CUDA
// kernel: same shapes (vectorized, misaligned, in place), a scalar on either
// side, a row broadcast, two-sided and rank-5 broadcasts (the strided
// index), rank 0 and empty results. One f32 operation per element on both
// backends: bitwise. The integer ops on i32 and i64 over the same shapes,
// with the types' extremes so that they wrap: byte for byte. amp_compare
// over the same shapes, every predicate and
// every dtype (NaN, +-0, ties, the integer extremes, bool bytes other than
// 1): byte for byte.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ElementwiseCompareUtil.h"

#include <cmath>

using namespace amp::compare;

namespace {

struct BinaryShapes {
  Shape lhs, rhs, out;
};

const BinaryShapes kBinaryShapes[] = {
    {{1003}, {1003}, {1003}},
    {{(1 << 20) + 3}, {(1 << 20) + 3}, {(1 << 20) + 3}},
    {{7, 9}, {7, 9}, {7, 9}},
    {{1}, {5, 7}, {5, 7}},
    {{4099}, {}, {4099}},
    {{257, 33}, {33}, {257, 33}},
    {{1024, 1}, {1, 1025}, {1024, 1025}},
    {{4, 1, 6}, {5, 1}, {4, 5, 6}},
    {{2, 3, 1, 5, 6}, {3, 4, 1, 1}, {2, 3, 4, 5, 6}},
    {{}, {}, {}},
    {{1, 1}, {1}, {1, 1}},
    {{0, 3}, {3}, {0, 3}},
};

const amp_binary_op_t kBinaryOps[] = {
    AMP_BINARY_ADD, AMP_BINARY_SUB,  AMP_BINARY_MUL,
    AMP_BINARY_DIV, AMP_BINARY_MAX,  AMP_BINARY_MIN,
    AMP_BINARY_POW, AMP_BINARY_FMOD, AMP_BINARY_MOD};

/// out = lhs op rhs on one backend; `offset` places every operand there,
/// `inPlace` makes out the lhs buffer (same shapes only).
Host runBinaryOn(Backend &b, amp_binary_op_t op, const BinaryShapes &s,
                 const Host &lhs, const Host &rhs, int64_t offset,
                 bool inPlace) {
  Placed pl = place(b, lhs, offset), pr = place(b, rhs, offset);
  Placed po;
  Placed *out = &pl;
  if (!inPlace) {
    po = place(b, zeros(lhs.dtype, numelOf(s.out)), offset);
    out = &po;
  }
  b.ok(AMP_CALL(b, amp_binary, op, pl.ptr, pr.ptr, out->ptr, s.lhs.data(),
                static_cast<int32_t>(s.lhs.size()), s.rhs.data(),
                static_cast<int32_t>(s.rhs.size()), s.out.data(),
                static_cast<int32_t>(s.out.size()), lhs.dtype, nullptr));
  return fetch(b, *out);
}

} // namespace

AMP_COMPARE_CASE(binary_broadcast) {
  for (amp_binary_op_t op : kBinaryOps)
    for (amp_dtype_t dt : floatDtypes())
      for (const BinaryShapes &s : kBinaryShapes) {
        Host lhs = mixedHost(c.rng, dt, numelOf(s.lhs), -3, 3);
        Host rhs = mixedHost(c.rng, dt, numelOf(s.rhs), -3, 3);
        addComparisonPairs(lhs, rhs);
        const std::string what = "binary op " + std::to_string(op) + " " +
                                 shapeName(s.lhs) + " " + shapeName(s.rhs);
        // powf is not correctly rounded: the host's and CUDA's differ by
        // ulps (the others are exact on both).
        const Tolerance tol =
            op == AMP_BINARY_POW ? Tolerance::ulpsOf(4) : Tolerance::exact();
        c.expectClose(label(what, dt, numelOf(s.out)),
                      runBinaryOn(*c.ref, op, s, lhs, rhs, 0, false),
                      runBinaryOn(*c.dev, op, s, lhs, rhs, 0, false), tol);
        if (s.lhs == s.out && numelOf(s.out) > 1) {
          c.expectClose(label(what, dt, numelOf(s.out), 1),
                        runBinaryOn(*c.ref, op, s, lhs, rhs, 1, false),
                        runBinaryOn(*c.dev, op, s, lhs, rhs, 1, false), tol);
          c.expectClose(label(what + " out=lhs", dt, numelOf(s.out)),
                        runBinaryOn(*c.ref, op, s, lhs, rhs, 0, true),
                        runBinaryOn(*c.dev, op, s, lhs, rhs, 0, true), tol);
        }
      }
}

AMP_COMPARE_CASE(binary_errors) {
  char host[64] = {};
  void *p = host;
  const int64_t d3[] = {3}, d4[] = {4}, d1[] = {1},
                d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("unknown op", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, static_cast<amp_binary_op_t>(-1), p, p, p,
                    d3, 1, d3, 1, d3, 1, AMP_DTYPE_F32, nullptr);
  });
  both("i32 pow", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_POW, p, p, p, d3, 1, d3, 1, d3, 1,
                    AMP_DTYPE_I32, nullptr);
  });
  both("bool add", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_ADD, p, p, p, d3, 1, d3, 1, d3, 1,
                    AMP_DTYPE_BOOL, nullptr);
  });
  both("out not the broadcast", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_ADD, p, p, p, d3, 1, d4, 1, d4, 1,
                    AMP_DTYPE_F32, nullptr);
  });
  both("rank 9", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_ADD, p, p, p, d9, 9, d9, 9, d9, 9,
                    AMP_DTYPE_F32, nullptr);
  });
  both("out aliases the broadcast rhs", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_MUL, host + 16, p, p, d3, 1, d1,
                    1, d3, 1, AMP_DTYPE_F32, nullptr);
  });
  both("NULL lhs", [&](Backend &b) {
    return AMP_CALL(b, amp_binary, AMP_BINARY_SUB, nullptr, p, p, d3, 1, d3, 1,
                    d3, 1, AMP_DTYPE_F16, nullptr);
  });
}

// More output elements than one pass of the grid of the strided kernel (32
// blocks per SM of 256 threads) and of the vectorized one, so that threads
// loop.
AMP_COMPARE_CASE(binary_grid_stride) {
  const BinaryShapes shapes[] = {{{3000, 3001}, {3001}, {3000, 3001}},
                                 {{9000011}, {9000011}, {9000011}}};
  for (amp_dtype_t dt : floatDtypes())
    for (const BinaryShapes &s : shapes) {
      Host lhs = mixedHost(c.rng, dt, numelOf(s.lhs), -3, 3);
      Host rhs = mixedHost(c.rng, dt, numelOf(s.rhs), -3, 3);
      c.expectClose(label("binary mul " + shapeName(s.lhs) + shapeName(s.rhs),
                          dt, numelOf(s.out)),
                    runBinaryOn(*c.ref, AMP_BINARY_MUL, s, lhs, rhs, 0, false),
                    runBinaryOn(*c.dev, AMP_BINARY_MUL, s, lhs, rhs, 0, false),
                    Tolerance::exact());
    }
}

namespace {

const amp_compare_op_t kCompareOps[] = {AMP_COMPARE_EQ, AMP_COMPARE_NE,
                                        AMP_COMPARE_LT, AMP_COMPARE_LE,
                                        AMP_COMPARE_GT, AMP_COMPARE_GE};

/// Operands of amp_compare: floats from a few values (ties) with the
/// specials of mixedHost; integers from a few small values with the
/// extremes mixed in; bool bytes 0, 1, 2 and 255.
Host compareOperand(std::mt19937_64 &rng, amp_dtype_t dtype, int64_t n) {
  if (dtype <= AMP_DTYPE_BF16) {
    Host h = mixedHost(rng, dtype, n, -3, 3);
    for (int64_t i = 0; i < n; i += 2)
      h.set(i, std::floor(h.get(i)));
    return h;
  }
  Host h = zeros(dtype, n);
  const int64_t size = amp_dtype_size(dtype);
  const int64_t extremes[] = {
      INT32_MIN,       INT32_MAX, INT64_MIN, INT64_MAX, (int64_t{1} << 53) + 1,
      int64_t{1} << 53};
  const uint8_t bytes[] = {0, 1, 2, 255};
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = static_cast<int64_t>(rng() % 7) - 3;
    if (dtype == AMP_DTYPE_BOOL)
      v = bytes[rng() % 4];
    else if (rng() % 13 == 0)
      v = extremes[rng() % (dtype == AMP_DTYPE_I32 ? 2 : 6)];
    std::memcpy(h.bytes.data() + i * size, &v, static_cast<size_t>(size));
  }
  return h;
}

/// out = lhs op rhs (bool) on one backend, every operand at `offset`.
Host runCompareOn(Backend &b, amp_compare_op_t op, const BinaryShapes &s,
                  const Host &lhs, const Host &rhs, int64_t offset) {
  Placed pl = place(b, lhs, offset), pr = place(b, rhs, offset);
  Placed po = place(b, zeros(AMP_DTYPE_BOOL, numelOf(s.out)), offset);
  b.ok(AMP_CALL(b, amp_compare, op, pl.ptr, pr.ptr, po.ptr, s.lhs.data(),
                static_cast<int32_t>(s.lhs.size()), s.rhs.data(),
                static_cast<int32_t>(s.rhs.size()), s.out.data(),
                static_cast<int32_t>(s.out.size()), lhs.dtype, nullptr));
  return fetch(b, po);
}

} // namespace

AMP_COMPARE_CASE(compare_broadcast) {
  for (amp_compare_op_t op : kCompareOps)
    for (amp_dtype_t dt : allDtypes())
      for (const BinaryShapes &s : kBinaryShapes) {
        Host lhs = compareOperand(c.rng, dt, numelOf(s.lhs));
        Host rhs = compareOperand(c.rng, dt, numelOf(s.rhs));
        if (dt <= AMP_DTYPE_BF16)
          addComparisonPairs(lhs, rhs);
        const std::string what = "compare op " + std::to_string(op) + " " +
                                 shapeName(s.lhs) + " " + shapeName(s.rhs);
        expectSameBytes(c, label(what, dt, numelOf(s.out)),
                        runCompareOn(*c.ref, op, s, lhs, rhs, 0),
                        runCompareOn(*c.dev, op, s, lhs, rhs, 0));
        if (s.lhs == s.out && numelOf(s.out) > 1)
          expectSameBytes(c, label(what, dt, numelOf(s.out), 1),
                          runCompareOn(*c.ref, op, s, lhs, rhs, 1),
                          runCompareOn(*c.dev, op, s, lhs, rhs, 1));
      }
}

AMP_COMPARE_CASE(compare_errors) {
  char host[64] = {};
  void *p = host;
  const int64_t d3[] = {3}, d4[] = {4}, d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("compare unknown op", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, static_cast<amp_compare_op_t>(-1), p,
                    host + 16, host + 32, d3, 1, d3, 1, d3, 1, AMP_DTYPE_F32,
                    nullptr);
  });
  both("compare unknown dtype", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_EQ, p, host + 16, host + 32, d3,
                    1, d3, 1, d3, 1, static_cast<amp_dtype_t>(7), nullptr);
  });
  both("compare out not the broadcast", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_LT, p, host + 16, host + 32, d3,
                    1, d3, 1, d4, 1, AMP_DTYPE_I32, nullptr);
  });
  both("compare shapes do not broadcast", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_LT, p, host + 16, host + 32, d3,
                    1, d4, 1, d4, 1, AMP_DTYPE_I64, nullptr);
  });
  both("compare rank 9", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_GE, p, host + 16, host + 32, d9,
                    9, d9, 9, d9, 9, AMP_DTYPE_F16, nullptr);
  });
  both("compare out aliases lhs", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_NE, p, host + 16, p, d4, 1, d4,
                    1, d4, 1, AMP_DTYPE_BOOL, nullptr);
  });
  both("compare NULL rhs", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_GT, p, nullptr, host + 32, d3,
                    1, d3, 1, d3, 1, AMP_DTYPE_BF16, nullptr);
  });
  both("compare misaligned i64 lhs", [&](Backend &b) {
    return AMP_CALL(b, amp_compare, AMP_COMPARE_EQ, host + 4, host + 16,
                    host + 32, d3, 1, d3, 1, d3, 1, AMP_DTYPE_I64, nullptr);
  });
}

AMP_COMPARE_CASE(binary_integers) {
  // compareOperand draws zeros and -1 among its values: the divisions'
  // zero divisors and INT_MIN / -1.
  const amp_binary_op_t ops[] = {
      AMP_BINARY_ADD, AMP_BINARY_SUB, AMP_BINARY_MUL,  AMP_BINARY_MAX,
      AMP_BINARY_MIN, AMP_BINARY_DIV, AMP_BINARY_FMOD, AMP_BINARY_MOD};
  for (amp_binary_op_t op : ops)
    for (amp_dtype_t dt : {AMP_DTYPE_I32, AMP_DTYPE_I64})
      for (const BinaryShapes &s : kBinaryShapes) {
        Host lhs = compareOperand(c.rng, dt, numelOf(s.lhs));
        Host rhs = compareOperand(c.rng, dt, numelOf(s.rhs));
        const std::string what = "integer binary op " + std::to_string(op) +
                                 " " + shapeName(s.lhs) + " " +
                                 shapeName(s.rhs);
        expectSameBytes(c, label(what, dt, numelOf(s.out)),
                        runBinaryOn(*c.ref, op, s, lhs, rhs, 0, false),
                        runBinaryOn(*c.dev, op, s, lhs, rhs, 0, false));
        if (s.lhs == s.out && numelOf(s.out) > 1)
          expectSameBytes(c, label(what + " out=lhs", dt, numelOf(s.out)),
                          runBinaryOn(*c.ref, op, s, lhs, rhs, 0, true),
                          runBinaryOn(*c.dev, op, s, lhs, rhs, 0, true));
      }
}
