//===- CompareElementwise.cpp - Unary ops, gradients, dropout -------------===//
//
// amp_unary, amp_pow, amp_clamp, the same-shape gradients and amp_dropout on
// both backends: every dtype, the sizes of flatSizes() (vectorized body,
// tail, many blocks), misaligned pointers (the scalar fallback), outputs
// aliasing an input, special values, and malformed calls. Bitwise where
// docs/runtime-kernels.md says the CUDA result is the reference's; the
// transcendental functions within the tolerance stated at each case.
//
//===----------------------------------------------------------------------===//

#include "CompareBuffers.h"
#include "ElementwiseCompareUtil.h"

#include <functional>

using namespace amp::compare;

namespace {

/// y = f(x) on one backend, x placed at `offset`; y aliases x when
/// `inPlace`.
using UnaryCall =
    std::function<amp_status_t(Backend &, const void *, void *, int64_t)>;

Host runUnaryOn(Backend &b, const Host &x, int64_t offset, bool inPlace,
                const UnaryCall &call) {
  Placed px = place(b, x, offset);
  if (inPlace) {
    b.ok(call(b, px.ptr, px.ptr, x.numel()));
    return fetch(b, px);
  }
  Placed py = place(b, zeros(x.dtype, x.numel()), offset);
  b.ok(call(b, px.ptr, py.ptr, x.numel()));
  return fetch(b, py);
}

/// Compares f(x) on both backends for every dtype and size, misaligned and
/// in place on one size; x in [lo, hi) with special values.
void compareUnary(Context &c, const std::string &what, double lo, double hi,
                  const std::function<Tolerance(amp_dtype_t)> &tolerance,
                  const std::function<UnaryCall(amp_dtype_t)> &callFor) {
  for (amp_dtype_t dt : floatDtypes()) {
    const UnaryCall call = callFor(dt);
    for (int64_t n : flatSizes()) {
      Host x = mixedHost(c.rng, dt, n, lo, hi);
      c.expectClose(label(what, dt, n), runUnaryOn(*c.ref, x, 0, false, call),
                    runUnaryOn(*c.dev, x, 0, false, call), tolerance(dt));
    }
    Host x = mixedHost(c.rng, dt, 4099, lo, hi);
    c.expectClose(label(what, dt, 4099, 1),
                  runUnaryOn(*c.ref, x, 1, false, call),
                  runUnaryOn(*c.dev, x, 1, false, call), tolerance(dt));
    c.expectClose(label(what + " in place", dt, 4099),
                  runUnaryOn(*c.ref, x, 0, true, call),
                  runUnaryOn(*c.dev, x, 0, true, call), tolerance(dt));
  }
}

Tolerance exactFor(amp_dtype_t) { return Tolerance::exact(); }

struct UnaryOpCase {
  amp_unary_op_t op;
  const char *name;
  double lo, hi;
  /// ulps of f32 for the transcendental ops, 0: exact.
  int f32Ulps;
};

// CUDA's maximum errors (CUDA C Programming Guide, "Mathematical
// Functions"): expf 2 ulps, logf 1, tanhf 2, sinf and cosf 2, erff 2;
// glibc's f32 functions are within 1 ulp (tanhf 2). sigmoid =
// 1/(1 + expf(-x)) inherits expf's error; gelu and gelu_erf have their own
// cases (cancellation).
const UnaryOpCase kUnaryOps[] = {
    {AMP_UNARY_NEG, "neg", -4, 4, 0},
    {AMP_UNARY_EXP, "exp", -20, 20, 3},
    {AMP_UNARY_LOG, "log", 0.01, 100, 2},
    {AMP_UNARY_SQRT, "sqrt", 0, 100, 0},
    {AMP_UNARY_RSQRT, "rsqrt", 0.001, 100, 0},
    {AMP_UNARY_TANH, "tanh", -6, 6, 4},
    {AMP_UNARY_SIGMOID, "sigmoid", -20, 20, 4},
    {AMP_UNARY_RELU, "relu", -4, 4, 0},
    {AMP_UNARY_ABS, "abs", -4, 4, 0},
    {AMP_UNARY_SIN, "sin", -100, 100, 4},
    {AMP_UNARY_COS, "cos", -100, 100, 4},
    {AMP_UNARY_ERF, "erf", -5, 5, 4},
    {AMP_UNARY_FLOOR, "floor", -300, 300, 0},
    {AMP_UNARY_CEIL, "ceil", -300, 300, 0},
    {AMP_UNARY_ROUND, "round", -300, 300, 0},
    {AMP_UNARY_SIGN, "sign", -4, 4, 0},
    // CUDA: tanf 4 ulps, asinf, acosf and atanf 2, sinhf 3, coshf 2, asinhf
    // 3, acoshf 4, atanhf 3; plus glibc's 2.
    {AMP_UNARY_TAN, "tan", -1.5, 1.5, 6},
    {AMP_UNARY_ASIN, "asin", -1, 1, 4},
    {AMP_UNARY_ACOS, "acos", -1, 1, 4},
    {AMP_UNARY_ATAN, "atan", -20, 20, 4},
    {AMP_UNARY_SINH, "sinh", -11.5, 11.5, 5},
    {AMP_UNARY_COSH, "cosh", -11.5, 11.5, 4},
    {AMP_UNARY_ASINH, "asinh", -100, 100, 5},
    {AMP_UNARY_ACOSH, "acosh", 1, 100, 6},
    {AMP_UNARY_ATANH, "atanh", -0.999, 0.999, 5},
};

} // namespace

AMP_COMPARE_CASE(elementwise_unary) {
  for (const UnaryOpCase &u : kUnaryOps) {
    const amp_unary_op_t op = u.op;
    compareUnary(
        c, std::string("unary ") + u.name, u.lo, u.hi,
        [&](amp_dtype_t dt) {
          return u.f32Ulps ? transcendental(dt, u.f32Ulps) : Tolerance::exact();
        },
        [op](amp_dtype_t dt) -> UnaryCall {
          return [op, dt](Backend &b, const void *x, void *y, int64_t n) {
            return AMP_CALL(b, amp_unary, op, x, y, n, dt, nullptr);
          };
        });
  }
}

// gelu(x) = 0.5 x (1 + tanhf(...)): tanhf's error (<= 4 ulps of |t| <= 1,
// 2.4e-7) times 0.5 |x| <= 2 for x in [-4, 4] is at most 4.8e-7 absolute,
// which cancellation near t = -1 does not shrink; then one rounding of the
// output dtype either way.
AMP_COMPARE_CASE(elementwise_unary_gelu) {
  compareUnary(
      c, "unary gelu", -4, 4,
      [](amp_dtype_t) {
        return Tolerance{1e-6, 0, 2, false};
      },
      [](amp_dtype_t dt) -> UnaryCall {
        return [dt](Backend &b, const void *x, void *y, int64_t n) {
          return AMP_CALL(b, amp_unary, AMP_UNARY_GELU, x, y, n, dt, nullptr);
        };
      });
}

// gelu_erf(x) = x 0.5 (1 + erff(x / sqrt 2)): erff's error (2 ulps on the
// device, 1 on the host, of |erf| <= 1: 2.4e-7) times 0.5 |x| <= 2 for x in
// [-4, 4] is at most 4.8e-7 absolute, as gelu's; then one rounding of the
// output dtype either way.
AMP_COMPARE_CASE(elementwise_unary_gelu_erf) {
  compareUnary(
      c, "unary gelu_erf", -4, 4,
      [](amp_dtype_t) {
        return Tolerance{1e-6, 0, 2, false};
      },
      [](amp_dtype_t dt) -> UnaryCall {
        return [dt](Backend &b, const void *x, void *y, int64_t n) {
          return AMP_CALL(b, amp_unary, AMP_UNARY_GELU_ERF, x, y, n, dt,
                          nullptr);
        };
      });
}

// powf: CUDA's documented maximum error is a few ulps (CUDA C Programming
// Guide, 4 to 8 depending on the version), glibc's below 1: 8 ulps.
AMP_COMPARE_CASE(elementwise_pow) {
  for (float e : {2.0f, 3.0f, -1.0f}) // integer exponents: any sign of x
    compareUnary(
        c, "pow " + std::to_string(e), -3, 3,
        [](amp_dtype_t dt) { return transcendental(dt, 8); },
        [e](amp_dtype_t dt) -> UnaryCall {
          return [e, dt](Backend &b, const void *x, void *y, int64_t n) {
            return AMP_CALL(b, amp_pow, x, y, n, dt, e, nullptr);
          };
        });
  for (float e : {0.5f, -1.5f, 0.0f, 2.7f})
    compareUnary(
        c, "pow " + std::to_string(e), 0, 5,
        [](amp_dtype_t dt) { return transcendental(dt, 8); },
        [e](amp_dtype_t dt) -> UnaryCall {
          return [e, dt](Backend &b, const void *x, void *y, int64_t n) {
            return AMP_CALL(b, amp_pow, x, y, n, dt, e, nullptr);
          };
        });
}

AMP_COMPARE_CASE(elementwise_clamp) {
  const float inf = std::numeric_limits<float>::infinity();
  for (auto [lo, hi] : {std::pair{-1.0f, 1.0f}, std::pair{0.5f, 0.5f},
                        std::pair{-inf, 0.0f}, std::pair{-2.0f, inf}})
    compareUnary(
        c, "clamp [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", -3,
        3, exactFor, [lo = lo, hi = hi](amp_dtype_t dt) -> UnaryCall {
          return [=](Backend &b, const void *x, void *y, int64_t n) {
            return AMP_CALL(b, amp_clamp, x, y, n, dt, lo, hi, nullptr);
          };
        });
}

namespace {

/// dx = f(dy, v) on one backend; dx aliases dy (alias 0), v (alias 1) or
/// nothing (alias -1).
using GradCall = std::function<amp_status_t(Backend &, const void *,
                                            const void *, void *, int64_t)>;

Host runGradOn(Backend &b, const Host &dy, const Host &v, int64_t offset,
               int alias, const GradCall &call) {
  Placed pdy = place(b, dy, offset), pv = place(b, v, offset);
  if (alias >= 0) {
    Placed &out = alias == 0 ? pdy : pv;
    b.ok(call(b, pdy.ptr, pv.ptr, out.ptr, dy.numel()));
    return fetch(b, out);
  }
  Placed pdx = place(b, zeros(dy.dtype, dy.numel()), offset);
  b.ok(call(b, pdy.ptr, pv.ptr, pdx.ptr, dy.numel()));
  return fetch(b, pdx);
}

struct GradCase {
  const char *name;
  double lo, hi; // the range of v (x or y)
  std::function<Tolerance(amp_dtype_t)> tolerance;
  std::function<GradCall(amp_dtype_t)> callFor;
};

void compareGrad(Context &c, const GradCase &g) {
  for (amp_dtype_t dt : floatDtypes()) {
    const GradCall call = g.callFor(dt);
    const Tolerance tol = g.tolerance(dt);
    for (int64_t n : flatSizes()) {
      Host dy = mixedHost(c.rng, dt, n, -2, 2, n < 1000);
      Host v = mixedHost(c.rng, dt, n, g.lo, g.hi);
      c.expectClose(label(g.name, dt, n), runGradOn(*c.ref, dy, v, 0, -1, call),
                    runGradOn(*c.dev, dy, v, 0, -1, call), tol);
    }
    Host dy = mixedHost(c.rng, dt, 4099, -2, 2);
    Host v = mixedHost(c.rng, dt, 4099, g.lo, g.hi);
    c.expectClose(label(g.name, dt, 4099, 1),
                  runGradOn(*c.ref, dy, v, 1, -1, call),
                  runGradOn(*c.dev, dy, v, 1, -1, call), tol);
    for (int alias : {0, 1})
      c.expectClose(
          label(std::string(g.name) + (alias ? " dx=v" : " dx=dy"), dt, 4099),
          runGradOn(*c.ref, dy, v, 0, alias, call),
          runGradOn(*c.dev, dy, v, 0, alias, call), tol);
  }
}

#define AMP_GRAD_CALL(fn)                                                      \
  [](amp_dtype_t dt) -> GradCall {                                             \
    return                                                                     \
        [dt](Backend &b, const void *dy, const void *v, void *dx, int64_t n) { \
          return AMP_CALL(b, fn, dy, v, dx, n, dt, nullptr);                   \
        };                                                                     \
  }

} // namespace

// relu, tanh, sigmoid, sqrt, rsqrt and abs gradients are selects and f32
// arithmetic compiled without contraction on both sides: bitwise.
AMP_COMPARE_CASE(elementwise_exact_grads) {
  const GradCase cases[] = {
      {"relu_grad", -3, 3, exactFor, AMP_GRAD_CALL(amp_relu_grad)},
      {"tanh_grad", -1, 1, exactFor, AMP_GRAD_CALL(amp_tanh_grad)},
      {"sigmoid_grad", 0, 1, exactFor, AMP_GRAD_CALL(amp_sigmoid_grad)},
      {"sqrt_grad", 0, 10, exactFor, AMP_GRAD_CALL(amp_sqrt_grad)},
      {"rsqrt_grad", 0.01, 10, exactFor, AMP_GRAD_CALL(amp_rsqrt_grad)},
      {"abs_grad", -3, 3, exactFor, AMP_GRAD_CALL(amp_abs_grad)},
  };
  for (const GradCase &g : cases)
    compareGrad(c, g);
}

// gelu'(x) = 0.5 (1 + t) + 0.5 x (1 - t^2) dInner with t = tanhf(...):
// t's error (<= 2.4e-7, 4 ulps of |t| <= 1) enters as 0.5 dt + 0.5 |x| 2|t|
// dt dInner <= 2.5e-6 for |x| <= 4 (dInner <= 2.5), times |dy| <= 2: 5e-6,
// 8e-6 with margin, then one rounding of the output dtype either way.
AMP_COMPARE_CASE(elementwise_gelu_grad) {
  compareGrad(c, {"gelu_grad", -4, 4,
                  [](amp_dtype_t) {
                    return Tolerance{8e-6, 0, 2, false};
                  },
                  AMP_GRAD_CALL(amp_gelu_grad)});
}

// gelu_erf'(x) = cdf + x pdf: cdf to erff's 2.4e-7 absolute, x pdf to
// expf's 2 ulps of |x pdf| <= 0.25, 1.2e-7; together 3.6e-7, times |dy| <=
// 2: 7.2e-7, 2e-6 with margin, then one rounding of the output dtype.
AMP_COMPARE_CASE(elementwise_gelu_erf_grad) {
  compareGrad(c, {"gelu_erf_grad", -4, 4,
                  [](amp_dtype_t) {
                    return Tolerance{2e-6, 0, 2, false};
                  },
                  AMP_GRAD_CALL(amp_gelu_erf_grad)});
}

// erf'(x) dy = (2/sqrt(pi)) expf(-x^2) dy: the same x^2 and products on both
// sides, expf's 2 ulps on the device and 1 on the host: 4 ulps.
AMP_COMPARE_CASE(elementwise_erf_grad) {
  compareGrad(c, {"erf_grad", -4, 4,
                  [](amp_dtype_t dt) { return transcendental(dt, 4); },
                  AMP_GRAD_CALL(amp_erf_grad)});
}

// dy * (e * powf(x, e - 1)): powf's error as in elementwise_pow, then two
// more roundings of slightly different operands; e = 0 is +0, exact.
AMP_COMPARE_CASE(elementwise_pow_grad) {
  for (float e : {2.0f, 0.5f, -1.5f, 0.0f, 3.0f})
    compareGrad(
        c, {e == 0.0f ? "pow_grad e=0" : "pow_grad", 0, 4,
            [e](amp_dtype_t dt) {
              return e == 0.0f ? Tolerance::exact() : transcendental(dt, 10);
            },
            [e](amp_dtype_t dt) -> GradCall {
              return [e, dt](Backend &b, const void *dy, const void *v,
                             void *dx, int64_t n) {
                return AMP_CALL(b, amp_pow_grad, dy, v, dx, n, dt, e, nullptr);
              };
            }});
}

AMP_COMPARE_CASE(elementwise_clamp_grad) {
  for (auto [lo, hi] : {std::pair{-1.0f, 1.0f}, std::pair{0.0f, 0.0f}})
    compareGrad(c, {"clamp_grad", -2, 2, exactFor,
                    [lo = lo, hi = hi](amp_dtype_t dt) -> GradCall {
                      return [=](Backend &b, const void *dy, const void *v,
                                 void *dx, int64_t n) {
                        return AMP_CALL(b, amp_clamp_grad, dy, v, dx, n, dt, lo,
                                        hi, nullptr);
                      };
                    }});
}

// The mask is a pure function of (seed, index) and the kept values one f32
// division: bitwise.
AMP_COMPARE_CASE(elementwise_dropout) {
  Host seed = zeros(AMP_DTYPE_I64, 1);
  for (amp_dtype_t dt : floatDtypes())
    for (float rate : {0.0f, 0.1f, 0.5f, 0.9f})
      for (int32_t training : {1, 0})
        for (int64_t n : flatSizes()) {
          seed.set(0, static_cast<double>(n * 7919 + 12345));
          Host x = mixedHost(c.rng, dt, n, -3, 3);
          const UnaryCall call = [&](Backend &b, const void *px, void *py,
                                     int64_t count) {
            Buf s = b.upload(seed);
            return AMP_CALL(b, amp_dropout, px, static_cast<int64_t *>(s.get()),
                            py, count, dt, rate, training, nullptr);
          };
          const std::string what = "dropout rate=" + std::to_string(rate) +
                                   (training ? "" : " eval");
          c.expectClose(
              label(what, dt, n), runUnaryOn(*c.ref, x, 0, false, call),
              runUnaryOn(*c.dev, x, 0, false, call), Tolerance::exact());
          if (n == 1003) {
            c.expectClose(
                label(what, dt, n, 1), runUnaryOn(*c.ref, x, 1, false, call),
                runUnaryOn(*c.dev, x, 1, false, call), Tolerance::exact());
            c.expectClose(label(what + " in place", dt, n),
                          runUnaryOn(*c.ref, x, 0, true, call),
                          runUnaryOn(*c.dev, x, 0, true, call),
                          Tolerance::exact());
          }
        }
}

AMP_COMPARE_CASE(elementwise_errors) {
  char host[64] = {};
  void *p = host;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto both = [&](const std::string &what, auto call) {
    expectRejected(c, what, call);
  };
  both("unary unknown op", [&](Backend &b) {
    return AMP_CALL(b, amp_unary, static_cast<amp_unary_op_t>(-1), p, p, 4,
                    AMP_DTYPE_F32, nullptr);
  });
  both("unary i32", [&](Backend &b) {
    return AMP_CALL(b, amp_unary, AMP_UNARY_NEG, p, p, 4, AMP_DTYPE_I32,
                    nullptr);
  });
  both("unary negative n", [&](Backend &b) {
    return AMP_CALL(b, amp_unary, AMP_UNARY_NEG, p, p, -1, AMP_DTYPE_F32,
                    nullptr);
  });
  both("unary NULL y", [&](Backend &b) {
    return AMP_CALL(b, amp_unary, AMP_UNARY_NEG, p, nullptr, 4, AMP_DTYPE_F32,
                    nullptr);
  });
  both("pow misaligned x", [&](Backend &b) {
    return AMP_CALL(b, amp_pow, host + 1, p, 4, AMP_DTYPE_F32, 2.0f, nullptr);
  });
  both("clamp min > max", [&](Backend &b) {
    return AMP_CALL(b, amp_clamp, p, p, 4, AMP_DTYPE_F32, 1.0f, 0.0f, nullptr);
  });
  both("clamp NaN bound", [&](Backend &b) {
    return AMP_CALL(b, amp_clamp, p, p, 4, AMP_DTYPE_F16, nan, 0.0f, nullptr);
  });
  both("clamp_grad min > max", [&](Backend &b) {
    return AMP_CALL(b, amp_clamp_grad, p, p, p, 4, AMP_DTYPE_F32, 1.0f, 0.0f,
                    nullptr);
  });
  both("relu_grad NULL x", [&](Backend &b) {
    return AMP_CALL(b, amp_relu_grad, p, nullptr, p, 4, AMP_DTYPE_BF16,
                    nullptr);
  });
  both("sigmoid_grad bool", [&](Backend &b) {
    return AMP_CALL(b, amp_sigmoid_grad, p, p, p, 4, AMP_DTYPE_BOOL, nullptr);
  });
  both("dropout rate 1", [&](Backend &b) {
    return AMP_CALL(b, amp_dropout, p, static_cast<const int64_t *>(p), p, 4,
                    AMP_DTYPE_F32, 1.0f, 1, nullptr);
  });
  both("dropout NULL seed", [&](Backend &b) {
    return AMP_CALL(b, amp_dropout, p, nullptr, p, 4, AMP_DTYPE_F32, 0.5f, 1,
                    nullptr);
  });
  // Empty tensors are valid with NULL pointers.
  auto emptyExp = [](Backend &b) {
    return AMP_CALL(b, amp_unary, AMP_UNARY_EXP, nullptr, nullptr, 0,
                    AMP_DTYPE_F16, nullptr);
  };
  c.expectSameStatus("unary n=0 NULL", AMP_STATUS_OK, emptyExp(*c.ref));
  c.expectSameStatus("unary n=0 NULL", AMP_STATUS_OK, emptyExp(*c.dev));
}

// More elements than one pass of the largest grid (32 blocks per SM of 256
// threads, 8 halves each: 8.6M on 132 SMs), so that every thread loops.
AMP_COMPARE_CASE(elementwise_grid_stride) {
  const int64_t n = 9000011;
  Host seed = zeros(AMP_DTYPE_I64, 1);
  seed.set(0, 42);
  for (amp_dtype_t dt : floatDtypes()) {
    Host x = mixedHost(c.rng, dt, n, -3, 3);
    const UnaryCall neg = [dt](Backend &b, const void *px, void *py,
                               int64_t count) {
      return AMP_CALL(b, amp_unary, AMP_UNARY_NEG, px, py, count, dt, nullptr);
    };
    const UnaryCall dropout = [&](Backend &b, const void *px, void *py,
                                  int64_t count) {
      Buf s = b.upload(seed);
      return AMP_CALL(b, amp_dropout, px, static_cast<int64_t *>(s.get()), py,
                      count, dt, 0.25f, 1, nullptr);
    };
    for (int64_t offset : {0, 1}) {
      c.expectClose(label("neg", dt, n, offset),
                    runUnaryOn(*c.ref, x, offset, false, neg),
                    runUnaryOn(*c.dev, x, offset, false, neg),
                    Tolerance::exact());
      c.expectClose(label("dropout", dt, n, offset),
                    runUnaryOn(*c.ref, x, offset, false, dropout),
                    runUnaryOn(*c.dev, x, offset, false, dropout),
                    Tolerance::exact());
    }
  }
}
