//===- CompareNorm.cpp - amp_layer_norm(_grad), amp_batch_norm(_grad) -----===//
//
// Inputs are on a coarse grid (multiples of 1/8, |x| <= 4; dy multiples of
// 1/16, |dy| <= 1; scale multiples of 1/8, |scale| <= 2), so every sum of
// inputs (sum x, sum dy, sum dy * scale) is exact in f32 in any order: the
// mean statistics and dbias must then match bitwise, which checks that
// both backends sum the same elements. The other sums (of squared
// deviations, of dy * xhat) are rounded; a sum of G terms is within
// (G - 1) u of the exact one relative to the sum of the |terms| (u =
// 2^-24) on each backend (sequential on the reference, a tree on CUDA), so
// the two differ by at most 2 G u of it. From that:
//   rstd:   relative (G + 8) u (the sum, the division, + eps, sqrt, 1/x);
//   y:      absolute (G + 8) u max|xhat scale| (rstd's error) + 6 u
//           (max|xhat scale| + max|bias|) (the roundings of the formula);
//   dscale: absolute 2 (R + 2) u max over features of sum |dy xhat|;
//   dx:     absolute K (X 2 (G + 1) u S / G + 6 u (2 Gm + X S / G)), with
//           K = max|rstd| (layer) or max|scale invstd| (batch), X = max|xhat|,
//           Gm = max|g| (g = dy scale or dy), S = max over groups of
//           sum |g xhat|.
// G is the group size (the row length, or N x spatial), R the number of
// rows summed per feature. f16/bf16 outputs add one rounding: 1 ulp.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <regex>
#include <string>
#include <vector>

using namespace amp::compare;

namespace {

constexpr double kU = 0x1p-24;

double roundingOf(amp_dtype_t dt) {
  return dt == AMP_DTYPE_F16 ? 0x1p-10 : dt == AMP_DTYPE_BF16 ? 0x1p-7 : 0.0;
}

/// abs and rel in f32, plus one rounding to dt (relative, and the smallest
/// subnormal for results near 0).
Tolerance tol(amp_dtype_t dt, double abs, double rel) {
  const double tiny = dt == AMP_DTYPE_F16    ? 0x1p-24
                      : dt == AMP_DTYPE_BF16 ? 0x1p-133
                                             : 0x1p-149;
  return Tolerance{abs + tiny, rel + roundingOf(dt), 1, false};
}

/// n values k / denom with k uniform in [-bound * denom, bound * denom].
Host gridHost(Context &c, amp_dtype_t dt, int64_t n, int denom, int bound) {
  std::uniform_int_distribution<int> k(-bound * denom, bound * denom);
  Host h = zeros(dt, n);
  for (int64_t i = 0; i < n; ++i)
    h.set(i, double(k(c.rng)) / denom);
  return h;
}

/// The affine parameters' dtype choice: absent, f32, or x's dtype.
enum class Param { None, F32, Same };

amp_dtype_t paramDtype(Param p, amp_dtype_t x) {
  return p == Param::F32 ? AMP_DTYPE_F32 : x;
}

const char *paramName(Param p) {
  return p == Param::None ? "none" : p == Param::F32 ? "f32" : "same";
}

/// A parameter's value at feature f (fill when absent).
double param(const Host *h, int64_t f, double fill) {
  return h ? h->get(f) : fill;
}

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string d = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    d += (i ? "," : "") + std::to_string(dims[i]);
  return d + "]";
}

/// A norm's geometry for the bounds: element e is in group groupOf(e) (a
/// row, a channel) and uses feature featureOf(e) of the parameters.
struct Geometry {
  int64_t n, groups, groupSize, features, perFeature;
  std::function<int64_t(int64_t)> groupOf, featureOf;
};

/// The tolerance of y from the statistics the reference computed.
Tolerance forwardTolerance(amp_dtype_t dt, const Geometry &g, const Host &x,
                           const Host *scale, const Host *bias,
                           const Host &mean, const Host &rstd) {
  double xg = 0, b = 0;
  for (int64_t e = 0; e < g.n; ++e) {
    const int64_t r = g.groupOf(e), f = g.featureOf(e);
    const double xhat = (x.get(e) - mean.get(r)) * rstd.get(r);
    xg = std::max(xg, std::fabs(xhat * param(scale, f, 1)));
    b = std::max(b, std::fabs(param(bias, f, 0)));
  }
  const double G = double(g.groupSize);
  return tol(dt, (G + 8) * kU * xg + 6 * kU * (xg + b), 0);
}

/// The tolerances of dx and dscale (layer: k = rstd, g = dy * scale;
/// batch: k = scale * invstd, g = dy).
void gradTolerances(amp_dtype_t dt, amp_dtype_t pdt, const Geometry &g,
                    bool layer, const Host &dy, const Host &x,
                    const Host *scale, const Host &mean, const Host &rstd,
                    Tolerance *dxTol, Tolerance *dscaleTol) {
  double K = 0, X = 0, Gm = 0, S = 0, F = 0;
  std::vector<double> perGroup(size_t(g.groups), 0.0),
      perFeature(size_t(g.features), 0.0);
  for (int64_t e = 0; e < g.n; ++e) {
    const int64_t r = g.groupOf(e), f = g.featureOf(e);
    const double xhat = (x.get(e) - mean.get(r)) * rstd.get(r);
    const double gamma = param(scale, f, 1);
    const double gi = layer ? dy.get(e) * gamma : dy.get(e);
    K = std::max(K, std::fabs(layer ? rstd.get(r) : gamma * rstd.get(r)));
    X = std::max(X, std::fabs(xhat));
    Gm = std::max(Gm, std::fabs(gi));
    perGroup[size_t(r)] += std::fabs(gi * xhat);
    perFeature[size_t(f)] += std::fabs(dy.get(e) * xhat);
  }
  for (double v : perGroup)
    S = std::max(S, v);
  for (double v : perFeature)
    F = std::max(F, v);
  const double G = double(g.groupSize), SG = S / std::max(G, 1.0);
  *dxTol =
      tol(dt, K * (X * 2 * (G + 1) * kU * SG + 6 * kU * (2 * Gm + X * SG)), 0);
  *dscaleTol = tol(pdt, 2 * (double(g.perFeature) + 2) * kU * F, 0);
}

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

struct LayerShape {
  std::vector<int64_t> dims;
  int64_t axis;
};

const std::vector<LayerShape> &layerShapes() {
  static const std::vector<LayerShape> all = {
      {{1, 1}, -1},     {{3, 7}, 1},       {{67, 100}, -1}, {{5, 128}, 1},
      {{9, 129}, -1},   {{4, 1024}, -1},   {{3, 1025}, -1}, {{2, 3001}, 1},
      {{2, 20000}, -1}, {{2, 3, 4, 5}, 1}, {{0, 5}, -1},    {{1000, 33}, -1},
      {{7}, 0},
  };
  return all;
}

Geometry layerGeometry(const LayerShape &s) {
  const int64_t rank = int64_t(s.dims.size());
  const int64_t a = s.axis < 0 ? s.axis + rank : s.axis;
  int64_t rows = 1, len = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < a ? rows : len) *= s.dims[size_t(i)];
  return {rows * len,
          rows,
          len,
          len,
          rows,
          [len](int64_t e) { return e / len; },
          [len](int64_t e) { return e % len; }};
}

struct LayerOut {
  Host y, mean, rstd;
};

LayerOut runLayerNorm(Backend &b, const LayerShape &s, const Host &x,
                      const Host *scale, const Host *bias, bool inPlace) {
  const Geometry g = layerGeometry(s);
  Buf bx = b.upload(x), by = inPlace ? Buf() : b.alloc(x.dtype, g.n);
  Buf bs = scale ? b.upload(*scale) : Buf(),
      bb = bias ? b.upload(*bias) : Buf();
  Buf mean = b.alloc(AMP_DTYPE_F32, g.groups),
      rstd = b.alloc(AMP_DTYPE_F32, g.groups);
  Buf &y = inPlace ? bx : by;
  b.ok(AMP_CALL(b, amp_layer_norm, bx, bs, bb, y,
                static_cast<float *>(mean.get()),
                static_cast<float *>(rstd.get()), s.dims.data(),
                int32_t(s.dims.size()), x.dtype, scale ? scale->dtype : x.dtype,
                bias ? bias->dtype : x.dtype, s.axis, 1e-5f, nullptr));
  return {b.download(y), b.download(mean), b.download(rstd)};
}

} // namespace

AMP_COMPARE_CASE(layer_norm) {
  for (amp_dtype_t dt : floatDtypes())
    for (const LayerShape &s : layerShapes())
      for (Param p : {Param::None, Param::F32, Param::Same}) {
        const Geometry g = layerGeometry(s);
        const Host x = gridHost(c, dt, g.n, 8, 4);
        const Host scale = gridHost(c, paramDtype(p, dt), g.features, 8, 2);
        const Host bias = gridHost(c, paramDtype(p, dt), g.features, 8, 1);
        const Host *ps = p == Param::None ? nullptr : &scale;
        const Host *pb = p == Param::None ? nullptr : &bias;
        const std::string what = std::string("layer_norm ") +
                                 amp_dtype_name(dt) + " " + dimsText(s.dims) +
                                 " axis " + std::to_string(s.axis) +
                                 " params " + paramName(p);
        for (bool inPlace : {false, true}) {
          const LayerOut r = runLayerNorm(*c.ref, s, x, ps, pb, inPlace);
          const LayerOut d = runLayerNorm(*c.dev, s, x, ps, pb, inPlace);
          const std::string w = what + (inPlace ? " in place" : "");
          c.expectClose(w + " mean", r.mean, d.mean, Tolerance::exact());
          c.expectClose(w + " rstd", r.rstd, d.rstd,
                        tol(AMP_DTYPE_F32, 0, (double(g.groupSize) + 8) * kU));
          c.expectClose(w + " y", r.y, d.y,
                        forwardTolerance(dt, g, x, ps, pb, r.mean, r.rstd));
        }
      }
}

namespace {

enum class Alias { None, DxIsDy, DxIsX };

struct GradOut {
  Host dx, dscale, dbias;
};

/// amp_layer_norm_grad or amp_batch_norm_grad on b (the statistics are
/// inputs); dscale/dbias only when `params`.
GradOut runGrad(Backend &b, bool layer, const std::vector<int64_t> &dims,
                int64_t axis, const Host &dy, const Host &x, const Host &mean,
                const Host &rstd, const Host *scale, amp_dtype_t pdt,
                int64_t features, bool params, Alias alias) {
  Buf bdy = b.upload(dy), bx = b.upload(x), bm = b.upload(mean),
      br = b.upload(rstd);
  Buf bs = scale ? b.upload(*scale) : Buf();
  Buf bdx = alias == Alias::None ? b.alloc(dy.dtype, dy.numel()) : Buf();
  Buf ds = params ? b.alloc(pdt, features) : Buf(),
      db = params ? b.alloc(pdt, features) : Buf();
  Buf &dx = alias == Alias::DxIsDy ? bdy : alias == Alias::DxIsX ? bx : bdx;
  const float *m = static_cast<const float *>(bm.get()),
              *r = static_cast<const float *>(br.get());
  const int32_t rank = int32_t(dims.size());
  if (layer)
    b.ok(AMP_CALL(b, amp_layer_norm_grad, bdy, bx, m, r, bs, dx, ds, db,
                  dims.data(), rank, dy.dtype, pdt, axis, nullptr));
  else
    b.ok(AMP_CALL(b, amp_batch_norm_grad, bdy, bx, m, r, bs, dx, ds, db,
                  dims.data(), rank, dy.dtype, pdt, nullptr));
  GradOut out{b.download(dx), Host(), Host()};
  if (params) {
    out.dscale = b.download(ds);
    out.dbias = b.download(db);
  }
  return out;
}

/// Runs one gradient case on both backends with every aliasing and
/// compares; the statistics come from the reference's forward.
void compareGrad(Context &c, bool layer, const std::string &what,
                 const std::vector<int64_t> &dims, int64_t axis,
                 const Geometry &g, amp_dtype_t dt, Param p, const Host &x,
                 const Host &mean, const Host &rstd) {
  const amp_dtype_t pdt = paramDtype(p, dt);
  const Host dy = gridHost(c, dt, g.n, 16, 1);
  const Host scale = gridHost(c, pdt, g.features, 8, 2);
  const Host *ps = p == Param::None ? nullptr : &scale;
  Tolerance dxTol, dscaleTol;
  gradTolerances(dt, pdt, g, layer, dy, x, ps, mean, rstd, &dxTol, &dscaleTol);
  for (auto [alias, aliasName] :
       {std::pair{Alias::None, ""}, std::pair{Alias::DxIsDy, " dx=dy"},
        std::pair{Alias::DxIsX, " dx=x"}})
    for (bool params : {true, false}) {
      const std::string w =
          what + aliasName + (params ? "" : " without dscale/dbias");
      const GradOut r = runGrad(*c.ref, layer, dims, axis, dy, x, mean, rstd,
                                ps, pdt, g.features, params, alias);
      const GradOut d = runGrad(*c.dev, layer, dims, axis, dy, x, mean, rstd,
                                ps, pdt, g.features, params, alias);
      c.expectClose(w + " dx", r.dx, d.dx, dxTol);
      if (params) {
        c.expectClose(w + " dscale", r.dscale, d.dscale, dscaleTol);
        c.expectClose(w + " dbias", r.dbias, d.dbias, Tolerance::exact());
      }
    }
}

} // namespace

AMP_COMPARE_CASE(layer_norm_grad) {
  std::vector<LayerShape> all = layerShapes();
  all.push_back({{0, 37}, 1}); // no rows: dscale = dbias = 0
  all.push_back({{300, 2, 3}, 1});
  for (amp_dtype_t dt : floatDtypes())
    for (const LayerShape &s : all)
      for (Param p : {Param::None, Param::F32, Param::Same}) {
        const Geometry g = layerGeometry(s);
        const Host x = gridHost(c, dt, g.n, 8, 4);
        const LayerOut f = runLayerNorm(*c.ref, s, x, nullptr, nullptr, false);
        compareGrad(c, true,
                    std::string("layer_norm_grad ") + amp_dtype_name(dt) + " " +
                        dimsText(s.dims) + " axis " + std::to_string(s.axis) +
                        " scale " + paramName(p),
                    s.dims, s.axis, g, dt, p, x, f.mean, f.rstd);
      }
}

//===----------------------------------------------------------------------===//
// Batch norm
//===----------------------------------------------------------------------===//

namespace {

const std::vector<std::vector<int64_t>> &batchShapes() {
  static const std::vector<std::vector<int64_t>> all = {
      {1, 1},       {5, 3},          {64, 7},          {2, 3, 5},
      {3, 4, 7, 9}, {8, 16, 32, 32}, {2, 3, 100, 100}, {1, 2, 3001},
      {300, 2000},  {4, 0, 5},       {2, 1, 1, 1},     {4, 130, 3, 3},
  };
  return all;
}

Geometry batchGeometry(const std::vector<int64_t> &dims) {
  const int64_t c = dims[1];
  int64_t sp = 1;
  for (size_t i = 2; i < dims.size(); ++i)
    sp *= dims[i];
  const int64_t m = dims[0] * sp;
  return {dims[0] * c * sp,
          c,
          m,
          c,
          m,
          [c, sp](int64_t e) { return (e / sp) % c; },
          [c, sp](int64_t e) { return (e / sp) % c; }};
}

LayerOut runBatchNorm(Backend &b, const std::vector<int64_t> &dims,
                      const Host &x, const Host *scale, const Host *bias,
                      bool inPlace) {
  const Geometry g = batchGeometry(dims);
  Buf bx = b.upload(x), by = inPlace ? Buf() : b.alloc(x.dtype, g.n);
  Buf bs = scale ? b.upload(*scale) : Buf(),
      bb = bias ? b.upload(*bias) : Buf();
  Buf mean = b.alloc(AMP_DTYPE_F32, g.groups),
      invstd = b.alloc(AMP_DTYPE_F32, g.groups);
  Buf &y = inPlace ? bx : by;
  b.ok(AMP_CALL(b, amp_batch_norm, bx, bs, bb, y,
                static_cast<float *>(mean.get()),
                static_cast<float *>(invstd.get()), dims.data(),
                int32_t(dims.size()), x.dtype, scale ? scale->dtype : x.dtype,
                bias ? bias->dtype : x.dtype, 1e-5f, nullptr));
  return {b.download(y), b.download(mean), b.download(invstd)};
}

} // namespace

AMP_COMPARE_CASE(batch_norm) {
  for (amp_dtype_t dt : floatDtypes())
    for (const std::vector<int64_t> &dims : batchShapes())
      for (Param p : {Param::None, Param::F32, Param::Same}) {
        const Geometry g = batchGeometry(dims);
        const Host x = gridHost(c, dt, g.n, 8, 4);
        const Host scale = gridHost(c, paramDtype(p, dt), g.features, 8, 2);
        const Host bias = gridHost(c, paramDtype(p, dt), g.features, 8, 1);
        const Host *ps = p == Param::None ? nullptr : &scale;
        const Host *pb = p == Param::None ? nullptr : &bias;
        const std::string what = std::string("batch_norm ") +
                                 amp_dtype_name(dt) + " " + dimsText(dims) +
                                 " params " + paramName(p);
        for (bool inPlace : {false, true}) {
          const LayerOut r = runBatchNorm(*c.ref, dims, x, ps, pb, inPlace);
          const LayerOut d = runBatchNorm(*c.dev, dims, x, ps, pb, inPlace);
          const std::string w = what + (inPlace ? " in place" : "");
          c.expectClose(w + " mean", r.mean, d.mean, Tolerance::exact());
          c.expectClose(w + " invstd", r.rstd, d.rstd,
                        tol(AMP_DTYPE_F32, 0, (double(g.groupSize) + 8) * kU));
          c.expectClose(w + " y", r.y, d.y,
                        forwardTolerance(dt, g, x, ps, pb, r.mean, r.rstd));
        }
      }
}

AMP_COMPARE_CASE(batch_norm_grad) {
  for (amp_dtype_t dt : floatDtypes())
    for (const std::vector<int64_t> &dims : batchShapes())
      for (Param p : {Param::None, Param::F32, Param::Same}) {
        const Geometry g = batchGeometry(dims);
        const Host x = gridHost(c, dt, g.n, 8, 4);
        const LayerOut f =
            runBatchNorm(*c.ref, dims, x, nullptr, nullptr, false);
        compareGrad(c, false,
                    std::string("batch_norm_grad ") + amp_dtype_name(dt) + " " +
                        dimsText(dims) + " scale " + paramName(p),
                    dims, 0, g, dt, p, x, f.mean, f.rstd);
      }
}

/// The running statistics' update from a batch norm's statistics, fresh
/// and in place: the same f32 formula (NormMath.h) on both, so exact.
AMP_COMPARE_CASE(running_stats_update) {
  for (const std::vector<int64_t> &dims : batchShapes()) {
    const Geometry g = batchGeometry(dims);
    if (g.groupSize < 2)
      continue;
    const Host x = gridHost(c, AMP_DTYPE_F32, g.n, 8, 4);
    const LayerOut f = runBatchNorm(*c.ref, dims, x, nullptr, nullptr, false);
    const Host mean = gridHost(c, AMP_DTYPE_F32, g.groups, 8, 1);
    const Host var = gridHost(c, AMP_DTYPE_F32, g.groups, 8, 3);
    const float correction =
        float(double(g.groupSize) / double(g.groupSize - 1));
    for (bool inPlace : {false, true}) {
      auto run = [&](Backend &b) {
        Buf rm = b.upload(mean), rv = b.upload(var), m = b.upload(f.mean),
            is = b.upload(f.rstd);
        Buf nm = inPlace ? Buf() : b.alloc(AMP_DTYPE_F32, g.groups),
            nv = inPlace ? Buf() : b.alloc(AMP_DTYPE_F32, g.groups);
        Buf &outMean = inPlace ? rm : nm, &outVar = inPlace ? rv : nv;
        auto f32 = [](Buf &buf) { return static_cast<float *>(buf.get()); };
        b.ok(AMP_CALL(b, amp_running_stats_update, f32(rm), f32(rv), f32(m),
                      f32(is), f32(outMean), f32(outVar), g.groups, 0.1f, 1e-5f,
                      correction, nullptr));
        return std::pair{b.download(outMean), b.download(outVar)};
      };
      const auto [refMean, refVar] = run(*c.ref);
      const auto [devMean, devVar] = run(*c.dev);
      const std::string w = "running_stats_update " + dimsText(dims) +
                            (inPlace ? " in place" : "");
      c.expectClose(w + " mean", refMean, devMean, Tolerance::exact());
      c.expectClose(w + " var", refVar, devVar, Tolerance::exact());
    }
  }
}

AMP_COMPARE_CASE(norm_errors) {
  const int64_t dims[] = {2, 3}, one[] = {4}, empty[] = {2, 0, 3};
  Buf bufs[2];
  int k = 0;
  for (Backend *b : {c.ref, c.dev})
    bufs[k++] = b->alloc(AMP_DTYPE_F32, 64);
  auto both = [&](const char *what, auto call) {
    const amp_status_t r = call(*c.ref, bufs[0].get());
    const std::string refError = c.ref->lastError();
    const amp_status_t d = call(*c.dev, bufs[1].get());
    // The same checks: the same message, but for the pointers' values.
    const std::regex pointer("0x[0-9a-fA-F]+");
    const std::string devError = c.dev->lastError();
    if (c.expectSameStatus(what, r, d) &&
        std::regex_replace(devError, pointer, "P") !=
            std::regex_replace(refError, pointer, "P"))
      c.fail(std::string(what) + ": messages differ: \"" + refError +
             "\" vs \"" + devError + "\"");
  };
  both("layer_norm i32", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_layer_norm, p, nullptr, nullptr, p, f, f, dims, 2,
                    AMP_DTYPE_I32, AMP_DTYPE_I32, AMP_DTYPE_I32, 1, 1e-5f,
                    nullptr);
  });
  both("layer_norm f16 x, bf16 scale", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_layer_norm, p, p, nullptr, p, f, f, dims, 2,
                    AMP_DTYPE_F16, AMP_DTYPE_BF16, AMP_DTYPE_F16, 1, 1e-5f,
                    nullptr);
  });
  both("layer_norm negative epsilon", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_layer_norm, p, nullptr, nullptr, p, f, f, dims, 2,
                    AMP_DTYPE_F32, AMP_DTYPE_F32, AMP_DTYPE_F32, 1, -1.0f,
                    nullptr);
  });
  both("layer_norm over nothing", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_layer_norm, p, nullptr, nullptr, p, f, f, empty, 3,
                    AMP_DTYPE_F32, AMP_DTYPE_F32, AMP_DTYPE_F32, 1, 1e-5f,
                    nullptr);
  });
  both("layer_norm_grad NULL mean", [&](Backend &b, void *p) {
    const float *f = static_cast<const float *>(p);
    return AMP_CALL(b, amp_layer_norm_grad, p, p, nullptr, f, nullptr, p,
                    nullptr, nullptr, dims, 2, AMP_DTYPE_F32, AMP_DTYPE_F32, -1,
                    nullptr);
  });
  both("layer_norm_grad axis 2", [&](Backend &b, void *p) {
    const float *f = static_cast<const float *>(p);
    return AMP_CALL(b, amp_layer_norm_grad, p, p, f, f, nullptr, p, nullptr,
                    nullptr, dims, 2, AMP_DTYPE_F32, AMP_DTYPE_F32, 2, nullptr);
  });
  both("batch_norm rank 1", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_batch_norm, p, nullptr, nullptr, p, f, f, one, 1,
                    AMP_DTYPE_F32, AMP_DTYPE_F32, AMP_DTYPE_F32, 1e-5f,
                    nullptr);
  });
  both("batch_norm empty channels", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    const int64_t d[] = {0, 3, 4};
    return AMP_CALL(b, amp_batch_norm, p, nullptr, nullptr, p, f, f, d, 3,
                    AMP_DTYPE_F32, AMP_DTYPE_F32, AMP_DTYPE_F32, 1e-5f,
                    nullptr);
  });
  both("batch_norm NaN epsilon", [&](Backend &b, void *p) {
    float *f = static_cast<float *>(p);
    return AMP_CALL(b, amp_batch_norm, p, nullptr, nullptr, p, f, f, dims, 2,
                    AMP_DTYPE_F32, AMP_DTYPE_F32, AMP_DTYPE_F32, std::nanf(""),
                    nullptr);
  });
  both("batch_norm_grad misaligned dscale", [&](Backend &b, void *p) {
    const float *f = static_cast<const float *>(p);
    return AMP_CALL(b, amp_batch_norm_grad, p, p, f, f, nullptr, p,
                    static_cast<char *>(p) + 2, nullptr, dims, 2, AMP_DTYPE_F32,
                    AMP_DTYPE_F32, nullptr);
  });
  both("batch_norm_grad f32 x, f16 scale", [&](Backend &b, void *p) {
    const float *f = static_cast<const float *>(p);
    return AMP_CALL(b, amp_batch_norm_grad, p, p, f, f, p, p, nullptr, nullptr,
                    dims, 2, AMP_DTYPE_F32, AMP_DTYPE_F16, nullptr);
  });
}
