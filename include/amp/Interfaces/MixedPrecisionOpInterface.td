//===- MixedPrecisionOpInterface.td - how an op changes precision -*- tablegen -*-===//
//
// The interface through which amp's precision passes see an op: which
// operands and results follow the op's compute precision, whether a result
// may keep the f32 accumulator, and which forward op a backward op follows.
// nn ops implement it through external models, and so can ops of any other
// dialect (arith, math, linalg, or an embedder's own).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_TD
#define AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def MixedPrecisionOpInterface : OpInterface<"MixedPrecisionOpInterface"> {
  let cppNamespace = "::amp";
  let description = [{
    An op that can run in f16/bf16. The policy (allow/deny/infer/clear) is
    data keyed by op name; this interface says how the op is retyped when the
    policy picks a low precision for it.
  }];
  let methods = [
    InterfaceMethod<[{
        Operand indices whose element type becomes the op's compute type.
        By default: every operand that is a float tensor.
      }],
      "::llvm::SmallVector<unsigned>", "getPrecisionOperands", (ins), [{}],
      [{ return ::amp::detail::floatTensorOperands($_op); }]>,
    InterfaceMethod<[{
        Result indices whose element type becomes the op's compute type.
        By default: every result that is a float tensor.
      }],
      "::llvm::SmallVector<unsigned>", "getPrecisionResults", (ins), [{}],
      [{ return ::amp::detail::floatTensorResults($_op); }]>,
    InterfaceMethod<[{
        True when the op accumulates in f32 and can store that accumulator
        as an f32 result while its operands are f16/bf16 (matmul, conv,
        reductions), so no cast is needed when every user wants f32.
      }],
      "bool", "hasF32Accumulator", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<[{
        For a backward op, the forward op whose precision it must share (a
        relu_grad follows its relu). Null when there is none.
      }],
      "::mlir::Operation *", "getTiedForwardOp", (ins), [{}],
      [{ return nullptr; }]>,
    InterfaceMethod<[{
        The op names the policy classifies this op by; the op takes the
        strongest of their classes (deny, then unlisted, allow, infer,
        clear). By default the op's own name. An op whose meaning is in its
        body names what the body does: an elementwise linalg.generic names
        the ops of its payload, a reduction names `linalg.reduce`.
      }],
      "void", "getPolicyNames",
      (ins "::llvm::SmallVectorImpl<::llvm::StringRef> &":$names), [{}],
      [{ names.push_back($_op->getName().getStringRef()); }]>,
    InterfaceMethod<[{
        The class of the op when the policy names none of its policy names:
        how an embedder's op gets a class without a policy file
        (amp::attachPrecisionClass). None: the op stays f32 as unlisted.
      }],
      "::std::optional<::amp::PrecisionClass>", "getDefaultPrecisionClass",
      (ins), [{}], [{ return ::std::nullopt; }]>,
    InterfaceMethod<[{
        Called by amp-insert-casts after it changed the element types of the
        op's precision operands and results, for ops whose body or
        attributes must follow them (a linalg payload's block arguments,
        tosa.clamp's bounds). By default nothing.
      }],
      "void", "adaptToNewTypes", (ins), [{}], [{ return; }]>,
  ];
}

#endif // AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_TD
