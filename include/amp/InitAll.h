//===- InitAll.h - register every amp dialect and pass ----------*- C++ -*-===//
//
// Entry points for tools and embedders: registerAllDialects() adds the amp
// dialects and the upstream dialects amp programs use to a registry;
// registerAllPasses() registers amp's passes and the upstream passes that
// amp-opt exposes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INITALL_H
#define AMP_INITALL_H

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/Transforms/Passes.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/Dialect/NN/Transforms/Passes.h"
#include "amp/Interfaces/DifferentiableOpInterface.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/Extensions/AllExtensions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace amp {

/// Adds the nn and amp dialects, the upstream dialects that amp programs mix
/// with them or that other compilers hand to amp's passes (linalg, tosa),
/// the MixedPrecisionOpInterface models of nn, arith, math, linalg and tosa
/// ops, the DifferentiableOpInterface models of nn ops, and the
/// ConvertToLLVMPatternInterface of arith, cf and func (amp-to-runtime's
/// convert-to-llvm).
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<AMPDialect, nn::NNDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect, mlir::tosa::TosaDialect>();
  mlir::func::registerAllExtensions(registry);
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  registerNNPrecisionModels(registry);
  registerNNDerivativeModels(registry);
  registerUpstreamPrecisionModels(registry);
}

/// Registers amp's passes and pipelines, plus the generic upstream
/// transformations (canonicalize, cse, inline, ...).
inline void registerAllPasses() {
  mlir::registerTransformsPasses();
  nn::registerNNPasses();
  registerAMPPasses();
  registerAMPConversionPasses();
  registerAmpPipeline();
  registerAmpToRuntimePipeline();
}

} // namespace amp

#endif // AMP_INITALL_H
