//===- KernelsElementwise.cpp - Unary, binary, cast and fill kernels ------===//
//
// The elementwise kernels of amp_runtime/kernels.h on the reference backend:
// amp_unary, amp_relu_grad, amp_gelu_grad, amp_binary (numpy broadcasting),
// amp_cast, amp_fill and amp_scaled_grad_seed. Every element is widened to
// f32, computed in f32 and rounded once to the output dtype.
//
//===----------------------------------------------------------------------===//

#include "reference/GemmEpilogue.h"
#include "reference/KernelCommon.h"

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <utility>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

template <typename T, typename F>
void mapUnary(const void *x, void *y, int64_t n, F f) {
  const T *in = static_cast<const T *>(x);
  T *out = static_cast<T *>(y);
  for (int64_t i = 0; i < n; ++i)
    out[i] = fromF32<T>(f(toF32(in[i])));
}

template <typename T, typename F>
void mapBinaryFlat(const void *a, const void *b, void *y, int64_t n, F f) {
  const T *in0 = static_cast<const T *>(a);
  const T *in1 = static_cast<const T *>(b);
  T *out = static_cast<T *>(y);
  for (int64_t i = 0; i < n; ++i)
    out[i] = fromF32<T>(f(toF32(in0[i]), toF32(in1[i])));
}

template <typename T>
void runUnary(int32_t op, const void *x, void *y, int64_t n) {
  switch (op) {
  case AMP_UNARY_NEG:
    return mapUnary<T>(x, y, n, [](float v) { return -v; });
  case AMP_UNARY_EXP:
    return mapUnary<T>(x, y, n, [](float v) { return std::exp(v); });
  case AMP_UNARY_LOG:
    return mapUnary<T>(x, y, n, [](float v) { return std::log(v); });
  case AMP_UNARY_SQRT:
    return mapUnary<T>(x, y, n, [](float v) { return std::sqrt(v); });
  case AMP_UNARY_RSQRT:
    return mapUnary<T>(x, y, n, [](float v) { return 1.0f / std::sqrt(v); });
  case AMP_UNARY_TANH:
    return mapUnary<T>(x, y, n, [](float v) { return std::tanh(v); });
  case AMP_UNARY_SIGMOID:
    return mapUnary<T>(x, y, n,
                       [](float v) { return 1.0f / (1.0f + std::exp(-v)); });
  case AMP_UNARY_RELU:
    return mapUnary<T>(x, y, n, [](float v) { return v < 0.0f ? 0.0f : v; });
  case AMP_UNARY_GELU:
    return mapUnary<T>(x, y, n, [](float v) { return gelu(v); });
  }
}

/// The f32 operation of an amp_binary_op_t (checked by the caller).
template <int32_t Op> float binaryOp(float a, float b) {
  if constexpr (Op == AMP_BINARY_ADD)
    return a + b;
  else if constexpr (Op == AMP_BINARY_SUB)
    return a - b;
  else if constexpr (Op == AMP_BINARY_MUL)
    return a * b;
  else
    return a / b;
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
    if (sa == 1 && sb == 1) {
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
  case AMP_BINARY_ADD:
    return runBinary<T, AMP_BINARY_ADD>(loop, lhs, rhs, out);
  case AMP_BINARY_SUB:
    return runBinary<T, AMP_BINARY_SUB>(loop, lhs, rhs, out);
  case AMP_BINARY_MUL:
    return runBinary<T, AMP_BINARY_MUL>(loop, lhs, rhs, out);
  case AMP_BINARY_DIV:
    return runBinary<T, AMP_BINARY_DIV>(loop, lhs, rhs, out);
  }
}

template <typename T> void fillWith(void *y, int64_t n, float value) {
  const T v = fromF32<T>(value);
  T *out = static_cast<T *>(y);
  for (int64_t i = 0; i < n; ++i)
    out[i] = v;
}

/// The common checks of the same-shape elementwise kernels.
amp_status_t checkFlat(
    Checker &check, int64_t n, amp_dtype_t dtype,
    std::initializer_list<std::pair<const char *, const void *>> pointers) {
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  for (const auto &[name, ptr] : pointers)
    if (amp_status_t s = check.pointer(name, ptr, n, dtype))
      return s;
  return AMP_STATUS_OK;
}

} // namespace

extern "C" {

amp_status_t amp_unary(amp_unary_op_t op, const void *x, void *y, int64_t n,
                       amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_unary");
  int32_t rawOp = rawEnum(op);
  if (rawOp < AMP_UNARY_NEG || rawOp > AMP_UNARY_GELU)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  if (amp_status_t s = checkFlat(check, n, dtype, {{"x", x}, {"y", y}}))
    return s;
  dispatchFloat(dtype, [&](auto t) { runUnary<decltype(t)>(rawOp, x, y, n); });
  return AMP_STATUS_OK;
}

amp_status_t amp_relu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_relu_grad");
  if (amp_status_t s =
          checkFlat(check, n, dtype, {{"dy", dy}, {"x", x}, {"dx", dx}}))
    return s;
  dispatchFloat(dtype, [&](auto t) {
    mapBinaryFlat<decltype(t)>(dy, x, dx, n, [](float g, float v) {
      return applyActivation(Activation::DRelu, g, v);
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_gelu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_gelu_grad");
  if (amp_status_t s =
          checkFlat(check, n, dtype, {{"dy", dy}, {"x", x}, {"dx", dx}}))
    return s;
  dispatchFloat(dtype, [&](auto t) {
    mapBinaryFlat<decltype(t)>(dy, x, dx, n, [](float g, float v) {
      return applyActivation(Activation::DGelu, g, v);
    });
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
  if (rawOp < AMP_BINARY_ADD || rawOp > AMP_BINARY_DIV)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
  int64_t nl, nr, no;
  if (amp_status_t s = check.dtype("dtype", dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.shape("lhs", lhs_dims, lhs_rank, &nl))
    return s;
  if (amp_status_t s = check.shape("rhs", rhs_dims, rhs_rank, &nr))
    return s;
  if (amp_status_t s = check.shape("out", out_dims, out_rank, &no))
    return s;
  // out's shape must be exactly the broadcast of the two operand shapes.
  int32_t rank = lhs_rank > rhs_rank ? lhs_rank : rhs_rank;
  bool matches = rank == out_rank;
  for (int32_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs_rank ? 1 : lhs_dims[i - (rank - lhs_rank)];
    int64_t b = i < rank - rhs_rank ? 1 : rhs_dims[i - (rank - rhs_rank)];
    if (a != b && a != 1 && b != 1)
      return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                        "lhs and rhs do not broadcast: dimension %d is %lld "
                        "vs %lld",
                        (int)i, (long long)a, (long long)b);
    int64_t d = a == 1 ? b : a;
    matches = matches && out_dims[i] == d;
  }
  if (!matches)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "out's shape is not the broadcast of lhs's and rhs's");
  if (amp_status_t s = check.pointers({{"lhs", lhs, nl, dtype},
                                       {"rhs", rhs, nr, dtype},
                                       {"out", out, no, dtype}}))
    return s;
  if (no > 0 && ((out == lhs && nl != no) || (out == rhs && nr != no)))
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "out aliases a broadcast operand");

  StridedLoop<3> loop;
  loop.rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    loop.dims[i] = out_dims[i];
  contiguousStrides(out_dims, rank, loop.strides[0]);
  broadcastStrides(lhs_dims, lhs_rank, rank, loop.strides[1]);
  broadcastStrides(rhs_dims, rhs_rank, rank, loop.strides[2]);
  loop.simplify();
  dispatchFloat(dtype, [&](auto t) {
    dispatchBinary<decltype(t)>(rawOp, loop, lhs, rhs, out);
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_cast(const void *x, void *y, int64_t n, amp_dtype_t x_dtype,
                      amp_dtype_t y_dtype, void * /*stream*/) {
  Checker check("amp_cast");
  if (amp_status_t s = check.count("n", n))
    return s;
  if (amp_status_t s = check.dtype("x_dtype", x_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s = check.dtype("y_dtype", y_dtype, kFloatDtypes))
    return s;
  if (amp_status_t s =
          check.pointers({{"x", x, n, x_dtype}, {"y", y, n, y_dtype}}))
    return s;
  if (x_dtype == y_dtype) {
    // A copy keeps every bit pattern, signalling NaNs included.
    if (n > 0 && x != y)
      std::memmove(y, x, static_cast<size_t>(n * amp_dtype_size(x_dtype)));
    return AMP_STATUS_OK;
  }
  if (n > 0 && x == y)
    return check.fail(AMP_STATUS_INVALID_ARGUMENT,
                      "y aliases x but the dtypes differ");
  dispatchFloat(x_dtype, [&](auto tx) {
    using X = decltype(tx);
    dispatchFloat(y_dtype, [&](auto ty) {
      using Y = decltype(ty);
      const X *in = static_cast<const X *>(x);
      Y *out = static_cast<Y *>(y);
      for (int64_t i = 0; i < n; ++i)
        out[i] = fromF32<Y>(toF32(in[i]));
    });
  });
  return AMP_STATUS_OK;
}

amp_status_t amp_fill(void *y, int64_t n, amp_dtype_t dtype, float value,
                      void * /*stream*/) {
  Checker check("amp_fill");
  if (amp_status_t s = checkFlat(check, n, dtype, {{"y", y}}))
    return s;
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, n, value); });
  return AMP_STATUS_OK;
}

amp_status_t amp_scaled_grad_seed(const float *scale, void *y, int64_t n,
                                  amp_dtype_t dtype, void * /*stream*/) {
  Checker check("amp_scaled_grad_seed");
  if (amp_status_t s = checkFlat(check, n, dtype, {{"y", y}}))
    return s;
  if (amp_status_t s = check.pointer("scale", scale, 1, AMP_DTYPE_F32))
    return s;
  const float value = *scale;
  dispatchFloat(dtype, [&](auto t) { fillWith<decltype(t)>(y, n, value); });
  return AMP_STATUS_OK;
}

} // extern "C"
