//===- Patterns.h - the op-family patterns of amp-lower-to-runtime -*- C++ -*-//
//
// One populate function per op family; each pattern turns one nn/amp op on
// tensors into runtime calls on buffers (!llvm.ptr), allocating its results
// with amp_alloc. Private to lib/Conversion/NNToRuntime.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_LIB_CONVERSION_NNTORUNTIME_PATTERNS_H
#define AMP_LIB_CONVERSION_NNTORUNTIME_PATTERNS_H

#include "RuntimeBuilder.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace amp {

/// The found_inf tensor that predicates each optimizer op that was inside an
/// amp.skip_step_if (the regions are inlined before the conversion).
using SkipPredicates = llvm::DenseMap<mlir::Operation *, mlir::Value>;

/// A pattern whose results are all fresh buffers: it allocates them, lets
/// `lower` emit the calls, and replaces the op with the buffers.
template <typename Op>
class RuntimeOpPattern : public mlir::OpConversionPattern<Op> {
public:
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  using Adaptor = typename mlir::OpConversionPattern<Op>::OpAdaptor;

  mlir::LogicalResult
  matchAndRewrite(Op op, Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const final {
    RuntimeBuilder rb(rewriter, op.getLoc());
    llvm::SmallVector<mlir::Value> results = allocResults(rb, op);
    lower(op, adaptor, rb, results);
    rewriter.replaceOp(op, results);
    return mlir::success();
  }

protected:
  virtual void lower(Op op, Adaptor adaptor, RuntimeBuilder &rb,
                     mlir::ValueRange results) const = 0;
};

void populateElementwiseToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                          const mlir::TypeConverter &converter);
void populateShapeToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                    const mlir::TypeConverter &converter);
void populateReductionToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                        const mlir::TypeConverter &converter);
void populateNormToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                   const mlir::TypeConverter &converter);
void populateConvToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                   const mlir::TypeConverter &converter);
void populatePoolToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                   const mlir::TypeConverter &converter);
void populateLossToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                   const mlir::TypeConverter &converter);
void populateGemmToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                   const mlir::TypeConverter &converter);
void populateOptimizerToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                        const mlir::TypeConverter &converter,
                                        const SkipPredicates &predicates);
void populateLossScaleToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                        const mlir::TypeConverter &converter);
/// Tensor constants, tensor.empty and linalg.copy (the copies that buffer
/// ownership asks for).
void populateBufferToRuntimePatterns(mlir::RewritePatternSet &patterns,
                                     const mlir::TypeConverter &converter);

} // namespace amp

#endif // AMP_LIB_CONVERSION_NNTORUNTIME_PATTERNS_H
