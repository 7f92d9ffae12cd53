//===- KernelsNorm.cpp - Softmax, layer norm and batch norm kernels -------===//
//
// amp_softmax, amp_log_softmax, amp_softmax_grad, amp_layer_norm(_grad) and
// amp_batch_norm(_grad) and amp_running_stats_update on the reference backend.
// Rows are widened into an f32 scratch row, statistics and sums are sequential
// f32 sums, and each stored value is rounded once. Statistics are always stored
// as f32.
//
//===----------------------------------------------------------------------===//

#include "reference/KernelCommon.h"
#include "reference/NormChecks.h"
#include "reference/NormMath.h"

#include <cmath>
#include <vector>

using namespace amp::runtime;
using namespace amp::runtime::kernels;

namespace {

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// Calls fn(base, scratch) for the first element offset of every non-empty
/// row, with `scratchRows` rows of f32 scratch of the row's length. Rows are
/// independent: the cpu backend splits them over its threads
/// (parallelRanges), each range with scratch of its own.
template <typename F>
void forEachRow(const AxisView &v, int scratchRows, F &&fn) {
  if (v.len == 0)
    return;
  parallelRanges(v.outer * v.inner, v.len, [&](int64_t begin, int64_t end) {
    std::vector<float> scratch(static_cast<size_t>(scratchRows * v.len));
    for (int64_t r = begin; r < end; ++r)
      fn((r / v.inner) * v.len * v.inner + r % v.inner, scratch.data());
  });
}

template <typename T>
void loadRow(const T *src, int64_t base, int64_t stride, int64_t len,
             float *row) {
  for (int64_t i = 0; i < len; ++i)
    row[i] = toF32(src[base + i * stride]);
}

template <typename T, bool Log>
void softmaxRows(const AxisView &v, const void *x, void *y) {
  const T *in = static_cast<const T *>(x);
  T *out = static_cast<T *>(y);
  if (v.empty())
    return;
  forEachRow(v, 1, [&](int64_t base, float *row) {
    loadRow(in, base, v.inner, v.len, row);
    float m = row[0];
    for (int64_t i = 1; i < v.len; ++i)
      m = row[i] > m ? row[i] : m;
    float s = 0.0f;
    for (int64_t i = 0; i < v.len; ++i) {
      float e = std::exp(row[i] - m);
      s += e;
      if (!Log)
        row[i] = e;
    }
    if (Log) {
      const float logS = std::log(s);
      for (int64_t i = 0; i < v.len; ++i)
        out[base + i * v.inner] = fromF32<T>(logSoftmaxValue(row[i], m, logS));
    } else {
      for (int64_t i = 0; i < v.len; ++i)
        out[base + i * v.inner] = fromF32<T>(softmaxValue(row[i], s));
    }
  });
}

template <typename T>
void softmaxGradRows(const AxisView &v, const void *dy, const void *y,
                     void *dx) {
  const T *g = static_cast<const T *>(dy);
  const T *p = static_cast<const T *>(y);
  T *out = static_cast<T *>(dx);
  if (v.empty())
    return;
  forEachRow(v, 2, [&](int64_t base, float *scratch) {
    float *gRow = scratch, *pRow = scratch + v.len;
    loadRow(g, base, v.inner, v.len, gRow);
    loadRow(p, base, v.inner, v.len, pRow);
    float s = 0.0f;
    for (int64_t i = 0; i < v.len; ++i)
      s += gRow[i] * pRow[i];
    for (int64_t i = 0; i < v.len; ++i)
      out[base + i * v.inner] =
          fromF32<T>(softmaxGradValue(gRow[i], pRow[i], s));
  });
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

/// An optional per-feature parameter widened to f32 (`fill` when absent).
std::vector<float> loadParam(const void *p, amp_dtype_t dtype, int64_t n,
                             float fill) {
  std::vector<float> out(static_cast<size_t>(n), fill);
  if (p)
    dispatchFloat(dtype, [&](auto t) {
      using T = decltype(t);
      for (int64_t i = 0; i < n; ++i)
        out[i] = toF32(static_cast<const T *>(p)[i]);
    });
  return out;
}

/// Rounds f32 values into an optional output of `dtype`.
void storeParam(void *p, amp_dtype_t dtype, const std::vector<float> &v) {
  if (!p)
    return;
  dispatchFloat(dtype, [&](auto t) {
    using T = decltype(t);
    for (size_t i = 0; i < v.size(); ++i)
      static_cast<T *>(p)[i] = fromF32<T>(v[i]);
  });
}

/// Mean and 1/sqrt(biased variance + eps) of `count` values, read as
/// `groups` contiguous runs of `run` elements `pitch` apart (one row of a
/// layer norm: 1 run; one channel of a batch norm: N runs). Two passes in
/// f32.
template <typename T>
void moments(const T *x, int64_t groups, int64_t run, int64_t pitch, float eps,
             float *meanOut, float *rstdOut) {
  const float count = static_cast<float>(groups * run);
  float sum = 0.0f;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t i = 0; i < run; ++i)
      sum += toF32(x[g * pitch + i]);
  const float mean = meanOf(sum, count);
  float sq = 0.0f;
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t i = 0; i < run; ++i) {
      float d = toF32(x[g * pitch + i]) - mean;
      sq += d * d;
    }
  *meanOut = mean;
  *rstdOut = rstdOf(sq, count, eps);
}

} // namespace

extern "C" {

amp_status_t amp_softmax(const void *x, void *y, const int64_t *dims,
                         int32_t rank, amp_dtype_t dtype, int64_t axis,
                         void * /*stream*/) {
  Checker check("amp_softmax");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"x", x}, {"y", y}}, &v))
    return s;
  return guarded(check, [&] {
    dispatchFloat(dtype,
                  [&](auto t) { softmaxRows<decltype(t), false>(v, x, y); });
  });
}

amp_status_t amp_log_softmax(const void *x, void *y, const int64_t *dims,
                             int32_t rank, amp_dtype_t dtype, int64_t axis,
                             void * /*stream*/) {
  Checker check("amp_log_softmax");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"x", x}, {"y", y}}, &v))
    return s;
  return guarded(check, [&] {
    dispatchFloat(dtype,
                  [&](auto t) { softmaxRows<decltype(t), true>(v, x, y); });
  });
}

amp_status_t amp_softmax_grad(const void *dy, const void *y, void *dx,
                              const int64_t *dims, int32_t rank,
                              amp_dtype_t dtype, int64_t axis,
                              void * /*stream*/) {
  Checker check("amp_softmax_grad");
  AxisView v;
  if (amp_status_t s = checkSoftmax(check, dims, rank, dtype, axis,
                                    {{"dy", dy}, {"y", y}, {"dx", dx}}, &v))
    return s;
  return guarded(check, [&] {
    dispatchFloat(dtype,
                  [&](auto t) { softmaxGradRows<decltype(t)>(v, dy, y, dx); });
  });
}

amp_status_t amp_layer_norm(const void *x, const void *scale, const void *bias,
                            void *y, float *mean, float *rstd,
                            const int64_t *dims, int32_t rank,
                            amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                            amp_dtype_t bias_dtype, int64_t axis, float epsilon,
                            void * /*stream*/) {
  Checker check("amp_layer_norm");
  LayerNormView v;
  if (amp_status_t s =
          checkLayerNorm(check, x, scale, bias, y, mean, rstd, dims, rank,
                         x_dtype, scale_dtype, bias_dtype, axis, epsilon, &v))
    return s;
  const int64_t rows = v.rows, len = v.len;
  if (rows == 0)
    return AMP_STATUS_OK;

  return guarded(check, [&] {
    const std::vector<float> gamma = loadParam(scale, scale_dtype, len, 1.0f);
    const std::vector<float> beta = loadParam(bias, bias_dtype, len, 0.0f);
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      const T *in = static_cast<const T *>(x);
      T *out = static_cast<T *>(y);
      parallelRanges(rows, len, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          const T *xr = in + r * len;
          float mu, rs;
          moments(xr, 1, len, len, epsilon, &mu, &rs);
          T *yr = out + r * len;
          for (int64_t i = 0; i < len; ++i)
            yr[i] =
                fromF32<T>(normAffine(toF32(xr[i]), mu, rs, gamma[i], beta[i]));
          mean[r] = mu;
          rstd[r] = rs;
        }
      });
    });
  });
}

amp_status_t amp_layer_norm_grad(const void *dy, const void *x,
                                 const float *mean, const float *rstd,
                                 const void *scale, void *dx, void *dscale,
                                 void *dbias, const int64_t *dims, int32_t rank,
                                 amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                                 int64_t axis, void * /*stream*/) {
  Checker check("amp_layer_norm_grad");
  LayerNormView v;
  if (amp_status_t s =
          checkLayerNormGrad(check, dy, x, mean, rstd, scale, dx, dscale, dbias,
                             dims, rank, x_dtype, scale_dtype, axis, &v))
    return s;
  const int64_t rows = v.rows, len = v.len;

  return guarded(check, [&] {
    const std::vector<float> gamma = loadParam(scale, scale_dtype, len, 1.0f);
    std::vector<float> dgamma(static_cast<size_t>(len), 0.0f);
    std::vector<float> dbeta(static_cast<size_t>(len), 0.0f);
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      const T *dyp = static_cast<const T *>(dy);
      const T *xp = static_cast<const T *>(x);
      T *dxp = static_cast<T *>(dx);
      const float count = static_cast<float>(len);
      // dgamma and dbeta first, since dx may overwrite dy or x: each
      // column summed over the rows in row order, columns in parallel on
      // the cpu backend, so the sums are the same at any thread count.
      parallelRanges(len, rows, [&](int64_t begin, int64_t end) {
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t base = r * len;
          const float mu = mean[r], rs = rstd[r];
          for (int64_t i = begin; i < end; ++i) {
            const float d = toF32(dyp[base + i]);
            dgamma[i] += d * normalized(toF32(xp[base + i]), mu, rs);
            dbeta[i] += d;
          }
        }
      });
      // dx: each row on its own (rows in parallel on the cpu backend).
      parallelRanges(rows, len, [&](int64_t begin, int64_t end) {
        std::vector<float> xhat(static_cast<size_t>(len)),
            g(static_cast<size_t>(len));
        for (int64_t r = begin; r < end; ++r) {
          const int64_t base = r * len;
          const float mu = mean[r], rs = rstd[r];
          float sumG = 0.0f, sumGX = 0.0f;
          for (int64_t i = 0; i < len; ++i) {
            xhat[i] = normalized(toF32(xp[base + i]), mu, rs);
            g[i] = toF32(dyp[base + i]) * gamma[i];
            sumG += g[i];
            sumGX += g[i] * xhat[i];
          }
          const float meanG = meanOf(sumG, count),
                      meanGX = meanOf(sumGX, count);
          for (int64_t i = 0; i < len; ++i)
            dxp[base + i] = fromF32<T>(
                layerNormGradValue(rs, g[i], meanG, xhat[i], meanGX));
        }
      });
    });
    storeParam(dscale, scale_dtype, dgamma);
    storeParam(dbias, scale_dtype, dbeta);
  });
}

amp_status_t amp_batch_norm(const void *x, const void *scale, const void *bias,
                            void *y, float *mean, float *invstd,
                            const int64_t *dims, int32_t rank,
                            amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                            amp_dtype_t bias_dtype, float epsilon,
                            void * /*stream*/) {
  Checker check("amp_batch_norm");
  BatchNormView v;
  if (amp_status_t s =
          checkBatchNorm(check, x, scale, bias, y, mean, invstd, dims, rank,
                         x_dtype, scale_dtype, bias_dtype, epsilon, &v))
    return s;
  const int64_t c = v.channels, sp = v.spatial;

  return guarded(check, [&] {
    const int64_t batch = dims[0];
    const std::vector<float> gamma = loadParam(scale, scale_dtype, c, 1.0f);
    const std::vector<float> beta = loadParam(bias, bias_dtype, c, 0.0f);
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      const T *in = static_cast<const T *>(x);
      T *out = static_cast<T *>(y);
      // Channels are independent (the cpu backend splits them).
      parallelRanges(c, batch * sp, [&](int64_t first, int64_t last) {
        for (int64_t ch = first; ch < last; ++ch) {
          float mu, is;
          moments(in + ch * sp, batch, sp, c * sp, epsilon, &mu, &is);
          for (int64_t b = 0; b < batch; ++b) {
            const int64_t base = (b * c + ch) * sp;
            for (int64_t i = 0; i < sp; ++i)
              out[base + i] = fromF32<T>(
                  normAffine(toF32(in[base + i]), mu, is, gamma[ch], beta[ch]));
          }
          mean[ch] = mu;
          invstd[ch] = is;
        }
      });
    });
  });
}

amp_status_t amp_batch_norm_grad(const void *dy, const void *x,
                                 const float *mean, const float *invstd,
                                 const void *scale, void *dx, void *dscale,
                                 void *dbias, const int64_t *dims, int32_t rank,
                                 amp_dtype_t x_dtype, amp_dtype_t scale_dtype,
                                 void * /*stream*/) {
  Checker check("amp_batch_norm_grad");
  BatchNormView v;
  if (amp_status_t s =
          checkBatchNormGrad(check, dy, x, mean, invstd, scale, dx, dscale,
                             dbias, dims, rank, x_dtype, scale_dtype, &v))
    return s;
  const int64_t c = v.channels, sp = v.spatial;

  return guarded(check, [&] {
    const int64_t batch = dims[0];
    const std::vector<float> gamma = loadParam(scale, scale_dtype, c, 1.0f);
    std::vector<float> dgamma(static_cast<size_t>(c)),
        dbeta(static_cast<size_t>(c));
    dispatchFloat(x_dtype, [&](auto t) {
      using T = decltype(t);
      const T *dyp = static_cast<const T *>(dy);
      const T *xp = static_cast<const T *>(x);
      T *dxp = static_cast<T *>(dx);
      const float count = static_cast<float>(batch * sp);
      // Channels are independent (the cpu backend splits them).
      parallelRanges(c, batch * sp, [&](int64_t first, int64_t last) {
        for (int64_t ch = first; ch < last; ++ch) {
          const float mu = mean[ch], is = invstd[ch];
          float sumDy = 0.0f, sumDyX = 0.0f;
          for (int64_t b = 0; b < batch; ++b) {
            const int64_t base = (b * c + ch) * sp;
            for (int64_t i = 0; i < sp; ++i) {
              const float d = toF32(dyp[base + i]);
              sumDy += d;
              sumDyX += d * normalized(toF32(xp[base + i]), mu, is);
            }
          }
          const float k = gamma[ch] * is;
          const float meanDy = meanOf(sumDy, count),
                      meanDyX = meanOf(sumDyX, count);
          for (int64_t b = 0; b < batch; ++b) {
            const int64_t base = (b * c + ch) * sp;
            for (int64_t i = 0; i < sp; ++i) {
              const float xh = normalized(toF32(xp[base + i]), mu, is);
              dxp[base + i] = fromF32<T>(batchNormGradValue(
                  k, toF32(dyp[base + i]), meanDy, xh, meanDyX));
            }
          }
          dgamma[ch] = sumDyX;
          dbeta[ch] = sumDy;
        }
      });
    });
    storeParam(dscale, scale_dtype, dgamma);
    storeParam(dbias, scale_dtype, dbeta);
  });
}

amp_status_t amp_running_stats_update(
    const float *running_mean, const float *running_var, const float *mean,
    const float *invstd, float *new_mean, float *new_var, int64_t channels,
    float momentum, float epsilon, float correction, void * /*stream*/) {
  Checker check("amp_running_stats_update");
  if (amp_status_t s = checkRunningStatsUpdate(
          check, running_mean, running_var, mean, invstd, new_mean, new_var,
          channels, momentum, epsilon, correction))
    return s;
  return guarded(check, [&] {
    for (int64_t c = 0; c < channels; ++c) {
      const float var = batchVariance(invstd[c], epsilon, correction);
      new_mean[c] = runningStat(running_mean[c], mean[c], momentum);
      new_var[c] = runningStat(running_var[c], var, momentum);
    }
  });
}

} // extern "C"
