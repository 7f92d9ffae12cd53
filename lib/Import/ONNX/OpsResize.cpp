//===- OpsResize.cpp - Resize and Upsample --------------------------------===//
//
// Resize (every mode: nearest, linear and cubic, with antialias and
// exclude_outside; every coordinate transformation; axes, sizes with
// keep_aspect_ratio_policy) and Upsample. Each is separable: along one
// axis, every output position is a weighted sum of input positions, a
// matrix that depends only on the shapes and attributes. The importer
// computes that matrix as ONNX's reference defines it and applies it with
// nn.matmul (a linear map of constant weights: it trains, and AMP runs it
// on tensor cores like any matmul). An axis whose matrix is the identity is
// left alone, and nearest upsampling by an integer factor, where each
// output copies one input (PyTorch's Upsample(mode='nearest')), is a
// broadcast instead. tf_crop_and_resize's extrapolation value is added
// where the output lies outside the input along any axis, from per-axis
// constants (the output's size as one constant took the fuzzer 2 s and
// 1.3 GB at 2^26 elements).
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {

enum class Mode { Nearest, Linear, Cubic };
enum class Coord {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfCropAndResize,
};
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };
enum class AspectPolicy { Stretch, NotLarger, NotSmaller };

struct ResizeSpec {
  Mode mode = Mode::Nearest;
  Coord coord = Coord::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  bool antialias = false;
  float extrapolation = 0.0f;
};

/// One axis: `in` positions resized to `out`. `weights` is row-major
/// out x in; `inside[o]` is false where tf_crop_and_resize puts output `o`
/// outside the input (its row is zero).
struct AxisMap {
  int64_t axis = 0, in = 0, out = 0;
  std::vector<float> weights;
  std::vector<char> inside;

  bool allInside() const {
    return std::all_of(inside.begin(), inside.end(), [](char c) { return c; });
  }
  bool isIdentity() const {
    if (in != out || !allInside())
      return false;
    for (int64_t o = 0; o < out; ++o)
      for (int64_t i = 0; i < in; ++i)
        if (weights[o * in + i] != (o == i ? 1.0f : 0.0f))
          return false;
    return true;
  }
  /// Whether output `o` copies input `o / factor` for an integer factor.
  bool isReplication() const {
    if (out % in != 0 || !allInside())
      return false;
    int64_t factor = out / in;
    for (int64_t o = 0; o < out; ++o)
      for (int64_t i = 0; i < in; ++i)
        if (weights[o * in + i] != (i == o / factor ? 1.0f : 0.0f))
          return false;
    return true;
  }
};

} // namespace

/// `v` as printf's %g spells it (diagnostics print doubles in %e).
static std::string shortDouble(double v) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%g", v);
  return s;
}

/// Maps an attribute's string onto an enum; an unknown value is an error.
template <typename E>
static FailureOr<E>
enumAttr(NodeContext &nc, llvm::StringRef name, llvm::StringRef dflt,
         std::initializer_list<std::pair<llvm::StringRef, E>> values) {
  FailureOr<std::string> s = nc.stringAttr(name, dflt);
  if (failed(s))
    return failure();
  for (const auto &[spelling, value] : values)
    if (*s == spelling)
      return value;
  return nc.error() << name << " = '" << *s << "' is not supported", failure();
}

/// The input coordinate of output position `o` (ONNX's
/// coordinate_transformation_mode); `outWidth` is scale * in, which is not
/// `out` when the scale does not divide evenly.
static double sourceCoordinate(const ResizeSpec &s, int64_t o, int64_t in,
                               int64_t out, double scale, double roiStart,
                               double roiEnd) {
  const double outWidth = scale * double(in);
  switch (s.coord) {
  case Coord::AlignCorners:
    return outWidth == 1 ? 0.0 : double(o) * (in - 1) / (outWidth - 1);
  case Coord::Asymmetric:
    return double(o) / scale;
  case Coord::TfCropAndResize: {
    double span = (roiEnd - roiStart) * (in - 1);
    double x = outWidth == 1 ? span / 2 : double(o) * span / (outWidth - 1);
    return x + roiStart * (in - 1);
  }
  case Coord::PytorchHalfPixel:
    return outWidth == 1 ? -0.5 : (o + 0.5) / scale - 0.5;
  case Coord::HalfPixel:
    return (o + 0.5) / scale - 0.5;
  case Coord::HalfPixelSymmetric: {
    double adjustment = double(out) / outWidth;
    double offset = in / 2.0 * (1 - adjustment);
    return offset + (o + 0.5) / scale - 0.5;
  }
  }
  return 0.0;
}

/// The cubic convolution kernel with parameter `a` at distance `x`.
static double cubicKernel(double x, double a) {
  x = std::fabs(x);
  if (x <= 1)
    return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2)
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0.0;
}

/// With antialias, the first neighbour's offset from the left one: the
/// kernel (support 1 for linear, 2 for cubic) stretched by 1 / scale when
/// downsampling. The neighbours run from it to 1 - it, 2 - 2 * it of them.
static int64_t antialiasStart(const ResizeSpec &s, double scale) {
  const double support = s.mode == Mode::Linear ? 1.0 : 2.0;
  return int64_t(std::floor(-support / std::min(scale, 1.0))) + 1;
}

/// The interpolation coefficients at `ratio` in (0, 1] past the left
/// neighbour, in order of the neighbours they weigh.
static std::vector<double> coefficients(const ResizeSpec &s, double ratio,
                                        double scale) {
  switch (s.mode) {
  case Mode::Nearest: {
    if (ratio == 1.0)
      return {0, 1};
    bool right = false;
    switch (s.rounding) {
    case Rounding::RoundPreferFloor:
      right = ratio > 0.5;
      break;
    case Rounding::RoundPreferCeil:
      right = ratio >= 0.5;
      break;
    case Rounding::Floor:
      right = false;
      break;
    case Rounding::Ceil:
      right = true;
      break;
    }
    return {right ? 0.0 : 1.0, right ? 1.0 : 0.0};
  }
  case Mode::Linear:
  case Mode::Cubic: {
    const bool linear = s.mode == Mode::Linear;
    if (!s.antialias) {
      if (linear)
        return {1 - ratio, ratio};
      return {cubicKernel(ratio + 1, s.cubicA), cubicKernel(ratio, s.cubicA),
              cubicKernel(1 - ratio, s.cubicA),
              cubicKernel(2 - ratio, s.cubicA)};
    }
    // Antialiasing when downsampling: the kernel stretched by 1 / scale,
    // normalized.
    const double sc = std::min(scale, 1.0);
    const int64_t start = antialiasStart(s, scale);
    std::vector<double> c;
    for (int64_t i = start; i < 2 - start; ++i) {
      double x = sc * (double(i) - ratio);
      c.push_back(linear ? std::clamp(1 - std::fabs(x), 0.0, 1.0)
                         : cubicKernel(x, s.cubicA));
    }
    double sum = std::accumulate(c.begin(), c.end(), 0.0);
    for (double &v : c)
      v /= sum;
    return c;
  }
  }
  return {};
}

/// The `n` integers nearest `x` (ties to the smaller) within the input
/// padded by ceil(n / 2) on each side, ascending.
static std::vector<int64_t> neighbours(double x, int64_t n, int64_t in) {
  const int64_t pad = (n + 1) / 2, lo = -pad, hi = in - 1 + pad;
  std::vector<int64_t> idx;
  int64_t left = int64_t(std::floor(x)), right = left + 1;
  while (int64_t(idx.size()) < n) {
    bool takeLeft =
        left >= lo && (right > hi || x - double(left) <= double(right) - x);
    if (takeLeft)
      idx.push_back(left--);
    else
      idx.push_back(right++);
  }
  std::sort(idx.begin(), idx.end());
  return idx;
}

static AxisMap axisMap(const ResizeSpec &s, int64_t axis, int64_t in,
                       int64_t out, double scale, double roiStart,
                       double roiEnd) {
  AxisMap m;
  m.axis = axis;
  m.in = in;
  m.out = out;
  m.weights.assign(out * in, 0.0f);
  m.inside.assign(out, 1);
  std::vector<double> row(in);
  for (int64_t o = 0; o < out; ++o) {
    double x = sourceCoordinate(s, o, in, out, scale, roiStart, roiEnd);
    // (A NaN roi puts every output outside.)
    if (s.coord == Coord::TfCropAndResize && !(x >= 0 && x <= double(in - 1))) {
      m.inside[o] = 0;
      continue;
    }
    double left = std::floor(x);
    std::vector<double> c = coefficients(s, x == left ? 1.0 : x - left, scale);
    std::vector<int64_t> idx = neighbours(x, int64_t(c.size()), in);
    if (s.excludeOutside) {
      double sum = 0;
      for (size_t j = 0; j < c.size(); ++j) {
        if (idx[j] < 0 || idx[j] >= in)
          c[j] = 0;
        sum += c[j];
      }
      if (sum != 0)
        for (double &v : c)
          v /= sum;
    }
    // Positions past the edges repeat the edge (ONNX pads with 'edge').
    std::fill(row.begin(), row.end(), 0.0);
    for (size_t j = 0; j < c.size(); ++j)
      row[std::clamp<int64_t>(idx[j], 0, in - 1)] += c[j];
    for (int64_t i = 0; i < in; ++i)
      m.weights[o * in + i] = float(row[i]);
  }
  return m;
}

/// The attributes; opset 10's Resize and Upsample map coordinates
/// asymmetrically and round nearest positions down (what their exporters
/// meant, and what later opsets spell out).
static FailureOr<ResizeSpec> readSpec(NodeContext &nc, bool legacy) {
  ResizeSpec s;
  FailureOr<Mode> mode = enumAttr<Mode>(nc, "mode", "nearest",
                                        {{"nearest", Mode::Nearest},
                                         {"linear", Mode::Linear},
                                         {"bilinear", Mode::Linear},
                                         {"cubic", Mode::Cubic}});
  FailureOr<Coord> coord =
      enumAttr<Coord>(nc, "coordinate_transformation_mode",
                      legacy ? "asymmetric" : "half_pixel",
                      {{"half_pixel", Coord::HalfPixel},
                       {"half_pixel_symmetric", Coord::HalfPixelSymmetric},
                       {"pytorch_half_pixel", Coord::PytorchHalfPixel},
                       {"align_corners", Coord::AlignCorners},
                       {"asymmetric", Coord::Asymmetric},
                       {"tf_crop_and_resize", Coord::TfCropAndResize}});
  FailureOr<Rounding> rounding = enumAttr<Rounding>(
      nc, "nearest_mode", legacy ? "floor" : "round_prefer_floor",
      {{"round_prefer_floor", Rounding::RoundPreferFloor},
       {"round_prefer_ceil", Rounding::RoundPreferCeil},
       {"floor", Rounding::Floor},
       {"ceil", Rounding::Ceil}});
  FailureOr<float> cubicA = nc.floatAttr("cubic_coeff_a", -0.75f);
  FailureOr<int64_t> exclude = nc.intAttr("exclude_outside", 0);
  FailureOr<int64_t> antialias = nc.intAttr("antialias", 0);
  FailureOr<float> extrapolation = nc.floatAttr("extrapolation_value", 0.0f);
  if (failed(mode) || failed(coord) || failed(rounding) || failed(cubicA) ||
      failed(exclude) || failed(antialias) || failed(extrapolation))
    return failure();
  if ((*exclude != 0 && *exclude != 1) || (*antialias != 0 && *antialias != 1))
    return nc.error() << "exclude_outside and antialias must be 0 or 1",
           failure();
  if (!std::isfinite(*cubicA))
    return nc.error() << "cubic_coeff_a must be finite", failure();
  if (*antialias && *mode == Mode::Nearest)
    return nc.error() << "antialias = 1 needs mode 'linear' or 'cubic'",
           failure();
  s.mode = *mode;
  s.coord = *coord;
  s.rounding = *rounding;
  s.cubicA = *cubicA;
  s.excludeOutside = *exclude;
  s.antialias = *antialias;
  s.extrapolation = *extrapolation;
  return s;
}

/// A float constant input that may be omitted or empty (Resize's roi and
/// scales): its values, or an empty list.
static FailureOr<std::vector<double>>
optionalValues(NodeContext &nc, unsigned i, llvm::StringRef what) {
  std::vector<double> values;
  if (!nc.hasInput(i))
    return values;
  FailureOr<const Const *> c = nc.constInput(i, what);
  if (failed(c))
    return failure();
  for (int64_t k = 0, n = (*c)->numel(); k < n; ++k)
    values.push_back((*c)->at(k));
  return values;
}

/// The shape of tf_crop_and_resize's extrapolation values (the output's
/// size on the resized axes, 1 elsewhere) when some output lies outside
/// the input and the value is not 0; std::nullopt when none are needed.
static std::optional<llvm::SmallVector<int64_t>>
extrapolationShape(llvm::ArrayRef<AxisMap> maps, int64_t rank,
                   const ResizeSpec &spec) {
  if (spec.extrapolation == 0.0f ||
      llvm::all_of(maps, [](const AxisMap &m) { return m.allInside(); }))
    return std::nullopt;
  llvm::SmallVector<int64_t> eshape(rank, 1);
  for (const AxisMap &m : maps)
    eshape[m.axis] = m.out;
  return eshape;
}

static constexpr llvm::StringLiteral kExtrapolationTooLarge =
    "the extrapolation values would exceed the importer's limit on constants";

/// tf_crop_and_resize's extrapolation checked against the limit on
/// constants before the axis maps are built, which costs time per output (a
/// fuzzed size of millions must fail fast). An axis puts some output
/// outside the input iff one of its two ends lies outside (the source
/// coordinate is monotone in the output index), and the axes that change
/// size are among the extrapolation's, so their sizes' product is a lower
/// bound of its size: past the limit here, it is past it in applyMaps too.
static LogicalResult checkExtrapolationBound(
    NodeContext &nc, const ResizeSpec &spec, llvm::ArrayRef<int64_t> axes,
    llvm::ArrayRef<int64_t> inShape, llvm::ArrayRef<int64_t> outShape,
    llvm::ArrayRef<double> scale, llvm::ArrayRef<double> roi) {
  if (spec.coord != Coord::TfCropAndResize || spec.extrapolation == 0.0f)
    return success();
  const size_t naxes = axes.size();
  bool outside = false;
  llvm::SmallVector<int64_t> lower;
  for (size_t k = 0; k < naxes; ++k) {
    const int64_t a = axes[k], in = inShape[a], out = outShape[a];
    for (int64_t o : {int64_t(0), out - 1}) {
      double x =
          sourceCoordinate(spec, o, in, out, scale[a], roi[k], roi[naxes + k]);
      outside |= !(x >= 0 && x <= double(in - 1));
    }
    if (out != in)
      lower.push_back(out);
  }
  if (outside && !constElementCount(lower, onnx::TensorProto::FLOAT))
    return nc.error() << kExtrapolationTooLarge, failure();
  return success();
}

/// `x` (rank >= 2) with the axis maps applied.
static FailureOr<Value> applyMaps(NodeContext &nc, Value x,
                                  llvm::ArrayRef<AxisMap> maps,
                                  const ResizeSpec &spec) {
  llvm::SmallVector<int64_t> shape = shapeOf(x);
  const int64_t rank = shape.size();
  // Integer nearest upsampling: one reshape, broadcast and reshape for all
  // such axes.
  llvm::SmallVector<int64_t> split, spread, joined(shape);
  bool replicate = false;
  for (int64_t d = 0; d < rank; ++d) {
    split.push_back(shape[d]);
    spread.push_back(shape[d]);
    auto it = llvm::find_if(maps, [&](const AxisMap &m) {
      return m.axis == d && m.isReplication();
    });
    if (it == maps.end())
      continue;
    replicate = true;
    split.push_back(1);
    spread.push_back(it->out / it->in);
    joined[d] = it->out;
  }
  Type f32 = nc.builder.getF32Type();
  if (replicate) {
    FailureOr<Value> r = nc.reshape(x, split);
    if (succeeded(r))
      r = nc.createTyped<nn::BroadcastToOp>(RankedTensorType::get(spread, f32),
                                            {*r});
    if (succeeded(r))
      r = nc.reshape(*r, joined);
    if (failed(r))
      return failure();
    x = *r;
  }
  // The other axes: a matmul with the weights, the axis moved last (or
  // second to last) and back.
  for (const AxisMap &m : maps) {
    if (m.isReplication())
      continue;
    Value w = nc.constant({m.out, m.in}, m.weights);
    FailureOr<Value> y = x;
    if (m.axis == rank - 2) {
      y = nc.create<nn::MatmulOp>({w, x});
    } else {
      llvm::SmallVector<int64_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::swap(perm[m.axis], perm[rank - 1]);
      bool moved = m.axis != rank - 1;
      if (moved)
        y = nc.create<nn::TransposeOp>({x},
                                       {nc.named("perm", nc.i64Array(perm))});
      if (succeeded(y))
        y = nc.create<nn::MatmulOp>(
            {*y, w}, {nc.named("transpose_b", nc.builder.getUnitAttr())});
      if (succeeded(y) && moved)
        y = nc.create<nn::TransposeOp>({*y},
                                       {nc.named("perm", nc.i64Array(perm))});
    }
    if (failed(y))
      return failure();
    x = *y;
  }
  // tf_crop_and_resize: the extrapolation value where any axis is outside,
  // as the largest of per-axis 0/1 vectors (1 outside) times the value:
  // constants of the axes' sizes, not of the output's.
  if (extrapolationShape(maps, rank, spec)) {
    Value outside;
    for (const AxisMap &m : maps) {
      if (m.allInside())
        continue;
      if (failed(nc.reserveFoldedBytes(m.out * int64_t(sizeof(float)))))
        return failure();
      llvm::SmallVector<int64_t> shape(rank, 1);
      shape[m.axis] = m.out;
      std::vector<float> flags(m.out);
      for (int64_t o = 0; o < m.out; ++o)
        flags[o] = m.inside[o] ? 0.0f : 1.0f;
      Value axisOutside = nc.constant(shape, flags);
      if (outside) {
        FailureOr<Value> any = nc.create<nn::MaximumOp>({outside, axisOutside});
        if (failed(any))
          return failure();
        axisOutside = *any;
      }
      outside = axisOutside;
    }
    FailureOr<Value> extra =
        nc.create<nn::MulOp>({outside, nc.splat({}, spec.extrapolation)});
    if (failed(extra))
      return failure();
    return nc.create<nn::AddOp>({x, *extra});
  }
  return x;
}

/// Resize (opset 10: X, scales; 11 and later: X, roi, scales, sizes) and
/// Upsample (X, scales).
static LogicalResult importResize(NodeContext &nc) {
  const bool upsample = nc.node.op_type() == "Upsample";
  const bool legacy = upsample || nc.opset < 11;
  FailureOr<ResizeSpec> spec = readSpec(nc, legacy);
  if (failed(spec))
    return failure();
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  llvm::SmallVector<int64_t> inShape = shapeOf(*x);
  const int64_t rank = inShape.size();

  // axes (opset 18): the axes that scales, sizes and roi name.
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> axesAttr =
      nc.intsAttr("axes");
  if (failed(axesAttr))
    return failure();
  llvm::SmallVector<int64_t> axes;
  if (*axesAttr) {
    for (int64_t a : **axesAttr) {
      FailureOr<int64_t> axis = nc.normalizeAxis(a, rank, "axes");
      if (failed(axis))
        return failure();
      if (llvm::is_contained(axes, *axis))
        return nc.error() << "axes repeats axis " << *axis, failure();
      axes.push_back(*axis);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  const size_t naxes = axes.size();

  FailureOr<std::vector<double>> roi = std::vector<double>();
  if (!legacy)
    roi = optionalValues(nc, 1, "roi");
  FailureOr<std::vector<double>> scales =
      failed(roi) ? roi : optionalValues(nc, legacy ? 1 : 2, "the scales");
  if (failed(scales))
    return failure();
  std::optional<std::vector<int64_t>> sizes;
  if (!legacy && nc.hasInput(3)) {
    FailureOr<const Const *> c = nc.constInput(3, "the sizes");
    if (failed(c))
      return failure();
    if ((*c)->numel() > 0)
      sizes = (*c)->ints();
  }
  if (sizes.has_value() == !scales->empty())
    return nc.error() << "give exactly one of scales and sizes", failure();
  if ((sizes ? sizes->size() : scales->size()) != naxes)
    return nc.error() << (sizes ? "sizes" : "scales") << " has "
                      << (sizes ? sizes->size() : scales->size())
                      << " values for " << naxes << " axes",
           failure();

  FailureOr<AspectPolicy> policy =
      enumAttr<AspectPolicy>(nc, "keep_aspect_ratio_policy", "stretch",
                             {{"stretch", AspectPolicy::Stretch},
                              {"not_larger", AspectPolicy::NotLarger},
                              {"not_smaller", AspectPolicy::NotSmaller}});
  if (failed(policy))
    return failure();

  // Per axis of the input: the scale and the output size.
  std::vector<double> scale(rank, 1.0);
  llvm::SmallVector<int64_t> outShape(inShape);
  if (sizes) {
    for (size_t k = 0; k < naxes; ++k) {
      if ((*sizes)[k] < 1)
        return nc.error() << "sizes has " << (*sizes)[k]
                          << "; every size must be at least 1",
               failure();
      scale[axes[k]] = double((*sizes)[k]) / double(inShape[axes[k]]);
      outShape[axes[k]] = (*sizes)[k];
    }
    if (*policy != AspectPolicy::Stretch) {
      double s = scale[axes[0]];
      for (int64_t a : axes)
        s = *policy == AspectPolicy::NotLarger ? std::min(s, scale[a])
                                               : std::max(s, scale[a]);
      for (int64_t a : axes) {
        scale[a] = s;
        outShape[a] = int64_t(s * double(inShape[a]) + 0.5);
      }
    }
  } else {
    for (size_t k = 0; k < naxes; ++k) {
      double s = (*scales)[k];
      if (!(s > 0) || !std::isfinite(s))
        return nc.error() << "scales has " << shortDouble(s)
                          << "; every scale must be positive and finite",
               failure();
      scale[axes[k]] = s;
      double out = std::floor(s * double(inShape[axes[k]]));
      if (out < 1 || out > double(std::numeric_limits<int32_t>::max()))
        return nc.error() << "scale " << shortDouble(s) << " gives axis "
                          << axes[k] << " of size " << inShape[axes[k]]
                          << " an output size of " << shortDouble(out)
                          << "; it must be in [1, 2^31)",
               failure();
      outShape[axes[k]] = int64_t(out);
    }
  }

  if (spec->coord == Coord::TfCropAndResize && roi->size() != 2 * naxes)
    return nc.error() << "tf_crop_and_resize needs a roi of " << 2 * naxes
                      << " values (starts, then ends), got " << roi->size(),
           failure();

  for (int64_t a : axes)
    if (outShape[a] < 1)
      return nc.error() << "axis " << a << " would have output size "
                        << outShape[a] << "; it must be at least 1",
             failure();
  // The weights count against the import's budget on computed constants
  // (a fuzzed size must not allocate without bound).
  double weightBytes = 0;
  for (int64_t a : axes)
    weightBytes += double(outShape[a]) * double(inShape[a]) * sizeof(float);
  if (failed(nc.reserveFoldedBytes(
          int64_t(std::min(weightBytes, double(int64_t(1) << 62))))))
    return failure();
  // Antialiased downsampling by a factor f weighs about 2f (linear) or 4f
  // (cubic) inputs per output; the coefficients are computed per output.
  if (spec->antialias)
    for (int64_t a : axes) {
      double count = double(2 - 2 * antialiasStart(*spec, scale[a]));
      if (count * double(outShape[a]) >
          double(maxConstElements(onnx::TensorProto::FLOAT)))
        return nc.error() << "antialiasing axis " << a << " from " << inShape[a]
                          << " to " << outShape[a] << " weighs "
                          << int64_t(count)
                          << " inputs per output, over the importer's limit "
                             "on constants",
               failure();
    }
  if (failed(checkExtrapolationBound(nc, *spec, axes, inShape, outShape, scale,
                                     *roi)))
    return failure();
  std::vector<AxisMap> maps;
  for (size_t k = 0; k < naxes; ++k) {
    int64_t a = axes[k];
    double start = 0.0, end = 1.0;
    if (spec->coord == Coord::TfCropAndResize) {
      start = (*roi)[k];
      end = (*roi)[naxes + k];
    }
    AxisMap m =
        axisMap(*spec, a, inShape[a], outShape[a], scale[a], start, end);
    if (!m.isIdentity())
      maps.push_back(std::move(m));
  }
  // A 1-D input resizes as a row: [1, n].
  FailureOr<Value> y = *x;
  if (rank == 1) {
    y = nc.reshape(*x, {1, inShape[0]});
    for (AxisMap &m : maps)
      m.axis = 1;
  }
  // An extrapolated output past the limit on constants is an error, as
  // when the extrapolation was one constant of its size; checked before
  // the weights become constants, so that a fuzzed size fails fast.
  if (std::optional<llvm::SmallVector<int64_t>> eshape =
          extrapolationShape(maps, std::max<int64_t>(rank, 2), *spec))
    if (!constElementCount(*eshape, onnx::TensorProto::FLOAT))
      return nc.error() << kExtrapolationTooLarge, failure();
  if (succeeded(y))
    y = applyMaps(nc, *y, maps, *spec);
  if (succeeded(y))
    y = nc.reshape(*y, outShape);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

void amp::onnx_import::registerResizeOps(OpTable &t) {
  t["Resize"] = {importResize,
                 {"antialias", "axes", "coordinate_transformation_mode",
                  "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                  "keep_aspect_ratio_policy", "mode", "nearest_mode"}};
  t["Upsample"] = {importResize, {"mode"}};
}
