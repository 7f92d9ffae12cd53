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
  ];
}

#endif // AMP_INTERFACES_MIXEDPRECISIONOPINTERFACE_TD
