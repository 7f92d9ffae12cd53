//===- PrecisionUtils.cpp - helpers shared by the precision passes --------===//

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

std::optional<FloatType> amp::parsePrecision(MLIRContext *ctx,
                                             StringRef name) {
  Builder b(ctx);
  if (name == "f32")
    return b.getF32Type();
  if (name == "f16")
    return b.getF16Type();
  if (name == "bf16")
    return b.getBF16Type();
  return std::nullopt;
}

StringRef amp::precisionName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  return "f32";
}

std::optional<FloatType> amp::getOpPrecision(Operation *op) {
  auto attr = op->getAttrOfType<TypeAttr>(AMPDialect::getPrecisionAttrName());
  if (!attr)
    return std::nullopt;
  if (auto type = dyn_cast<FloatType>(attr.getValue()))
    return type;
  return std::nullopt;
}

void amp::setOpPrecision(Operation *op, Type type) {
  op->setAttr(AMPDialect::getPrecisionAttrName(), TypeAttr::get(type));
}

std::optional<FloatType> amp::getResultPrecision(Operation *op,
                                                 unsigned index) {
  auto attr =
      op->getAttrOfType<ArrayAttr>(AMPDialect::getPrecisionAttrName());
  if (!attr || index >= attr.size())
    return std::nullopt;
  auto type = dyn_cast<TypeAttr>(attr[index]);
  if (!type)
    return std::nullopt;
  if (auto floatType = dyn_cast<FloatType>(type.getValue()))
    return floatType;
  return std::nullopt;
}

void amp::setResultPrecisions(Operation *op, ArrayRef<Type> types) {
  SmallVector<Attribute> attrs;
  for (Type t : types)
    attrs.push_back(TypeAttr::get(t));
  op->setAttr(AMPDialect::getPrecisionAttrName(),
              ArrayAttr::get(op->getContext(), attrs));
}

bool amp::isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

Type amp::withElementType(Type type, Type element) {
  return cast<RankedTensorType>(type).clone(element);
}

Value amp::lookThroughCasts(Value value) {
  while (auto cast = value.getDefiningOp<CastOp>())
    value = cast.getInput();
  return value;
}

bool amp::isGroupOp(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, AutocastOp>(op);
}

std::optional<std::pair<Operation *, unsigned>> amp::getGroupOf(Value value) {
  if (!isFloatTensor(value.getType()))
    return std::nullopt;
  if (auto result = dyn_cast<OpResult>(value)) {
    if (isGroupOp(result.getOwner()))
      return std::make_pair(result.getOwner(), result.getResultNumber());
    return std::nullopt;
  }
  auto arg = cast<BlockArgument>(value);
  if (auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
    if (arg.getOwner() == forOp.getBody() && arg.getArgNumber() >= 1)
      return std::make_pair(forOp.getOperation(), arg.getArgNumber() - 1);
  }
  return std::nullopt;
}

SmallVector<OpOperand *> amp::getGroupInputs(Operation *op, unsigned index) {
  SmallVector<OpOperand *> inputs;
  auto addYielded = [&](Region &region) {
    if (region.empty())
      return;
    Operation *terminator = region.front().getTerminator();
    if (index < terminator->getNumOperands())
      inputs.push_back(&terminator->getOpOperand(index));
  };
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    inputs.push_back(&forOp.getInitArgsMutable()[index]);
    addYielded(forOp.getRegion());
  } else {
    for (Region &region : op->getRegions())
      addYielded(region);
  }
  return inputs;
}

std::optional<std::pair<Operation *, unsigned>>
amp::getGroupFedBy(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (!isFloatTensor(use.get().getType()))
    return std::nullopt;
  if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
    unsigned firstInit = forOp.getNumControlOperands();
    if (use.getOperandNumber() >= firstInit)
      return std::make_pair(owner, use.getOperandNumber() - firstInit);
    return std::nullopt;
  }
  if (isa<scf::YieldOp, YieldOp>(owner)) {
    Operation *parent = owner->getParentOp();
    if (isGroupOp(parent))
      return std::make_pair(parent, use.getOperandNumber());
  }
  return std::nullopt;
}
