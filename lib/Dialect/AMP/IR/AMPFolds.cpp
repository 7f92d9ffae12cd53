//===- AMPFolds.cpp - folds of the amp ops --------------------------------===//
//
// amp.cast folds: identity casts, round trips through a wider type, chains
// whose first step is exact, and casts of constants.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace amp;

/// True when every value of `from` is exactly representable in `to`.
static bool isExactConversion(Type from, Type to) {
  if (from == to)
    return true;
  return to.isF32() && (from.isF16() || from.isBF16());
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Value input = getInput();
  RankedTensorType target = getType();
  if (input.getType() == target)
    return input;

  // Convert constants at compile time, rounding as the runtime does (RNE;
  // out-of-range values become inf exactly as a runtime cast would).
  if (auto dense =
          dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getInput())) {
    auto targetElem = cast<FloatType>(target.getElementType());
    const llvm::fltSemantics &sem = targetElem.getFloatSemantics();
    return dense.mapValues(targetElem, [&](const APFloat &v) {
      APFloat converted = v;
      bool losesInfo = false;
      converted.convert(sem, APFloat::rmNearestTiesToEven, &losesInfo);
      return converted.bitcastToAPInt();
    });
  }

  // cast(cast(x : A -> B) -> C) where A -> B is exact is cast(x : A -> C), and
  // x itself when C == A.
  if (auto producer = input.getDefiningOp<CastOp>()) {
    Value source = producer.getInput();
    if (!isExactConversion(getElementTypeOrSelf(source.getType()),
                           producer.getType().getElementType()))
      return {};
    if (source.getType() == target)
      return source;
    getInputMutable().assign(source);
    return getResult();
  }
  return {};
}
