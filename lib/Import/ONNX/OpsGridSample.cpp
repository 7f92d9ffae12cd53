//===- OpsGridSample.cpp - GridSample and AffineGrid ----------------------===//
//
// AffineGrid: one nn.matmul of the pixels' normalized positions by theta.
// GridSample (opsets 16 and 20): X [N, C, S_1 .. S_r] sampled at the
// normalized positions of grid [N, O_1 .. O_r, r] (x first: the last axis
// of X), r from 1 to 3, as ONNX's reference implementation samples. Built
// of nn ops, so that it trains: per axis, the position in pixels (unit
// math on the grid's component), rounded (nearest) or split into its
// floor and fraction (linear, cubic), the coordinate's padding (border:
// nn.clamp; reflection: folded back by nn.abs, nn.floor and nn.where), and
// per tap an index into X and a weight. Each tap of all axes gathers the
// C values of its pixel with one nn.embedding of X laid out as
// [N * S_1 .. S_r, C], multiplied by its weight (and, with zero padding,
// nn.where of whether it lies inside). The gradient reaches X through
// nn.embedding's and the grid through the weights.
//
//===----------------------------------------------------------------------===//

#include "Formula.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

namespace {

enum class Mode { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// One tap along one axis: its pixel's offset in X's flattened spatial
/// dims (i64), its weight (f32; null for nearest) and whether it lies
/// inside (i1; null when it always does).
struct Tap {
  Value offset, weight, inside;
};

/// The cubic convolution's coefficient A (Keys; ONNX's reference, PyTorch).
constexpr float kCubicA = -0.75f;

class GridSampler {
public:
  GridSampler(NodeContext &nc, Mode mode, Padding padding, bool alignCorners,
              llvm::ArrayRef<int64_t> positions)
      : nc(nc), f(nc), mode(mode), padding(padding), alignCorners(alignCorners),
        positions(positions) {}

  /// The taps of the axis of `size` pixels and `stride`, whose normalized
  /// coordinate is `g` (of the positions' shape).
  llvm::SmallVector<Tap, 4> axisTaps(Value g, int64_t size, int64_t stride);

  Formula &formula() { return f; }

private:
  Value constant(float v) { return f.constant(v); }
  Value add(Value a, Value b) { return f.op<nn::AddOp>({a, b}); }
  Value sub(Value a, Value b) { return f.op<nn::SubOp>({a, b}); }
  Value mul(Value a, Value b) { return f.op<nn::MulOp>({a, b}); }
  /// a*u^3 + b*u^2 + c*u + d.
  Value cubic(Value u, float a, float b, float c, float d) {
    Value y = add(mul(u, constant(a)), constant(b));
    y = add(mul(y, u), constant(c));
    return add(mul(y, u), constant(d));
  }
  /// v folded back into [lo, hi] by reflection at both ends (ONNX's
  /// reference; PyTorch's reflect_coordinates): |v - lo| in spans, an odd
  /// number of them mirrored.
  Value reflect(Value v, float lo, float hi);
  /// The padding of a tap's pixel (zeros: clamped, `inside` whether it
  /// was; border: clamped; reflection: reflected, then clamped as a
  /// guard), then its offset.
  Tap tap(Value pixel, Value weight, int64_t size, int64_t stride);

  NodeContext &nc;
  Formula f;
  Mode mode;
  Padding padding;
  bool alignCorners;
  llvm::ArrayRef<int64_t> positions;
  float lo = 0, hi = 0;
};

} // namespace

Value GridSampler::reflect(Value v, float lo, float hi) {
  const float span = hi - lo;
  if (span <= 0) // one pixel with align_corners: always that pixel
    return nc.splat(positions, 0.0f);
  Value in = f.op<nn::AbsOp>({sub(v, constant(lo))});
  Value flips = f.op<nn::FloorOp>({mul(in, constant(1.0f / span))});
  Value extra = sub(in, mul(flips, constant(span)));
  Value half = f.op<nn::FloorOp>({mul(flips, constant(0.5f))});
  Value odd = f.compare(sub(flips, mul(half, constant(2.0f))),
                        nn::ComparePredicate::GT, constant(0.5f));
  return f.op<nn::WhereOp>(
      {odd, sub(constant(span + lo), extra), add(extra, constant(lo))});
}

Tap GridSampler::tap(Value pixel, Value weight, int64_t size, int64_t stride) {
  const float last = float(size - 1);
  Tap t;
  t.weight = weight;
  if (padding == Padding::Reflection)
    pixel = reflect(pixel, lo, hi);
  Value clamped = f.clamp(pixel, 0.0f, last);
  if (padding == Padding::Zeros)
    t.inside = f.compare(clamped, nn::ComparePredicate::EQ, pixel);
  t.offset = f.convert(clamped, nc.builder.getI64Type());
  if (stride != 1)
    t.offset = mul(t.offset, nc.intScalar(nc.builder.getI64Type(), stride));
  return t;
}

llvm::SmallVector<Tap, 4> GridSampler::axisTaps(Value g, int64_t size,
                                                int64_t stride) {
  // The pixel range the borders reflect at: pixel centres with
  // align_corners, else the pixels' outer edges.
  lo = alignCorners ? 0.0f : -0.5f;
  hi = alignCorners ? float(size - 1) : float(size) - 0.5f;
  // Unnormalized: (g + 1) / 2 * (size - 1) with align_corners, else
  // ((g + 1) * size - 1) / 2; both g * a + (size - 1) / 2.
  const float scale = alignCorners ? float(size - 1) / 2 : float(size) / 2;
  Value c = add(mul(g, constant(scale)), constant(float(size - 1) / 2));
  if (mode == Mode::Nearest)
    c = f.op<nn::RoundOp>({c}); // halves to even, as PyTorch and ONNX
  if (padding == Padding::Border && alignCorners) {
    c = f.clamp(c, 0.0f, float(size - 1));
  } else if (padding == Padding::Border) {
    // Clamped to the pixel centres only past the outer edges, as ONNX's
    // reference (within half a pixel of an edge the cubic taps weigh the
    // edge pixel, which border padding repeats).
    Value within = f.compare(f.clamp(c, lo, hi), nn::ComparePredicate::EQ, c);
    c = f.op<nn::WhereOp>({within, c, f.clamp(c, 0.0f, float(size - 1))});
  } else if (padding == Padding::Reflection) {
    c = reflect(c, lo, hi);
  }
  llvm::SmallVector<Tap, 4> taps;
  if (mode == Mode::Nearest) {
    taps.push_back(tap(c, Value(), size, stride));
    return taps;
  }
  Value base = f.op<nn::FloorOp>({c});
  Value t = sub(c, base);
  if (mode == Mode::Linear) {
    taps.push_back(tap(base, sub(constant(1.0f), t), size, stride));
    taps.push_back(tap(add(base, constant(1.0f)), t, size, stride));
    return taps;
  }
  // Keys' cubic convolution of the taps at distances t + 1, t, 1 - t and
  // 2 - t.
  const float a = kCubicA;
  Value oneMinusT = sub(constant(1.0f), t);
  Value weights[4] = {
      cubic(add(t, constant(1.0f)), a, -5 * a, 8 * a, -4 * a),
      cubic(t, a + 2, -(a + 3), 0, 1), cubic(oneMinusT, a + 2, -(a + 3), 0, 1),
      cubic(add(oneMinusT, constant(1.0f)), a, -5 * a, 8 * a, -4 * a)};
  for (int k = 0; k < 4; ++k)
    taps.push_back(
        tap(add(base, constant(float(k - 1))), weights[k], size, stride));
  return taps;
}

/// GridSample: see the file comment. `mode` bilinear/bicubic (opset 16) or
/// linear/cubic (opset 20), nearest; `padding_mode` zeros, border or
/// reflection; `align_corners`.
static LogicalResult importGridSample(NodeContext &nc) {
  FailureOr<int64_t> align = nc.intAttr("align_corners", 0);
  FailureOr<std::string> modeName = nc.stringAttr(
      "mode", nc.opset >= 20 ? std::string("linear") : std::string("bilinear"));
  FailureOr<std::string> paddingName = nc.stringAttr("padding_mode", "zeros");
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<Value> grid = failed(x) ? x : nc.floatValue(1);
  if (failed(align) || failed(modeName) || failed(paddingName) || failed(grid))
    return failure();
  std::optional<Mode> mode = llvm::StringSwitch<std::optional<Mode>>(*modeName)
                                 .Case("nearest", Mode::Nearest)
                                 .Cases({"linear", "bilinear"}, Mode::Linear)
                                 .Cases({"cubic", "bicubic"}, Mode::Cubic)
                                 .Default(std::nullopt);
  if (!mode)
    return nc.error() << "mode must be nearest, linear (bilinear) or cubic "
                         "(bicubic), got '"
                      << *modeName << "'",
           failure();
  std::optional<Padding> padding =
      llvm::StringSwitch<std::optional<Padding>>(*paddingName)
          .Case("zeros", Padding::Zeros)
          .Case("border", Padding::Border)
          .Case("reflection", Padding::Reflection)
          .Default(std::nullopt);
  if (!padding)
    return nc.error() << "padding_mode must be zeros, border or reflection, "
                         "got '"
                      << *paddingName << "'",
           failure();

  llvm::SmallVector<int64_t> xs = shapeOf(*x), gs = shapeOf(*grid);
  const int64_t r = int64_t(xs.size()) - 2;
  if (r < 1 || r > 3)
    return nc.error() << "X must have 1 to 3 spatial dims ([N, C, ...] of "
                         "rank 3 to 5), got ["
                      << xs << "]",
           failure();
  if (int64_t(gs.size()) != r + 2 || gs[0] != xs[0] || gs.back() != r)
    return nc.error() << "the grid must be [N, ..., " << r << "] with X's N ("
                      << xs[0] << ") and " << r << " output dims, got [" << gs
                      << "]",
           failure();
  if (llvm::is_contained(xs, 0) || llvm::is_contained(gs, 0))
    return nc.error() << "X [" << xs << "] and the grid [" << gs
                      << "] must not be empty",
           failure();

  const int64_t n = xs[0], channels = xs[1];
  llvm::SmallVector<int64_t> positions(gs.begin(), gs.end() - 1);
  int64_t pixels = 1;
  for (int64_t d = 0; d < r; ++d)
    pixels *= xs[2 + d];
  // The first row of each batch item's pixels, a constant of N values.
  std::optional<int64_t> count =
      constElementCount({n}, onnx::TensorProto::INT64);
  if (!count)
    return nc.error() << "a batch of " << n
                      << " is over the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(int64_t)))))
    return failure();

  GridSampler sampler(nc, *mode, *padding, *align != 0, positions);
  Formula &f = sampler.formula();
  // X as a table of N * pixels rows of C values.
  llvm::SmallVector<int64_t> toLast = {0};
  for (int64_t d = 0; d < r; ++d)
    toLast.push_back(2 + d);
  toLast.push_back(1);
  Value table = f.reshape(f.transpose(*x, toLast), {n * pixels, channels});
  llvm::SmallVector<int64_t> batchShape(r + 1, 1), starts;
  batchShape[0] = n;
  for (int64_t b = 0; b < n; ++b)
    starts.push_back(b * pixels);
  Value rowBase = nc.constant(batchShape, starts);

  // Per axis (X's order), its taps; the grid's component r - 1 - d. The
  // positions, weights and paddings stay f32 under AMP (amp.precision):
  // in f16 a position of 10 pixels is off by up to 1/256 of a pixel more
  // than the grid's own rounding, and a cubic weight by more.
  Block *block = nc.builder.getInsertionBlock();
  Operation *before = block->empty() ? nullptr : &block->back();
  std::vector<llvm::SmallVector<Tap, 4>> axes;
  int64_t stride = pixels;
  for (int64_t d = 0; d < r; ++d) {
    stride /= xs[2 + d];
    llvm::SmallVector<int64_t> offsets(r + 2, 0), sizes(gs);
    offsets.back() = r - 1 - d;
    sizes.back() = 1;
    Value g = f.reshape(f.slice(*grid, offsets, sizes), positions);
    if (f.failed())
      return failure();
    axes.push_back(sampler.axisTaps(g, xs[2 + d], stride));
  }
  NamedAttribute f32 = nc.pinnedF32();
  for (Operation &op : llvm::make_range(
           before ? std::next(before->getIterator()) : block->begin(),
           block->end()))
    if (isa<nn::NNDialect>(op.getDialect()) &&
        llvm::any_of(op.getOperandTypes(), [](Type t) {
          return isa<FloatType>(getElementTypeOrSelf(t));
        }))
      op.setAttr(f32.getName(), f32.getValue());

  // Every combination of one tap per axis: its pixel's C values, weighted.
  llvm::SmallVector<int64_t> column(positions);
  column.push_back(1);
  Value zero = f.constant(0.0f);
  Value sum;
  llvm::SmallVector<size_t> pick(r, 0);
  while (true) {
    Value row = rowBase, weight, inside;
    for (int64_t d = 0; d < r; ++d) {
      const Tap &t = axes[d][pick[d]];
      row = f.op<nn::AddOp>({row, t.offset});
      if (t.weight)
        weight = weight ? f.op<nn::MulOp>({weight, t.weight}) : t.weight;
      if (t.inside)
        inside =
            inside
                ? f.op<nn::WhereOp>({inside, t.inside,
                                     nc.intScalar(nc.builder.getI1Type(), 0)})
                : t.inside;
    }
    Value term = f.op<nn::EmbeddingOp>({table, row});
    if (weight)
      term = f.op<nn::MulOp>({term, f.reshape(weight, column)});
    if (inside)
      term = f.op<nn::WhereOp>({f.reshape(inside, column), term, zero});
    sum = sum ? f.op<nn::AddOp>({sum, term}) : term;
    // The next combination, the last axis fastest.
    int64_t d = r - 1;
    while (d >= 0 && ++pick[d] == axes[d].size())
      pick[d--] = 0;
    if (d < 0)
      break;
  }
  // [N, O_1 .. O_r, C] to [N, C, O_1 .. O_r].
  llvm::SmallVector<int64_t> toSecond = {0, r + 1};
  for (int64_t d = 0; d < r; ++d)
    toSecond.push_back(1 + d);
  return f.setOutput(f.transpose(sum, toSecond));
}

/// AffineGrid (opset 20; PyTorch's F.affine_grid, which feeds GridSample
/// in a spatial transformer): theta [N, r, r + 1] applied to the
/// normalized positions of every pixel of `size` ([N, C, H, W] or [N, C,
/// D, H, W], known at import time): one nn.matmul of a constant [pixels,
/// r + 1] table of (x, y[, z], 1) by theta (`transpose_b`), kept f32 under
/// AMP as GridSample's positions are. The positions are ONNX's reference's:
/// -1 + (2 i + 1) / S, or -1 + 2 i / (S - 1) with align_corners (-1 for
/// S = 1).
static LogicalResult importAffineGrid(NodeContext &nc) {
  FailureOr<int64_t> align = nc.intAttr("align_corners", 0);
  FailureOr<Value> theta = nc.floatValue(0);
  FailureOr<const Const *> sizeC = failed(theta)
                                       ? FailureOr<const Const *>(failure())
                                       : nc.constInput(1, "the size");
  if (failed(align) || failed(sizeC))
    return failure();
  llvm::SmallVector<int64_t> ts = shapeOf(*theta);
  std::vector<int64_t> size = (*sizeC)->ints();
  const int64_t r = int64_t(size.size()) - 2;
  if ((*sizeC)->isFloat() || (r != 2 && r != 3))
    return nc.error() << "the size must be 4 or 5 integers ([N, C, H, W] or "
                         "[N, C, D, H, W])",
           failure();
  if (ts.size() != 3 || ts[0] != size[0] || ts[1] != r || ts[2] != r + 1)
    return nc.error() << "theta must be [" << size[0] << ", " << r << ", "
                      << r + 1 << "] for the size, got [" << ts << "]",
           failure();
  llvm::SmallVector<int64_t> spatial(size.begin() + 2, size.end());
  std::optional<int64_t> pixels =
      constElementCount(spatial, onnx::TensorProto::FLOAT);
  std::optional<int64_t> count =
      pixels ? constElementCount({*pixels, r + 1}, onnx::TensorProto::FLOAT)
             : std::nullopt;
  if (!count || llvm::any_of(spatial, [](int64_t d) { return d < 1; }))
    return nc.error() << "the size's spatial dims must be positive and within "
                         "the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*count * int64_t(sizeof(float)))))
    return failure();
  // Row p of the table: the positions of pixel p along x (the last dim),
  // y[, z], then 1.
  auto position = [&](int64_t i, int64_t s) {
    if (*align)
      return s == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(s - 1);
    return -1.0 + (2.0 * double(i) + 1.0) / double(s);
  };
  std::vector<float> table;
  table.reserve(*count);
  for (int64_t p = 0; p < *pixels; ++p) {
    int64_t rest = p;
    llvm::SmallVector<float, 3> coords(r);
    for (int64_t d = r - 1; d >= 0; --d) {
      coords[r - 1 - d] = float(position(rest % spatial[d], spatial[d]));
      rest /= spatial[d];
    }
    table.insert(table.end(), coords.begin(), coords.end());
    table.push_back(1.0f);
  }
  FailureOr<Value> grid = nc.create<nn::MatmulOp>(
      {nc.constant({*pixels, r + 1}, table), *theta},
      {nc.named("transpose_b", nc.builder.getUnitAttr()), nc.pinnedF32()});
  llvm::SmallVector<int64_t> out = {size[0]};
  out.append(spatial.begin(), spatial.end());
  out.push_back(r);
  if (succeeded(grid))
    grid = nc.reshape(*grid, out);
  return failed(grid) ? failure() : nc.setOutput(0, *grid);
}

void amp::onnx_import::registerGridSampleOps(OpTable &t) {
  t["GridSample"] = {importGridSample,
                     {"align_corners", "mode", "padding_mode"}};
  t["AffineGrid"] = {importAffineGrid, {"align_corners"}};
}
