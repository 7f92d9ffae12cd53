//===- ElementwiseOps.cpp - f64 evaluators of the elementwise ops ---------===//
//
// nn.add/sub/mul/div with numpy broadcasting, the unary ops (gelu in its
// tanh form), relu_grad and gelu_grad (the exact derivatives of the forward
// formulas), nn.grad_seed and amp.cast, which is exact in f64.
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>

using namespace mlir;
using namespace amp;
using namespace amp::nn;
using namespace amp::reference;

namespace {

using UnaryFn = double (*)(double);
using BinaryFn = double (*)(double, double);

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

template <typename OpT> void addUnary(EvaluatorTable &table, UnaryFn fn) {
  table.add<OpT>([fn](OpT, Operands in) {
    RefTensor y = *in[0];
    for (double &v : y.data)
      v = fn(v);
    return y;
  });
}

/// Operands broadcast to the result's shape (equal shapes for the
/// activation gradients).
template <typename OpT> void addBinary(EvaluatorTable &table, BinaryFn fn) {
  table.add<OpT>([fn](OpT op, Operands in) {
    RefTensor y = resultLike(op);
    std::vector<double> a = broadcastData(*in[0], y.shape);
    std::vector<double> b = broadcastData(*in[1], y.shape);
    for (size_t i = 0; i < y.data.size(); ++i)
      y.data[i] = fn(a[i], b[i]);
    return y;
  });
}

} // namespace

void amp::reference::registerElementwiseOps(EvaluatorTable &table) {
  addBinary<AddOp>(table, [](double a, double b) { return a + b; });
  addBinary<SubOp>(table, [](double a, double b) { return a - b; });
  addBinary<MulOp>(table, [](double a, double b) { return a * b; });
  addBinary<DivOp>(table, [](double a, double b) { return a / b; });

  addUnary<NegOp>(table, [](double x) { return -x; });
  addUnary<ExpOp>(table, [](double x) { return std::exp(x); });
  addUnary<LogOp>(table, [](double x) { return std::log(x); });
  addUnary<SqrtOp>(table, [](double x) { return std::sqrt(x); });
  addUnary<RsqrtOp>(table, [](double x) { return 1 / std::sqrt(x); });
  addUnary<TanhOp>(table, [](double x) { return std::tanh(x); });
  addUnary<SigmoidOp>(table, [](double x) { return 1 / (1 + std::exp(-x)); });
  addUnary<ReluOp>(table, [](double x) { return x > 0 ? x : 0.0; });
  addUnary<GeluOp>(table, gelu);

  // (dy, x): the forward op's input is the second operand.
  addBinary<ReluGradOp>(table,
                        [](double dy, double x) { return x > 0 ? dy : 0.0; });
  addBinary<GeluGradOp>(
      table, [](double dy, double x) { return dy * geluDerivative(x); });

  addUnary<GradSeedOp>(table, [](double) { return 1.0; });
  // The reference computes every float type exactly, so a cast is the
  // identity.
  addUnary<CastOp>(table, [](double x) { return x; });
}
