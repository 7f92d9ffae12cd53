//===- ComparePool.cpp - 2-D max and average pools and their gradients ----===//
//
// Every pool kernel is bitwise the reference's (KernelsPool.cu: the same
// window order, the gradients gathered in the reference's output order),
// so every comparison is exact: overlapping and disjoint windows, padding
// (windows entirely in it too), strides, dilation, odd sizes, a ResNet-size
// input, and no images. Max pools also get ties, signed zeros and NaNs.
//
//===----------------------------------------------------------------------===//

#include "ReduceInputs.h"

#include <cmath>
#include <limits>

using namespace amp::compare;

namespace {

struct Pool {
  std::vector<int64_t> x; // N, C, H, W
  int64_t kernel[2], strides[2], padding[4], dilation[2];
  std::vector<int64_t> y; // computed

  void finish() {
    y = {x[0], x[1],
         (x[2] + padding[0] + padding[2] - dilation[0] * (kernel[0] - 1) - 1) /
                 strides[0] +
             1,
         (x[3] + padding[1] + padding[3] - dilation[1] * (kernel[1] - 1) - 1) /
                 strides[1] +
             1};
  }
  int64_t nx() const { return x[0] * x[1] * x[2] * x[3]; }
  int64_t ny() const { return y[0] * y[1] * y[2] * y[3]; }
  std::string name(const char *op, amp_dtype_t dt) const {
    char buf[256];
    std::snprintf(
        buf, sizeof(buf),
        "%s x [%lld,%lld,%lld,%lld] k %lldx%lld s %lld,%lld p "
        "%lld,%lld,%lld,%lld d %lld,%lld %s",
        op, (long long)x[0], (long long)x[1], (long long)x[2], (long long)x[3],
        (long long)kernel[0], (long long)kernel[1], (long long)strides[0],
        (long long)strides[1], (long long)padding[0], (long long)padding[1],
        (long long)padding[2], (long long)padding[3], (long long)dilation[0],
        (long long)dilation[1], amp_dtype_name(dt));
    return buf;
  }
};

/// The pools; dilation 1 where the average pools use them.
std::vector<Pool> pools(bool withDilation) {
  std::vector<Pool> list = {
      {{2, 3, 9, 11}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, {}},
      {{2, 2, 8, 8}, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, {}},
      {{1, 3, 7, 13}, {3, 2}, {1, 2}, {2, 0, 1, 1}, {1, 1}, {}},
      {{3, 2, 5, 5}, {5, 5}, {1, 1}, {2, 2, 2, 2}, {1, 1}, {}},
      {{1, 1, 1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, {}},
      {{1, 2, 3, 3}, {1, 1}, {1, 1}, {2, 2, 2, 2}, {1, 1}, {}}, // pad-only
      {{8, 64, 56, 56}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, {}},
      {{0, 3, 6, 6}, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, {}},
  };
  if (withDilation) {
    list.push_back({{2, 3, 12, 10}, {3, 2}, {2, 1}, {2, 1, 0, 1}, {2, 3}, {}});
    list.push_back({{1, 2, 17, 9}, {2, 3}, {3, 2}, {1, 0, 2, 2}, {3, 2}, {}});
  }
  for (Pool &p : list)
    p.finish();
  return list;
}

/// Max pool inputs: few distinct values (ties), some -0/+0 and NaN.
Host maxInput(std::mt19937_64 &rng, amp_dtype_t dt, int64_t n) {
  Host x = gridHost(rng, dt, n, -3, 0, 1.0);
  std::uniform_int_distribution<int> pick(0, 99);
  for (int64_t i = 0; i < n; ++i) {
    const int p = pick(rng);
    if (p < 15)
      x.set(i, -0.0);
    else if (p == 15)
      x.set(i, std::numeric_limits<double>::quiet_NaN());
  }
  return x;
}

} // namespace

AMP_COMPARE_CASE(max_pool2d_bitwise) {
  for (const Pool &p : pools(true))
    for (amp_dtype_t dt : floatDtypes()) {
      const Host x = maxInput(c.rng, dt, p.nx());
      auto run = [&](Backend &b) {
        Buf bx = b.upload(x), by = b.alloc(dt, p.ny());
        b.ok(AMP_CALL(b, amp_max_pool2d, bx, by, p.x.data(), p.y.data(), dt,
                      p.kernel, p.strides, p.padding, p.dilation, nullptr));
        return b.download(by);
      };
      c.expectClose(p.name("max_pool2d", dt), run(*c.ref), run(*c.dev),
                    Tolerance::exact());
    }
}

AMP_COMPARE_CASE(max_pool2d_grad_bitwise) {
  for (const Pool &p : pools(true))
    for (amp_dtype_t dt : floatDtypes()) {
      const Host x = maxInput(c.rng, dt, p.nx());
      const Host dy = randomHost(c.rng, dt, p.ny(), -1, 1);
      auto run = [&](Backend &b) {
        Buf bx = b.upload(x), bdy = b.upload(dy), bdx = b.alloc(dt, p.nx());
        b.ok(AMP_CALL(b, amp_max_pool2d_grad, bdy, bx, bdx, p.x.data(),
                      p.y.data(), dt, p.kernel, p.strides, p.padding,
                      p.dilation, nullptr));
        return b.download(bdx);
      };
      c.expectClose(p.name("max_pool2d_grad", dt), run(*c.ref), run(*c.dev),
                    Tolerance::exact());
    }
}

AMP_COMPARE_CASE(avg_pool2d_bitwise) {
  for (const Pool &p : pools(false))
    for (amp_dtype_t dt : floatDtypes())
      for (int32_t includePad : {0, 1}) {
        const Host x = randomHost(c.rng, dt, p.nx(), -2, 2);
        auto run = [&](Backend &b) {
          Buf bx = b.upload(x), by = b.alloc(dt, p.ny());
          b.ok(AMP_CALL(b, amp_avg_pool2d, bx, by, p.x.data(), p.y.data(), dt,
                        p.kernel, p.strides, p.padding, includePad, nullptr));
          return b.download(by);
        };
        c.expectClose(
            p.name(includePad ? "avg_pool2d include_pad" : "avg_pool2d", dt),
            run(*c.ref), run(*c.dev), Tolerance::exact());
      }
}

AMP_COMPARE_CASE(avg_pool2d_grad_bitwise) {
  for (const Pool &p : pools(false))
    for (amp_dtype_t dt : floatDtypes())
      for (int32_t includePad : {0, 1}) {
        const Host dy = randomHost(c.rng, dt, p.ny(), -1, 1);
        auto run = [&](Backend &b) {
          Buf bdy = b.upload(dy), bdx = b.alloc(dt, p.nx());
          b.ok(AMP_CALL(b, amp_avg_pool2d_grad, bdy, bdx, p.x.data(),
                        p.y.data(), dt, p.kernel, p.strides, p.padding,
                        includePad, nullptr));
          return b.download(bdx);
        };
        c.expectClose(p.name(includePad ? "avg_pool2d_grad include_pad"
                                        : "avg_pool2d_grad",
                             dt),
                      run(*c.ref), run(*c.dev), Tolerance::exact());
      }
}

AMP_COMPARE_CASE(pool_errors) {
  float buf[64] = {};
  const int64_t x[] = {1, 1, 4, 4}, y[] = {1, 1, 2, 2}, wrong[] = {1, 1, 3, 2};
  const int64_t k[] = {2, 2}, s[] = {2, 2}, zero[] = {0, 1};
  c.expectSameStatus("max_pool2d y_dims mismatch",
                     AMP_CALL(*c.ref, amp_max_pool2d, buf, buf + 32, x, wrong,
                              AMP_DTYPE_F32, k, s, nullptr, nullptr, nullptr),
                     AMP_CALL(*c.dev, amp_max_pool2d, buf, buf + 32, x, wrong,
                              AMP_DTYPE_F32, k, s, nullptr, nullptr, nullptr));
  c.expectSameStatus(
      "max_pool2d_grad NULL kernel",
      AMP_CALL(*c.ref, amp_max_pool2d_grad, buf, buf + 16, buf + 32, x, y,
               AMP_DTYPE_F32, nullptr, s, nullptr, nullptr, nullptr),
      AMP_CALL(*c.dev, amp_max_pool2d_grad, buf, buf + 16, buf + 32, x, y,
               AMP_DTYPE_F32, nullptr, s, nullptr, nullptr, nullptr));
  c.expectSameStatus("avg_pool2d stride 0",
                     AMP_CALL(*c.ref, amp_avg_pool2d, buf, buf + 32, x, y,
                              AMP_DTYPE_F32, k, zero, nullptr, 0, nullptr),
                     AMP_CALL(*c.dev, amp_avg_pool2d, buf, buf + 32, x, y,
                              AMP_DTYPE_F32, k, zero, nullptr, 0, nullptr));
  c.expectSameStatus("avg_pool2d_grad i64 dtype",
                     AMP_CALL(*c.ref, amp_avg_pool2d_grad, buf, buf + 32, x, y,
                              AMP_DTYPE_I64, k, s, nullptr, 0, nullptr),
                     AMP_CALL(*c.dev, amp_avg_pool2d_grad, buf, buf + 32, x, y,
                              AMP_DTYPE_I64, k, s, nullptr, 0, nullptr));
  c.expectSameStatus("avg_pool2d_grad NULL dx",
                     AMP_CALL(*c.ref, amp_avg_pool2d_grad, buf, nullptr, x, y,
                              AMP_DTYPE_F32, k, s, nullptr, 0, nullptr),
                     AMP_CALL(*c.dev, amp_avg_pool2d_grad, buf, nullptr, x, y,
                              AMP_DTYPE_F32, k, s, nullptr, 0, nullptr));
}
