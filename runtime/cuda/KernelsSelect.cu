//===- KernelsSelect.cu - where and the gradients that route dy -----------===//
//
// amp_where, amp_where_grad, amp_maximum_grad and amp_minimum_grad on the
// CUDA backend: grid-stride kernels over the contiguous result that read the
// broadcast operands through the simplified loop nest of the argument checks
// (StridedIndex.cuh; no division for the same-shape and scalar cases; where
// over same shapes moves 128 bits per access when aligned). where
// and where_grad select bit patterns (any dtype for where); the extremum
// gradients route dy with the reference's routeExtremum
// (reference/ElementwiseMath.h). Exact, as on the reference.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaDevice.cuh"
#include "cuda/StridedIndex.cuh"
#include "reference/ElementwiseMath.h"
#include "reference/SelectChecks.h"

using namespace amp::runtime;
using namespace amp::runtime::cuda;
using namespace amp::runtime::kernels;

namespace {

/// out[i] = cond ? lhs : rhs (index operands: cond, lhs, rhs).
template <typename U, typename I>
__global__ void __launch_bounds__(kThreads)
    whereKernel(const uint8_t *cond, const U *lhs, const U *rhs, U *out,
                int64_t n, StridedIndex<3, I> index) {
  AMP_GRID_STRIDE(i, n) {
    I off[3];
    index.offsets(static_cast<I>(i), off);
    out[i] = cond[off[0]] ? lhs[off[1]] : rhs[off[2]];
  }
}

/// kPack<U> flags of cond, loaded with one access.
template <typename U> struct alignas(kPack<U>) Flags { uint8_t v[kPack<U>]; };

/// whereKernel for operands of the output's shape: kPack<U> elements per
/// thread and iteration as 128-bit accesses (cond: kPack<U> bytes), then a
/// scalar tail. Every pointer is aligned (the caller checks).
template <typename U>
__global__ void __launch_bounds__(kThreads)
    whereSameKernel(const uint8_t *cond, const U *lhs, const U *rhs, U *out,
                    int64_t n) {
  constexpr int P = kPack<U>;
  const int64_t packs = n / P;
  const Flags<U> *pc = reinterpret_cast<const Flags<U> *>(cond);
  const Pack<U> *pl = reinterpret_cast<const Pack<U> *>(lhs);
  const Pack<U> *pr = reinterpret_cast<const Pack<U> *>(rhs);
  Pack<U> *po = reinterpret_cast<Pack<U> *>(out);
  AMP_GRID_STRIDE(i, packs) {
    const Flags<U> c = pc[i];
    const Pack<U> a = pl[i], b = pr[i];
    Pack<U> y;
#pragma unroll
    for (int k = 0; k < P; ++k)
      y.v[k] = c.v[k] ? a.v[k] : b.v[k];
    po[i] = y;
  }
  const int64_t done = packs * P;
  AMP_GRID_STRIDE(j, n - done) {
    const int64_t i = done + j;
    out[i] = cond[i] ? lhs[i] : rhs[i];
  }
}

/// dlhs[i] = cond ? dy : +0, drhs[i] = cond ? +0 : dy (index operand:
/// cond); +0 is all-zero bits in every float dtype.
template <typename U, typename I>
__global__ void __launch_bounds__(kThreads)
    whereGradKernel(const U *dy, const uint8_t *cond, U *dlhs, U *drhs,
                    int64_t n, StridedIndex<1, I> index) {
  AMP_GRID_STRIDE(i, n) {
    I off[1];
    index.offsets(static_cast<I>(i), off);
    const U v = dy[i];
    const bool take = cond[off[0]] != 0;
    dlhs[i] = take ? v : U{0};
    drhs[i] = take ? U{0} : v;
  }
}

/// The gradients of maximum (IsMax) or minimum (index operands: lhs, rhs).
template <typename T, bool IsMax, typename I>
__global__ void __launch_bounds__(kThreads)
    extremumGradKernel(const T *dy, const T *lhs, const T *rhs, T *dlhs,
                       T *drhs, int64_t n, StridedIndex<2, I> index) {
  AMP_GRID_STRIDE(i, n) {
    I off[2];
    index.offsets(static_cast<I>(i), off);
    float ga, gb;
    routeExtremum<IsMax>(ld(dy, i), ld(lhs, off[0]), ld(rhs, off[1]), &ga, &gb);
    st(dlhs, i, ga);
    st(drhs, i, gb);
  }
}

amp_status_t extremumGrad(const char *fn, bool isMax, const void *dy,
                          const void *lhs, const void *rhs, void *dlhs,
                          void *drhs, const int64_t *dyDims, int32_t dyRank,
                          const int64_t *lhsDims, int32_t lhsRank,
                          const int64_t *rhsDims, int32_t rhsRank,
                          amp_dtype_t dtype, void *stream) {
  Checker check(fn);
  StridedLoop<3> loop;
  int64_t n;
  if (amp_status_t s = checkExtremumGrad(check, dy, lhs, rhs, dlhs, drhs,
                                         dyDims, dyRank, lhsDims, lhsRank,
                                         rhsDims, rhsRank, dtype, &loop, &n))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    dispatchIndex(n, [&](auto i) {
      using I = decltype(i);
      auto kernel = isMax ? extremumGradKernel<T, true, I>
                          : extremumGradKernel<T, false, I>;
      kernel<<<gridFor(n), kThreads, 0, s>>>(
          static_cast<const T *>(dy), static_cast<const T *>(lhs),
          static_cast<const T *>(rhs), static_cast<T *>(dlhs),
          static_cast<T *>(drhs), n, stridedIndex<I>(loop));
    });
  });
  return launched(check, fn);
}

} // namespace

extern "C" {

amp_status_t amp_where(const void *cond, const void *lhs, const void *rhs,
                       void *out, const int64_t *cond_dims, int32_t cond_rank,
                       const int64_t *lhs_dims, int32_t lhs_rank,
                       const int64_t *rhs_dims, int32_t rhs_rank,
                       const int64_t *out_dims, int32_t out_rank,
                       amp_dtype_t dtype, void *stream) {
  Checker check("amp_where");
  StridedLoop<4> loop;
  int64_t n;
  if (amp_status_t s = checkWhere(
          check, cond, lhs, rhs, out, cond_dims, cond_rank, lhs_dims, lhs_rank,
          rhs_dims, rhs_rank, out_dims, out_rank, dtype, &loop, &n))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  // Same shapes simplify to one dimension with unit strides.
  bool same = loop.rank <= 1;
  for (int k = 1; k < 4 && loop.rank == 1; ++k)
    same &= loop.strides[k][0] == 1;
  dispatchBits(dtype, [&](auto bits) {
    using U = decltype(bits);
    if (same && packAligned(lhs, rhs, out) &&
        reinterpret_cast<uintptr_t>(cond) % kPack<U> == 0) {
      whereSameKernel<U><<<gridFor(n, kPack<U>), kThreads, 0, s>>>(
          static_cast<const uint8_t *>(cond), static_cast<const U *>(lhs),
          static_cast<const U *>(rhs), static_cast<U *>(out), n);
      return;
    }
    dispatchIndex(n, [&](auto i) {
      using I = decltype(i);
      whereKernel<U, I><<<gridFor(n), kThreads, 0, s>>>(
          static_cast<const uint8_t *>(cond), static_cast<const U *>(lhs),
          static_cast<const U *>(rhs), static_cast<U *>(out), n,
          stridedIndex<I>(loop));
    });
  });
  return launched(check, "amp_where");
}

amp_status_t amp_where_grad(const void *dy, const void *cond, void *dlhs,
                            void *drhs, const int64_t *dy_dims, int32_t dy_rank,
                            const int64_t *cond_dims, int32_t cond_rank,
                            amp_dtype_t dtype, void *stream) {
  Checker check("amp_where_grad");
  StridedLoop<2> loop;
  int64_t n;
  if (amp_status_t s =
          checkWhereGrad(check, dy, cond, dlhs, drhs, dy_dims, dy_rank,
                         cond_dims, cond_rank, dtype, &loop, &n))
    return s;
  if (n == 0)
    return AMP_STATUS_OK;
  cudaStream_t s = toStream(stream);
  // Float dtypes only: 2- or 4-byte bit patterns.
  auto launch = [&](auto bits) {
    using U = decltype(bits);
    dispatchIndex(n, [&](auto i) {
      using I = decltype(i);
      whereGradKernel<U, I><<<gridFor(n), kThreads, 0, s>>>(
          static_cast<const U *>(dy), static_cast<const uint8_t *>(cond),
          static_cast<U *>(dlhs), static_cast<U *>(drhs), n,
          stridedIndex<I>(loop));
    });
  };
  if (amp_dtype_size(dtype) == 2)
    launch(uint16_t{});
  else
    launch(uint32_t{});
  return launched(check, "amp_where_grad");
}

amp_status_t amp_maximum_grad(const void *dy, const void *lhs, const void *rhs,
                              void *dlhs, void *drhs, const int64_t *dy_dims,
                              int32_t dy_rank, const int64_t *lhs_dims,
                              int32_t lhs_rank, const int64_t *rhs_dims,
                              int32_t rhs_rank, amp_dtype_t dtype,
                              void *stream) {
  return extremumGrad("amp_maximum_grad", true, dy, lhs, rhs, dlhs, drhs,
                      dy_dims, dy_rank, lhs_dims, lhs_rank, rhs_dims, rhs_rank,
                      dtype, stream);
}

amp_status_t amp_minimum_grad(const void *dy, const void *lhs, const void *rhs,
                              void *dlhs, void *drhs, const int64_t *dy_dims,
                              int32_t dy_rank, const int64_t *lhs_dims,
                              int32_t lhs_rank, const int64_t *rhs_dims,
                              int32_t rhs_rank, amp_dtype_t dtype,
                              void *stream) {
  return extremumGrad("amp_minimum_grad", false, dy, lhs, rhs, dlhs, drhs,
                      dy_dims, dy_rank, lhs_dims, lhs_rank, rhs_dims, rhs_rank,
                      dtype, stream);
}

} // extern "C"
