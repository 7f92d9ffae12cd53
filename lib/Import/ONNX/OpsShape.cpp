//===- OpsShape.cpp - shape ops, constants and gathers --------------------===//
//
// Constant, ConstantOfShape, EyeLike, Range, Shape and Size (folded: shapes
// are static), Reshape, Flatten, Squeeze, Unsqueeze (nn.reshape, or a new shape
// of a constant), Transpose, DepthToSpace and SpaceToDepth (reshape,
// transpose, reshape), Concat, Slice, Split, Pad, Expand and Tile
// (folded on a constant; Tile as a broadcast between reshapes), Trilu
// (folded on a constant, else nn.where of a mask of positions), Cast and
// CastLike (folded on constants, else nn.convert). The gathers are
// OpsGather.cpp's.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"
#include "Formula.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include "amp_runtime/checked_size.h"

#include <algorithm>
#include <limits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// Defines output 0 as input 0 with `shape`: a reshaped constant or an
/// nn.reshape.
static LogicalResult reshapeTo(NodeContext &nc, llvm::ArrayRef<int64_t> shape) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  int64_t n = 1, m = 1;
  for (int64_t d : shape)
    n *= d;
  for (int64_t d : (*t)->shape)
    m *= d;
  if (n != m)
    return nc.error() << "cannot reshape " << m << " elements to " << n,
           failure();
  if (isFoldable(**t)) {
    Const c = *(*t)->constant;
    c.shape.assign(shape.begin(), shape.end());
    return nc.setOutput(0, std::move(c));
  }
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = nc.reshape(*x, shape);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

static LogicalResult importConstant(NodeContext &nc) {
  if (nc.node.attribute_size() != 1)
    return nc.error() << "needs exactly one value attribute", failure();
  const onnx::AttributeProto &a = nc.node.attribute(0);
  Const c;
  if (a.name() == "value") {
    std::string error;
    std::optional<Const> v = readTensorProto(a.t(), error);
    if (!v)
      return nc.error() << "attribute 'value': " << error, failure();
    c = std::move(*v);
  } else if (a.name() == "value_float") {
    c.f = {a.f()};
  } else if (a.name() == "value_floats") {
    c.f.assign(a.floats().begin(), a.floats().end());
    c.shape = {int64_t(c.f.size())};
  } else if (a.name() == "value_int") {
    c = intConst({a.i()}, /*scalar=*/true);
  } else if (a.name() == "value_ints") {
    c = intConst(llvm::SmallVector<int64_t>(a.ints().begin(), a.ints().end()));
  } else {
    return nc.error() << "attribute '" << a.name() << "' is not supported",
           failure();
  }
  if (failed(nc.setOutput(0, std::move(c))))
    return failure();
  if (a.name() == "value")
    nc.declareType(0, a.t().data_type());
  return success();
}

static LogicalResult importConstantOfShape(NodeContext &nc) {
  FailureOr<const Const *> shape = nc.constInput(0, "the shape");
  if (failed(shape))
    return failure();
  Const c;
  c.f = {0.0f};
  if (const onnx::AttributeProto *a = nc.attr("value")) {
    std::string error;
    std::optional<Const> v = readTensorProto(a->t(), error);
    if (!v)
      return nc.error() << "attribute 'value': " << error, failure();
    if (v->numel() != 1)
      return nc.error() << "attribute 'value' must hold one element", failure();
    c = std::move(*v);
  }
  Const out;
  out.dtype = c.dtype;
  std::vector<int64_t> dims = (*shape)->ints();
  out.shape.assign(dims.begin(), dims.end());
  if (!constElementCount(out.shape, out.dtype))
    return nc.error() << "the shape has a negative dimension or more than "
                      << maxConstElements(out.dtype) << " elements",
           failure();
  if (out.isFloat())
    out.f.assign(out.numel(), c.f[0]);
  else
    out.i.assign(out.numel(), c.i[0]);
  if (failed(nc.setOutput(0, std::move(out))))
    return failure();
  if (const onnx::AttributeProto *a = nc.attr("value"))
    nc.declareType(0, a->t().data_type());
  return success();
}

/// EyeLike (folded: shapes are static): ones on diagonal k (j - i == k) of
/// the input's 2-D shape, zeros elsewhere, of type `dtype` (default: the
/// input's, a float one's as the model declares it).
static LogicalResult importEyeLike(NodeContext &nc) {
  FailureOr<Tensor *> in = nc.input(0);
  FailureOr<int64_t> k = nc.intAttr("k", 0);
  if (failed(in) || failed(k))
    return failure();
  FailureOr<int64_t> dtype = nc.intAttr("dtype", (*in)->declaredType());
  if (failed(dtype))
    return failure();
  if (!isSupportedDataType(*dtype))
    return nc.error() << "dtype " << dataTypeName(*dtype)
                      << " is not supported",
           failure();
  if ((*in)->rank() != 2)
    return nc.error() << "the input must have rank 2, got [" << (*in)->shape
                      << "]",
           failure();
  Const out;
  out.dtype = importedDataType(*dtype);
  out.shape = (*in)->shape;
  if (!constElementCount(out.shape, out.dtype))
    return nc.error() << "the input's shape has more than "
                      << maxConstElements(out.dtype) << " elements",
           failure();
  const int64_t rows = out.shape[0], cols = out.shape[1];
  if (out.isFloat())
    out.f.assign(out.numel(), 0.0f);
  else
    out.i.assign(out.numel(), 0);
  // The diagonal's first row: k >= 0 starts at row 0, a negative k at -k.
  for (int64_t i = *k >= 0 ? 0 : (*k <= -rows ? rows : -*k);
       i < rows && *k < cols - i; ++i) {
    if (out.isFloat())
      out.f[i * cols + i + *k] = 1.0f;
    else
      out.i[i * cols + i + *k] = 1;
  }
  if (failed(nc.setOutput(0, std::move(out))))
    return failure();
  nc.declareType(0, *dtype);
  return success();
}

/// Range of constants (folded only: position ids, arange of a static
/// length): start + i * delta for i < max(ceil((limit - start) / delta), 0),
/// of the inputs' type, FLOAT values computed in f64 and rounded to f32.
static LogicalResult importRange(NodeContext &nc) {
  static constexpr const char *kWhat[] = {"start", "limit", "delta"};
  const Const *in[3];
  for (unsigned k = 0; k < 3; ++k) {
    FailureOr<const Const *> c = nc.scalarInput(k, kWhat[k]);
    if (failed(c))
      return failure();
    if (k > 0 && (*c)->dtype != in[0]->dtype)
      return nc.error() << "start, limit and delta must have one type",
             failure();
    in[k] = *c;
  }
  Const out;
  out.dtype = in[0]->dtype;
  if (out.dtype == onnx::TensorProto::BOOL)
    return nc.error() << "Range of BOOL is not defined", failure();
  auto tooLong = [&] {
    return nc.error() << "the range would have more than "
                      << maxConstElements(out.dtype) << " elements",
           failure();
  };
  if (out.isFloat()) {
    double start = in[0]->f[0], limit = in[1]->f[0], delta = in[2]->f[0];
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) ||
        !std::isfinite(delta))
      return nc.error() << "delta must be non-zero and every input finite",
             failure();
    double count = std::max(std::ceil((limit - start) / delta), 0.0);
    if (count > double(maxConstElements(out.dtype)))
      return tooLong();
    for (int64_t i = 0, n = int64_t(count); i < n; ++i)
      out.f.push_back(float(start + double(i) * delta));
    out.shape = {int64_t(out.f.size())};
    return nc.setOutput(0, std::move(out));
  }
  // Integers exactly, in 128 bits: every value lies between start and
  // limit, so it fits the type.
  __int128 start = in[0]->i[0], delta = in[2]->i[0];
  __int128 span = __int128(in[1]->i[0]) - start;
  if (delta == 0)
    return nc.error() << "delta must be non-zero", failure();
  __int128 count = 0;
  if (span != 0 && (span > 0) == (delta > 0))
    count = (span + delta - (delta > 0 ? 1 : -1)) / delta;
  if (count > maxConstElements(out.dtype))
    return tooLong();
  for (__int128 i = 0; i < count; ++i)
    out.i.push_back(int64_t(start + i * delta));
  out.shape = {int64_t(count)};
  return nc.setOutput(0, std::move(out));
}

static LogicalResult importShape(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<int64_t> start = nc.intAttr("start", 0);
  FailureOr<int64_t> end = nc.intAttr("end", INT64_MAX);
  if (failed(t) || failed(start) || failed(end))
    return failure();
  int64_t rank = (*t)->rank();
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t b = clampIndex(*start), e = clampIndex(*end);
  llvm::SmallVector<int64_t> dims;
  for (int64_t d = b; d < e; ++d)
    dims.push_back((*t)->shape[d]);
  return nc.setOutput(0, intConst(dims));
}

static LogicalResult importSize(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  int64_t n = 1;
  for (int64_t d : (*t)->shape)
    n *= d;
  return nc.setOutput(0, intConst({n}, /*scalar=*/true));
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

static LogicalResult importReshape(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<const Const *> shapeC = nc.constInput(1, "the shape");
  FailureOr<int64_t> allowZero = nc.intAttr("allowzero", 0);
  if (failed(t) || failed(shapeC) || failed(allowZero))
    return failure();
  std::vector<int64_t> spec = (*shapeC)->ints();
  llvm::SmallVector<int64_t> shape;
  int64_t known = 1, inferred = -1, total = 1;
  for (int64_t d : (*t)->shape)
    total *= d;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t d = spec[i];
    if (d == 0 && !*allowZero) {
      if (i >= (*t)->shape.size())
        return nc.error() << "shape entry " << i
                          << " is 0 (copy) past the input's rank",
               failure();
      d = (*t)->shape[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return nc.error() << "the shape has more than one -1", failure();
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return nc.error() << "the shape has entry " << d, failure();
    std::optional<int64_t> product = amp::checked::mul(known, d);
    if (!product)
      return nc.error() << "the shape's element count does not fit in int64",
             failure();
    known = *product;
    shape.push_back(d);
  }
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      return nc.error() << "cannot infer the -1 of the shape", failure();
    shape[inferred] = total / known;
  }
  return reshapeTo(nc, shape);
}

static LogicalResult importFlatten(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 1);
  if (failed(t) || failed(axisAttr))
    return failure();
  int64_t rank = (*t)->rank();
  int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  if (axis < 0 || axis > rank)
    return nc.error() << "axis " << *axisAttr << " is out of range for rank "
                      << rank,
           failure();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= (*t)->shape[d];
  return reshapeTo(nc, {outer, inner});
}

/// The axes of Squeeze/Unsqueeze: an attribute before opset 13, then an
/// input.
static FailureOr<std::optional<llvm::SmallVector<int64_t>>>
squeezeAxes(NodeContext &nc) {
  if (nc.opset < 13)
    return nc.intsAttr("axes");
  if (!nc.hasInput(1))
    return std::optional<llvm::SmallVector<int64_t>>();
  FailureOr<const Const *> c = nc.constInput(1, "the axes");
  if (failed(c))
    return failure();
  std::vector<int64_t> v = (*c)->ints();
  return std::optional<llvm::SmallVector<int64_t>>(
      llvm::SmallVector<int64_t>(v.begin(), v.end()));
}

static LogicalResult importSqueeze(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> axes = squeezeAxes(nc);
  if (failed(t) || failed(axes))
    return failure();
  int64_t rank = (*t)->rank();
  llvm::SmallVector<bool> drop(rank, false);
  if (*axes) {
    for (int64_t a : **axes) {
      FailureOr<int64_t> n = nc.normalizeAxis(a, rank, "axis");
      if (failed(n))
        return failure();
      if ((*t)->shape[*n] != 1)
        return nc.error() << "dimension " << *n << " has size "
                          << (*t)->shape[*n] << ", not 1",
               failure();
      drop[*n] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = (*t)->shape[d] == 1;
  }
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      shape.push_back((*t)->shape[d]);
  return reshapeTo(nc, shape);
}

static LogicalResult importUnsqueeze(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> axes = squeezeAxes(nc);
  if (failed(t) || failed(axes))
    return failure();
  if (!*axes)
    return nc.error() << "the axes are missing", failure();
  int64_t rank = (*t)->rank() + (*axes)->size();
  llvm::SmallVector<bool> inserted(rank, false);
  for (int64_t a : **axes) {
    FailureOr<int64_t> n = nc.normalizeAxis(a, rank, "axis");
    if (failed(n))
      return failure();
    if (inserted[*n])
      return nc.error() << "axis " << a << " repeats", failure();
    inserted[*n] = true;
  }
  llvm::SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[d] ? 1 : (*t)->shape[next++]);
  return reshapeTo(nc, shape);
}

/// Transpose: nn.transpose, or on a constant its elements permuted (the
/// pads of a TF-style "same" padding that PyTorch's TorchScript exporter
/// computes with Transpose and Reshape of constants).
static LogicalResult importTranspose(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<std::optional<llvm::SmallVector<int64_t>>> permAttr =
      nc.intsAttr("perm");
  if (failed(t) || failed(permAttr))
    return failure();
  int64_t rank = (*t)->rank();
  llvm::SmallVector<int64_t> perm;
  if (*permAttr)
    perm = **permAttr;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  if (isFoldable(**t)) {
    llvm::SmallVector<bool> seen(rank, false);
    bool permutes = int64_t(perm.size()) == rank;
    for (int64_t p : perm) {
      permutes = permutes && p >= 0 && p < rank && !seen[p];
      if (permutes)
        seen[p] = true;
    }
    if (!permutes)
      return nc.error() << "perm is not a permutation of the input's " << rank
                        << " dims",
             failure();
    const Const &c = *(*t)->constant;
    llvm::SmallVector<int64_t> shape, idx(rank, 0),
        strides = stridesOf(c.shape);
    for (int64_t p : perm)
      shape.push_back(c.shape[p]);
    std::vector<int64_t> indices;
    for (int64_t k = 0, n = c.numel(); k < n; ++k) {
      int64_t linear = 0;
      for (int64_t d = 0; d < rank; ++d)
        linear += idx[d] * strides[perm[d]];
      indices.push_back(linear);
      advanceIndex(idx, shape);
    }
    return nc.setOutput(0, gatherElements(c, indices, shape));
  }
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y =
      nc.create<nn::TransposeOp>({*x}, {nc.named("perm", nc.i64Array(perm))});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Trilu of a computed input, or with a computed k (std::nullopt: input 1).
static LogicalResult importComputedTrilu(NodeContext &nc, bool upper,
                                         std::optional<int64_t> k) {
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  const int64_t rank = type.getRank();
  const int64_t rows = type.getDimSize(rank - 2);
  const int64_t cols = type.getDimSize(rank - 1);
  // rows * cols elements fit in int64, so rows + cols does.
  std::optional<int64_t> positions =
      constElementCount({rows + cols}, onnx::TensorProto::INT64);
  if (!positions)
    return nc.error() << "the positions of " << rows << " rows and " << cols
                      << " columns are over the importer's limit on constants",
           failure();
  if (failed(nc.reserveFoldedBytes(*positions * int64_t(sizeof(int64_t)))))
    return failure();
  Formula f(nc);
  // j - i of every position: both are below the dims, so the difference
  // cannot overflow, whatever k is.
  Value diagonal = f.op<nn::SubOp>(
      {nc.constant({1, cols}, llvm::to_vector(llvm::seq<int64_t>(0, cols))),
       nc.constant({rows, 1}, llvm::to_vector(llvm::seq<int64_t>(0, rows)))});
  Value kv;
  if (k) {
    kv = nc.intScalar(nc.builder.getI64Type(), *k);
  } else {
    FailureOr<Value> given = nc.anyValue(1);
    if (failed(given))
      return failure();
    kv = f.reshape(*given, {});
  }
  Value keep = f.compare(
      diagonal, upper ? nn::ComparePredicate::GE : nn::ComparePredicate::LE,
      kv);
  Type elt = type.getElementType();
  Value zero = elt.isF32() ? nc.splat({}, 0.0f) : nc.intScalar(elt, 0);
  return f.setOutput(f.op<nn::WhereOp>({keep, *x, zero}));
}

/// Trilu: the upper (upper = 1, the default) or lower triangle of every
/// matrix of the last two dims from diagonal k (the optional second input,
/// a single INT64), the rest zero. Folded on a constant (PyTorch's
/// TorchScript exporter builds attention's causal mask with it); else
/// nn.where(j - i >= k, x, 0) (or <=), j - i of the column positions
/// [1, cols] and the row positions [rows, 1], so that a computed k compares
/// at run time.
static LogicalResult importTrilu(NodeContext &nc) {
  FailureOr<int64_t> upper = nc.intAttr("upper", 1);
  FailureOr<Tensor *> x = nc.input(0);
  if (failed(upper) || failed(x))
    return failure();
  if ((*x)->rank() < 2)
    return nc.error() << "the input must have rank 2 or more, got ["
                      << (*x)->shape << "]",
           failure();
  std::optional<int64_t> k = 0;
  if (nc.hasInput(1)) {
    FailureOr<Tensor *> kT = nc.input(1);
    if (failed(kT))
      return failure();
    if ((*kT)->dtype != onnx::TensorProto::INT64 ||
        !llvm::all_of((*kT)->shape, [](int64_t d) { return d == 1; }))
      return nc.error() << "k must be a single INT64, got "
                        << dataTypeName((*kT)->dtype) << " of shape ["
                        << (*kT)->shape << "]",
             failure();
    k = isFoldable(**kT) ? std::optional((*kT)->constant->i[0]) : std::nullopt;
  }
  if (!isFoldable(**x) || !k)
    return importComputedTrilu(nc, *upper, k);
  const Const *in = (*x)->constant.get();
  Const out = *in;
  const int64_t rank = out.shape.size();
  const int64_t rows = out.shape[rank - 2], cols = out.shape[rank - 1];
  const int64_t n = out.numel();
  for (int64_t e = 0; e < n; ++e) {
    // The diagonal j - i: i and j are below maxConstElements.
    const int64_t diagonal = e % cols - (e / cols) % rows;
    const bool keep = *upper ? diagonal >= *k : diagonal <= *k;
    if (keep)
      continue;
    if (out.isFloat())
      out.f[e] = 0.0f;
    else
      out.i[e] = 0;
  }
  return nc.setOutput(0, std::move(out));
}

static LogicalResult importExpand(NodeContext &nc) {
  FailureOr<Tensor *> in = nc.input(0);
  FailureOr<const Const *> shapeC = nc.constInput(1, "the shape");
  if (failed(in) || failed(shapeC))
    return failure();
  std::vector<int64_t> spec = (*shapeC)->ints();
  // A constant (a mask built while importing) stays one; a param (a ViT's
  // class token expanded to the batch) is broadcast where it is used.
  if (isFoldable(**in)) {
    const Const &c = *(*in)->constant;
    std::optional<llvm::SmallVector<int64_t>> shape = broadcastShapes(
        c.shape, llvm::SmallVector<int64_t>(spec.begin(), spec.end()));
    std::optional<Const> out = shape ? broadcastConst(c, *shape) : std::nullopt;
    if (!out)
      return nc.error() << "the shape does not broadcast with the input's, "
                           "or the result has more than "
                        << maxConstElements(c.dtype) << " elements",
             failure();
    return nc.setOutput(0, std::move(*out));
  }
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  std::optional<llvm::SmallVector<int64_t>> shape = broadcastShapes(
      shapeOf(*x), llvm::SmallVector<int64_t>(spec.begin(), spec.end()));
  if (!shape)
    return nc.error() << "the shape does not broadcast with the input's",
           failure();
  if (*shape == shapeOf(*x))
    return nc.setOutput(0, *x);
  FailureOr<Value> y =
      nc.createTyped<nn::BroadcastToOp>(withShape(*x, *shape), {*x});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Tile: each axis's r copies, in order, are an axis of r in front of it:
/// x as [1, d0, 1, d1, ...] broadcast to [r0, d0, r1, d1, ...], then merged
/// to [r0 * d0, r1 * d1, ...] (folded on a constant). A repeat of 0 gives an
/// empty constant (a split size that a shape computation leaves out); on a
/// run-time value it is an error.
static LogicalResult importTile(NodeContext &nc) {
  FailureOr<Tensor *> in = nc.input(0);
  FailureOr<const Const *> repeatsC = nc.constInput(1, "the repeats");
  if (failed(in) || failed(repeatsC))
    return failure();
  std::vector<int64_t> repeats = (*repeatsC)->ints();
  llvm::ArrayRef<int64_t> shape = (*in)->shape;
  if (repeats.size() != shape.size())
    return nc.error() << "repeats has " << repeats.size()
                      << " values for an input of rank " << shape.size(),
           failure();
  llvm::SmallVector<int64_t> split, spread, joined;
  const bool empty = llvm::is_contained(repeats, 0) && isFoldable(**in);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (repeats[d] < 0 || (repeats[d] == 0 && !empty))
      return nc.error() << "repeats has " << repeats[d]
                        << "; every repeat must be at least 1 (0 only of a "
                           "constant)",
             failure();
    split.append({1, shape[d]});
    spread.append({repeats[d], shape[d]});
    std::optional<int64_t> n = amp::checked::mul(repeats[d], shape[d]);
    if (!n)
      return nc.error() << "the result's dimension " << d << " overflows",
             failure();
    joined.push_back(*n);
  }
  if (empty) {
    Const c;
    c.dtype = (*in)->dtype;
    c.shape = joined;
    return nc.setOutput(0, std::move(c));
  }
  if (isFoldable(**in)) {
    Const c = *(*in)->constant;
    c.shape = split;
    std::optional<Const> out = broadcastConst(c, spread);
    if (!out)
      return nc.error() << "the result has more than "
                        << maxConstElements(c.dtype) << " elements",
             failure();
    out->shape = joined;
    return nc.setOutput(0, std::move(*out));
  }
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  if (llvm::all_of(repeats, [](int64_t r) { return r == 1; }))
    return nc.setOutput(0, *x);
  FailureOr<Value> y = nc.reshape(*x, split);
  if (succeeded(y))
    y = nc.createTyped<nn::BroadcastToOp>(withShape(*x, spread), {*y});
  if (succeeded(y))
    y = nc.reshape(*y, joined);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// `x` (f32) rounded to the FLOAT16 or BFLOAT16 `dtype` and widened back:
/// an amp.cast round trip. The model's Cast keeps its rounding in an f32
/// run and its gradient is rounded the same way (amp.cast's derivative);
/// the AMP passes re-plan it like any cast.
static FailureOr<Value> roundTrip(NodeContext &nc, Value x, int32_t dtype) {
  auto type = cast<RankedTensorType>(x.getType());
  mlir::Type low = dtype == onnx::TensorProto::FLOAT16
                       ? mlir::Type(nc.builder.getF16Type())
                       : mlir::Type(nc.builder.getBF16Type());
  FailureOr<Value> y = nc.createTyped<amp::CastOp>(type.clone(low), {x});
  if (succeeded(y))
    y = nc.createTyped<amp::CastOp>(type, {*y});
  return y;
}

/// Input 0 cast to the ONNX element type `to`: folded on a constant; else
/// nn.convert between a float and an integer type, and an amp.cast round
/// trip for FLOAT16 and BFLOAT16, whose rounding the float types (all f32
/// here, importedDataType) keep; to a narrow integer type (isLiftedIntType)
/// from another type, the value's low bits (wrapToDataType,
/// NodeContext::wrapToType). The output's declared type is `to`.
static LogicalResult castTo(NodeContext &nc, int64_t to) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  if (!isSupportedDataType(to))
    return nc.error() << "casting to " << dataTypeName(to)
                      << " is not supported",
           failure();
  int32_t target = importedDataType(to);
  bool rounds =
      to == onnx::TensorProto::FLOAT16 || to == onnx::TensorProto::BFLOAT16;
  // To a narrow integer type from another type: the value's low bits.
  bool wraps = isLiftedIntType(to) && (*t)->declaredType() != to;
  LogicalResult defined = failure();
  if (target == (*t)->dtype && !rounds && !wraps) {
    defined = nc.setOutput(0, **t);
  } else if (isFoldable(**t)) {
    const Const &c = *(*t)->constant;
    defined = nc.setOutput(
        0, castValues(
               c.shape, c.numel(), [&](int64_t k) { return c.at(k); }, to));
  } else {
    // Computed at run time (an attention mask from an input), or a float
    // initializer, which stays a param.
    FailureOr<Value> y = nc.anyValue(0);
    if (succeeded(y) && target != (*t)->dtype)
      y = nc.convert(*y, elementType(nc.ctx(), target));
    if (succeeded(y) && rounds)
      y = roundTrip(nc, *y, to);
    if (succeeded(y) && wraps)
      y = nc.wrapToType(*y, to);
    defined = failed(y) ? failure() : nc.setOutput(0, *y);
  }
  if (succeeded(defined))
    nc.declareType(0, to);
  return defined;
}

/// Cast to the type `to`. `saturate` (opset 19) concerns only the float8
/// types, which are not supported.
static LogicalResult importCast(NodeContext &nc) {
  FailureOr<int64_t> to = nc.intAttr("to", -1);
  FailureOr<int64_t> saturate = nc.intAttr("saturate", 1);
  if (failed(to) || failed(saturate))
    return failure();
  return castTo(nc, *to);
}

/// CastLike (opset 15; onnxscript's torchlib writes it for the scalars of
/// PyTorch's exports): Cast to the element type of input 1, a FLOAT16,
/// BFLOAT16, DOUBLE or narrow integer value's as the model declares it
/// (Tensor::declaredType).
static LogicalResult importCastLike(NodeContext &nc) {
  FailureOr<int64_t> saturate = nc.intAttr("saturate", 1);
  FailureOr<Tensor *> like = nc.input(1);
  if (failed(saturate) || failed(like))
    return failure();
  return castTo(nc, (*like)->declaredType());
}

//===----------------------------------------------------------------------===//
// DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

/// DepthToSpace (PyTorch's PixelShuffle exports as its CRD mode) and, with
/// `toDepth`, SpaceToDepth, on [N, C, H, W]: nn.reshape to six dimensions,
/// nn.transpose, nn.reshape.
template <bool toDepth> static LogicalResult importDepthSpace(NodeContext &nc) {
  FailureOr<int64_t> block = nc.intAttr("blocksize", 0);
  FailureOr<std::string> mode = nc.stringAttr("mode", "DCR");
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(block) || failed(mode) || failed(x))
    return failure();
  if (!toDepth && *mode != "DCR" && *mode != "CRD")
    return nc.error() << "mode must be DCR or CRD, got '" << *mode << "'",
           failure();
  llvm::SmallVector<int64_t> s = shapeOf(*x);
  if (s.size() != 4)
    return nc.error() << "the input must be 4-D [N, C, H, W]", failure();
  const int64_t b = *block, n = s[0], c = s[1], h = s[2], w = s[3];
  if (b < 1 || b > (int64_t(1) << 20) ||
      (toDepth ? h % b != 0 || w % b != 0 : c % (b * b) != 0))
    return nc.error() << "blocksize " << b << " must be >= 1 and divide "
                      << (toDepth ? "H and W" : "C by its square") << " ([" << s
                      << "])",
           failure();
  llvm::SmallVector<int64_t> split, perm, out;
  if (toDepth) {
    split = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {n, c * b * b, h / b, w / b};
  } else if (*mode == "DCR") {
    split = {n, b, b, c / (b * b), h, w};
    perm = {0, 3, 4, 1, 5, 2};
    out = {n, c / (b * b), h * b, w * b};
  } else {
    split = {n, c / (b * b), b, b, h, w};
    perm = {0, 1, 4, 2, 5, 3};
    out = {n, c / (b * b), h * b, w * b};
  }
  FailureOr<Value> y = nc.reshape(*x, split);
  if (succeeded(y))
    y = nc.create<nn::TransposeOp>({*y}, {nc.named("perm", nc.i64Array(perm))});
  if (succeeded(y))
    y = nc.reshape(*y, out);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

//===----------------------------------------------------------------------===//
// Concat, Slice, Split, Pad
//===----------------------------------------------------------------------===//

/// Output 0 is the concatenation of `parts` along `axisAttr` (folded on
/// constants).
static LogicalResult concatTo(NodeContext &nc, llvm::ArrayRef<Tensor *> parts,
                              int64_t axisAttr) {
  if (parts.empty())
    return nc.error() << "needs inputs", failure();
  const Tensor &first = *parts.front();
  FailureOr<int64_t> axis = nc.normalizeAxis(axisAttr, first.rank(), "axis");
  if (failed(axis))
    return failure();
  if (llvm::all_of(parts, [](const Tensor *t) { return isFoldable(*t); })) {
    // Row-major concatenation: for each outer index, each input's block.
    Const out;
    out.dtype = first.dtype;
    out.shape = first.shape;
    out.shape[*axis] = 0;
    int64_t outer = 1;
    for (int64_t d = 0; d < *axis; ++d)
      outer *= first.shape[d];
    for (const Tensor *t : parts) {
      if (t->dtype != first.dtype || t->rank() != first.rank())
        return nc.error() << "the inputs differ in type or rank", failure();
      out.shape[*axis] += t->shape[*axis];
    }
    for (int64_t o = 0; o < outer; ++o)
      for (const Tensor *t : parts) {
        const Const &c = *t->constant;
        int64_t block = outer ? c.numel() / outer : 0;
        for (int64_t k = o * block; k < (o + 1) * block; ++k) {
          if (c.isFloat())
            out.f.push_back(c.f[k]);
          else
            out.i.push_back(c.i[k]);
        }
      }
    return nc.setOutput(0, std::move(out));
  }
  llvm::SmallVector<Value> values;
  for (Tensor *t : parts)
    values.push_back(nc.table.materialize(*t, nc.loc));
  FailureOr<Value> y = nc.create<nn::ConcatOp>(
      values, {nc.named("axis", nc.builder.getI64IntegerAttr(*axis))});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

static LogicalResult importConcat(NodeContext &nc) {
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  if (failed(axisAttr) || nc.numInputs() == 0)
    return nc.error() << "needs inputs and an axis", failure();
  llvm::SmallVector<Tensor *> parts;
  for (unsigned i = 0; i < nc.numInputs(); ++i) {
    FailureOr<Tensor *> t = nc.input(i);
    if (failed(t))
      return failure();
    parts.push_back(*t);
  }
  return concatTo(nc, parts, *axisAttr);
}

/// A strided window per dim: offset, stride, size.
struct SliceDims {
  llvm::SmallVector<int64_t> offsets, strides, sizes;
};

/// Applies the window to a constant.
static Const sliceConst(const Const &c, const SliceDims &s) {
  llvm::SmallVector<int64_t> strides = stridesOf(c.shape);
  llvm::SmallVector<int64_t> indices;
  int64_t n = 1;
  for (int64_t d : s.sizes)
    n *= d;
  llvm::SmallVector<int64_t> idx(s.sizes.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t linear = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      linear += (s.offsets[d] + idx[d] * s.strides[d]) * strides[d];
    indices.push_back(linear);
    advanceIndex(idx, s.sizes);
  }
  return gatherElements(c, indices, s.sizes);
}

/// Output 0 is the window `s` of input 0 (folded on constants).
static LogicalResult sliceTo(NodeContext &nc, unsigned output,
                             const SliceDims &s) {
  Tensor &t = **nc.input(0);
  if (isFoldable(t))
    return nc.setOutput(output, sliceConst(*t.constant, s));
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = nc.slice(*x, s.offsets, s.sizes, s.strides);
  return failed(y) ? failure() : nc.setOutput(output, *y);
}

static LogicalResult importSlice(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  int64_t rank = (*t)->rank();
  std::vector<int64_t> starts, ends, axes, steps;
  if (nc.opset < 10) {
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> s =
        nc.intsAttr("starts");
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> e =
        nc.intsAttr("ends");
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> a =
        nc.intsAttr("axes");
    if (failed(s) || failed(e) || failed(a) || !*s || !*e)
      return nc.error() << "attributes 'starts' and 'ends' are required",
             failure();
    starts.assign((*s)->begin(), (*s)->end());
    ends.assign((*e)->begin(), (*e)->end());
    if (*a)
      axes.assign((*a)->begin(), (*a)->end());
  } else {
    const char *names[] = {"the starts", "the ends", "the axes", "the steps"};
    std::vector<int64_t> *lists[] = {&starts, &ends, &axes, &steps};
    for (unsigned i = 1; i <= 4; ++i) {
      if (!nc.hasInput(i)) {
        if (i <= 2)
          return nc.error() << names[i - 1] << " are missing", failure();
        continue;
      }
      FailureOr<const Const *> c = nc.constInput(i, names[i - 1]);
      if (failed(c))
        return failure();
      *lists[i - 1] = (*c)->ints();
    }
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return nc.error() << "starts, ends, axes and steps differ in length",
           failure();
  SliceDims s;
  s.offsets.assign(rank, 0);
  s.strides.assign(rank, 1);
  s.sizes = (*t)->shape;
  llvm::SmallVector<bool> seen(rank, false);
  for (size_t i = 0; i < starts.size(); ++i) {
    FailureOr<int64_t> axis = nc.normalizeAxis(axes[i], rank, "axis");
    if (failed(axis))
      return failure();
    if (seen[*axis])
      return nc.error() << "axis " << *axis << " repeats", failure();
    seen[*axis] = true;
    int64_t n = (*t)->shape[*axis], st = steps[i];
    if (st == 0)
      return nc.error() << "a step is 0", failure();
    // Clamp like ONNX (and numpy); int64 extremes mean "to the end".
    auto clampTo = [](int64_t v, int64_t lo, int64_t hi) {
      return std::max(lo, std::min(v, hi));
    };
    int64_t b = starts[i], e = ends[i];
    if (b < 0)
      b += n;
    if (e < 0)
      e += n;
    // ceil(span / |step|) without forming span + |step| - 1, which
    // overflows for steps near the int64 extremes (-INT64_MIN too).
    const int64_t stepAbs =
        st > 0 ? st
               : (st == std::numeric_limits<int64_t>::min()
                      ? std::numeric_limits<int64_t>::max()
                      : -st);
    auto count = [&](int64_t span) {
      return span > 0 ? (span - 1) / stepAbs + 1 : 0;
    };
    int64_t size;
    if (st > 0) {
      b = clampTo(b, 0, n);
      e = clampTo(e, 0, n);
      size = count(e - b);
    } else {
      b = clampTo(b, -1, n - 1);
      e = clampTo(e, -1, n - 1);
      size = count(b - e);
    }
    s.offsets[*axis] = size ? b : 0;
    // One element or none: the step does not matter; 1 keeps extremes
    // out of the slice's arithmetic.
    s.strides[*axis] = size > 1 ? st : 1;
    s.sizes[*axis] = size;
  }
  return sliceTo(nc, 0, s);
}

/// The windows of `shape` that cut dimension `axis` into consecutive
/// pieces of `sizes` (each at least `minSize`); an error unless they cover
/// it exactly.
static FailureOr<std::vector<SliceDims>>
splitWindows(NodeContext &nc, llvm::ArrayRef<int64_t> shape, int64_t axis,
             llvm::ArrayRef<int64_t> sizes, int64_t minSize) {
  const int64_t n = shape[axis];
  std::vector<SliceDims> windows;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    if (size < minSize || size > n - offset)
      return nc.error() << "the split does not fit dimension " << axis << " ("
                        << n << ")",
             failure();
    SliceDims s;
    s.offsets.assign(shape.size(), 0);
    s.strides.assign(shape.size(), 1);
    s.sizes.assign(shape.begin(), shape.end());
    s.offsets[axis] = offset;
    s.sizes[axis] = size;
    offset += size;
    windows.push_back(std::move(s));
  }
  if (offset != n)
    return nc.error() << "the split covers " << offset << " of " << n,
           failure();
  return windows;
}

static LogicalResult importSplit(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  FailureOr<int64_t> numOutputs = nc.intAttr("num_outputs", 0);
  if (failed(t) || failed(axisAttr) || failed(numOutputs))
    return failure();
  int64_t rank = (*t)->rank();
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, rank, "axis");
  if (failed(axis))
    return failure();
  std::vector<int64_t> split;
  if (nc.opset < 13) {
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> a =
        nc.intsAttr("split");
    if (failed(a))
      return failure();
    if (*a)
      split.assign((*a)->begin(), (*a)->end());
  } else if (nc.hasInput(1)) {
    FailureOr<const Const *> c = nc.constInput(1, "the split");
    if (failed(c))
      return failure();
    split = (*c)->ints();
  }
  int64_t n = (*t)->shape[*axis];
  unsigned outs = nc.numOutputs();
  if (split.empty()) {
    // Equal parts; the last one smaller when they do not divide (opset 18).
    int64_t parts = *numOutputs ? *numOutputs : outs;
    if (parts <= 0)
      return nc.error() << "the split has no outputs", failure();
    int64_t chunk = (n + parts - 1) / parts;
    for (int64_t k = 0; k < parts; ++k)
      split.push_back(std::max<int64_t>(0, std::min(chunk, n - k * chunk)));
  }
  if (split.size() != outs)
    return nc.error() << "the split has " << split.size() << " parts for "
                      << outs << " outputs",
           failure();
  FailureOr<std::vector<SliceDims>> windows =
      splitWindows(nc, (*t)->shape, *axis, split, /*minSize=*/0);
  if (failed(windows))
    return failure();
  for (unsigned o = 0; o < outs; ++o)
    if (failed(sliceTo(nc, o, (*windows)[o])))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Sequences: lists of tensors known at import time
//===----------------------------------------------------------------------===//
//
// PyTorch's TorchScript exporter writes torch.split and torch.chunk of a
// size it computes (Mamba's x.chunk along the channels) as SplitToSequence
// and SequenceAt. With static shapes the split and the positions fold, so
// a sequence is a list of tensors in the value table, and its ops pick
// from the list. A sequence is no tensor: another op, or a graph output,
// that reads one is an error.

/// A sequence of `items`, of element type `dtype` (lifted from `lifted`).
static Tensor sequenceOf(std::vector<Tensor> items, int32_t dtype,
                         int32_t lifted) {
  Tensor seq;
  seq.dtype = dtype;
  seq.liftedFrom = lifted;
  if (!items.empty())
    seq.shape = items.front().shape;
  seq.sequence = std::make_shared<const std::vector<Tensor>>(std::move(items));
  return seq;
}

/// `in` (input `i` of the node) viewed through the window `s`, then
/// reshaped to `shape`: a constant when `in` folds, else nn.slice and
/// nn.reshape where they change anything.
static FailureOr<Tensor> windowOf(NodeContext &nc, unsigned i,
                                  const SliceDims &s,
                                  llvm::ArrayRef<int64_t> shape) {
  Tensor &in = **nc.input(i);
  Tensor out;
  out.dtype = in.dtype;
  out.liftedFrom = in.liftedFrom;
  out.shape.assign(shape.begin(), shape.end());
  if (isFoldable(in)) {
    Const c = sliceConst(*in.constant, s);
    c.shape.assign(shape.begin(), shape.end());
    if (!nc.table.addFoldedBytes(int64_t(c.f.size() * sizeof(float)) +
                                 int64_t(c.i.size() * sizeof(int64_t))))
      return nc.error() << "the sequence's constants pass the import's "
                           "budget on constants",
             failure();
    out.constant = std::make_shared<const Const>(std::move(c));
    return out;
  }
  FailureOr<Value> x = nc.anyValue(i);
  if (failed(x))
    return failure();
  FailureOr<Value> sliced = nc.slice(*x, s.offsets, s.sizes, s.strides);
  if (failed(sliced))
    return failure();
  Value v = *sliced;
  if (llvm::ArrayRef<int64_t>(s.sizes) != shape) {
    FailureOr<Value> y = nc.reshape(v, shape);
    if (failed(y))
      return failure();
    v = *y;
  }
  out.value = v;
  return out;
}

/// SplitToSequence: the pieces of Split (the split given as sizes, or as
/// one size for every piece, the last smaller; without it pieces of 1,
/// whose axis keepdims = 0 drops).
static LogicalResult importSplitToSequence(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  FailureOr<int64_t> keepdims = nc.intAttr("keepdims", 1);
  if (failed(t) || failed(axisAttr) || failed(keepdims))
    return failure();
  const int64_t rank = (*t)->rank();
  FailureOr<int64_t> axis = nc.normalizeAxis(*axisAttr, rank, "axis");
  if (failed(axis))
    return failure();
  const int64_t n = (*t)->shape[*axis];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (nc.hasInput(1)) {
    FailureOr<const Const *> split = nc.constInput(1, "the split");
    if (failed(split))
      return failure();
    std::vector<int64_t> values = (*split)->ints();
    if ((*split)->shape.empty()) {
      if (values[0] < 1)
        return nc.error() << "the split size " << values[0]
                          << " is not positive",
               failure();
      for (int64_t at = 0; at < n; at += values[0])
        sizes.push_back(std::min(values[0], n - at));
    } else if ((*split)->shape.size() == 1) {
      sizes = values;
    } else {
      return nc.error() << "the split is neither a scalar nor 1-D", failure();
    }
  } else {
    sizes.assign(n, 1);
    squeeze = *keepdims == 0;
  }
  FailureOr<std::vector<SliceDims>> windows =
      splitWindows(nc, (*t)->shape, *axis, sizes, /*minSize=*/1);
  if (failed(windows))
    return failure();
  std::vector<Tensor> items;
  for (const SliceDims &s : *windows) {
    llvm::SmallVector<int64_t> shape(s.sizes);
    if (squeeze)
      shape.erase(shape.begin() + *axis);
    FailureOr<Tensor> piece = windowOf(nc, 0, s, shape);
    if (failed(piece))
      return failure();
    items.push_back(std::move(*piece));
  }
  return nc.setOutput(
      0, sequenceOf(std::move(items), (*t)->dtype, (*t)->liftedFrom));
}

/// A position in a sequence of `count` (negative from the back), known at
/// import time; `past` allows `count` itself (SequenceInsert's).
static FailureOr<int64_t> sequencePosition(NodeContext &nc, unsigned i,
                                           int64_t count, bool past) {
  FailureOr<const Const *> c = nc.scalarInput(i, "the position");
  if (failed(c))
    return failure();
  int64_t p = (*c)->ints()[0];
  const int64_t end = past ? count + 1 : count;
  if (p < -count || p >= end)
    return nc.error() << "position " << p << " is outside the sequence of "
                      << count,
           failure();
  return p < 0 ? p + count : p;
}

static LogicalResult importSequenceAt(NodeContext &nc) {
  FailureOr<const std::vector<Tensor> *> seq = nc.sequenceInput(0);
  if (failed(seq))
    return failure();
  FailureOr<int64_t> p = sequencePosition(nc, 1, (*seq)->size(), false);
  return failed(p) ? failure() : nc.setOutput(0, (**seq)[*p]);
}

static LogicalResult importSequenceLength(NodeContext &nc) {
  FailureOr<const std::vector<Tensor> *> seq = nc.sequenceInput(0);
  if (failed(seq))
    return failure();
  Const c;
  c.dtype = onnx::TensorProto::INT64;
  c.i.push_back(int64_t((*seq)->size()));
  return nc.setOutput(0, std::move(c));
}

static LogicalResult importSequenceConstruct(NodeContext &nc) {
  std::vector<Tensor> items;
  for (unsigned i = 0; i < nc.numInputs(); ++i) {
    FailureOr<Tensor *> t = nc.input(i);
    if (failed(t))
      return failure();
    if ((*t)->dtype != (*nc.input(0))->dtype)
      return nc.error() << "the tensors differ in element type", failure();
    items.push_back(**t);
    items.back().initializer = false;
    if ((*t)->initializer && (*t)->isFloat())
      items.back().value = nc.table.materialize(**t, nc.loc);
  }
  if (items.empty())
    return nc.error() << "needs a tensor", failure();
  int32_t dtype = items.front().dtype, lifted = items.front().liftedFrom;
  return nc.setOutput(0, sequenceOf(std::move(items), dtype, lifted));
}

/// SequenceInsert (a tensor at a position, by default the end) and
/// SequenceErase (the tensor at a position, by default the last).
static LogicalResult editSequence(NodeContext &nc, bool insert) {
  FailureOr<const std::vector<Tensor> *> seq = nc.sequenceInput(0);
  if (failed(seq))
    return failure();
  std::vector<Tensor> items = **seq;
  const unsigned positionInput = insert ? 2 : 1;
  int64_t p = insert ? int64_t(items.size()) : int64_t(items.size()) - 1;
  if (nc.hasInput(positionInput)) {
    FailureOr<int64_t> at =
        sequencePosition(nc, positionInput, items.size(), insert);
    if (failed(at))
      return failure();
    p = *at;
  }
  if (insert) {
    FailureOr<Tensor *> t = nc.input(1);
    if (failed(t))
      return failure();
    if ((*t)->dtype != nc.table.lookup(nc.node.input(0))->dtype)
      return nc.error() << "the tensor's element type is not the sequence's",
             failure();
    Tensor item = **t;
    item.initializer = false;
    if ((*t)->initializer && (*t)->isFloat())
      item.value = nc.table.materialize(**t, nc.loc);
    items.insert(items.begin() + p, std::move(item));
  } else {
    if (items.empty())
      return nc.error() << "the sequence is empty", failure();
    items.erase(items.begin() + p);
  }
  const Tensor &in = *nc.table.lookup(nc.node.input(0));
  return nc.setOutput(0, sequenceOf(std::move(items), in.dtype, in.liftedFrom));
}

/// ConcatFromSequence: Concat of the tensors, or with new_axis = 1 their
/// stack along a new axis.
static LogicalResult importConcatFromSequence(NodeContext &nc) {
  FailureOr<const std::vector<Tensor> *> seq = nc.sequenceInput(0);
  FailureOr<int64_t> axisAttr = nc.intAttr("axis", 0);
  FailureOr<int64_t> newAxis = nc.intAttr("new_axis", 0);
  if (failed(seq) || failed(axisAttr) || failed(newAxis))
    return failure();
  if ((*seq)->empty())
    return nc.error() << "the sequence is empty", failure();
  std::vector<Tensor> items = **seq;
  int64_t axis = *axisAttr;
  if (*newAxis) {
    FailureOr<int64_t> at =
        nc.normalizeAxis(axis, items.front().rank() + 1, "axis");
    if (failed(at))
      return failure();
    axis = *at;
    for (Tensor &item : items) {
      llvm::SmallVector<int64_t> shape(item.shape);
      shape.insert(shape.begin() + axis, 1);
      if (isFoldable(item)) {
        Const c = *item.constant;
        c.shape = shape;
        item.constant = std::make_shared<const Const>(std::move(c));
      } else {
        FailureOr<Value> y =
            nc.reshape(nc.table.materialize(item, nc.loc), shape);
        if (failed(y))
          return failure();
        item.value = *y;
      }
      item.shape = shape;
    }
  }
  llvm::SmallVector<Tensor *> parts;
  for (Tensor &item : items)
    parts.push_back(&item);
  return concatTo(nc, parts, axis);
}

/// The index of `x` that position `p` of the padded axis (0 at x's first
/// element, negative before it) reads, in numpy's np.pad modes (ONNX's
/// reference): `edge` repeats the end, `reflect` mirrors about it without
/// repeating it, `wrap` continues from the other end.
static int64_t paddedIndex(llvm::StringRef mode, int64_t p, int64_t n) {
  if (mode == "edge")
    return std::clamp<int64_t>(p, 0, n - 1);
  if (mode == "wrap")
    return ((p % n) + n) % n;
  if (n == 1) // reflect
    return 0;
  const int64_t period = 2 * (n - 1);
  int64_t m = ((p % period) + period) % period;
  return m < n ? m : period - m;
}

/// `x` padded (or cropped, by a negative pad) by `low` and `high` along
/// `axis` in mode edge, reflect or wrap: the padded axis reads runs of x's
/// positions, each an nn.slice (a mirrored run, reflect's, with stride -1;
/// a run of one position repeated, nn.slice and nn.broadcast_to), joined
/// with nn.concat, so that gradients flow back to x. A reflection is three
/// pieces however wide (torch.stft's centering pads by half a frame).
static FailureOr<Value> padAxis(NodeContext &nc, Value x, int64_t axis,
                                int64_t low, int64_t high,
                                llvm::StringRef mode) {
  // At most this many runs (a reflection of one more row each time the
  // padding passes the ends) and padded positions per axis.
  static constexpr int64_t kMaxRuns = 1024;
  static constexpr int64_t kMaxPadded = int64_t(1) << 24;
  llvm::SmallVector<int64_t> shape = shapeOf(x);
  const int64_t n = shape[axis];
  const int64_t end = n + high;
  if (n == 0 || -low >= end)
    return nc.error() << "the pads leave nothing of dimension " << axis
                      << " to pad in mode '" << mode << "'",
           failure();
  if (end + low > kMaxPadded)
    return nc.error() << "the pads make dimension " << axis << " longer than "
                      << kMaxPadded << " in mode '" << mode << "'",
           failure();
  llvm::SmallVector<Value> parts;
  for (int64_t p = -low; p < end;) {
    if (parts.size() == size_t(kMaxRuns))
      return nc.error() << "mode '" << mode << "' pads dimension " << axis
                        << " with more than " << kMaxRuns
                        << " pieces of the input",
             failure();
    // A run: consecutive indices, ascending or descending, or one index
    // repeated.
    const int64_t first = paddedIndex(mode, p, n);
    int64_t count = 1;
    const int64_t next = p + 1 < end ? paddedIndex(mode, p + 1, n) : -1;
    const int64_t step = next == first ? 0 : (next == first - 1 ? -1 : 1);
    while (p + count < end &&
           paddedIndex(mode, p + count, n) == first + step * count)
      ++count;
    llvm::SmallVector<int64_t> offsets(shape.size(), 0),
        sizes = shape, strides(shape.size(), 1);
    offsets[axis] = first;
    sizes[axis] = step ? count : 1;
    strides[axis] = step < 0 ? -1 : 1;
    FailureOr<Value> part = nc.slice(x, offsets, sizes, strides);
    if (succeeded(part) && !step && count > 1) {
      sizes[axis] = count;
      part =
          nc.createTyped<nn::BroadcastToOp>(withShape(*part, sizes), {*part});
    }
    if (failed(part))
      return failure();
    parts.push_back(*part);
    p += count;
  }
  if (parts.size() == 1)
    return parts[0];
  return nc.create<nn::ConcatOp>(
      parts, {nc.named("axis", nc.builder.getI64IntegerAttr(axis))});
}

/// `x` (integer or BOOL) with `low` and `high` elements of `value` added
/// before and after each dimension: an nn.concat per padded dimension of
/// filled constants around it, as nn.pad takes floats. Hugging Face's causal
/// LM loss pads its INT64 labels with -100 this way before shifting them.
static FailureOr<Value> padWithIntConstant(NodeContext &nc, Value x,
                                           llvm::ArrayRef<int64_t> low,
                                           llvm::ArrayRef<int64_t> high,
                                           int64_t value) {
  const Type elt = cast<RankedTensorType>(x.getType()).getElementType();
  for (size_t d = 0; d < low.size(); ++d) {
    if (low[d] == 0 && high[d] == 0)
      continue;
    llvm::SmallVector<int64_t> shape = shapeOf(x);
    auto fill = [&](int64_t n) {
      shape[d] = n;
      return nc.intSplat(elt, shape, value);
    };
    llvm::SmallVector<Value, 3> parts;
    if (low[d] > 0)
      parts.push_back(fill(low[d]));
    parts.push_back(x);
    if (high[d] > 0)
      parts.push_back(fill(high[d]));
    FailureOr<Value> joined = nc.create<nn::ConcatOp>(
        parts, {nc.named("axis", nc.builder.getI64IntegerAttr(d))});
    if (failed(joined))
      return failure();
    x = *joined;
  }
  return x;
}

/// Pad: `constant` as nn.pad of a FLOAT tensor, or padWithIntConstant of an
/// integer or BOOL one (after an nn.slice for negative pads, which crop),
/// `edge`, `reflect` and `wrap` of a tensor of any type axis by axis with
/// padAxis (numpy's np.pad pads the later axes' corners from the earlier
/// axes' padding too).
static LogicalResult importPad(NodeContext &nc) {
  FailureOr<std::string> mode = nc.stringAttr("mode", "constant");
  if (failed(mode))
    return failure();
  if (!llvm::is_contained({"constant", "edge", "reflect", "wrap"}, *mode))
    return nc.error() << "unknown mode '" << *mode
                      << "' (constant, edge, reflect, wrap)",
           failure();
  FailureOr<Value> x = nc.anyValue(0);
  if (failed(x))
    return failure();
  const bool isFloat = isa<FloatType>(getElementTypeOrSelf(x->getType()));
  if (*mode == "wrap" && nc.opset < 19)
    return nc.error() << "mode 'wrap' is Pad-19's; the model's opset is "
                      << nc.opset,
           failure();
  int64_t rank = shapeOf(*x).size();
  std::vector<int64_t> pads;
  float value = 0.0f;
  int64_t intValue = 0; // the value of an integer or BOOL x
  if (nc.opset < 11) {
    FailureOr<std::optional<llvm::SmallVector<int64_t>>> p =
        nc.intsAttr("pads");
    FailureOr<float> v = nc.floatAttr("value", 0.0f);
    if (failed(p) || failed(v) || !*p)
      return nc.error() << "attribute 'pads' is required", failure();
    pads.assign((*p)->begin(), (*p)->end());
    value = *v;
    intValue = toInt64(*v);
  } else {
    FailureOr<const Const *> p = nc.constInput(1, "the pads");
    if (failed(p))
      return failure();
    pads = (*p)->ints();
    if (nc.hasInput(2)) {
      FailureOr<const Const *> v = nc.constInput(2, "the constant value");
      if (failed(v))
        return failure();
      if ((*v)->numel() != 1)
        return nc.error() << "the constant value must be a scalar", failure();
      value = float((*v)->at(0));
      intValue = (*v)->ints()[0];
    }
  }
  std::vector<int64_t> axes;
  if (nc.hasInput(3)) {
    FailureOr<const Const *> a = nc.constInput(3, "the axes");
    if (failed(a))
      return failure();
    for (int64_t ax : (*a)->ints()) {
      FailureOr<int64_t> n = nc.normalizeAxis(ax, rank, "axis");
      if (failed(n))
        return failure();
      axes.push_back(*n);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (pads.size() != 2 * axes.size())
    return nc.error() << "the pads have " << pads.size() << " entries; "
                      << 2 * axes.size() << " expected",
           failure();
  // Pads beyond this are an error, so that sizes cannot overflow.
  static constexpr int64_t kMaxPad = int64_t(1) << 30;
  llvm::SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    low[axes[i]] = pads[i];
    high[axes[i]] = pads[i + axes.size()];
    auto tooLarge = [](int64_t pad) { return pad > kMaxPad || pad < -kMaxPad; };
    if (tooLarge(pads[i]) || tooLarge(pads[i + axes.size()]))
      return nc.error() << "a pad of more than " << kMaxPad
                        << " is not supported",
             failure();
  }
  Value y = *x;
  if (*mode != "constant") {
    for (int64_t d = 0; d < rank; ++d) {
      if (low[d] == 0 && high[d] == 0)
        continue;
      FailureOr<Value> padded = padAxis(nc, y, d, low[d], high[d], *mode);
      if (failed(padded))
        return failure();
      y = *padded;
    }
    return nc.setOutput(0, y);
  }
  // Negative pads crop first.
  llvm::SmallVector<int64_t> shape = shapeOf(y);
  llvm::SmallVector<int64_t> offsets(rank, 0), sizes = shape;
  for (int64_t d = 0; d < rank; ++d) {
    offsets[d] = std::max<int64_t>(0, -low[d]);
    sizes[d] = shape[d] - offsets[d] - std::max<int64_t>(0, -high[d]);
    if (sizes[d] < 0)
      return nc.error() << "the negative pads crop more than dimension " << d
                        << " holds",
             failure();
    low[d] = std::max<int64_t>(0, low[d]);
    high[d] = std::max<int64_t>(0, high[d]);
  }
  FailureOr<Value> cropped = nc.slice(y, offsets, sizes);
  if (failed(cropped))
    return failure();
  // No padding (a "same" padding of a 1x1 convolution, as PyTorch exports
  // TensorFlow-style models): the identity, not a copy.
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return nc.setOutput(0, *cropped);
  if (!isFloat) {
    FailureOr<Value> padded =
        padWithIntConstant(nc, *cropped, low, high, intValue);
    return failed(padded) ? failure() : nc.setOutput(0, *padded);
  }
  FailureOr<Value> padded = nc.create<nn::PadOp>(
      {*cropped},
      {nc.named("low", nc.i64Array(low)), nc.named("high", nc.i64Array(high)),
       nc.named("value", nc.builder.getF32FloatAttr(value))});
  return failed(padded) ? failure() : nc.setOutput(0, *padded);
}

void amp::onnx_import::registerShapeOps(OpTable &t) {
  t["Constant"] = {importConstant,
                   {"value", "value_float", "value_floats", "value_int",
                    "value_ints", "sparse_value", "value_string",
                    "value_strings"}};
  t["ConstantOfShape"] = {importConstantOfShape, {"value"}};
  t["EyeLike"] = {importEyeLike, {"dtype", "k"}};
  t["Range"] = {importRange, {}};
  t["Shape"] = {importShape, {"start", "end"}};
  t["Size"] = {importSize, {}};
  t["Reshape"] = {importReshape, {"allowzero"}};
  t["Flatten"] = {importFlatten, {"axis"}};
  t["Squeeze"] = {importSqueeze, {"axes"}};
  t["Unsqueeze"] = {importUnsqueeze, {"axes"}};
  t["Transpose"] = {importTranspose, {"perm"}};
  t["Expand"] = {importExpand, {}};
  t["Tile"] = {importTile, {}};
  t["Trilu"] = {importTrilu, {"upper"}};
  t["Cast"] = {importCast, {"to", "saturate"}};
  t["CastLike"] = {importCastLike, {"saturate"}};
  t["Concat"] = {importConcat, {"axis"}};
  t["ConcatFromSequence"] = {importConcatFromSequence, {"axis", "new_axis"}};
  t["SequenceAt"] = {importSequenceAt, {}};
  t["SequenceConstruct"] = {importSequenceConstruct, {}};
  t["SequenceErase"] = {[](NodeContext &nc) { return editSequence(nc, false); },
                        {}};
  t["SequenceInsert"] = {[](NodeContext &nc) { return editSequence(nc, true); },
                         {}};
  t["SequenceLength"] = {importSequenceLength, {}};
  t["SplitToSequence"] = {importSplitToSequence, {"axis", "keepdims"}};
  t["Slice"] = {importSlice, {"starts", "ends", "axes"}};
  t["Split"] = {importSplit, {"axis", "split", "num_outputs"}};
  t["Pad"] = {importPad, {"mode", "pads", "value"}};
  t["DepthToSpace"] = {importDepthSpace<false>, {"blocksize", "mode"}};
  t["SpaceToDepth"] = {importDepthSpace<true>, {"blocksize"}};
}
