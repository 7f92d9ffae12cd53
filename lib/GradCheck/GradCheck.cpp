//===- GradCheck.cpp - autodiff gradients against finite differences ------===//
//
// For each forward loss function: nn-autodiff (optimizer=none) on a clone
// gives the gradient function; the f64 reference interpreter evaluates it
// once and the forward function twice per checked element; each autodiff
// gradient element is compared with the central difference (with an
// embedding's padding rows held fixed and its scaled positions' change
// scaled, as its gradient defines them).
//
//===----------------------------------------------------------------------===//

#include "amp/GradCheck/GradCheck.h"

#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Autodiff.h"
#include "amp/Reference/Interpreter.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace amp;
using namespace amp::gradcheck;
using amp::reference::RefTensor;

std::optional<std::string> GradCheckOptions::validate() const {
  if (!(step > 0) || !std::isfinite(step))
    return std::string("--step must be a positive finite number");
  if (!(rtol >= 0) || !std::isfinite(rtol) || !(atol >= 0) ||
      !std::isfinite(atol))
    return std::string("--rtol and --atol must be finite numbers >= 0");
  if (maxChecksPerParam < 1)
    return std::string("--max-checks-per-param must be >= 1");
  return std::nullopt;
}

namespace {

/// Seeded draws that are the same on every platform (std's distributions
/// are not specified bit for bit).
class Random {
public:
  explicit Random(uint64_t seed) : engine(seed) {}

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(engine() >> 11) * 0x1.0p-53);
  }

  /// Uniform in [0, n), n > 0.
  int64_t below(int64_t n) {
    return static_cast<int64_t>(engine() % static_cast<uint64_t>(n));
  }

private:
  std::mt19937_64 engine;
};

/// Where an argument's values are drawn from.
struct ValueRange {
  double lo, hi;
  bool integer;
};

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// The number of rows or classes an integer operand indexes, for the
/// operands that are indices: labels and ids.
std::optional<int64_t> indexLimit(OpOperand &use) {
  Operation *op = use.getOwner();
  unsigned i = use.getOperandNumber();
  if (auto ce = dyn_cast<nn::CrossEntropyOp>(op); ce && i == 1)
    return shapeOf(ce.getLogits()).back();
  if (auto ceg = dyn_cast<nn::CrossEntropyGradOp>(op); ceg && i == 2)
    return shapeOf(ceg.getLogits()).back();
  if (auto e = dyn_cast<nn::EmbeddingOp>(op); e && i == 1)
    return shapeOf(e.getTable())[0];
  if (auto eg = dyn_cast<nn::EmbeddingGradOp>(op); eg && i == 1)
    return shapeOf(eg.getResult())[0];
  return std::nullopt;
}

/// The argument's name in the source (parseFileNamingArguments), else its
/// location, else its index.
std::string argumentName(func::FuncOp fn, unsigned i) {
  Location loc = fn.getArgument(i).getLoc();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  std::string text = "#" + std::to_string(i);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    text += " (" + llvm::sys::path::filename(file.getFilename()).str() + ":" +
            std::to_string(file.getLine()) + ":" +
            std::to_string(file.getColumn()) + ")";
  return text;
}

/// nn.check_range; else [-1, 1] for floats and [0, N) for integers that
/// index N rows or classes (the smallest N when they index several).
FailureOr<ValueRange> argumentRange(func::FuncOp fn, unsigned i) {
  BlockArgument arg = fn.getArgument(i);
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  auto describe = [&] {
    return "argument " + argumentName(fn, i) + " of @" + fn.getSymName().str();
  };
  if (!type || !type.hasStaticShape() ||
      !(isa<FloatType>(type.getElementType()) ||
        type.getElementType().isIntOrIndex()))
    return fn.emitError() << describe() << " has type " << arg.getType()
                          << "; only statically shaped float and integer "
                             "tensors can be filled";
  bool integer = !isa<FloatType>(type.getElementType());
  if (std::optional<std::pair<double, double>> range =
          nn::getArgCheckRange(fn, i)) {
    auto [lo, hi] = *range;
    if (integer && (lo != std::floor(lo) || hi != std::floor(hi)))
      return fn.emitError() << describe()
                            << " is an integer tensor; its nn.check_range "
                               "needs integer bounds";
    return ValueRange{lo, hi, integer};
  }
  if (!integer)
    return ValueRange{-1.0, 1.0, false};
  std::optional<int64_t> limit;
  for (OpOperand &use : arg.getUses())
    if (std::optional<int64_t> n = indexLimit(use))
      limit = std::min(limit.value_or(*n), *n);
  if (!limit)
    return fn.emitError()
           << describe()
           << " is an integer tensor whose range cannot be inferred (it is "
              "not the labels of an nn.cross_entropy or the ids of an "
              "nn.embedding); give it nn.check_range = [lo, hi]";
  if (*limit < 1)
    return fn.emitError() << describe() << " indexes an empty dimension";
  return ValueRange{0.0, static_cast<double>(*limit), true};
}

FailureOr<SmallVector<RefTensor>> makeArguments(func::FuncOp fn,
                                                Random &random) {
  SmallVector<RefTensor> args;
  SmallVector<ValueRange> ranges;
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
    FailureOr<ValueRange> range = argumentRange(fn, i);
    if (failed(range))
      return failure();
    ranges.push_back(*range);
    args.emplace_back(shapeOf(fn.getArgument(i)));
  }
  // Buffers (running statistics) do not reach the loss: they are drawn
  // last, so that a model's other values do not change when it gains some.
  for (bool buffers : {false, true})
    for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i) {
      if ((nn::getArgRole(fn, i) == nn::Role::Buffer) != buffers)
        continue;
      const ValueRange &range = ranges[i];
      for (double &v : args[i].data)
        v = range.integer
                ? range.lo + static_cast<double>(random.below(
                                 static_cast<int64_t>(range.hi - range.lo)))
                : random.uniform(range.lo, range.hi);
    }
  return args;
}

/// All of [0, n) when n <= k, else a sorted sample of k of them.
SmallVector<int64_t> sampleElements(int64_t n, int64_t k, Random &random) {
  auto all = llvm::to_vector(llvm::seq<int64_t>(0, n));
  if (n <= k)
    return all;
  for (int64_t i = 0; i < k; ++i)
    std::swap(all[i], all[i + random.below(n - i)]);
  all.resize(k);
  llvm::sort(all);
  return all;
}

SmallVector<int64_t> delinearize(int64_t offset, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = offset % shape[d];
    offset /= shape[d];
  }
  return index;
}

/// Whether error `a` is larger than `b`, NaN being the largest.
bool exceeds(double a, double b) {
  return !std::isnan(b) && (std::isnan(a) || a > b);
}

double worse(double a, double b) { return exceeds(b, a) ? b : a; }

/// The lookups whose gradient is not their derivative by definition:
/// nn.embedding {padding_idx = p} gives the rows it reads at ids equal to p
/// no gradient, and {scale_grad_by_freq} divides each position's gradient by
/// its id's count (PyTorch's). The finite differences see the same: the
/// unperturbed evaluation records each such op's result (record), and the
/// perturbed ones put the recorded rows back at the padding positions and
/// scale the others' change by 1 / count (hold).
class EmbeddingGradients {
public:
  void record(Operation *op, ArrayRef<const RefTensor *>,
              MutableArrayRef<RefTensor> results) {
    if (held(op))
      recorded[op] = results[0];
  }

  void hold(Operation *op, ArrayRef<const RefTensor *> operands,
            MutableArrayRef<RefTensor> results) const {
    auto it = recorded.find(op);
    if (!held(op) || it == recorded.end())
      return;
    auto embedding = cast<nn::EmbeddingOp>(op);
    std::optional<int64_t> padding = embedding.getPaddingIdx();
    const RefTensor &ids = *operands[1], &base = it->second;
    RefTensor &out = results[0];
    llvm::DenseMap<int64_t, double> count;
    for (double id : ids.data)
      count[static_cast<int64_t>(id)] += 1.0;
    int64_t dim = out.shape.back();
    for (int64_t i = 0, e = ids.getNumElements(); i < e; ++i) {
      int64_t id = static_cast<int64_t>(ids.data[i]);
      double by = embedding.getScaleGradByFreq() ? count[id] : 1.0;
      for (int64_t d = i * dim; d < (i + 1) * dim; ++d)
        out.data[d] = id == padding
                          ? base.data[d]
                          : base.data[d] + (out.data[d] - base.data[d]) / by;
    }
  }

private:
  static bool held(Operation *op) {
    auto embedding = dyn_cast<nn::EmbeddingOp>(op);
    return embedding &&
           (embedding.getPaddingIdx() || embedding.getScaleGradByFreq());
  }

  DenseMap<Operation *, RefTensor> recorded;
};

/// The loss of `fn` on `args`.
FailureOr<double> evaluateLoss(func::FuncOp fn, ArrayRef<RefTensor> args,
                               reference::ResultHook hook = nullptr) {
  FailureOr<SmallVector<RefTensor>> results =
      reference::evaluate(fn, args, hook);
  if (failed(results))
    return failure();
  return (*results)[nn::getLossResultIndex(fn)].data[0];
}

/// Compares `grad`, the autodiff gradient of argument `argNumber`, with the
/// central differences of `fn` at `args` on the sampled elements, the
/// lookups held as `lookups` says.
FailureOr<ParamCheck>
checkParam(func::FuncOp fn, unsigned argNumber, const RefTensor &grad,
           MutableArrayRef<RefTensor> args, const EmbeddingGradients &lookups,
           const GradCheckOptions &options, Random &random) {
  auto hold = [&](Operation *op, ArrayRef<const RefTensor *> operands,
                  MutableArrayRef<RefTensor> results) {
    lookups.hold(op, operands, results);
  };
  ParamCheck param;
  param.name = argumentName(fn, argNumber);
  param.shape.assign(grad.shape);
  RefTensor &value = args[argNumber];
  double worstRatio = 0;
  for (int64_t e : sampleElements(value.getNumElements(),
                                  options.maxChecksPerParam, random)) {
    double saved = value.data[e];
    double plus = saved + options.step, minus = saved - options.step;
    value.data[e] = plus;
    FailureOr<double> lossPlus = evaluateLoss(fn, args, hold);
    value.data[e] = minus;
    FailureOr<double> lossMinus = evaluateLoss(fn, args, hold);
    value.data[e] = saved;
    if (failed(lossPlus) || failed(lossMinus))
      return failure();
    // Divided by the step actually taken, after rounding p +- h.
    double fd = (*lossPlus - *lossMinus) / (plus - minus);
    double g = grad.data[e];
    double error = std::abs(g - fd);
    double tolerance = options.atol + options.rtol * std::abs(fd);
    ++param.numChecked;
    if (!(error <= tolerance))
      ++param.numFailed;
    param.maxAbsError = worse(param.maxAbsError, error);
    if (std::abs(fd) > options.atol || std::isnan(fd))
      param.maxRelError = worse(param.maxRelError, error / std::abs(fd));
    double ratio =
        tolerance > 0 ? error / tolerance : (error > 0 ? INFINITY : 0.0);
    if (param.worstIndex.empty() || exceeds(ratio, worstRatio)) {
      worstRatio = ratio;
      param.worstIndex = delinearize(e, value.shape);
      param.worstGradient = g;
      param.worstFiniteDifference = fd;
    }
  }
  return param;
}

} // namespace

FailureOr<FunctionCheck>
amp::gradcheck::checkFunction(func::FuncOp fn,
                              const GradCheckOptions &options) {
  if (fn.isExternal() || !nn::isForwardLossFunction(fn))
    return fn.emitError() << "@" << fn.getSymName()
                          << " is not a forward loss function (a body that "
                             "returns one result with nn.role = "
                             "#nn.role<loss>, and otherwise only buffers)";
  // The gradient function: nn-autodiff rewrites a clone in a scratch module
  // and leaves the input as it was. Results: the param gradients, the loss.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(fn.getLoc());
  auto gradFn = cast<func::FuncOp>(fn->clone());
  scratch->push_back(gradFn);
  nn::AutodiffOptions autodiff;
  autodiff.optimizer = nn::Optimizer::None;
  // The gradient of one evaluation: dropouts keep the masks of their seeds.
  autodiff.stepDropoutMasks = false;
  if (failed(nn::buildTrainingStep(gradFn, autodiff)))
    return failure();

  // One stream per function, so that a function's values do not depend on
  // the others in the file.
  Random random(options.seed);
  FailureOr<SmallVector<RefTensor>> args = makeArguments(fn, random);
  if (failed(args))
    return failure();
  FailureOr<SmallVector<RefTensor>> grads = reference::evaluate(gradFn, *args);
  if (failed(grads))
    return failure();
  EmbeddingGradients lookups;
  FailureOr<double> loss =
      evaluateLoss(fn, *args,
                   [&](Operation *op, ArrayRef<const RefTensor *> operands,
                       MutableArrayRef<RefTensor> results) {
                     lookups.record(op, operands, results);
                   });
  if (failed(loss))
    return failure();
  // Both run the same forward ops in f64, so the losses are bitwise equal
  // (or both NaN) unless nn-autodiff changed the forward computation.
  double gradLoss = grads->back().data[0];
  if (gradLoss != *loss && !(std::isnan(gradLoss) && std::isnan(*loss)))
    return fn.emitError() << "the loss of @" << fn.getSymName()
                          << " after nn-autodiff (" << gradLoss
                          << ") differs from the forward loss (" << *loss
                          << ")";

  FunctionCheck check;
  check.name = fn.getSymName().str();
  check.loss = *loss;
  unsigned paramIndex = 0;
  for (BlockArgument arg : fn.getArguments()) {
    if (nn::getArgRole(fn, arg.getArgNumber()) != nn::Role::Param)
      continue;
    RefTensor &grad = (*grads)[paramIndex];
    if (options.perturbGradient && paramIndex == 0)
      for (double &g : grad.data)
        g *= 1.01;
    ++paramIndex;
    FailureOr<ParamCheck> param = checkParam(fn, arg.getArgNumber(), grad,
                                             *args, lookups, options, random);
    if (failed(param))
      return failure();
    check.params.push_back(std::move(*param));
  }
  return check;
}

static void printShape(ArrayRef<int64_t> shape, raw_ostream &os) {
  os << "[";
  llvm::interleave(shape, os, "x");
  os << "]";
}

void amp::gradcheck::printFunctionCheck(const FunctionCheck &check,
                                        raw_ostream &os) {
  os << "@" << check.name << ": loss " << llvm::format("%.6e", check.loss)
     << ": " << (check.passed() ? "ok" : "FAILED") << "\n";
  for (const ParamCheck &p : check.params) {
    os << "  " << p.name << " ";
    printShape(p.shape, os);
    os << ": " << p.numChecked << " of " << reference::getNumElements(p.shape)
       << " elements, max abs error " << llvm::format("%.2e", p.maxAbsError)
       << ", max rel error " << llvm::format("%.2e", p.maxRelError) << ": ";
    if (p.passed()) {
      os << "ok\n";
      continue;
    }
    os << "FAILED (" << p.numFailed << " outside tolerance; worst [";
    llvm::interleaveComma(p.worstIndex, os);
    os << "]: autodiff " << llvm::format("%.9e", p.worstGradient)
       << ", finite difference "
       << llvm::format("%.9e", p.worstFiniteDifference) << ")\n";
  }
}

FailureOr<bool> amp::gradcheck::checkModule(ModuleOp module,
                                            const GradCheckOptions &options,
                                            raw_ostream &os) {
  if (std::optional<std::string> error = options.validate())
    return module.emitError() << *error;
  SmallVector<func::FuncOp> functions;
  if (!options.entry.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(options.entry);
    if (!fn)
      return module.emitError() << "no function @" << options.entry;
    functions.push_back(fn);
  } else {
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal() && nn::isForwardLossFunction(fn))
        functions.push_back(fn);
    if (functions.empty())
      return module.emitError()
             << "no forward loss function to check (a function whose single "
                "result has nn.role = #nn.role<loss>)";
  }

  int64_t params = 0, failedParams = 0, elements = 0;
  for (func::FuncOp fn : functions) {
    FailureOr<FunctionCheck> check = checkFunction(fn, options);
    if (failed(check))
      return failure();
    printFunctionCheck(*check, os);
    for (const ParamCheck &p : check->params) {
      ++params;
      elements += p.numChecked;
      failedParams += !p.passed();
    }
  }
  os << "summary: " << functions.size() << " functions, " << params
     << " params, " << elements << " elements (h "
     << llvm::format("%g", options.step) << ", rtol "
     << llvm::format("%g", options.rtol) << ", atol "
     << llvm::format("%g", options.atol) << "): ";
  if (failedParams == 0)
    os << "all passed\n";
  else
    os << failedParams << " of " << params << " params FAILED\n";
  return failedParams == 0;
}
