//===- Formula.h - an nn computation built step by step at a node -*- C++
//-*-===//
//
// The ONNX ops that nn has no op for (the activations of OpsActivation.cpp,
// Attention's bias and unfused form, RMSNormalization, RotaryEmbedding) are
// built of nn ops as their formulas. Formula lets such a formula read as a
// sequence of steps, checked once at the end.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_IMPORT_ONNX_FORMULA_H
#define AMP_LIB_IMPORT_ONNX_FORMULA_H

#include "Importer.h"

#include "amp/Dialect/NN/IR/NNOps.h"

#include <optional>

namespace amp::onnx_import {

/// Builds a formula op by op at one node: each step takes values of earlier
/// steps and gives a null Value once any step has failed (the failure is
/// already reported at the node), so that a formula reads as a sequence of
/// steps and is checked once, by `setOutput` or `failed`. Steps must be
/// sequenced by the caller (one per statement): the ops' order is the IR's.
class Formula {
public:
  explicit Formula(NodeContext &nc) : nc(nc) {}

  template <typename OpTy>
  Value op(mlir::ValueRange operands,
           llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    if (!ready(operands))
      return {};
    return take(nc.create<OpTy>(operands, attrs));
  }

  /// A 0-d f32 constant (it broadcasts against any operand).
  Value constant(float v) { return nc.splat({}, v); }

  /// nn.clamp: its gradient passes at the bounds (PyTorch's clamp), which
  /// the formulas use to match PyTorch's derivatives at 0.
  Value clamp(Value x, std::optional<float> lo, std::optional<float> hi) {
    llvm::SmallVector<mlir::NamedAttribute, 2> attrs;
    if (lo)
      attrs.push_back(nc.named("min", nc.builder.getF32FloatAttr(*lo)));
    if (hi)
      attrs.push_back(nc.named("max", nc.builder.getF32FloatAttr(*hi)));
    return op<nn::ClampOp>({x}, attrs);
  }

  Value compare(Value lhs, nn::ComparePredicate predicate, Value rhs) {
    return op<nn::CompareOp>({lhs, rhs}, {nc.predicate(predicate)});
  }

  /// nn.reshape (nothing when `x` has `shape`).
  Value reshape(Value x, llvm::ArrayRef<int64_t> shape) {
    return ready(x) ? take(nc.reshape(x, shape)) : Value();
  }
  Value transpose(Value x, llvm::ArrayRef<int64_t> perm) {
    return op<nn::TransposeOp>({x}, {nc.named("perm", nc.i64Array(perm))});
  }
  /// nn.slice of `x` (nothing when it takes all of `x`).
  Value slice(Value x, llvm::ArrayRef<int64_t> offsets,
              llvm::ArrayRef<int64_t> sizes,
              llvm::ArrayRef<int64_t> strides = {}) {
    return ready(x) ? take(nc.slice(x, offsets, sizes, strides)) : Value();
  }
  /// nn.broadcast_to `shape` (nothing when `x` has it).
  Value broadcastTo(Value x, llvm::ArrayRef<int64_t> shape) {
    if (!ready(x))
      return {};
    auto type = mlir::cast<mlir::RankedTensorType>(x.getType());
    if (type.getShape() == shape)
      return x;
    return take(nc.createTyped<nn::BroadcastToOp>(type.clone(shape), {x}));
  }
  /// nn.convert of `x` to `elementType` (an integer or i1 type on one side).
  Value convert(Value x, mlir::Type elementType) {
    if (!ready(x))
      return {};
    auto type = mlir::cast<mlir::RankedTensorType>(x.getType());
    return take(nc.createTyped<nn::ConvertOp>(type.clone(elementType), {x}));
  }
  Value concat(mlir::ValueRange xs, int64_t axis) {
    return op<nn::ConcatOp>(
        xs, {nc.named("axis", nc.builder.getI64IntegerAttr(axis))});
  }

  /// Whether a step has failed.
  bool failed() const { return hasFailed; }

  mlir::LogicalResult setOutput(Value y) { return setOutput(0, y); }
  mlir::LogicalResult setOutput(unsigned i, Value y) {
    return hasFailed || !y ? mlir::failure() : nc.setOutput(i, y);
  }

private:
  bool ready(mlir::ValueRange operands) {
    if (hasFailed || llvm::any_of(operands, [](Value v) { return !v; }))
      hasFailed = true;
    return !hasFailed;
  }
  Value take(FailureOr<Value> v) {
    if (mlir::failed(v)) {
      hasFailed = true;
      return {};
    }
    return *v;
  }

  NodeContext &nc;
  bool hasFailed = false;
};

} // namespace amp::onnx_import

#endif // AMP_LIB_IMPORT_ONNX_FORMULA_H
