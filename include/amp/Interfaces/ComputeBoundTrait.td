//===- ComputeBoundTrait.td - ops whose cost is their arithmetic -*- tablegen -*-===//
//
// The trait of the tensor-core contractions (nn.matmul, nn.conv2d and its
// gradients, nn.attention and its gradient, amp.gemm), whose results
// nn-recompute keeps rather than recomputes (ComputeBoundTrait.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_COMPUTEBOUNDTRAIT_TD
#define AMP_INTERFACES_COMPUTEBOUNDTRAIT_TD

include "mlir/IR/OpBase.td"

def ComputeBound : NativeOpTrait<"ComputeBound"> {
  let cppNamespace = "::amp";
}

#endif // AMP_INTERFACES_COMPUTEBOUNDTRAIT_TD
