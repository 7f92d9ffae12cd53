//===- Interpreter.cpp - the f64 reference interpreter --------------------===//
//
// Walks a function's single block in order, looking each op up in the
// evaluator table that the op-family files fill, and returns the values of
// func.return. Everything the evaluators may assume (static tensor types,
// argument shapes, result shapes) is checked here, so bad input is one
// error at the op or function and never a crash.
//
//===----------------------------------------------------------------------===//

#include "amp/Reference/Interpreter.h"

#include "Evaluators.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace amp::reference;

static const EvaluatorTable &getEvaluators() {
  static const EvaluatorTable table = [] {
    EvaluatorTable t;
    registerElementwiseOps(t);
    registerContractionOps(t);
    registerPoolingOps(t);
    registerNormOps(t);
    registerAttentionOps(t);
    registerReductionOps(t);
    registerShapeOps(t);
    registerEmbeddingAndLossOps(t);
    registerOptimizerOps(t);
    registerConstantOps(t);
    return t;
  }();
  return table;
}

bool amp::reference::isSupported(StringRef name) {
  return getEvaluators().lookup(name) != nullptr;
}

static bool isStaticTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

/// The values the interpreter holds are static tensors; anything else (a
/// scalar, a dynamic shape) is named in the error.
static LogicalResult checkTypes(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type type : types)
    if (!isStaticTensor(type))
      return op->emitError()
             << "reference interpreter: '" << op->getName()
             << "' has a value of type " << type
             << "; only statically shaped tensors are supported";
  return success();
}

FailureOr<SmallVector<RefTensor>>
amp::reference::evaluate(func::FuncOp fn, ArrayRef<RefTensor> args,
                         ResultHook hook) {
  auto fail = [&](const Twine &msg) {
    return fn.emitError() << "reference interpreter: @" << fn.getSymName()
                          << " " << msg;
  };
  if (fn.isExternal() || !fn.getBody().hasOneBlock())
    return fail("must have a body of one block");
  if (args.size() != fn.getNumArguments())
    return fail("takes " + Twine(fn.getNumArguments()) + " arguments, got " +
                Twine(args.size()));

  DenseMap<Value, RefTensor> values;
  for (auto [arg, value] : llvm::zip(fn.getArguments(), args)) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!isStaticTensor(arg.getType()) ||
        type.getShape() != ArrayRef<int64_t>(value.shape) ||
        value.getNumElements() != getNumElements(value.shape))
      return fail("argument #" + Twine(arg.getArgNumber()) +
                  " does not match its type or is not a static tensor");
    values[arg] = value;
  }

  const EvaluatorTable &evaluators = getEvaluators();
  for (Operation &op : fn.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<RefTensor> results;
      for (Value v : ret.getOperands())
        results.push_back(values.lookup(v));
      return results;
    }
    const Evaluator *evaluator = evaluators.lookup(op.getName().getStringRef());
    if (!evaluator || op.getNumRegions() != 0)
      return op.emitError() << "reference interpreter: unsupported op '"
                            << op.getName() << "'";
    if (failed(checkTypes(&op)))
      return failure();
    SmallVector<const RefTensor *> operands;
    for (Value v : op.getOperands())
      operands.push_back(&values.find(v)->second);
    FailureOr<Results> results = (*evaluator)(&op, operands);
    if (failed(results))
      return failure();
    // An evaluator returns its result types' shapes; check it anyway, so
    // that a wrong evaluator is a message instead of an out-of-bounds read.
    auto wrongShape = [](Value result, const RefTensor &value) {
      return ArrayRef<int64_t>(value.shape) != shapeOf(result) ||
             value.getNumElements() != getNumElements(value.shape);
    };
    if (results->size() != op.getNumResults() ||
        llvm::any_of(llvm::zip(op.getResults(), *results), [&](auto pair) {
          return wrongShape(std::get<0>(pair), std::get<1>(pair));
        }))
      return op.emitError() << "reference interpreter: internal error: the "
                               "evaluator of '"
                            << op.getName() << "' returned wrong results";
    if (hook)
      hook(&op, operands, *results);
    for (auto [result, value] : llvm::zip(op.getResults(), *results))
      values[result] = std::move(value);
  }
  return fail("has no func.return");
}
