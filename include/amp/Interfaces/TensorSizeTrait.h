//===- TensorSizeTrait.h - tensors whose byte size fits int64 ---*- C++ -*-===//
//
// TensorSizesFitInt64: every ranked, statically shaped tensor operand and
// result of the op has a size in bytes that int64 can count, with the size
// arithmetic that the runtime and the runner share (amp_runtime/
// checked_size.h). Every nn and amp op has it, so verified IR never makes a
// later element count, byte size, stride or allocation size wrap, and no
// diagnostic prints a wrapped number.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_TENSORSIZETRAIT_H
#define AMP_INTERFACES_TENSORSIZETRAIT_H

#include "amp_runtime/checked_size.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"

namespace amp {

/// Bytes per element of a tensor of `elementType` in a runtime buffer (i1
/// takes one byte); 0 for a type that is not an integer or a float.
inline int64_t tensorElementBytes(mlir::Type elementType) {
  if (!elementType.isIntOrFloat())
    return 0;
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

/// The size in bytes of a statically shaped tensor type, or nullopt when
/// int64 cannot count it.
inline std::optional<int64_t> tensorByteSize(mlir::RankedTensorType type) {
  int64_t elementBytes = tensorElementBytes(type.getElementType());
  return checked::byteSize(type.getShape().data(), type.getRank(),
                           elementBytes ? elementBytes : 1);
}

/// Fails, quoting the op's types, when a statically shaped tensor operand or
/// result has more bytes than int64 can count.
inline mlir::LogicalResult verifyTensorSizesFitInt64(mlir::Operation *op) {
  auto check = [&](mlir::TypeRange types,
                   llvm::StringRef what) -> mlir::LogicalResult {
    for (auto [i, type] : llvm::enumerate(types)) {
      auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() || tensorByteSize(tensor))
        continue;
      std::string opTypes;
      llvm::raw_string_ostream os(opTypes);
      os << mlir::FunctionType::get(op->getContext(), op->getOperandTypes(),
                                    op->getResultTypes());
      return op->emitOpError()
             << what << " #" << i << " of type " << tensor
             << " is too large: its size in bytes does not fit in int64 (op "
                "types: "
             << opTypes << ")";
    }
    return mlir::success();
  };
  if (failed(check(op->getOperandTypes(), "operand")))
    return mlir::failure();
  return check(op->getResultTypes(), "result");
}

template <typename ConcreteType>
class TensorSizesFitInt64
    : public mlir::OpTrait::TraitBase<ConcreteType, TensorSizesFitInt64> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyTensorSizesFitInt64(op);
  }
};

} // namespace amp

#endif // AMP_INTERFACES_TENSORSIZETRAIT_H
