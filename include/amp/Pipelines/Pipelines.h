//===- Pipelines.h - the amp mixed-precision pipeline -----------*- C++ -*-===//
//
// amp-pipeline: assign-precision, insert-casts, the precision report,
// master-weights and loss-scaling as one pipeline with one options struct,
// for amp-opt
// (`--amp-pipeline="compute-type=f16 loss-scale=dynamic"`) and for C++
// embedders (`amp::buildAmpPipeline`).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace amp {

/// Every option of the pipeline. As pass-pipeline text the names are the
/// strings below; from C++ set the members directly.
struct AmpPipelineOptions : public mlir::PassPipelineOptions<AmpPipelineOptions> {
  // Precision assignment (amp-assign-precision).
  Option<std::string> computeType{*this, "compute-type",
                                  llvm::cl::desc("Low-precision type: f16 or bf16"),
                                  llvm::cl::init("f16")};
  ListOption<std::string> allowOps{*this, "allow",
                                   llvm::cl::desc("Op names to add to the allow list")};
  ListOption<std::string> denyOps{*this, "deny",
                                  llvm::cl::desc("Op names to add to the deny list")};
  ListOption<std::string> inferOps{*this, "infer",
                                   llvm::cl::desc("Op names to add to the infer list")};
  ListOption<std::string> clearOps{*this, "clear",
                                   llvm::cl::desc("Op names to add to the clear list")};
  Option<std::string> policyFile{*this, "policy",
                                 llvm::cl::desc("JSON policy file applied over the defaults"),
                                 llvm::cl::init("")};
  Option<std::string> reportFile{*this, "report",
                                 llvm::cl::desc("Write the precision report (JSON) here"),
                                 llvm::cl::init("")};
  Option<bool> emitRemarks{*this, "remarks",
                           llvm::cl::desc("Emit a remark per op explaining its precision"),
                           llvm::cl::init(false)};

  // Cast insertion (amp-insert-casts).
  Option<bool> keepIOTypes{*this, "keep-io-types",
                           llvm::cl::desc("Keep function argument and result types"),
                           llvm::cl::init(true)};

  // Loss scaling (amp-loss-scaling).
  Option<std::string> lossScale{
      *this, "loss-scale",
      llvm::cl::desc("auto (dynamic for f16, none for bf16), dynamic, static or none"),
      llvm::cl::init("auto")};
  Option<double> initScale{*this, "init-scale",
                           llvm::cl::desc("Initial (or static) loss scale"),
                           llvm::cl::init(65536.0)};
  Option<double> growthFactor{*this, "growth-factor",
                              llvm::cl::desc("Scale multiplier after growth-interval clean steps"),
                              llvm::cl::init(2.0)};
  Option<double> backoffFactor{*this, "backoff-factor",
                               llvm::cl::desc("Scale multiplier on an overflowing step"),
                               llvm::cl::init(0.5)};
  Option<int> growthInterval{*this, "growth-interval",
                             llvm::cl::desc("Consecutive clean steps before the scale grows"),
                             llvm::cl::init(2000)};
  Option<double> minScale{*this, "min-scale",
                          llvm::cl::desc("Lower bound of the scale (0: none)"),
                          llvm::cl::init(0.0)};
  Option<double> maxScale{*this, "max-scale",
                          llvm::cl::desc("Upper bound of the scale (0: none)"),
                          llvm::cl::init(0.0)};
  Option<int> hysteresis{*this, "hysteresis",
                         llvm::cl::desc("Overflowing steps tolerated before a backoff"),
                         llvm::cl::init(1)};
  Option<bool> skipOnOverflow{*this, "skip-on-overflow",
                              llvm::cl::desc("Skip the update on steps with inf/NaN gradients"),
                              llvm::cl::init(true)};
};

/// Adds the mixed-precision pipeline to `pm` (which must run on a module):
/// assign-precision -> insert-casts -> [precision-report] -> master-weights
/// -> loss-scaling. The per-function passes are nested on func.func, so
/// functions are compiled in parallel when the context allows threads.
void buildAmpPipeline(mlir::OpPassManager &pm, const AmpPipelineOptions &options);

/// Registers `amp-pipeline` for textual pass pipelines and amp-opt.
void registerAmpPipeline();

} // namespace amp

#endif // AMP_PIPELINES_PIPELINES_H
