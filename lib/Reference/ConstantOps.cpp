//===- ConstantOps.cpp - f64 evaluator of arith.constant ------------------===//
//
// Dense tensor constants, splat or not, float or integer (the constants
// that derivative rules and models build).
//
//===----------------------------------------------------------------------===//

#include "Evaluators.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace amp::reference;

namespace {

double toDouble(APFloat value) {
  bool lost;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// i1 is a bool (0 or 1); wider integers are signed.
double toDouble(const APInt &value) {
  return static_cast<double>(value.getBitWidth() == 1 ? value.getZExtValue()
                                                      : value.getSExtValue());
}

template <typename T>
void fill(DenseElementsAttr dense, std::vector<double> &data) {
  if (dense.isSplat())
    std::fill(data.begin(), data.end(), toDouble(dense.getSplatValue<T>()));
  else
    for (auto [i, v] : llvm::enumerate(dense.getValues<T>()))
      data[i] = toDouble(v);
}

FailureOr<Results> evalConstant(arith::ConstantOp op, Operands) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  Type elementType = dense ? dense.getElementType() : Type();
  if (!dense || !(isa<FloatType>(elementType) || elementType.isIntOrIndex()))
    return op.emitError() << "reference interpreter: only dense float or "
                             "integer tensor constants are supported, got "
                          << op.getValue();
  Results results{resultLike(op)};
  if (isa<FloatType>(elementType))
    fill<APFloat>(dense, results[0].data);
  else
    fill<APInt>(dense, results[0].data);
  return results;
}

} // namespace

void amp::reference::registerConstantOps(EvaluatorTable &table) {
  table.add<arith::ConstantOp>(evalConstant);
}
