//===- KernelsElementwise.cpp - Unary, binary, cast and fill kernels ------===//
//
// The elementwise kernels of amp_runtime/kernels.h on the reference backend:
// amp_unary, amp_pow, amp_clamp, the same-shape gradients (relu, gelu, tanh,
// sigmoid, sqrt, rsqrt, abs, pow, clamp), amp_binary (numpy broadcasting),
// amp_dropout, amp_cast, amp_fill and amp_scaled_grad_seed. Every element is
// widened to f32, computed in f32 and rounded once to the output dtype
// (amp_binary on i32 and i64 computes in the integer type; amp_cast to and
// from the integer and bool dtypes converts as reference/CastMath.h says).
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/dropout.h"
#include "reference/CastMath.h"
#include "reference/Convert.h"
#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"
#include "reference/KernelCommon.h"

#include <cstring>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

template <typename T, typename F>
void mapUnary(const void *x, void *y, int64_t n, F f) {
  const T *in = static_cast<const T *>(x);
  T *out = static_cast<T *>(y);
  // By value: f's scalars stay in registers (parallelFor).
  parallelFor(n, [=](int64_t i) { out[i] = fromF32<T>(f(toF32(in[i]))); });
}

template <typename T, typename F>
void mapBinaryFlat(const void *a, const void *b, void *y, int64_t n, F f) {
  const T *in0 = static_cast<const T *>(a);
  const T *in1 = static_cast<const T *>(b);
  T *out = static_cast<T *>(y);
  parallelFor(n, [=](int64_t i) {
    out[i] = fromF32<T>(f(toF32(in0[i]), toF32(in1[i])));
  });
}

template <typename T>
void runUnary(int32_t op, const void *x, void *y, int64_t n) {
  switch (op) {
#define AMP_UNARY_CASE(OP)                                                     \
  case OP:                                                                     \
    return mapUnary<T>(x, y, n, unaryOp<OP>);
    AMP_FOR_EACH_UNARY_OP(AMP_UNARY_CASE)
#undef AMP_UNARY_CASE
  }
}

/// out = lhs op rhs over a simplified loop nest (operands: out, lhs, rhs).
/// The inner loop is specialized for the common stride patterns so that the
/// contiguous and scalar-broadcast cases vectorize.
template <typename T, int32_t Op>
void runBinary(const StridedLoop<3> &loop, const void *lhs, const void *rhs,
               void *out) {
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  T *y = static_cast<T *>(out);
  loop.run([&](const int64_t *off, int64_t len, const int64_t *inner) {
    T *yr = y + off[0];
    const T *ar = a + off[1];
    const T *br = b + off[2];
    const int64_t sa = inner[1], sb = inner[2];
    if constexpr (!kIsFloatStorage<T>) {
      for (int64_t i = 0; i < len; ++i)
        yr[i] = intBinaryOp<Op>(ar[i * sa], br[i * sb]);
    } else if (sa == 1 && sb == 1) {
      for (int64_t i = 0; i < len; ++i)
        yr[i] = fromF32<T>(binaryOp<Op>(toF32(ar[i]), toF32(br[i])));
    } else if (sa == 1 && sb == 0) {
      const float bv = toF32(br[0]);
      for (int64_t i = 0; i < len; ++i)
        yr[i] = fromF32<T>(binaryOp<Op>(toF32(ar[i]), bv));
    } else if (sa == 0 && sb == 1) {
      const float av = toF32(ar[0]);
      for (int64_t i = 0; i < len; ++i)
        yr[i] = fromF32<T>(binaryOp<Op>(av, toF32(br[i])));
    } else {
      for (int64_t i = 0; i < len; ++i)
        yr[i] = fromF32<T>(binaryOp<Op>(toF32(ar[i * sa]), toF32(br[i * sb])));
    }
  });
}

template <typename T>
void dispatchBinary(int32_t op, const StridedLoop<3> &loop, const void *lhs,
                    const void *rhs, void *out) {
  switch (op) {
#define AMP_BINARY_CASE(OP)                                                    \
  case OP:                                                                     \
    if constexpr (kIsFloatStorage<T> || !binaryFloatOnly(OP))                  \
      runBinary<T, OP>(loop, lhs, rhs, out);                                   \
    return;
    AMP_FOR_EACH_BINARY_OP(AMP_BINARY_CASE)
#undef AMP_BINARY_CASE
  }
}

/// y = f(x) for a same-shape kernel (the ops with attributes), checked.
template <typename F>
void runFlatUnary(const void *x, void *y, int64_t n, amp_dtype_t dtype, F f) {
  dispatchFloat(dtype, [&](auto t) { mapUnary<decltype(t)>(x, y, n, f); });
}

/// dx = f(dy, v) for a same-shape gradient kernel, v being the forward's
/// input x or output y (`vName`).
template <typename F>
amp_status_t runFlatGrad(Checker &check, const char *vName, const void *dy,
                         const void *v, void *dx, int64_t n, amp_dtype_t dtype,
                         F f) {
  if (amp_status_t s = checkFlatGrad(check, vName, dy, v, dx, n, dtype))
    return s;
  dispatchFloat(dtype,
                [&](auto t) { mapBinaryFlat<decltype(t)>(dy, v, dx, n, f); });
  return AMP_STATUS_OK;
}

/// amp_cast once its arguments are checked. The dtypes are read here, as
/// the lambdas capture them, only after checkCast has accepted them: a
/// dtype outside the enum (which C callers may pass) is never loaded
/// through the enum type.
void castChecked(const void *x, void *y, int64_t n, amp_dtype_t x_dtype,
                 amp_dtype_t y_dtype) {
  if (x_dtype == y_dtype) {
    // A copy keeps every bit pattern, signalling NaNs included.
    if (n > 0 && x != y)
      std::memmove(y, x, static_cast<size_t>(n * amp_dtype_size(x_dtype)));
    return;
  }
  if (!inDtypeSet(x_dtype, kFloatDtypes) ||
      !inDtypeSet(y_dtype, kFloatDtypes)) {
    // An integer or bool side: one element at a time (reference/CastMath.h).
    dispatchAny(x_dtype, [&](auto tx) {
      dispatchAny(y_dtype, [&](auto ty) {
        using X = decltype(tx);
        using Y = decltype(ty);
        const X *xs = static_cast<const X *>(x);
        Y *ys = static_cast<Y *>(y);
        parallelFor(n, [=](int64_t i) { ys[i] = castElement<Y>(xs[i]); });
      });
    });
    return;
  }
  // To or from f32: a run at a time (F16C for f16 where the CPU has it).
  const int64_t size = amp_dtype_size(x_dtype), ySize = amp_dtype_size(y_dtype);
  const char *in = static_cast<const char *>(x);
  char *out = static_cast<char *>(y);
  if (x_dtype == AMP_DTYPE_F32 || y_dtype == AMP_DTYPE_F32) {
    parallelChunks(n, 4096, [&](int64_t begin, int64_t end) {
      if (y_dtype == AMP_DTYPE_F32)
        widenToF32(x_dtype, in + begin * size,
                   reinterpret_cast<float *>(out + begin * ySize), end - begin);
      else
        narrowFromF32(y_dtype,
                      reinterpret_cast<const float *>(in + begin * size),
                      out + begin * ySize, end - begin);
    });
    return;
  }
  dispatchFloat(x_dtype, [&](auto tx) {
    using X = decltype(tx);
    dispatchFloat(y_dtype, [&](auto ty) {
      using Y = decltype(ty);
      const X *xs = static_cast<const X *>(x);
      Y *ys = static_cast<Y *>(y);
      parallelFor(n, [&](int64_t i) { ys[i] = fromF32<Y>(toF32(xs[i])); });
    });
  });
}

} // namespace

extern "C" {

amp_status_t amp_unary(amp_unary_op_t op, const void *x, void *y, int64_t n,
                       amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_unary");
  int32_t rawOp = rawEnum(op);
  if (amp_status_t s = checkUnary(check, rawOp, x, y, n, dtype))
    return s;
  dispatchFloat(dtype, [&](auto t) { runUnary<decltype(t)>(rawOp, x, y, n); });
  return AMP_STATUS_OK;
}

amp_status_t amp_pow(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                     float exponent, void * /*stream*/) {
  Checker check("amp_pow");
  if (amp_status_t s = checkFlatUnary(check, x, y, n, dtype))
    return s;
  runFlatUnary(x, y, n, dtype,
               [exponent](float v) { return powValue(v, exponent); });
  return AMP_STATUS_OK;
}

amp_status_t amp_clamp(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                       float min, float max, void * /*stream*/) {
  Checker check("amp_clamp");
  if (amp_status_t s = checkClamp(check, x, y, n, dtype, min, max))
    return s;
  runFlatUnary(x, y, n, dtype,
               [min, max](float v) { return clampValue(v, min, max); });
  return AMP_STATUS_OK;
}

amp_status_t amp_relu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_relu_grad");
  return runFlatGrad(check, "x", dy, x, dx, n, dtype, reluGrad);
}

amp_status_t amp_gelu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_gelu_grad");
  return runFlatGrad(check, "x", dy, x, dx, n, dtype, geluGradOf);
}

amp_status_t amp_gelu_erf_grad(const void *dy, const void *x, void *dx,
                               int64_t n, amp_dtype_t dtype,
                               void * /*stream*/) {
  Checker check("amp_gelu_erf_grad");
  return runFlatGrad(check, "x", dy, x, dx, n, dtype, geluErfGrad);
}

amp_status_t amp_erf_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_erf_grad");
  return runFlatGrad(check, "x", dy, x, dx, n, dtype, erfGrad);
}

amp_status_t amp_tanh_grad(const void *dy, const void *y, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_tanh_grad");
  return runFlatGrad(check, "y", dy, y, dx, n, dtype, tanhGrad);
}

amp_status_t amp_sigmoid_grad(const void *dy, const void *y, void *dx,
                              int64_t n, amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_sigmoid_grad");
  return runFlatGrad(check, "y", dy, y, dx, n, dtype, sigmoidGrad);
}

amp_status_t amp_sqrt_grad(const void *dy, const void *y, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_sqrt_grad");
  return runFlatGrad(check, "y", dy, y, dx, n, dtype, sqrtGrad);
}

amp_status_t amp_rsqrt_grad(const void *dy, const void *y, void *dx, int64_t n,
                            amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_rsqrt_grad");
  return runFlatGrad(check, "y", dy, y, dx, n, dtype, rsqrtGrad);
}

amp_status_t amp_abs_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_abs_grad");
  return runFlatGrad(check, "x", dy, x, dx, n, dtype, absGrad);
}

amp_status_t amp_pow_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, float exponent,
                          void * /*stream*/) {
  Checker check("amp_pow_grad");
  return runFlatGrad(
      check, "x", dy, x, dx, n, dtype,
      [exponent](float g, float v) { return powGrad(g, v, exponent); });
}

amp_status_t amp_clamp_grad(const void *dy, const void *x, void *dx, int64_t n,
                            amp_dtype_t dtype, float min, float max,
                            void * /*stream*/) {
  Checker check("amp_clamp_grad");
  if (amp_status_t s = checkClampGrad(check, dy, x, dx, n, dtype, min, max))
    return s;
  dispatchFloat(dtype, [&](auto t) {
    mapBinaryFlat<decltype(t)>(dy, x, dx, n, [min, max](float g, float v) {
      return clampGrad(g, v, min, max);
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_dropout(const void *x, const int64_t *seed, void *y, int64_t n,
                         amp_dtype_t dtype, float rate, int32_t training,
                         void * /*stream*/) {
  Checker check("amp_dropout");
  if (amp_status_t s = checkDropout(check, x, seed, y, n, dtype, rate))
    return s;
  if (!training || rate == 0.0f) {
    if (n > 0 && x != y)
      std::memmove(y, x, static_cast<size_t>(n * amp_dtype_size(dtype)));
    return AMP_STATUS_OK;
  }
  const float threshold = dropoutThreshold(rate);
  const float keepProb = 1.0f - rate;
  const uint64_t s = static_cast<uint64_t>(*seed);
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const T *in = static_cast<const T *>(x);
    T *out = static_cast<T *>(y);
    for (int64_t i = 0; i < n; ++i)
      out[i] = dropoutKeep(s, static_cast<uint64_t>(i), threshold)
                   ? fromF32<T>(dropoutScaled(toF32(in[i]), keepProb))
                   : fromF32<T>(0.0f);
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_binary(amp_binary_op_t op, const void *lhs, const void *rhs,
                        void *out, const int64_t *lhs_dims, int32_t lhs_rank,
                        const int64_t *rhs_dims, int32_t rhs_rank,
                        const int64_t *out_dims, int32_t out_rank,
                        amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_binary");
  int32_t rawOp = rawEnum(op);
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s =
          checkBinary(check, rawOp, lhs, rhs, out, lhs_dims, lhs_rank, rhs_dims,
                      rhs_rank, out_dims, out_rank, dtype, &loop, &n))
    return s;
  dispatchNumeric(dtype, [&](auto t) {
    dispatchBinary<decltype(t)>(rawOp, loop, lhs, rhs, out);
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_cast(const void *x, void *y, int64_t n, amp_dtype_t x_dtype,
                      amp_dtype_t y_dtype, void * /*stream*/) {
  Checker check("amp_cast");
  if (amp_status_t s = checkCast(check, x, y, n, x_dtype, y_dtype))
    return s;
  castChecked(x, y, n, x_dtype, y_dtype);
  return AMP_STATUS_OK;
}

amp_status_t amp_fill(void *y, int64_t n, amp_dtype_t dtype, float value,
                      void * /*stream*/) {
  Checker check("amp_fill");
  if (amp_status_t s = checkFill(check, y, n, dtype, value))
    return s;
  if (dtype == AMP_DTYPE_I32 || dtype == AMP_DTYPE_I64 ||
      dtype == AMP_DTYPE_BOOL) {
    auto fill = [&](auto v) {
      auto *out = static_cast<decltype(v) *>(y);
      for (int64_t i = 0; i < n; ++i)
        out[i] = v;
    };
    if (dtype == AMP_DTYPE_I32)
      fill(static_cast<int32_t>(value));
    else if (dtype == AMP_DTYPE_I64)
      fill(static_cast<int64_t>(value));
    else
      fill(static_cast<int8_t>(value));
    return AMP_STATUS_OK;
  }
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, n, value); });
  return AMP_STATUS_OK;
}

amp_status_t amp_scaled_grad_seed(const float *scale, void *y, int64_t n,
                                  amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_scaled_grad_seed");
  if (amp_status_t s = checkScaledGradSeed(check, scale, y, n, dtype))
    return s;
  const float value = *scale;
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, n, value); });
  return AMP_STATUS_OK;
}

} // extern "C"
