//===- CompareReduce.cpp - amp_reduce, global average pool, max gradient --===//
//
// The shapes cover every layout of KernelsReduce.cu: rows (warp and block
// per output, vectorized and not, split into chunks), columns (inner from 3
// to 40, split), strided, copies (no axes), rank 0, empty reductions and
// empty outputs. Grid-valued inputs (ReduceInputs.h) make every order of
// the sum exact, so sums and means are compared bitwise on them; on
// real-valued inputs they are compared within the f32 bound of two
// different summation orders. The max and its gradient are exact.
//
//===----------------------------------------------------------------------===//

#include "ReduceInputs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

using namespace amp::compare;

namespace {

struct Shape {
  std::vector<int64_t> dims;
  std::vector<int64_t> axes;
};

const std::vector<Shape> &shapes() {
  static const std::vector<Shape> list = {
      {{1000, 7}, {1}},             // rows, a thread per output
      {{500, 16}, {-1}},            // rows, a thread per output, vectorized
      {{3, 5, 2, 7}, {0, 2}},       // strided, a thread per output
      {{1000}, {0}},                // rows, one warp
      {{257, 33}, {1}},             // rows, warp per output, odd
      {{64, 4096}, {-1}},           // rows, block per output, vectorized
      {{3, 70001}, {1}},            // rows, split, odd (not vectorized)
      {{2, 65536}, {1}},            // rows, split, vectorized
      {{2, 3, 4, 5}, {0, 1, 2, 3}}, // everything
      {{33, 17, 5}, {1}},           // columns, inner 5
      {{7, 300, 40}, {1}},          // columns, two tiles of inner
      {{50001, 3}, {0}},            // columns, split
      {{2, 20000, 3}, {0, 1}},      // merged reduced run, columns
      {{4, 6, 5, 7}, {0, 2}},       // strided
      {{8, 3, 1, 9000}, {0, 3}},    // strided, block per output
      {{3, 1, 4}, {1}},             // a size-1 reduced dimension
      {{5, 6}, {}},                 // no axes: a copy
      {{}, {}},                     // rank 0
      {{4, 0, 3}, {1}},             // empty reductions: 0, NaN for mean
      {{0, 5}, {1}},                // no outputs
  };
  return list;
}

int64_t numel(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

/// The number of outputs and of elements per output.
void counts(const Shape &s, int64_t *ny, int64_t *count) {
  *ny = 1, *count = 1;
  const int rank = int(s.dims.size());
  for (int d = 0; d < rank; ++d) {
    bool reduced = false;
    for (int64_t a : s.axes)
      reduced |= (a < 0 ? a + rank : a) == d;
    (reduced ? *count : *ny) *= s.dims[d];
  }
}

std::string describe(const char *op, const Shape &s, amp_dtype_t x,
                     amp_dtype_t y) {
  std::string d = std::string(op) + " [";
  for (size_t i = 0; i < s.dims.size(); ++i)
    d += (i ? "," : "") + std::to_string(s.dims[i]);
  d += "] axes {";
  for (size_t i = 0; i < s.axes.size(); ++i)
    d += (i ? "," : "") + std::to_string(s.axes[i]);
  return d + "} " + amp_dtype_name(x) + "->" + amp_dtype_name(y);
}

Host reduceOn(Backend &b, amp_reduce_op_t op, const Host &x, const Shape &s,
              amp_dtype_t yDtype, int64_t ny) {
  Buf dx = b.upload(x), dy = b.alloc(yDtype, ny);
  b.ok(AMP_CALL(b, amp_reduce, op, dx, dy, s.dims.data(),
                int32_t(s.dims.size()), s.axes.data(), int32_t(s.axes.size()),
                x.dtype, yDtype, nullptr));
  return b.download(dy);
}

const char *opName(amp_reduce_op_t op) {
  return op == AMP_REDUCE_SUM ? "sum" : op == AMP_REDUCE_MEAN ? "mean" : "max";
}

/// Sets some elements to -0, +0 and NaN, so that the max's tie and NaN
/// rules are exercised (grid inputs <= 0 make 0 the max of many slices).
void sprinkleZerosAndNaN(std::mt19937_64 &rng, Host &x) {
  std::uniform_int_distribution<int> pick(0, 99);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int p = pick(rng);
    if (p < 10)
      x.set(i, -0.0);
    else if (p < 20)
      x.set(i, 0.0);
    else if (p == 20 && i % 7 == 0)
      x.set(i, std::numeric_limits<double>::quiet_NaN());
  }
}

} // namespace

AMP_COMPARE_CASE(reduce_grid_values_bitwise) {
  for (const Shape &s : shapes()) {
    int64_t ny, count;
    counts(s, &ny, &count);
    for (amp_dtype_t xt : floatDtypes()) {
      // |k| <= 16 in steps of 2^-4: every partial sum of up to 2^17
      // elements is exact in f32, in any order.
      const Host x = gridHost(c.rng, xt, numel(s.dims), -16, 16, 1.0 / 16);
      for (amp_dtype_t yt : {xt, AMP_DTYPE_F32}) {
        for (amp_reduce_op_t op :
             {AMP_REDUCE_SUM, AMP_REDUCE_MEAN, AMP_REDUCE_MAX}) {
          if (op == AMP_REDUCE_MAX && count == 0)
            continue;
          c.expectClose(describe(opName(op), s, xt, yt),
                        reduceOn(*c.ref, op, x, s, yt, ny),
                        reduceOn(*c.dev, op, x, s, yt, ny), Tolerance::exact());
        }
        if (yt == xt && xt == AMP_DTYPE_F32)
          break;
      }
    }
  }
}

AMP_COMPARE_CASE(reduce_real_values_within_bound) {
  for (const Shape &s : shapes()) {
    int64_t ny, count;
    counts(s, &ny, &count);
    for (amp_dtype_t xt : floatDtypes()) {
      const Host x = randomHost(c.rng, xt, numel(s.dims), -1, 1);
      for (amp_dtype_t yt : {xt, AMP_DTYPE_F32}) {
        // |x| < 1: sum |x| <= count per output. Two f32 orders differ by
        // sumBound; the roundings into y by an ulp of y.
        const double sumTol = sumBound(count, double(count));
        for (amp_reduce_op_t op : {AMP_REDUCE_SUM, AMP_REDUCE_MEAN}) {
          const double abs = op == AMP_REDUCE_SUM
                                 ? sumTol
                                 : sumTol / std::max<int64_t>(count, 1);
          c.expectClose(describe(opName(op), s, xt, yt),
                        reduceOn(*c.ref, op, x, s, yt, ny),
                        reduceOn(*c.dev, op, x, s, yt, ny),
                        Tolerance::close(abs, ulpRel(yt)));
        }
        if (count > 0)
          c.expectClose(describe("max", s, xt, yt),
                        reduceOn(*c.ref, AMP_REDUCE_MAX, x, s, yt, ny),
                        reduceOn(*c.dev, AMP_REDUCE_MAX, x, s, yt, ny),
                        Tolerance::exact());
      }
    }
  }
}

AMP_COMPARE_CASE(reduce_max_ties_signed_zeros_and_nan) {
  for (const Shape &s : shapes()) {
    int64_t ny, count;
    counts(s, &ny, &count);
    if (count == 0)
      continue;
    for (amp_dtype_t xt : floatDtypes()) {
      Host x = gridHost(c.rng, xt, numel(s.dims), -4, 0, 0.5);
      sprinkleZerosAndNaN(c.rng, x);
      c.expectClose(describe("max", s, xt, xt),
                    reduceOn(*c.ref, AMP_REDUCE_MAX, x, s, xt, ny),
                    reduceOn(*c.dev, AMP_REDUCE_MAX, x, s, xt, ny),
                    Tolerance::exact());
    }
  }
}

AMP_COMPARE_CASE(reduce_max_grad_bitwise) {
  for (const Shape &s : shapes()) {
    int64_t ny, count;
    counts(s, &ny, &count);
    if (count == 0)
      continue;
    for (amp_dtype_t xt : floatDtypes()) {
      // Few distinct values: many slices have several maxima (dy / k).
      Host x = gridHost(c.rng, xt, numel(s.dims), -3, 3, 1.0);
      if (xt == AMP_DTYPE_BF16)
        sprinkleZerosAndNaN(c.rng, x); // NaN maxima: NaN slices
      for (amp_dtype_t yt : {xt, AMP_DTYPE_F32}) {
        // y is the reference's max on both backends.
        const Host y = reduceOn(*c.ref, AMP_REDUCE_MAX, x, s, yt, ny);
        const Host dy = randomHost(c.rng, yt, ny, -2, 2);
        auto run = [&](Backend &b) {
          Buf bx = b.upload(x), by = b.upload(y), bdy = b.upload(dy);
          Buf bdx = b.alloc(xt, x.numel());
          b.ok(AMP_CALL(b, amp_reduce_max_grad, bdy, bx, by, bdx, s.dims.data(),
                        int32_t(s.dims.size()), s.axes.data(),
                        int32_t(s.axes.size()), xt, yt, nullptr));
          return b.download(bdx);
        };
        c.expectClose(describe("max_grad", s, xt, yt), run(*c.ref), run(*c.dev),
                      Tolerance::exact());
      }
    }
  }
}

AMP_COMPARE_CASE(global_avg_pool) {
  const std::vector<std::vector<int64_t>> list = {
      {2, 3, 7, 7},  {4, 64, 1, 1}, {1, 3, 300, 300},
      {3, 5, 13, 1}, {2, 5, 0, 3},  {0, 3, 4, 4}};
  for (const auto &dims : list) {
    const int64_t hw = dims[2] * dims[3], n = numel(dims);
    for (amp_dtype_t dt : floatDtypes()) {
      for (bool grid : {true, false}) {
        const Host x = grid ? gridHost(c.rng, dt, n, -16, 16, 1.0 / 16)
                            : randomHost(c.rng, dt, n, -1, 1);
        auto run = [&](Backend &b) {
          Buf bx = b.upload(x), by = b.alloc(dt, dims[0] * dims[1]);
          b.ok(AMP_CALL(b, amp_global_avg_pool, bx, by, dims.data(), dt,
                        nullptr));
          return b.download(by);
        };
        // Grid values: exact sums, so bitwise; real values: the sum bound
        // over the count (|x| < 1), plus an ulp of the dtype.
        const Tolerance tol =
            grid ? Tolerance::exact()
                 : Tolerance::close(sumBound(hw, double(hw)) /
                                        double(std::max<int64_t>(hw, 1)),
                                    ulpRel(dt));
        c.expectClose(
            describe(grid ? "global_avg_pool grid" : "global_avg_pool real",
                     Shape{dims, {2, 3}}, dt, dt),
            run(*c.ref), run(*c.dev), tol);
      }
    }
  }
}

AMP_COMPARE_CASE(reduce_errors) {
  float buf[64] = {};
  const int64_t dims[] = {4, 4};
  const int64_t twice[] = {1, -1}, bad[] = {2};
  auto reduce = [&](Backend &b, int32_t op, const int64_t *axes, int32_t n,
                    amp_dtype_t yt, const int64_t *d) {
    amp_reduce_op_t o;
    std::memcpy(&o, &op, sizeof(o));
    return AMP_CALL(b, amp_reduce, o, buf, buf + 32, d, 2, axes, n,
                    AMP_DTYPE_F32, yt, nullptr);
  };
  for (auto [what, op, axes, n, yt] :
       {std::tuple{"unknown op", 7, twice, 1, AMP_DTYPE_F32},
        std::tuple{"axis twice", 0, twice, 2, AMP_DTYPE_F32},
        std::tuple{"axis out of range", 0, bad, 1, AMP_DTYPE_F32},
        std::tuple{"NULL axes", 0, (const int64_t *)nullptr, 1, AMP_DTYPE_F32},
        std::tuple{"y bf16 for x f32", 0, twice, 1, AMP_DTYPE_BF16}})
    c.expectSameStatus(what, reduce(*c.ref, op, axes, n, yt, dims),
                       reduce(*c.dev, op, axes, n, yt, dims));
  const int64_t empty[] = {4, 0};
  const int64_t lastAxis[] = {1};
  c.expectSameStatus(
      "max over an empty axis",
      reduce(*c.ref, AMP_REDUCE_MAX, lastAxis, 1, AMP_DTYPE_F32, empty),
      reduce(*c.dev, AMP_REDUCE_MAX, lastAxis, 1, AMP_DTYPE_F32, empty));
  const int64_t dims4[] = {1, 2, 2, 2};
  c.expectSameStatus("global pool NULL x",
                     AMP_CALL(*c.ref, amp_global_avg_pool, nullptr, buf, dims4,
                              AMP_DTYPE_F32, nullptr),
                     AMP_CALL(*c.dev, amp_global_avg_pool, nullptr, buf, dims4,
                              AMP_DTYPE_F32, nullptr));
  const int64_t axis0[] = {0};
  c.expectSameStatus(
      "max grad dx aliases x",
      AMP_CALL(*c.ref, amp_reduce_max_grad, buf, buf + 16, buf + 8, buf + 16,
               dims, 2, axis0, 1, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr),
      AMP_CALL(*c.dev, amp_reduce_max_grad, buf, buf + 16, buf + 8, buf + 16,
               dims, 2, axis0, 1, AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr));
}
