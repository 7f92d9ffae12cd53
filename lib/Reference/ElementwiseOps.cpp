//===- ElementwiseOps.cpp - f64 evaluators of the elementwise ops ---------===//
//
// nn.add/sub/mul/div/maximum/minimum and nn.compare with numpy
// broadcasting, nn.where, nn.convert (exact for floats, as amp.cast), the
// unary ops (gelu in its tanh form; abs, pow, clamp), nn.dropout (the
// splitmix64 mask of docs/runtime-kernels.md), the activation gradients
// (the exact derivatives of the forward formulas, from the input or the
// output), the selecting gradients maximum_grad/minimum_grad/where_grad,
// nn.grad_seed and amp.cast, which is exact in f64.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

using namespace mlir;
using namespace amp;
using namespace amp::nn;
using namespace amp::reference;

namespace {

using UnaryFn = std::function<double(double)>;
using BinaryFn = std::function<double(double, double)>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// gelu(x) = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3).
constexpr double kGeluScale = 0.7978845608028654; // sqrt(2/pi)
constexpr double kGeluCubic = 0.044715;

double gelu(double x) {
  return 0.5 * x * (1 + std::tanh(kGeluScale * (x + kGeluCubic * x * x * x)));
}

double geluDerivative(double x) {
  double t = std::tanh(kGeluScale * (x + kGeluCubic * x * x * x));
  return 0.5 * (1 + t) +
         0.5 * x * (1 - t * t) * kGeluScale * (1 + 3 * kGeluCubic * x * x);
}

/// The exact GELU x * Phi(x), Phi the standard normal's cdf, and its
/// derivative Phi(x) + x * phi(x).
double geluErf(double x) { return 0.5 * x * (1 + std::erf(x / M_SQRT2)); }

double geluErfDerivative(double x) {
  return 0.5 * (1 + std::erf(x / M_SQRT2)) +
         x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
}

/// sign(x) with sign(0) = 0 and sign(NaN) = NaN.
double sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x; }

/// Registers OpT as `makeFn(op)` applied to every element; `makeFn` reads
/// the op's attributes.
template <typename OpT, typename MakeFn>
void addUnaryOf(EvaluatorTable &table, MakeFn makeFn) {
  table.add<OpT>([makeFn](OpT op, Operands in) {
    UnaryFn fn = makeFn(op);
    RefTensor y = *in[0];
    for (double &v : y.data)
      v = fn(v);
    return y;
  });
}

template <typename OpT> void addUnary(EvaluatorTable &table, UnaryFn fn) {
  addUnaryOf<OpT>(table, [fn](OpT) { return fn; });
}

/// Operands broadcast to the result's shape (equal shapes for the
/// activation gradients); `makeFn(op)` gives the function of the two.
template <typename OpT, typename MakeFn>
void addBinaryOf(EvaluatorTable &table, MakeFn makeFn) {
  table.add<OpT>([makeFn](OpT op, Operands in) {
    BinaryFn fn = makeFn(op);
    RefTensor y = resultLike(op);
    std::vector<double> a = broadcastData(*in[0], y.shape);
    std::vector<double> b = broadcastData(*in[1], y.shape);
    for (size_t i = 0; i < y.data.size(); ++i)
      y.data[i] = fn(a[i], b[i]);
    return y;
  });
}

template <typename OpT> void addBinary(EvaluatorTable &table, BinaryFn fn) {
  addBinaryOf<OpT>(table, [fn](OpT) { return fn; });
}

/// The bounds of clamp and clamp_grad; a missing one is unbounded.
template <typename OpT> std::pair<double, double> clampBounds(OpT op) {
  std::optional<APFloat> lo = op.getMin(), hi = op.getMax();
  return {lo ? lo->convertToDouble() : -kInf,
          hi ? hi->convertToDouble() : kInf};
}

/// nn.convert into `to`: floats are exact (as amp.cast); an integer type
/// truncates, saturates and maps NaN to 0, except that i64 to i32 keeps
/// the low 32 bits; i1 is x != 0.
UnaryFn conversion(Type from, Type to) {
  if (isa<FloatType>(to))
    return [](double x) { return x; };
  if (to.isInteger(1))
    return [](double x) { return double(x != 0); };
  unsigned width = to.getIntOrFloatBitWidth();
  if (from.isInteger(64) && width == 32)
    return [](double x) {
      // x holds an i64 (2^63 only as INT64_MAX rounded up).
      int64_t v = x >= 0x1p63 ? INT64_MAX : static_cast<int64_t>(x);
      return double(static_cast<int32_t>(static_cast<uint32_t>(v)));
    };
  double lo = -std::ldexp(1.0, width - 1), hi = std::ldexp(1.0, width - 1) - 1;
  return [lo, hi](double x) {
    return std::isnan(x) ? 0.0 : std::clamp(std::trunc(x), lo, hi);
  };
}

/// cond ? lhs : rhs, all three broadcast to the result's shape.
RefTensor evalWhere(WhereOp op, Operands in) {
  RefTensor y = resultLike(op);
  std::vector<double> cond = broadcastData(*in[0], y.shape);
  std::vector<double> lhs = broadcastData(*in[1], y.shape);
  std::vector<double> rhs = broadcastData(*in[2], y.shape);
  for (size_t i = 0; i < y.data.size(); ++i)
    y.data[i] = cond[i] != 0 ? lhs[i] : rhs[i];
  return y;
}

/// (dlhs, drhs) = (cond ? dy : 0, cond ? 0 : dy), cond broadcast to dy.
Results evalWhereGrad(WhereGradOp op, Operands in) {
  const RefTensor &dy = *in[0];
  std::vector<double> cond = broadcastData(*in[1], dy.shape);
  Results results{resultLike(op, 0), resultLike(op, 1)};
  for (size_t i = 0; i < dy.data.size(); ++i)
    results[cond[i] != 0 ? 0 : 1].data[i] = dy.data[i];
  return results;
}

/// maximum_grad (`loses(a, b)` = a < b) and minimum_grad (a > b): with lhs
/// and rhs broadcast to dy's shape, an operand gets dy unless it loses to
/// the other, dy / 2 on ties; a NaN operand loses no comparison, so both
/// get dy.
template <typename OpT>
void addSelectGrad(EvaluatorTable &table, bool (*loses)(double, double)) {
  table.add<OpT>([loses](OpT op, Operands in) {
    const RefTensor &dy = *in[0];
    std::vector<double> lhs = broadcastData(*in[1], dy.shape);
    std::vector<double> rhs = broadcastData(*in[2], dy.shape);
    Results results{resultLike(op, 0), resultLike(op, 1)};
    auto share = [&](double self, double other, double g) {
      return self == other ? g / 2 : loses(self, other) ? 0.0 : g;
    };
    for (size_t i = 0; i < dy.data.size(); ++i) {
      results[0].data[i] = share(lhs[i], rhs[i], dy.data[i]);
      results[1].data[i] = share(rhs[i], lhs[i], dy.data[i]);
    }
    return results;
  });
}

/// splitmix64's finalizer of seed + i * golden gamma (mod 2^64).
uint64_t splitmix64(uint64_t seed, uint64_t i) {
  uint64_t z = seed + i * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Kept elements are scaled by 1 / (1 - rate). Not training, or rate 0, is
/// the identity.
RefTensor evalDropout(DropoutOp op, Operands in) {
  RefTensor y = *in[0];
  double rate = op.getRate().convertToDouble();
  if (!op.getTraining() || rate == 0)
    return y;
  uint64_t seed = seedBits(in[1]->data[0]);
  for (auto [i, v] : llvm::enumerate(y.data))
    v = dropoutKeeps(seed, i, op.getRate().convertToFloat()) ? v / (1 - rate)
                                                             : 0.0;
  return y;
}

} // namespace

uint64_t amp::reference::seedBits(double seed) {
  if (!(seed < 0x1p63))
    return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!(seed >= -0x1p63))
    return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
  return static_cast<uint64_t>(static_cast<int64_t>(seed));
}

/// Training dropout keeps element i when the top 24 bits of the hash are
/// below 2^24 (1 - rate), 1 - rate taken in f32.
bool amp::reference::dropoutKeeps(uint64_t seed, uint64_t i, float rate) {
  double threshold = 0x1p24 * static_cast<double>(1.0f - rate);
  return static_cast<double>(splitmix64(seed, i) >> 40) < threshold;
}

void amp::reference::registerElementwiseOps(EvaluatorTable &table) {
  addBinary<AddOp>(table, [](double a, double b) { return a + b; });
  addBinary<SubOp>(table, [](double a, double b) { return a - b; });
  addBinary<MulOp>(table, [](double a, double b) { return a * b; });
  // Integers truncate, and a zero divisor gives 0 (the runtime's).
  addBinaryOf<DivOp>(table, [](DivOp op) -> BinaryFn {
    if (isa<FloatType>(op.getType().getElementType()))
      return [](double a, double b) { return a / b; };
    return [](double a, double b) { return b == 0 ? 0.0 : std::trunc(a / b); };
  });
  // fmod is exact in f64 too; Python's remainder adds b where the signs
  // differ, and a zero takes b's sign. An integer zero divisor gives 0.
  addBinaryOf<ModOp>(table, [](ModOp op) -> BinaryFn {
    bool isFloat = isa<FloatType>(op.getType().getElementType());
    return [isFloat, fmod = op.getFmod()](double a, double b) {
      if (!isFloat && b == 0)
        return 0.0;
      double r = std::fmod(a, b);
      if (fmod)
        return r;
      if (r == 0)
        return std::copysign(0.0, b);
      return (r < 0) != (b < 0) ? r + b : r;
    };
  });
  // NaN propagates from either operand.
  addBinary<MaximumOp>(table, [](double a, double b) {
    return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b);
  });
  addBinary<MinimumOp>(table, [](double a, double b) {
    return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b);
  });
  addBinary<PowfOp>(table, [](double a, double b) { return std::pow(a, b); });
  table.add<WhereOp>(evalWhere);
  addBinaryOf<CompareOp>(table, [](CompareOp op) -> BinaryFn {
    return [predicate = op.getPredicate()](double a, double b) {
      return double(CompareOp::holds(predicate, a, b));
    };
  });
  addUnaryOf<ConvertOp>(table, [](ConvertOp op) {
    return conversion(op.getInput().getType().getElementType(),
                      op.getType().getElementType());
  });

  addUnary<NegOp>(table, [](double x) { return -x; });
  addUnary<ExpOp>(table, [](double x) { return std::exp(x); });
  addUnary<LogOp>(table, [](double x) { return std::log(x); });
  addUnary<SqrtOp>(table, [](double x) { return std::sqrt(x); });
  addUnary<RsqrtOp>(table, [](double x) { return 1 / std::sqrt(x); });
  addUnary<TanhOp>(table, [](double x) { return std::tanh(x); });
  addUnary<SigmoidOp>(table, [](double x) { return 1 / (1 + std::exp(-x)); });
  addUnary<ReluOp>(table, [](double x) { return x > 0 ? x : 0.0; });
  addUnary<GeluOp>(table, gelu);
  addUnary<GeluErfOp>(table, geluErf);
  addUnary<SinOp>(table, [](double x) { return std::sin(x); });
  addUnary<CosOp>(table, [](double x) { return std::cos(x); });
  addUnary<TanOp>(table, [](double x) { return std::tan(x); });
  addUnary<AsinOp>(table, [](double x) { return std::asin(x); });
  addUnary<AcosOp>(table, [](double x) { return std::acos(x); });
  addUnary<AtanOp>(table, [](double x) { return std::atan(x); });
  addUnary<SinhOp>(table, [](double x) { return std::sinh(x); });
  addUnary<CoshOp>(table, [](double x) { return std::cosh(x); });
  addUnary<AsinhOp>(table, [](double x) { return std::asinh(x); });
  addUnary<AcoshOp>(table, [](double x) { return std::acosh(x); });
  addUnary<AtanhOp>(table, [](double x) { return std::atanh(x); });
  addUnary<ErfOp>(table, [](double x) { return std::erf(x); });
  addUnary<FloorOp>(table, [](double x) { return std::floor(x); });
  addUnary<CeilOp>(table, [](double x) { return std::ceil(x); });
  addUnary<RoundOp>(table, [](double x) { return std::nearbyint(x); });
  addUnary<SignOp>(table, [](double x) {
    return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  });
  addUnary<AbsOp>(table, [](double x) { return std::abs(x); });
  addUnaryOf<PowOp>(table, [](PowOp op) -> UnaryFn {
    double e = op.getExponent().convertToDouble();
    return [e](double x) { return std::pow(x, e); };
  });
  // NaN fails both comparisons and stays NaN.
  addUnaryOf<ClampOp>(table, [](ClampOp op) -> UnaryFn {
    auto [lo, hi] = clampBounds(op);
    return [lo, hi](double x) { return x < lo ? lo : x > hi ? hi : x; };
  });
  table.add<DropoutOp>(evalDropout);

  // (dy, x): the forward op's input is the second operand.
  addBinary<ReluGradOp>(table,
                        [](double dy, double x) { return x > 0 ? dy : 0.0; });
  addBinary<GeluGradOp>(
      table, [](double dy, double x) { return dy * geluDerivative(x); });
  addBinary<GeluErfGradOp>(
      table, [](double dy, double x) { return dy * geluErfDerivative(x); });
  addBinary<ErfGradOp>(table, [](double dy, double x) {
    return dy * M_2_SQRTPI * std::exp(-x * x);
  });
  addBinary<AbsGradOp>(table, [](double dy, double x) { return dy * sign(x); });
  addBinaryOf<PowGradOp>(table, [](PowGradOp op) -> BinaryFn {
    double e = op.getExponent().convertToDouble();
    return [e](double dy, double x) {
      return e == 0 ? 0.0 : dy * e * std::pow(x, e - 1);
    };
  });
  // Bounds inclusive; a NaN x is in no range and gets 0.
  addBinaryOf<ClampGradOp>(table, [](ClampGradOp op) -> BinaryFn {
    auto [lo, hi] = clampBounds(op);
    return
        [lo, hi](double dy, double x) { return lo <= x && x <= hi ? dy : 0.0; };
  });
  // (dy, y): these take the forward op's output.
  addBinary<TanhGradOp>(table,
                        [](double dy, double y) { return dy * (1 - y * y); });
  addBinary<SigmoidGradOp>(
      table, [](double dy, double y) { return dy * y * (1 - y); });
  addBinary<SqrtGradOp>(table,
                        [](double dy, double y) { return dy / (2 * y); });
  addBinary<RsqrtGradOp>(
      table, [](double dy, double y) { return -0.5 * dy * y * y * y; });

  addSelectGrad<MaximumGradOp>(table, [](double a, double b) { return a < b; });
  addSelectGrad<MinimumGradOp>(table, [](double a, double b) { return a > b; });
  table.add<WhereGradOp>(evalWhereGrad);

  addUnary<GradSeedOp>(table, [](double) { return 1.0; });
  // The reference computes every float type exactly, so a cast is the
  // identity.
  addUnary<CastOp>(table, [](double x) { return x; });
}
