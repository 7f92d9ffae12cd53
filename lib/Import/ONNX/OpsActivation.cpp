//===- OpsActivation.cpp - activations built of nn ops --------------------===//
//
// The ONNX activations that nn has no op for, each built of nn ops as its
// formula, the way ONNX itself defines most of them (function ops):
// LeakyRelu, PRelu, HardSigmoid, HardSwish, Elu, Selu, Celu, Softplus,
// Softsign, Mish, Swish, ThresholdedRelu and Shrink. Each builds from ops that
// have derivative rules and precision classes, so that nn-autodiff trains
// through them and the AMP policy keeps their exp and log in f32, as
// PyTorch's autocast does softplus. The forms avoid overflow: exp only sees
// values <= 0. The same formulas are the activations that RNN, GRU and LSTM
// name (NamedActivation.h).
//
//===----------------------------------------------------------------------===//

#include "Folding.h"
#include "Formula.h"
#include "NamedActivation.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <cmath>
#include <optional>

using namespace amp::onnx_import;
using namespace mlir;
namespace nn = amp::nn;

/// relu(x) + slope * min(x, 0): x where x > 0, slope * x elsewhere, and
/// the derivative slope at 0 (PyTorch's; min as a clamp). `slope` is a 0-d
/// constant or a tensor (PRelu's, a param that trains).
static Value leakyRelu(Formula &f, Value x, Value slope) {
  Value pos = f.op<nn::ReluOp>({x});
  Value neg = f.clamp(x, std::nullopt, 0.0f);
  Value scaled = f.op<nn::MulOp>({slope, neg});
  return f.op<nn::AddOp>({pos, scaled});
}

/// clamp(alpha * x + beta, 0, 1).
static Value hardSigmoid(Formula &f, Value x, float alpha, float beta) {
  Value ax = f.op<nn::MulOp>({x, f.constant(alpha)});
  Value axb = f.op<nn::AddOp>({ax, f.constant(beta)});
  return f.clamp(axb, 0.0f, 1.0f);
}

/// relu(x) + alpha * (exp(min(x, 0) / scale) - 1): Elu (scale 1) and Celu
/// (scale alpha). x itself where x > 0; exp never overflows; at 0 the
/// derivative is the negative side's, alpha / scale (PyTorch's).
static Value expLinear(Formula &f, Value x, float alpha, float scale) {
  Value pos = f.op<nn::ReluOp>({x});
  Value neg = f.clamp(x, std::nullopt, 0.0f);
  if (scale != 1.0f)
    neg = f.op<nn::DivOp>({neg, f.constant(scale)});
  Value e = f.op<nn::ExpOp>({neg});
  Value em1 = f.op<nn::SubOp>({e, f.constant(1.0f)});
  if (alpha != 1.0f)
    em1 = f.op<nn::MulOp>({f.constant(alpha), em1});
  return f.op<nn::AddOp>({pos, em1});
}

/// log(1 + exp(x)) = (x + |x|) / 2 + log(1 + exp(-|x|)): exp never
/// overflows, and the derivative at 0 is 1/2 (|x|'s is 0 there; relu's 0
/// would make it 0).
static Value softplus(Formula &f, Value x) {
  Value a = f.op<nn::AbsOp>({x});
  Value twicePos = f.op<nn::AddOp>({x, a});
  Value pos = f.op<nn::MulOp>({twicePos, f.constant(0.5f)});
  Value na = f.op<nn::NegOp>({a});
  Value e = f.op<nn::ExpOp>({na});
  Value onePlus = f.op<nn::AddOp>({f.constant(1.0f), e});
  Value l = f.op<nn::LogOp>({onePlus});
  return f.op<nn::AddOp>({pos, l});
}

static LogicalResult importLeakyRelu(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 0.01f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(x))
    return failure();
  Formula f(nc);
  return f.setOutput(leakyRelu(f, *x, f.constant(*alpha)));
}

/// PRelu(x, slope): the slope broadcasts to x's shape (unidirectionally).
/// PRelu. Before opset 7 (PRelu-6, the PyTorch exporter's of 2018) a 1-D
/// slope of one value per channel applies along dimension 1, as Caffe2's
/// PRelu does, not along the last one as numpy's broadcasting (PRelu-7 on)
/// has it; ONNX's version converter leaves the node as it is, so such a
/// slope is reshaped to [C, 1, ...] here.
static LogicalResult importPRelu(NodeContext &nc) {
  nc.warnOneElementWeight(1, "slope");
  FailureOr<Value> x = nc.floatValue(0);
  FailureOr<Value> slope = failed(x) ? x : nc.floatValue(1);
  if (failed(slope))
    return failure();
  llvm::SmallVector<int64_t> xShape = shapeOf(*x);
  llvm::SmallVector<int64_t> slopeShape = shapeOf(*slope);
  if (nc.sourceOpset < 7 && xShape.size() >= 3 && slopeShape.size() == 1 &&
      slopeShape[0] > 1 && slopeShape[0] == xShape[1]) {
    llvm::SmallVector<int64_t> perChannel(xShape.size() - 1, 1);
    perChannel[0] = slopeShape[0];
    slope = nc.reshape(*slope, perChannel);
    if (failed(slope))
      return failure();
  }
  std::optional<llvm::SmallVector<int64_t>> shape =
      broadcastShapes(shapeOf(*x), shapeOf(*slope));
  if (!shape || *shape != shapeOf(*x))
    return nc.error() << "the slope's shape does not broadcast to the "
                         "input's",
           failure();
  Formula f(nc);
  return f.setOutput(leakyRelu(f, *x, *slope));
}

static LogicalResult importHardSigmoid(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 0.2f);
  FailureOr<float> beta = nc.floatAttr("beta", 0.5f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(beta) || failed(x))
    return failure();
  Formula f(nc);
  return f.setOutput(hardSigmoid(f, *x, *alpha, *beta));
}

/// HardSwish(x) = x * HardSigmoid(x) with alpha 1/6, beta 1/2.
static LogicalResult importHardSwish(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  Formula f(nc);
  Value gate = hardSigmoid(f, *x, 1.0f / 6.0f, 0.5f);
  return f.setOutput(f.op<nn::MulOp>({*x, gate}));
}

static LogicalResult importElu(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.0f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(x))
    return failure();
  Formula f(nc);
  return f.setOutput(expLinear(f, *x, *alpha, 1.0f));
}

/// Selu(x) = gamma * Elu(x, alpha); the defaults are ONNX's (the f32 values
/// of the self-normalizing constants, as PyTorch's).
static LogicalResult importSelu(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.67326319217681884765625f);
  FailureOr<float> gamma = nc.floatAttr("gamma", 1.05070102214813232421875f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(gamma) || failed(x))
    return failure();
  Formula f(nc);
  Value elu = expLinear(f, *x, *alpha, 1.0f);
  return f.setOutput(f.op<nn::MulOp>({f.constant(*gamma), elu}));
}

/// Celu(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
static LogicalResult importCelu(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.0f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(x))
    return failure();
  if (*alpha <= 0.0f || !std::isfinite(*alpha))
    return nc.error() << "alpha must be positive and finite, got " << *alpha,
           failure();
  Formula f(nc);
  return f.setOutput(expLinear(f, *x, *alpha, *alpha));
}

static LogicalResult importSoftplus(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  Formula f(nc);
  return f.setOutput(softplus(f, *x));
}

/// Softsign(x) = x / (1 + |x|).
static LogicalResult importSoftsign(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  Formula f(nc);
  return f.setOutput(
      applyNamedActivation(f, {NamedActivation::Kind::Softsign}, *x));
}

/// Mish(x) = x * tanh(softplus(x)).
static LogicalResult importMish(NodeContext &nc) {
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(x))
    return failure();
  Formula f(nc);
  Value sp = softplus(f, *x);
  Value t = f.op<nn::TanhOp>({sp});
  return f.setOutput(f.op<nn::MulOp>({*x, t}));
}

/// Swish (opset 24) = x * sigmoid(alpha * x); alpha 1 is SiLU.
static LogicalResult importSwish(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.0f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(x))
    return failure();
  Formula f(nc);
  Value ax = *alpha == 1.0f ? *x : f.op<nn::MulOp>({*x, f.constant(*alpha)});
  return f.setOutput(f.op<nn::MulOp>({*x, f.op<nn::SigmoidOp>({ax})}));
}

/// ThresholdedRelu(x) = x > alpha ? x : 0.
static LogicalResult importThresholdedRelu(NodeContext &nc) {
  FailureOr<float> alpha = nc.floatAttr("alpha", 1.0f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(alpha) || failed(x))
    return failure();
  Formula f(nc);
  Value above = f.compare(*x, nn::ComparePredicate::GT, f.constant(*alpha));
  return f.setOutput(f.op<nn::WhereOp>({above, *x, f.constant(0.0f)}));
}

/// Shrink(x) = x < -lambd ? x + bias : (x > lambd ? x - bias : 0): PyTorch's
/// Hardshrink (bias 0) and Softshrink (bias lambd).
static LogicalResult importShrink(NodeContext &nc) {
  FailureOr<float> lambd = nc.floatAttr("lambd", 0.5f);
  FailureOr<float> bias = nc.floatAttr("bias", 0.0f);
  FailureOr<Value> x = nc.floatValue(0);
  if (failed(lambd) || failed(bias) || failed(x))
    return failure();
  Formula f(nc);
  Value above = f.compare(*x, nn::ComparePredicate::GT, f.constant(*lambd));
  Value below = f.compare(*x, nn::ComparePredicate::LT, f.constant(-*lambd));
  Value down = f.op<nn::SubOp>({*x, f.constant(*bias)});
  Value up = f.op<nn::AddOp>({*x, f.constant(*bias)});
  Value upper = f.op<nn::WhereOp>({above, down, f.constant(0.0f)});
  return f.setOutput(f.op<nn::WhereOp>({below, up, upper}));
}

//===----------------------------------------------------------------------===//
// The activations of the recurrent ops (NamedActivation.h)
//===----------------------------------------------------------------------===//

namespace {
using Kind = NamedActivation::Kind;

/// A named activation, whether it takes alpha and beta, and their defaults
/// (none: they must be given).
struct ActivationEntry {
  const char *name;
  Kind kind;
  bool takesAlpha, takesBeta;
  std::optional<float> alpha, beta;
};

const ActivationEntry kActivations[] = {
    {"Sigmoid", Kind::Sigmoid, false, false, {}, {}},
    {"Tanh", Kind::Tanh, false, false, {}, {}},
    {"Relu", Kind::Relu, false, false, {}, {}},
    {"Affine", Kind::Affine, true, true, {}, {}},
    {"LeakyRelu", Kind::LeakyRelu, true, false, 0.01f, {}},
    {"ThresholdedRelu", Kind::ThresholdedRelu, true, false, 1.0f, {}},
    {"ScaledTanh", Kind::ScaledTanh, true, true, {}, {}},
    {"HardSigmoid", Kind::HardSigmoid, true, true, 0.2f, 0.5f},
    {"Elu", Kind::Elu, true, false, 1.0f, {}},
    {"Softsign", Kind::Softsign, false, false, {}, {}},
    {"Softplus", Kind::Softplus, false, false, {}, {}},
};
} // namespace

FailureOr<llvm::SmallVector<NamedActivation>>
amp::onnx_import::readNamedActivations(NodeContext &nc,
                                       llvm::ArrayRef<llvm::StringRef> defaults,
                                       unsigned count) {
  auto names = nc.stringsAttr("activations");
  auto alphas = nc.floatsAttr("activation_alpha");
  auto betas = nc.floatsAttr("activation_beta");
  if (failed(names) || failed(alphas) || failed(betas))
    return failure();
  llvm::SmallVector<std::string> given;
  if (*names)
    given = **names;
  else
    for (llvm::StringRef d : defaults)
      given.push_back(d.str());
  if (given.size() != count)
    return nc.error() << "activations must name " << count << " functions, got "
                      << given.size(),
           failure();
  llvm::ArrayRef<float> alpha =
      *alphas ? llvm::ArrayRef<float>(**alphas) : llvm::ArrayRef<float>();
  llvm::ArrayRef<float> beta =
      *betas ? llvm::ArrayRef<float>(**betas) : llvm::ArrayRef<float>();
  // Takes the next value of `values`, or `dflt`.
  auto next = [&](llvm::ArrayRef<float> &values, std::optional<float> dflt,
                  llvm::StringRef name,
                  llvm::StringRef param) -> FailureOr<float> {
    if (!values.empty()) {
      float v = values.front();
      values = values.drop_front();
      return v;
    }
    if (dflt)
      return *dflt;
    return nc.error() << "activation " << name << " needs its " << param
                      << " in activation_" << param,
           failure();
  };
  llvm::SmallVector<NamedActivation> result;
  for (const std::string &name : given) {
    const ActivationEntry *entry =
        llvm::find_if(kActivations, [&](const ActivationEntry &e) {
          return llvm::StringRef(e.name).equals_insensitive(name);
        });
    if (entry == std::end(kActivations)) {
      InFlightDiagnostic diag = nc.error()
                                << "activation '" << name << "' is not one of ";
      llvm::interleaveComma(kActivations, diag,
                            [&](const ActivationEntry &e) { diag << e.name; });
      return failure();
    }
    NamedActivation a;
    a.kind = entry->kind;
    if (entry->takesAlpha) {
      FailureOr<float> v = next(alpha, entry->alpha, entry->name, "alpha");
      if (failed(v))
        return failure();
      a.alpha = *v;
    }
    if (entry->takesBeta) {
      FailureOr<float> v = next(beta, entry->beta, entry->name, "beta");
      if (failed(v))
        return failure();
      a.beta = *v;
    }
    result.push_back(a);
  }
  if (!alpha.empty() || !beta.empty())
    return nc.error() << "activation_alpha and activation_beta have "
                      << alpha.size() << " and " << beta.size()
                      << " values that no activation takes",
           failure();
  return result;
}

Value amp::onnx_import::applyNamedActivation(Formula &f,
                                             const NamedActivation &a,
                                             Value x) {
  switch (a.kind) {
  case Kind::Sigmoid:
    return f.op<nn::SigmoidOp>({x});
  case Kind::Tanh:
    return f.op<nn::TanhOp>({x});
  case Kind::Relu:
    return f.op<nn::ReluOp>({x});
  case Kind::Affine: {
    Value ax = f.op<nn::MulOp>({x, f.constant(a.alpha)});
    return f.op<nn::AddOp>({ax, f.constant(a.beta)});
  }
  case Kind::LeakyRelu:
    return leakyRelu(f, x, f.constant(a.alpha));
  case Kind::ThresholdedRelu: {
    // x >= alpha, as the recurrent ops define it.
    Value keep = f.compare(x, nn::ComparePredicate::GE, f.constant(a.alpha));
    return f.op<nn::WhereOp>({keep, x, f.constant(0.0f)});
  }
  case Kind::ScaledTanh: {
    Value bx = f.op<nn::MulOp>({x, f.constant(a.beta)});
    Value t = f.op<nn::TanhOp>({bx});
    return f.op<nn::MulOp>({t, f.constant(a.alpha)});
  }
  case Kind::HardSigmoid:
    return hardSigmoid(f, x, a.alpha, a.beta);
  case Kind::Elu:
    return expLinear(f, x, a.alpha, 1.0f);
  case Kind::Softsign: {
    Value abs = f.op<nn::AbsOp>({x});
    Value onePlus = f.op<nn::AddOp>({f.constant(1.0f), abs});
    return f.op<nn::DivOp>({x, onePlus});
  }
  case Kind::Softplus:
    return softplus(f, x);
  }
  llvm_unreachable("unknown activation");
}

void amp::onnx_import::registerActivationOps(OpTable &t) {
  t["LeakyRelu"] = {importLeakyRelu, {"alpha"}};
  t["PRelu"] = {importPRelu, {}};
  t["HardSigmoid"] = {importHardSigmoid, {"alpha", "beta"}};
  t["HardSwish"] = {importHardSwish, {}};
  t["Elu"] = {importElu, {"alpha"}};
  t["Selu"] = {importSelu, {"alpha", "gamma"}};
  t["Celu"] = {importCelu, {"alpha"}};
  t["Softplus"] = {importSoftplus, {}};
  t["Softsign"] = {importSoftsign, {}};
  t["Mish"] = {importMish, {}};
  t["Swish"] = {importSwish, {"alpha"}};
  t["ThresholdedRelu"] = {importThresholdedRelu, {"alpha"}};
  t["Shrink"] = {importShrink, {"bias", "lambd"}};
}
