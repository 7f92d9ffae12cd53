//===- TensorSizeTrait.td - tensors whose byte size fits int64 -*- tablegen -*-===//
//
// The trait that the nn and amp ops share: every ranked tensor operand and
// result has a size in bytes that int64 can count (TensorSizeTrait.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_TENSORSIZETRAIT_TD
#define AMP_INTERFACES_TENSORSIZETRAIT_TD

include "mlir/IR/OpBase.td"

def TensorSizesFitInt64 : NativeOpTrait<"TensorSizesFitInt64"> {
  let cppNamespace = "::amp";
}

#endif // AMP_INTERFACES_TENSORSIZETRAIT_TD
