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

amp::PrecisionAttrs::PrecisionAttrs(MLIRContext *ctx)
    : name(StringAttr::get(ctx, AMPDialect::getPrecisionAttrName())),
      f32Name(StringAttr::get(ctx, "f32")), f16Name(StringAttr::get(ctx, "f16")),
      bf16Name(StringAttr::get(ctx, "bf16")), f32(Float32Type::get(ctx)),
      f16(Float16Type::get(ctx)), bf16(BFloat16Type::get(ctx)) {}

std::optional<FloatType> amp::PrecisionAttrs::get(Operation *op) const {
  Attribute attr = op->getAttr(name);
  if (!attr)
    return std::nullopt;
  if (attr == f16Name)
    return f16;
  if (attr == bf16Name)
    return bf16;
  if (attr == f32Name)
    return f32;
  return std::nullopt;
}

void amp::PrecisionAttrs::set(Operation *op, Type type) const {
  op->setAttr(name, type.isF16()    ? f16Name
                    : type.isBF16() ? bf16Name
                                    : f32Name);
}

std::optional<FloatType> amp::getOpPrecision(Operation *op) {
  return PrecisionAttrs(op->getContext()).get(op);
}

void amp::setOpPrecision(Operation *op, Type type) {
  PrecisionAttrs(op->getContext()).set(op, type);
}

std::optional<FloatType> amp::getResultPrecision(Operation *op,
                                                 unsigned index) {
  auto attr =
      op->getAttrOfType<ArrayAttr>(AMPDialect::getPrecisionAttrName());
  if (!attr || index >= attr.size())
    return std::nullopt;
  auto name = dyn_cast<StringAttr>(attr[index]);
  if (!name)
    return std::nullopt;
  return parsePrecision(op->getContext(), name.getValue());
}

void amp::setResultPrecisions(Operation *op, ArrayRef<Type> types) {
  SmallVector<Attribute> names;
  for (Type t : types)
    names.push_back(StringAttr::get(op->getContext(), precisionName(t)));
  op->setAttr(AMPDialect::getPrecisionAttrName(),
              ArrayAttr::get(op->getContext(), names));
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
