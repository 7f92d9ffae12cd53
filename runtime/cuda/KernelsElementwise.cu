//===- KernelsElementwise.cu - Unary ops, same-shape gradients, dropout ---===//
//
// amp_unary, amp_pow, amp_clamp, the same-shape gradients (relu, gelu,
// tanh, sigmoid, sqrt, rsqrt, abs, pow, clamp) and amp_dropout on the CUDA
// backend: vectorized grid-stride kernels (FlatMap.cuh) computing the
// reference's f32 formulas (reference/ElementwiseMath.h). Compiled with
// --fmad=false, so everything but the transcendental functions (expf, logf,
// tanhf, powf) is bitwise the reference's.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/dropout.h"
#include "cuda/CudaDevice.cuh"
#include "cuda/FlatMap.cuh"
#include "reference/ElementwiseChecks.h"
#include "reference/ElementwiseMath.h"

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

//===----------------------------------------------------------------------===//
// The functors of mapKernel
//===----------------------------------------------------------------------===//

template <int32_t Op> struct UnaryFn {
  __device__ float operator()(float v) const { return unaryOp<Op>(v); }
};

struct PowFn {
  float exponent;
  __device__ float operator()(float v) const { return powValue(v, exponent); }
};

struct ClampFn {
  float min, max;
  __device__ float operator()(float v) const { return clampValue(v, min, max); }
};

#define AMP_GRAD_FN(Name, f)                                                   \
  struct Name {                                                                \
    __device__ float operator()(float g, float v) const { return f(g, v); }    \
  };
AMP_GRAD_FN(ReluGradFn, reluGrad)
AMP_GRAD_FN(GeluGradFn, geluGradOf)
AMP_GRAD_FN(GeluErfGradFn, geluErfGrad)
AMP_GRAD_FN(ErfGradFn, erfGrad)
AMP_GRAD_FN(TanhGradFn, tanhGrad)
AMP_GRAD_FN(SigmoidGradFn, sigmoidGrad)
AMP_GRAD_FN(SqrtGradFn, sqrtGrad)
AMP_GRAD_FN(RsqrtGradFn, rsqrtGrad)
AMP_GRAD_FN(AbsGradFn, absGrad)
#undef AMP_GRAD_FN

struct PowGradFn {
  float exponent;
  __device__ float operator()(float g, float v) const {
    return powGrad(g, v, exponent);
  }
};

struct ClampGradFn {
  float min, max;
  __device__ float operator()(float g, float v) const {
    return clampGrad(g, v, min, max);
  }
};

/// y = op(x) over n elements (checked), then the launch check.
template <typename Op>
amp_status_t mapUnary(Checker &check, const char *kernel, const void *x,
                      void *y, int64_t n, amp_dtype_t dtype, Op op,
                      void *stream) {
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    launchMap<Operands::Unary, decltype(t)>(x, nullptr, y, n, op,
                                            toStream(stream));
  });
  return launched(check, kernel);
}

/// dx = op(dy, v) for a gradient kernel: the checks, then the launch.
template <typename Op>
amp_status_t mapGrad(const char *fn, const char *vName, const void *dy,
                     const void *v, void *dx, int64_t n, amp_dtype_t dtype,
                     Op op, void *stream) {
  Checker check(fn);
  if (amp_status_t s = checkFlatGrad(check, vName, dy, v, dx, n, dtype))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    launchMap<Operands::Same, decltype(t)>(dy, v, dx, n, op, toStream(stream));
  });
  return launched(check, fn);
}

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

/// y[i] = keep(seed, i) ? x[i] / keepProb : +0, vectorized as mapKernel.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    dropoutKernel(const T *x, const int64_t *seed, T *y, int64_t n,
                  float threshold, float keepProb, bool vec) {
  const uint64_t s = static_cast<uint64_t>(*seed);
  auto value = [&](int64_t i, float v) {
    return dropoutKeep(s, static_cast<uint64_t>(i), threshold)
               ? dropoutScaled(v, keepProb)
               : 0.0f;
  };
  int64_t done = 0;
  if (vec) {
    constexpr int P = kPack<T>;
    const int64_t packs = n / P;
    const Pack<T> *px = reinterpret_cast<const Pack<T> *>(x);
    Pack<T> *py = reinterpret_cast<Pack<T> *>(y);
    AMP_GRID_STRIDE(i, packs) {
      const Pack<T> in = px[i];
      Pack<T> out;
#pragma unroll
      for (int k = 0; k < P; ++k)
        out.v[k] = fromFloat<T>(value(i * P + k, toFloat(in.v[k])));
      py[i] = out;
    }
    done = packs * P;
  }
  AMP_GRID_STRIDE(j, n - done) {
    const int64_t i = done + j;
    st(y, i, value(i, ld(x, i)));
  }
}

} // namespace

extern "C" {

amp_status_t amp_unary(amp_unary_op_t op, const void *x, void *y, int64_t n,
                       amp_dtype_t dtype, void *stream) {
  Checker check("amp_unary");
  const int32_t rawOp = rawEnum(op);
  if (amp_status_t s = checkUnary(check, rawOp, x, y, n, dtype))
    return s;
  auto run = [&](auto fn) {
    return mapUnary(check, "amp_unary", x, y, n, dtype, fn, stream);
  };
  switch (rawOp) {
#define AMP_UNARY_CASE(OP)                                                     \
  case OP:                                                                     \
    return run(UnaryFn<OP>{});
    AMP_FOR_EACH_UNARY_OP(AMP_UNARY_CASE)
#undef AMP_UNARY_CASE
  }
  return check.fail(AMP_STATUS_INVALID_ARGUMENT, "unknown op %d", rawOp);
}

amp_status_t amp_pow(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                     float exponent, void *stream) {
  Checker check("amp_pow");
  if (amp_status_t s = checkFlatUnary(check, x, y, n, dtype))
    return s;
  return mapUnary(check, "amp_pow", x, y, n, dtype, PowFn{exponent}, stream);
}

amp_status_t amp_clamp(const void *x, void *y, int64_t n, amp_dtype_t dtype,
                       float min, float max, void *stream) {
  Checker check("amp_clamp");
  if (amp_status_t s = checkClamp(check, x, y, n, dtype, min, max))
    return s;
  return mapUnary(check, "amp_clamp", x, y, n, dtype, ClampFn{min, max},
                  stream);
}

amp_status_t amp_relu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_relu_grad", "x", dy, x, dx, n, dtype, ReluGradFn{},
                 stream);
}

amp_status_t amp_gelu_grad(const void *dy, const void *x, void *dx, int64_t n,
                           amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_gelu_grad", "x", dy, x, dx, n, dtype, GeluGradFn{},
                 stream);
}

amp_status_t amp_gelu_erf_grad(const void *dy, const void *x, void *dx,
                               int64_t n, amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_gelu_erf_grad", "x", dy, x, dx, n, dtype, GeluErfGradFn{},
                 stream);
}

amp_status_t amp_erf_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_erf_grad", "x", dy, x, dx, n, dtype, ErfGradFn{}, stream);
}

amp_status_t amp_tanh_grad(const void *dy, const void *y, void *dx, int64_t n,
                           amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_tanh_grad", "y", dy, y, dx, n, dtype, TanhGradFn{},
                 stream);
}

amp_status_t amp_sigmoid_grad(const void *dy, const void *y, void *dx,
                              int64_t n, amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_sigmoid_grad", "y", dy, y, dx, n, dtype, SigmoidGradFn{},
                 stream);
}

amp_status_t amp_sqrt_grad(const void *dy, const void *y, void *dx, int64_t n,
                           amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_sqrt_grad", "y", dy, y, dx, n, dtype, SqrtGradFn{},
                 stream);
}

amp_status_t amp_rsqrt_grad(const void *dy, const void *y, void *dx, int64_t n,
                            amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_rsqrt_grad", "y", dy, y, dx, n, dtype, RsqrtGradFn{},
                 stream);
}

amp_status_t amp_abs_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, void *stream) {
  return mapGrad("amp_abs_grad", "x", dy, x, dx, n, dtype, AbsGradFn{}, stream);
}

amp_status_t amp_pow_grad(const void *dy, const void *x, void *dx, int64_t n,
                          amp_dtype_t dtype, float exponent, void *stream) {
  return mapGrad("amp_pow_grad", "x", dy, x, dx, n, dtype, PowGradFn{exponent},
                 stream);
}

amp_status_t amp_clamp_grad(const void *dy, const void *x, void *dx, int64_t n,
                            amp_dtype_t dtype, float min, float max,
                            void *stream) {
  Checker check("amp_clamp_grad");
  if (amp_status_t s = checkClampGrad(check, dy, x, dx, n, dtype, min, max))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    launchMap<Operands::Same, decltype(t)>(dy, x, dx, n, ClampGradFn{min, max},
                                           toStream(stream));
  });
  return launched(check, "amp_clamp_grad");
}

amp_status_t amp_dropout(const void *x, const int64_t *seed, void *y, int64_t n,
                         amp_dtype_t dtype, float rate, int32_t training,
                         void *stream) {
  Checker check("amp_dropout");
  if (amp_status_t s = checkDropout(check, x, seed, y, n, dtype, rate))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  if (!training || rate == 0.0f) {
    if (x == y)
      return AMP_STATUS_OK;
    if (cudaError_t e = cudaMemcpyAsync(
            y, x, static_cast<size_t>(n * amp_dtype_size(dtype)),
            cudaMemcpyDeviceToDevice, s))
      return cudaFailure(check, "copying x to y", e);
    return AMP_STATUS_OK;
  }
  const float threshold = dropoutThreshold(rate);
  const float keepProb = 1.0f - rate;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const bool vec = packAligned(x, y);
    dropoutKernel<T><<<gridFor(n, vec ? kPack<T> : 1), kThreads, 0, s>>>(
        static_cast<const T *>(x), seed, static_cast<T *>(y), n, threshold,
        keepProb, vec);
  });
  return launched(check, "amp_dropout");
}

} // extern "C"
