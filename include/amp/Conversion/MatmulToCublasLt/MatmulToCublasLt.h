//===- MatmulToCublasLt.h - nn.matmul and epilogues to amp.gemm -*- C++ -*-===//
//
// The amp-lower-matmul-to-cublaslt pass and its patterns, for embedders that
// run them in their own rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CONVERSION_MATMULTOCUBLASLT_MATMULTOCUBLASLT_H
#define AMP_CONVERSION_MATMULTOCUBLASLT_MATMULTOCUBLASLT_H

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace amp {

#define GEN_PASS_DECL_LOWERMATMULTOCUBLASLT
#include "amp/Conversion/Passes.h.inc"

/// Adds the patterns of amp-lower-matmul-to-cublaslt: nn.matmul to amp.gemm
/// and the epilogue fusions. They reach a fixed point in one greedy rewrite
/// (every fusion is rooted at the op whose operand a new amp.gemm replaces,
/// or at the new amp.gemm itself).
void populateMatmulToCublasLtPatterns(
    mlir::RewritePatternSet &patterns,
    const LowerMatmulToCublasLtOptions &options = {});

} // namespace amp

#endif // AMP_CONVERSION_MATMULTOCUBLASLT_MATMULTOCUBLASLT_H
