//===- OpsElementwise.cpp - elementwise ONNX ops --------------------------===//
//
// Unary activations and functions (the trigonometric and hyperbolic ones
// and their inverses too), Sign, Ceil, Floor and Round among them
// (folded on constants, Abs, Neg, Relu and Sign on integer ones too; Sign
// of run-time integers as nn.compare and nn.where), binary
// arithmetic with numpy broadcasting (folded on constants, so shape
// arithmetic never reaches nn; at run time on FLOAT, INT64 and INT32), Mod
// (nn.mod at run time), Sum/Max/Min/Mean, Pow, Clip, Where (of
// any element type, folded on constants), Identity, Dropout (the identity
// in inference, nn.dropout in training mode) and Gelu.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/xxhash.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

template <typename OpTy> static LogicalResult importUnary(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = nc.create<OpTy>({*x});
  if (failed(y))
    return failure();
  return nc.setOutput(0, *y);
}

/// Neg (0 - x) or Abs (where(x < 0, 0 - x, x)) of an integer value at run
/// time, whose nn ops are float ones; the two's complement minimum stays
/// itself, as in numpy.
template <typename OpTy> static LogicalResult importIntNegAbs(NodeContext &nc) {
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(x))
    return failure();
  Value zero = nc.intScalar(getElementTypeOrSelf(x->getType()), 0);
  FailureOr<Value> y = nc.create<nn::SubOp>({zero, *x});
  if (std::is_same_v<OpTy, nn::AbsOp> && succeeded(y)) {
    FailureOr<Value> negative = nc.create<nn::CompareOp>(
        {*x, zero}, {nc.predicate(nn::ComparePredicate::LT)});
    y = failed(negative) ? negative
                         : nc.create<nn::WhereOp>({*negative, *y, *x});
  }
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// A unary op, folded when its input is a constant the importer may
/// rewrite: a FLOAT one in f64, rounded to f32 (the rotary embedding's Sin
/// and Cos of constant angles, as PyTorch's TorchScript exporter writes
/// them), an INT64 or INT32 one with `foldInt` where the op has integer
/// semantics (Abs and Neg of T5's relative positions; importIntNegAbs at
/// run time). Else the nn op.
template <typename OpTy, double (*fold)(double),
          int64_t (*foldInt)(int64_t) = nullptr>
static LogicalResult importFoldableUnary(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  if constexpr (foldInt != nullptr)
    if (!isFoldable(**t) && !(*t)->isFloat() &&
        (std::is_same_v<OpTy, nn::NegOp> || std::is_same_v<OpTy, nn::AbsOp>))
      return importIntNegAbs<OpTy>(nc);
  if (!isFoldable(**t))
    return importUnary<OpTy>(nc);
  Const y = *(*t)->constant;
  if (y.isFloat()) {
    for (float &v : y.f)
      v = float(fold(double(v)));
    return nc.setOutput(0, std::move(y));
  }
  if constexpr (foldInt == nullptr) {
    return importUnary<OpTy>(nc);
  } else {
    if (y.dtype != onnx::TensorProto::INT64 &&
        y.dtype != onnx::TensorProto::INT32)
      return importUnary<OpTy>(nc);
    for (int64_t &v : y.i) {
      v = foldInt(v);
      // INT32's -INT32_MIN wraps, as in numpy.
      if (y.dtype == onnx::TensorProto::INT32)
        v = int32_t(uint32_t(uint64_t(v)));
    }
    return nc.setOutput(0, std::move(y));
  }
}

// The folds, as the kernels compute them (relu passes NaN and -0).
static double foldSin(double x) { return std::sin(x); }
static double foldCos(double x) { return std::cos(x); }
static double foldErf(double x) { return std::erf(x); }
static double foldTan(double x) { return std::tan(x); }
static double foldAsin(double x) { return std::asin(x); }
static double foldAcos(double x) { return std::acos(x); }
static double foldAtan(double x) { return std::atan(x); }
static double foldSinh(double x) { return std::sinh(x); }
static double foldCosh(double x) { return std::cosh(x); }
static double foldAsinh(double x) { return std::asinh(x); }
static double foldAcosh(double x) { return std::acosh(x); }
static double foldAtanh(double x) { return std::atanh(x); }
static double foldExp(double x) { return std::exp(x); }
static double foldLog(double x) { return std::log(x); }
static double foldSqrt(double x) { return std::sqrt(x); }
static double foldTanh(double x) { return std::tanh(x); }
static double foldSigmoid(double x) { return 1 / (1 + std::exp(-x)); }
static double foldRelu(double x) { return x < 0 ? 0.0 : x; }
static double foldNeg(double x) { return -x; }
static double foldAbs(double x) { return std::abs(x); }
// The step functions: NaN stays NaN and a zero keeps its sign; Round halves
// to even, as ONNX's.
static double foldSign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }
static int64_t foldSignInt(int64_t x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
static double foldCeil(double x) { return std::ceil(x); }
static double foldFloor(double x) { return std::floor(x); }
static double foldRound(double x) { return std::nearbyint(x); }
// Two's complement: -INT64_MIN and |INT64_MIN| wrap to INT64_MIN.
static int64_t foldNegInt(int64_t x) { return int64_t(0 - uint64_t(x)); }
static int64_t foldAbsInt(int64_t x) { return x < 0 ? foldNegInt(x) : x; }
static int64_t foldReluInt(int64_t x) { return x < 0 ? 0 : x; }

/// A 0-d f32 constant.
static Value scalar(NodeContext &nc, float v) { return nc.splat({}, v); }

static LogicalResult importReciprocal(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  FailureOr<Value> y = nc.create<nn::DivOp>({scalar(nc, 1.0f), *x});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

//===----------------------------------------------------------------------===//
// Binary and variadic arithmetic
//===----------------------------------------------------------------------===//

enum class Arith { Add, Sub, Mul, Div, Max, Min };

static double applyArith(Arith op, bool isFloat, double a, double b) {
  switch (op) {
  case Arith::Add:
    return a + b;
  case Arith::Sub:
    return a - b;
  case Arith::Mul:
    return a * b;
  case Arith::Div:
    if (!isFloat) {
      int64_t x = toInt64(a), y = toInt64(b);
      // As the runtime: a zero divisor gives 0, and x / -1 wraps.
      if (y == 0)
        return 0;
      if (y == -1)
        return double(int64_t(uint64_t(0) - uint64_t(x)));
      return double(x / y);
    }
    return a / b;
  case Arith::Max:
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  case Arith::Min:
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  }
  return 0;
}

static FailureOr<Value> buildArith(NodeContext &nc, Arith op, Value a,
                                   Value b) {
  switch (op) {
  case Arith::Add:
    return nc.create<nn::AddOp>({a, b});
  case Arith::Sub:
    return nc.create<nn::SubOp>({a, b});
  case Arith::Mul:
    return nc.create<nn::MulOp>({a, b});
  case Arith::Div:
    return nc.create<nn::DivOp>({a, b});
  case Arith::Max:
    return nc.create<nn::MaximumOp>({a, b});
  case Arith::Min:
    return nc.create<nn::MinimumOp>({a, b});
  }
  return failure();
}

/// Folds the inputs [0, n) when all are constants; else chains nn ops.
static LogicalResult importArith(NodeContext &nc, Arith op, unsigned n) {
  if (n == 0)
    return nc.error() << "needs at least one input", failure();
  bool allConst = true;
  for (unsigned i = 0; i < n; ++i) {
    FailureOr<Tensor *> t = nc.input(i);
    if (failed(t))
      return failure();
    allConst &= isFoldable(**t);
  }
  if (allConst) {
    Const acc = *(*nc.input(0))->constant;
    for (unsigned i = 1; i < n; ++i) {
      const Const &rhs = *(*nc.input(i))->constant;
      bool isFloat = acc.isFloat();
      std::optional<Const> r = foldBinary(acc, rhs, [&](double a, double b) {
        return applyArith(op, isFloat, a, b);
      });
      if (!r)
        return foldFailure(nc, acc, rhs);
      acc = std::move(*r);
    }
    return nc.setOutput(0, std::move(acc));
  }
  // Integer operands (position ids computed from a mask) run as the nn
  // ops' i32/i64 forms; nn.div of them truncates, as ONNX's Div.
  auto operand = [&](unsigned i) { return nc.numericValue(i); };
  FailureOr<Value> acc = operand(0);
  if (failed(acc))
    return failure();
  for (unsigned i = 1; i < n; ++i) {
    FailureOr<Value> rhs = operand(i);
    if (failed(rhs))
      return failure();
    acc = buildArith(nc, op, *acc, *rhs);
    if (failed(acc))
      return failure();
  }
  return nc.setOutput(0, *acc);
}

/// Sign: folded on a constant; of a run-time FLOAT value nn.sign; of a
/// run-time INT64 or INT32 value (numpy's sign of integers) where(x > 0, 1,
/// where(x < 0, -1, 0)).
static LogicalResult importSign(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  if (isFoldable(**t))
    return importFoldableUnary<nn::SignOp, foldSign, foldSignInt>(nc);
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(x))
    return failure();
  Type type = getElementTypeOrSelf(x->getType());
  if (!type.isInteger())
    return importUnary<nn::SignOp>(nc);
  Value zero = nc.intScalar(type, 0);
  FailureOr<Value> above = nc.create<nn::CompareOp>(
      {*x, zero}, {nc.predicate(nn::ComparePredicate::GT)});
  FailureOr<Value> below = nc.create<nn::CompareOp>(
      {*x, zero}, {nc.predicate(nn::ComparePredicate::LT)});
  if (failed(above) || failed(below))
    return failure();
  FailureOr<Value> low =
      nc.create<nn::WhereOp>({*below, nc.intScalar(type, -1), zero});
  if (failed(low))
    return failure();
  FailureOr<Value> y =
      nc.create<nn::WhereOp>({*above, nc.intScalar(type, 1), *low});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

template <Arith op> static LogicalResult importBinary(NodeContext &nc) {
  if (nc.numInputs() != 2)
    return nc.error() << "needs 2 inputs", failure();
  return importArith(nc, op, 2);
}

/// Mod: fmod = 0 (integers only) takes the sign of the divisor, as Python's
/// %; fmod = 1 that of the dividend, as C's fmod. Folded on values known at
/// import time (the index arithmetic of PyTorch's exported attention; a
/// zero divisor is an error); else nn.mod (PyTorch's `%` of ids and
/// positions, `torch.fmod` of floats), where an integer zero divisor gives
/// 0.
static LogicalResult importMod(NodeContext &nc) {
  FailureOr<int64_t> fmod = nc.intAttr("fmod", 0);
  if (failed(fmod))
    return failure();
  if (*fmod != 0 && *fmod != 1)
    return nc.error() << "fmod = " << *fmod << " is not 0 or 1", failure();
  if (nc.numInputs() != 2)
    return nc.error() << "needs 2 inputs", failure();
  FailureOr<Tensor *> lhs = nc.input(0);
  FailureOr<Tensor *> rhs = failed(lhs) ? lhs : nc.input(1);
  if (failed(rhs))
    return failure();
  if (!isFoldable(**lhs) || !isFoldable(**rhs)) {
    FailureOr<Value> a = nc.numericValue(0);
    FailureOr<Value> b = failed(a) ? a : nc.numericValue(1);
    if (failed(b))
      return failure();
    if (isa<FloatType>(getElementTypeOrSelf(a->getType())) && *fmod == 0)
      return nc.error() << "fmod = 0 on FLOAT inputs (ONNX requires fmod = 1 "
                           "for floating-point types)",
             failure();
    llvm::SmallVector<NamedAttribute> attrs;
    if (*fmod)
      attrs.push_back(nc.named("fmod", nc.builder.getUnitAttr()));
    FailureOr<Value> y = nc.create<nn::ModOp>({*a, *b}, attrs);
    return failed(y) ? failure() : nc.setOutput(0, *y);
  }
  FailureOr<const Const *> dividend = nc.constInput(0, "the dividend");
  if (failed(dividend))
    return failure();
  FailureOr<const Const *> divisor = nc.constInput(1, "the divisor");
  if (failed(divisor))
    return failure();
  const Const &a = **dividend, &b = **divisor;
  if (a.isFloat() && *fmod == 0)
    return nc.error() << "fmod = 0 on FLOAT inputs (ONNX requires fmod = 1 "
                         "for floating-point types)",
           failure();
  for (int64_t k = 0, n = b.numel(); k < n; ++k)
    if (b.at(k) == 0)
      return nc.error() << "the divisor has a zero", failure();
  const bool isFloat = a.isFloat(), cRemainder = *fmod == 1;
  std::optional<Const> r = foldBinary(a, b, [&](double x, double y) {
    if (isFloat)
      return std::fmod(x, y);
    int64_t p = toInt64(x), q = toInt64(y);
    // INT64_MIN % -1 overflows in C++; the remainder is 0.
    int64_t rem = q == -1 ? 0 : p % q;
    if (!cRemainder && rem != 0 && (rem < 0) != (q < 0))
      rem += q;
    return double(rem);
  });
  if (!r)
    return foldFailure(nc, a, b);
  return nc.setOutput(0, std::move(*r));
}

template <Arith op> static LogicalResult importVariadic(NodeContext &nc) {
  return importArith(nc, op, nc.numInputs());
}

static LogicalResult importMean(NodeContext &nc) {
  unsigned n = nc.numInputs();
  FailureOr<Value> acc = nc.floatValue(0);
  if (failed(acc))
    return failure();
  for (unsigned i = 1; i < n; ++i) {
    FailureOr<Value> rhs = nc.floatValue(i);
    if (failed(rhs))
      return failure();
    acc = nc.create<nn::AddOp>({*acc, *rhs});
    if (failed(acc))
      return failure();
  }
  if (n > 1)
    acc = nc.create<nn::DivOp>({*acc, scalar(nc, float(n))});
  return failed(acc) ? failure() : nc.setOutput(0, *acc);
}

//===----------------------------------------------------------------------===//
// Pow, Clip, Where
//===----------------------------------------------------------------------===//

/// The one value of a constant exponent, if it has one.
static std::optional<double> singleValue(const Const &c) {
  if (c.numel() < 1)
    return std::nullopt;
  for (int64_t k = 1; k < c.numel(); ++k)
    if (c.at(k) != c.at(0))
      return std::nullopt;
  return c.at(0);
}

/// Pow of an INT64 or INT32 base computed at run time, by an exponent known
/// at import time whose values are non-negative integers (of any type):
/// square and multiply, exactly as the base's integer type wraps. The
/// base's powers b, b^2, b^4, ... (nn.mul) multiply the result where the
/// exponent has that bit (nn.where of a constant mask, or every element
/// alike without one). A negative exponent is an error, as numpy's and
/// PyTorch's integer powers.
static LogicalResult integerPow(NodeContext &nc, const Const &exponent) {
  FailureOr<Value> x = nc.numericValue(0);
  if (failed(x))
    return failure();
  std::optional<llvm::SmallVector<int64_t>> shape =
      broadcastShapes(shapeOf(*x), exponent.shape);
  if (!shape)
    return nc.error() << "the exponent's shape does not broadcast with the "
                         "base's",
           failure();
  std::vector<uint64_t> e;
  for (int64_t k = 0; k < exponent.numel(); ++k) {
    const double v = exponent.at(k);
    if (!(v >= 0) || v != std::floor(v) || v >= 18446744073709551616.0)
      return nc.error() << "the exponent of an integer base must hold "
                           "non-negative integers, got "
                        << v,
             failure();
    e.push_back(uint64_t(v));
  }
  const uint64_t largest =
      e.empty() ? 0 : *std::max_element(e.begin(), e.end());
  Type elt = cast<RankedTensorType>(x->getType()).getElementType();
  Value result, power = *x;
  for (int bit = 0; bit < 64 && (largest >> bit) != 0; ++bit) {
    if (bit > 0) {
      FailureOr<Value> squared = nc.create<nn::MulOp>({power, power});
      if (failed(squared))
        return failure();
      power = *squared;
    }
    llvm::SmallVector<bool> mask;
    for (uint64_t v : e)
      mask.push_back((v >> bit) & 1);
    if (llvm::none_of(mask, [](bool b) { return b; }))
      continue;
    if (failed(nc.reserveFoldedBytes(int64_t(mask.size()))))
      return failure();
    FailureOr<Value> product =
        result ? nc.create<nn::MulOp>({result, power}) : power;
    if (succeeded(product) && !llvm::all_of(mask, [](bool b) { return b; })) {
      auto maskType =
          RankedTensorType::get(exponent.shape, nc.builder.getI1Type());
      Value keep = result ? result : nc.intScalar(elt, 1);
      product = nc.create<nn::WhereOp>(
          {arith::ConstantOp::create(nc.builder, nc.loc, maskType,
                                     DenseElementsAttr::get(maskType, mask)),
           *product, keep});
    }
    if (failed(product))
      return failure();
    result = *product;
  }
  if (!result)
    result = nc.intScalar(elt, 1);
  if (shapeOf(result) != *shape) {
    FailureOr<Value> b = nc.createTyped<nn::BroadcastToOp>(
        RankedTensorType::get(*shape, elt), {result});
    if (failed(b))
      return failure();
    result = *b;
  }
  return nc.setOutput(0, result);
}

/// Pow: an exponent known at import time with one value is nn.pow's
/// attribute (the base broadcast to the exponent's shape); any other (a
/// tensor of exponents, a param, a run-time value, INT64 or INT32 ones
/// converted) is nn.powf's operand; an integer base, integerPow.
static LogicalResult importPow(NodeContext &nc) {
  // Folded in f64 when both are known at import time (the side of the
  // square grid of positions, `num_positions ** 0.5`, that DINOv2 and ViT
  // with interpolate_pos_encoding reshape to); the result has the base's
  // type, an integer's power truncated toward zero as ONNX's reference.
  FailureOr<Tensor *> base = nc.input(0);
  FailureOr<Tensor *> t = failed(base) ? base : nc.input(1);
  if (failed(t))
    return failure();
  if (isFoldable(**base) && isFoldable(**t)) {
    std::optional<Const> r = foldBinary(
        *(*base)->constant, *(*t)->constant,
        [](double a, double b) { return std::pow(a, b); },
        /*mixedTypes=*/true);
    if (!r)
      return foldFailure(nc, *(*base)->constant, *(*t)->constant);
    return nc.setOutput(0, std::move(*r));
  }
  if ((*base)->dtype == onnx::TensorProto::INT64 ||
      (*base)->dtype == onnx::TensorProto::INT32) {
    FailureOr<const Const *> e =
        nc.constInput(1, "the exponent of an integer base");
    return failed(e) ? failure() : integerPow(nc, **e);
  }
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  if ((*t)->constant) {
    if (std::optional<double> single = singleValue(*(*t)->constant)) {
      // The exponent's shape broadcasts with the base's.
      std::optional<llvm::SmallVector<int64_t>> shape =
          broadcastShapes(shapeOf(*x), (*t)->constant->shape);
      if (!shape)
        return nc.error() << "the exponent's shape does not broadcast with "
                             "the base's",
               failure();
      Value base = *x;
      if (*shape != shapeOf(base)) {
        FailureOr<Value> b = nc.createTyped<nn::BroadcastToOp>(
            RankedTensorType::get(*shape, nc.builder.getF32Type()), {base});
        if (failed(b))
          return failure();
        base = *b;
      }
      FailureOr<Value> y = nc.create<nn::PowOp>(
          {base}, {nc.named("exponent", nc.builder.getF32FloatAttr(*single))});
      return failed(y) ? failure() : nc.setOutput(0, *y);
    }
  }
  FailureOr<Value> e = nc.numericValue(1);
  if (failed(e))
    return failure();
  if (!cast<RankedTensorType>(e->getType()).getElementType().isF32())
    e = nc.convert(*e, nc.builder.getF32Type());
  if (failed(e))
    return failure();
  FailureOr<Value> y = nc.create<nn::PowfOp>({*x, *e});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Clip's bound input `i` (1: the minimum, 2: the maximum), a scalar known
/// at import time; null when absent.
static FailureOr<const Const *> clipBound(NodeContext &nc, unsigned i) {
  if (!nc.hasInput(i))
    return static_cast<const Const *>(nullptr);
  return nc.scalarInput(i, i == 1 ? "the minimum" : "the maximum");
}

/// Clip of INT64 or INT32 (opset >= 12; DeBERTa-v2 clips its relative
/// positions): nn.maximum with the minimum, then nn.minimum with the
/// maximum, as numpy.clip (min > max gives max). The bounds are scalars
/// known at import time, of x's type.
static LogicalResult importIntegerClip(NodeContext &nc) {
  FailureOr<Value> y = nc.numericValue(0);
  if (failed(y))
    return failure();
  for (unsigned i : {1u, 2u}) {
    FailureOr<const Const *> c = clipBound(nc, i);
    if (failed(c))
      return failure();
    if (!*c)
      continue;
    FailureOr<Value> bound = nc.numericValue(i);
    if (failed(bound) ||
        failed(
            y = buildArith(nc, i == 1 ? Arith::Max : Arith::Min, *y, *bound)))
      return failure();
  }
  return nc.setOutput(0, *y);
}

static LogicalResult importClip(NodeContext &nc) {
  FailureOr<Tensor *> in = nc.input(0);
  if (failed(in))
    return failure();
  if ((*in)->dtype == onnx::TensorProto::INT64 ||
      (*in)->dtype == onnx::TensorProto::INT32)
    return importIntegerClip(nc);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  std::optional<float> lo, hi;
  if (nc.opset < 11) {
    const float inf = std::numeric_limits<float>::infinity();
    FailureOr<float> a = nc.floatAttr("min", -inf);
    FailureOr<float> b = nc.floatAttr("max", inf);
    if (failed(a) || failed(b))
      return failure();
    if (*a != -inf)
      lo = *a;
    if (*b != inf)
      hi = *b;
  } else {
    for (unsigned i : {1u, 2u}) {
      FailureOr<const Const *> c = clipBound(nc, i);
      if (failed(c))
        return failure();
      if (*c)
        (i == 1 ? lo : hi) = float((*c)->at(0));
    }
  }
  if (!lo && !hi)
    return nc.setOutput(0, *x);
  // min > max: every element becomes max (numpy.clip's rule, ONNX's and
  // PyTorch's), NaN staying NaN: a clamp to [max, max], whose gradient is
  // zero as PyTorch's.
  if (lo && hi && *lo > *hi)
    lo = *hi;
  llvm::SmallVector<NamedAttribute> attrs;
  if (lo)
    attrs.push_back(nc.named("min", nc.builder.getF32FloatAttr(*lo)));
  if (hi)
    attrs.push_back(nc.named("max", nc.builder.getF32FloatAttr(*hi)));
  FailureOr<Value> y = nc.create<nn::ClampOp>({*x}, attrs);
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

/// Where of three constants (an attention mask built while importing) is
/// folded; else nn.where.
static LogicalResult foldWhere(NodeContext &nc, const Const &cond,
                               const Const &a, const Const &b) {
  std::optional<llvm::SmallVector<int64_t>> ab =
      broadcastShapes(a.shape, b.shape);
  std::optional<llvm::SmallVector<int64_t>> shape =
      ab ? broadcastShapes(cond.shape, *ab) : std::nullopt;
  std::optional<Const> c = shape ? broadcastConst(cond, *shape) : std::nullopt;
  std::optional<Const> x = c ? broadcastConst(a, *shape) : std::nullopt;
  std::optional<Const> y = x ? broadcastConst(b, *shape) : std::nullopt;
  if (!y)
    return nc.error() << "the condition and values do not broadcast, or give "
                         "over "
                      << maxConstElements(a.dtype) << " elements",
           failure();
  for (int64_t k = 0, n = x->numel(); k < n; ++k) {
    if (c->i[k])
      continue;
    if (x->isFloat())
      x->f[k] = y->f[k];
    else
      x->i[k] = y->i[k];
  }
  return nc.setOutput(0, std::move(*x));
}

static LogicalResult importWhere(NodeContext &nc) {
  FailureOr<Tensor *> cond = nc.input(0);
  if (failed(cond))
    return failure();
  if ((*cond)->dtype != onnx::TensorProto::BOOL)
    return nc.error() << "the condition must be BOOL", failure();
  FailureOr<Tensor *> lhs = nc.input(1), rhs = nc.input(2);
  if (failed(lhs) || failed(rhs))
    return failure();
  if ((*lhs)->dtype != (*rhs)->dtype)
    return nc.error() << "the values differ in type: "
                      << dataTypeName((*lhs)->dtype) << " and "
                      << dataTypeName((*rhs)->dtype),
           failure();
  if (isFoldable(**cond) && isFoldable(**lhs) && isFoldable(**rhs))
    return foldWhere(nc, *(*cond)->constant, *(*lhs)->constant,
                     *(*rhs)->constant);
  FailureOr<Value> c = nc.anyValue(0);
  FailureOr<Value> a = nc.anyValue(1);
  FailureOr<Value> b = nc.anyValue(2);
  if (failed(c) || failed(a) || failed(b))
    return failure();
  FailureOr<Value> y = nc.create<nn::WhereOp>({*c, *a, *b});
  return failed(y) ? failure() : nc.setOutput(0, *y);
}

//===----------------------------------------------------------------------===//
// Identity, Dropout, Gelu
//===----------------------------------------------------------------------===//

/// Identity: its input. PyTorch's TorchScript exporter stores parameters
/// of equal values once (a fresh model's LayerNorm weights, its zero
/// biases) and writes each other one as an Identity of the one it kept,
/// named as that parameter (`ln2.weight = Identity(ln1.weight)`); a tied
/// weight it reads directly. So the Identity of a float initializer that
/// is named as a module's parameter is a parameter of its own with the
/// same values, as in PyTorch, where the two train apart: a param (unless
/// --frozen names it), whether the one kept trains or is frozen
/// (amp-export-onnx writes it as an initializer of its own). So is the
/// Identity of a param named as the exporter names a weight it folded
/// (`onnx::MatMul_486 = Identity(onnx::MatMul_445)`: the transposed weights
/// of a fresh nn.TransformerEncoder's layers, copies of one layer), unless
/// the same module reads it when called again (ALBERT's shared layer:
/// ValueTable::repeatedCalls), where it is the param itself.
static LogicalResult importIdentity(NodeContext &nc) {
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(t))
    return failure();
  const Tensor &in = **t;
  const bool trains =
      in.initializer &&
      (in.parameter || ShapedType::getNumElements(in.shape) > 1);
  if (nc.hasOutput(0) && !nc.table.repeatedCalls.contains(nc.node.output(0)) &&
      (isParameterName(nc.node.output(0)) ||
       (isFoldedParameterName(nc.node.output(0)) && trains)) &&
      !nc.options.constants && in.fromInitializer && in.isFloat() &&
      in.constant && in.derived == Tensor::Derived::None) {
    Tensor copy;
    copy.dtype = in.dtype;
    copy.liftedFrom = in.liftedFrom;
    copy.shape = in.shape;
    copy.constant = in.constant;
    copy.fromInitializer = true;
    copy.initializer =
        !llvm::is_contained(nc.options.frozen, nc.node.output(0));
    copy.parameter = copy.initializer;
    nc.table.define(nc.node.output(0), std::move(copy));
    return success();
  }
  return nc.setOutput(0, in);
}

/// The mask output of an inference Dropout: all true.
static LogicalResult setAllTrueMask(NodeContext &nc, const Tensor &t) {
  Const mask;
  mask.dtype = onnx::TensorProto::BOOL;
  mask.shape = t.shape;
  std::optional<int64_t> count = constElementCount(mask.shape, mask.dtype);
  if (!count)
    return nc.error() << "the mask output would be a constant of more than "
                      << maxConstElements(mask.dtype) << " elements",
           failure();
  mask.i.assign(*count, 1);
  return nc.setOutput(1, std::move(mask));
}

/// Input `i`, a constant of one value, or `dflt` when it is absent.
static FailureOr<double> scalarConstInput(NodeContext &nc, unsigned i,
                                          StringRef what, double dflt) {
  if (!nc.hasInput(i))
    return dflt;
  FailureOr<const Const *> c = nc.constInput(i, what);
  if (failed(c))
    return failure();
  if ((*c)->numel() != 1)
    return nc.error() << what << " must hold one value, it holds "
                      << (*c)->numel(),
           failure();
  return (*c)->at(0);
}

/// Dropout. In inference (no training_mode, or false; every opset before
/// 12) the identity, and an all-true mask. In training mode nn.dropout in
/// training with `ratio` (a constant in [0, 1), 0.5 when absent) and a
/// constant seed: the node's `seed` attribute, or else a hash of its first
/// output's name, which the graph defines once, so that two dropouts draw
/// other masks (nn-autodiff offsets the seeds per step). The mask output
/// is where the dropout of ones is nonzero: the elements it keeps.
static LogicalResult importDropout(NodeContext &nc) {
  FailureOr<double> mode = scalarConstInput(nc, 2, "training_mode", 0.0);
  FailureOr<Tensor *> t = nc.input(0);
  if (failed(mode) || failed(t))
    return failure();
  if (*mode == 0) {
    if (failed(nc.setOutput(0, **t)))
      return failure();
    return nc.hasOutput(1) ? setAllTrueMask(nc, **t) : success();
  }

  FailureOr<double> r = scalarConstInput(nc, 1, "ratio", 0.5);
  if (failed(r))
    return failure();
  double ratio = *r;
  if (!(ratio >= 0 && ratio < 1))
    return nc.error() << "ratio must be in [0, 1) in training mode, got "
                      << ratio,
           failure();
  FailureOr<int64_t> seed = nc.intAttr(
      "seed", static_cast<int64_t>(llvm::xxh3_64bits(nc.node.output(0))));
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(seed) || failed(x))
    return failure();
  Value seedValue = nc.intScalar(nc.builder.getI64Type(), *seed);
  SmallVector<NamedAttribute, 2> attrs = {
      nc.named("rate", nc.builder.getF32FloatAttr(static_cast<float>(ratio))),
      nc.named("training", nc.builder.getUnitAttr())};
  FailureOr<Value> y = nc.create<nn::DropoutOp>({*x, seedValue}, attrs);
  if (failed(y) || failed(nc.setOutput(0, *y)))
    return failure();
  if (!nc.hasOutput(1))
    return success();
  FailureOr<Value> kept =
      nc.create<nn::DropoutOp>({nc.splat(shapeOf(*x), 1.0f), seedValue}, attrs);
  if (failed(kept))
    return failure();
  FailureOr<Value> mask = nc.create<nn::CompareOp>(
      {*kept, nc.splat({}, 0.0f)}, {nc.predicate(nn::ComparePredicate::NE)});
  return failed(mask) ? failure() : nc.setOutput(1, *mask);
}

/// Gelu: the tanh form is nn.gelu; the exact one (approximate = 'none',
/// the default) nn.gelu_erf, or nn.gelu with --approximate-erf-gelu.
static LogicalResult importGelu(NodeContext &nc) {
  FailureOr<std::string> approx = nc.stringAttr("approximate", "none");
  if (failed(approx))
    return failure();
  if (*approx != "tanh" && *approx != "none")
    return nc.error() << "approximate = '" << *approx << "' is not supported",
           failure();
  if (*approx == "none" && !nc.options.approximateErfGelu)
    return importUnary<nn::GeluErfOp>(nc);
  return importUnary<nn::GeluOp>(nc);
}

void amp::onnx_import::registerElementwiseOps(OpTable &t) {
  t["Relu"] = {importFoldableUnary<nn::ReluOp, foldRelu, foldReluInt>, {}};
  t["Sigmoid"] = {importFoldableUnary<nn::SigmoidOp, foldSigmoid>, {}};
  t["Tanh"] = {importFoldableUnary<nn::TanhOp, foldTanh>, {}};
  t["Exp"] = {importFoldableUnary<nn::ExpOp, foldExp>, {}};
  t["Log"] = {importFoldableUnary<nn::LogOp, foldLog>, {}};
  t["Sqrt"] = {importFoldableUnary<nn::SqrtOp, foldSqrt>, {}};
  t["Neg"] = {importFoldableUnary<nn::NegOp, foldNeg, foldNegInt>, {}};
  t["Abs"] = {importFoldableUnary<nn::AbsOp, foldAbs, foldAbsInt>, {}};
  t["Sin"] = {importFoldableUnary<nn::SinOp, foldSin>, {}};
  t["Cos"] = {importFoldableUnary<nn::CosOp, foldCos>, {}};
  t["Erf"] = {importFoldableUnary<nn::ErfOp, foldErf>, {}};
  t["Tan"] = {importFoldableUnary<nn::TanOp, foldTan>, {}};
  t["Asin"] = {importFoldableUnary<nn::AsinOp, foldAsin>, {}};
  t["Acos"] = {importFoldableUnary<nn::AcosOp, foldAcos>, {}};
  t["Atan"] = {importFoldableUnary<nn::AtanOp, foldAtan>, {}};
  t["Sinh"] = {importFoldableUnary<nn::SinhOp, foldSinh>, {}};
  t["Cosh"] = {importFoldableUnary<nn::CoshOp, foldCosh>, {}};
  t["Asinh"] = {importFoldableUnary<nn::AsinhOp, foldAsinh>, {}};
  t["Acosh"] = {importFoldableUnary<nn::AcoshOp, foldAcosh>, {}};
  t["Atanh"] = {importFoldableUnary<nn::AtanhOp, foldAtanh>, {}};
  t["Reciprocal"] = {importReciprocal, {}};
  t["Add"] = {importBinary<Arith::Add>, {}};
  t["Sub"] = {importBinary<Arith::Sub>, {}};
  t["Mul"] = {importBinary<Arith::Mul>, {}};
  t["Div"] = {importBinary<Arith::Div>, {}};
  t["Mod"] = {importMod, {"fmod"}};
  t["Sign"] = {importSign, {}};
  t["Ceil"] = {importFoldableUnary<nn::CeilOp, foldCeil>, {}};
  t["Floor"] = {importFoldableUnary<nn::FloorOp, foldFloor>, {}};
  t["Round"] = {importFoldableUnary<nn::RoundOp, foldRound>, {}};
  t["Sum"] = {importVariadic<Arith::Add>, {}};
  t["Max"] = {importVariadic<Arith::Max>, {}};
  t["Min"] = {importVariadic<Arith::Min>, {}};
  t["Mean"] = {importMean, {}};
  t["Pow"] = {importPow, {}};
  t["Clip"] = {importClip, {"min", "max"}};
  t["Where"] = {importWhere, {}};
  t["Identity"] = {importIdentity, {}};
  t["Dropout"] = {importDropout, {"ratio", "seed"}};
  t["Gelu"] = {importGelu, {"approximate"}};
}
