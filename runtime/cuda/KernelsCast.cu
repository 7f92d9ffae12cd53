//===- KernelsCast.cu - amp_cast, amp_fill, amp_scaled_grad_seed ----------===//
//
// On the CUDA backend: casts between f32, f16 and bf16 (a vectorized
// grid-stride kernel moving 8 elements per thread and iteration, as 128-bit
// accesses of each side, when both pointers are 16-byte aligned), casts
// with an integer or bool side (a grid-stride kernel running the
// reference's castElement, reference/CastMath.h), fills of any dtype (a bit
// pattern computed on the host, stored 16 bytes at a time) and the scaled
// gradient seed (the scale read on the device). Bitwise the reference's,
// NaN payloads included: the hardware conversions round every
// number as float16.h does, and NaNs take float16.h's path (an f16 NaN
// widened to f32 made quiet, as the reference's F16C conversion does).
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "reference/CastMath.h"
#include "reference/ElementwiseChecks.h"

#include <cstring>
#include <type_traits>

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

/// x widened to f32 exactly, NaN sign and payload kept as float16.h keeps
/// them; an f16 NaN comes out quiet, as the reference's F16C widening
/// (reference/Convert.cpp) and amp_cast's contract make it.
template <typename T> __device__ __forceinline__ float widen(T x) {
  float v = toFloat(x);
  if constexpr (!std::is_same_v<T, float>)
    if (v != v) {
      v = toF32(x);
      if constexpr (std::is_same_v<T, Half>)
        v = __uint_as_float(__float_as_uint(v) | 0x00400000u);
    }
  return v;
}

/// v rounded once to T (RNE), a NaN as float16.h rounds it.
template <typename T> __device__ __forceinline__ T narrow(float v) {
  return v != v ? fromF32<T>(v) : fromFloat<T>(v);
}

/// Elements per chunk of castKernel: one 128-bit access of the narrower
/// type, two of the wider (f32 <-> f16/bf16) or one each (f16 <-> bf16).
template <typename X, typename Y>
constexpr int kChunk = (kPack<X> < kPack<Y>) ? kPack<Y> : kPack<X>;

/// y[i] = narrow<Y>(widen(x[i])); chunks of C elements are C / kPack<X>
/// and C / kPack<Y> 128-bit accesses.
template <typename X, typename Y>
__global__ void __launch_bounds__(kThreads)
    castKernel(const X *x, Y *y, int64_t n, bool vec) {
  int64_t done = 0;
  if (vec) {
    constexpr int PX = kPack<X>, PY = kPack<Y>;
    constexpr int C = kChunk<X, Y>;
    const int64_t chunks = n / C;
    const Pack<X> *px = reinterpret_cast<const Pack<X> *>(x);
    Pack<Y> *py = reinterpret_cast<Pack<Y> *>(y);
    AMP_GRID_STRIDE(i, chunks) {
      Pack<X> in[C / PX];
      Pack<Y> out[C / PY];
#pragma unroll
      for (int p = 0; p < C / PX; ++p)
        in[p] = px[i * (C / PX) + p];
#pragma unroll
      for (int k = 0; k < C; ++k)
        out[k / PY].v[k % PY] = narrow<Y>(widen(in[k / PX].v[k % PX]));
#pragma unroll
      for (int p = 0; p < C / PY; ++p)
        py[i * (C / PY) + p] = out[p];
    }
    done = chunks * C;
  }
  AMP_GRID_STRIDE(j, n - done) {
    const int64_t i = done + j;
    y[i] = narrow<Y>(widen(x[i]));
  }
}

/// y[i] = castElement<Y>(x[i]): the casts with an integer or bool side.
template <typename X, typename Y>
__global__ void __launch_bounds__(kThreads)
    convertKernel(const X *x, Y *y, int64_t n) {
  AMP_GRID_STRIDE(i, n) { y[i] = castElement<Y>(x[i]); }
}

/// y[0, n) = v, as 16-byte stores when y is aligned.
template <typename U>
__global__ void __launch_bounds__(kThreads)
    fillKernel(U *y, int64_t n, U v, bool vec) {
  int64_t done = 0;
  if (vec) {
    constexpr int P = kPack<U>;
    Pack<U> pack;
#pragma unroll
    for (int k = 0; k < P; ++k)
      pack.v[k] = v;
    const int64_t packs = n / P;
    Pack<U> *py = reinterpret_cast<Pack<U> *>(y);
    AMP_GRID_STRIDE(i, packs) { py[i] = pack; }
    done = packs * P;
  }
  AMP_GRID_STRIDE(j, n - done) { y[done + j] = v; }
}

/// fillKernel with the value RNE(*scale), read on the device.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    seedKernel(const float *scale, T *y, int64_t n, bool vec) {
  const T v = narrow<T>(*scale);
  int64_t done = 0;
  if (vec) {
    constexpr int P = kPack<T>;
    Pack<T> pack;
#pragma unroll
    for (int k = 0; k < P; ++k)
      pack.v[k] = v;
    const int64_t packs = n / P;
    Pack<T> *py = reinterpret_cast<Pack<T> *>(y);
    AMP_GRID_STRIDE(i, packs) { py[i] = pack; }
    done = packs * P;
  }
  AMP_GRID_STRIDE(j, n - done) { y[done + j] = v; }
}

template <typename U>
void launchFill(void *y, int64_t n, U v, cudaStream_t stream) {
  const bool vec = packAligned(y);
  fillKernel<U><<<gridFor(n, vec ? kPack<U> : 1), kThreads, 0, stream>>>(
      static_cast<U *>(y), n, v, vec);
}

/// The bits of T v as the unsigned integer of its size.
template <typename U, typename T> U bitsOf(T v) {
  static_assert(sizeof(U) == sizeof(T), "a bit pattern of the same size");
  U u;
  std::memcpy(&u, &v, sizeof(u));
  return u;
}

} // namespace

extern "C" {

amp_status_t amp_cast(const void *x, void *y, int64_t n, amp_dtype_t x_dtype,
                      amp_dtype_t y_dtype, void *stream) {
  Checker check("amp_cast");
  if (amp_status_t s = checkCast(check, x, y, n, x_dtype, y_dtype))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  if (x_dtype == y_dtype) {
    // A copy keeps every bit pattern, signalling NaNs included.
    if (x == y)
      return AMP_STATUS_OK;
    if (cudaError_t e = cudaMemcpyAsync(
            y, x, static_cast<size_t>(n * amp_dtype_size(x_dtype)),
            cudaMemcpyDeviceToDevice, s))
      return cudaFailure(check, "copying x to y", e);
    return AMP_STATUS_OK;
  }
  if (!inDtypeSet(x_dtype, kFloatDtypes) ||
      !inDtypeSet(y_dtype, kFloatDtypes)) {
    dispatchAny(x_dtype, [&](auto tx) {
      dispatchAny(y_dtype, [&](auto ty) {
        using X = decltype(tx);
        using Y = decltype(ty);
        constexpr bool kIntegerSide =
            !kIsFloatStorage<X> || !kIsFloatStorage<Y>;
        if constexpr (kIntegerSide && !std::is_same_v<X, Y>)
          convertKernel<X, Y><<<gridFor(n), kThreads, 0, s>>>(
              static_cast<const X *>(x), static_cast<Y *>(y), n);
      });
    });
    return launched(check, "amp_cast");
  }
  const bool vec = packAligned(x, y);
  dispatchFloat(x_dtype, [&](auto tx) {
    dispatchFloat(y_dtype, [&](auto ty) {
      using X = decltype(tx);
      using Y = decltype(ty);
      if constexpr (!std::is_same_v<X, Y>) {
        constexpr int C = kChunk<X, Y>;
        castKernel<X, Y><<<gridFor(n, vec ? C : 1), kThreads, 0, s>>>(
            static_cast<const X *>(x), static_cast<Y *>(y), n, vec);
      }
    });
  });
  return launched(check, "amp_cast");
}

amp_status_t amp_fill(void *y, int64_t n, amp_dtype_t dtype, float value,
                      void *stream) {
  Checker check("amp_fill");
  if (amp_status_t s = checkFill(check, y, n, dtype, value))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  switch (dtype) {
  case AMP_DTYPE_I32:
    launchFill(y, n, bitsOf<uint32_t>(static_cast<int32_t>(value)), s);
    break;
  case AMP_DTYPE_I64:
    launchFill(y, n, bitsOf<uint64_t>(static_cast<int64_t>(value)), s);
    break;
  case AMP_DTYPE_BOOL:
    launchFill(y, n, bitsOf<uint8_t>(static_cast<int8_t>(value)), s);
    break;
  case AMP_DTYPE_F32:
    launchFill(y, n, bitsOf<uint32_t>(value), s);
    break;
  default:
    // f16/bf16: float16.h's RNE on the host, as the reference.
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      if constexpr (sizeof(T) == 2)
        launchFill(y, n, bitsOf<uint16_t>(fromF32<T>(value)), s);
    });
    break;
  }
  return launched(check, "amp_fill");
}

amp_status_t amp_scaled_grad_seed(const float *scale, void *y, int64_t n,
                                  amp_dtype_t dtype, void *stream) {
  Checker check("amp_scaled_grad_seed");
  if (amp_status_t s = checkScaledGradSeed(check, scale, y, n, dtype))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    const bool vec = packAligned(y);
    seedKernel<T>
        <<<gridFor(n, vec ? kPack<T> : 1), kThreads, 0, toStream(stream)>>>(
            scale, static_cast<T *>(y), n, vec);
  });
  return launched(check, "amp_scaled_grad_seed");
}

} // extern "C"
