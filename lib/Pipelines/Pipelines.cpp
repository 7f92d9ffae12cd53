//===- Pipelines.cpp - the amp mixed-precision pipeline -------------------===//
//
// buildAmpPipeline and the `amp-pipeline` registration.
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void amp::buildAmpPipeline(OpPassManager &pm,
                           const AmpPipelineOptions &options) {
  bool report = !options.reportFile.empty();

  // Per-function passes run nested on func.func, so the pass manager can
  // run them on several functions at once.
  OpPassManager *functions = &pm.nest<func::FuncOp>();

  // 1. Decide a precision per op from the policy (graph coloring).
  AssignPrecisionOptions assign;
  assign.computeType = options.computeType;
  assign.allowOps.assign(options.allowOps.begin(), options.allowOps.end());
  assign.denyOps.assign(options.denyOps.begin(), options.denyOps.end());
  assign.inferOps.assign(options.inferOps.begin(), options.inferOps.end());
  assign.clearOps.assign(options.clearOps.begin(), options.clearOps.end());
  assign.policyFile = options.policyFile;
  assign.recordRules = report;
  assign.emitRemarks = options.emitRemarks;
  functions->addPass(createAssignPrecision(std::move(assign)));

  // 2. Retype ops and insert the minimal set of casts. Changing signatures
  //    (keep-io-types=false) needs the callers, so that runs on the module.
  InsertCastsOptions casts;
  casts.keepIOTypes = options.keepIOTypes;
  (options.keepIOTypes ? *functions : pm).addPass(createInsertCasts(casts));

  // 3. The report, from the IR the casts left (one file: the module).
  if (report) {
    PrecisionReportOptions reportOptions;
    reportOptions.file = options.reportFile;
    reportOptions.computeType = options.computeType;
    pm.addPass(createPrecisionReport(std::move(reportOptions)));
  }
  if (report || !options.keepIOTypes)
    functions = &pm.nest<func::FuncOp>();

  // 4. f32 masters: one low-precision working copy per param and step.
  functions->addPass(createMasterWeights());

  // 5. Loss scaling; bf16 has f32's range, so "auto" turns it off there.
  LossScalingOptions scaling;
  scaling.mode = options.lossScale;
  if (scaling.mode == "auto")
    scaling.mode = options.computeType == "bf16" ? "none" : "dynamic";
  scaling.initScale = options.initScale;
  scaling.growthFactor = options.growthFactor;
  scaling.backoffFactor = options.backoffFactor;
  scaling.growthInterval = options.growthInterval;
  scaling.minScale = options.minScale;
  scaling.maxScale = options.maxScale;
  scaling.hysteresis = options.hysteresis;
  scaling.skipOnOverflow = options.skipOnOverflow;
  functions->addPass(createLossScaling(scaling));
}

void amp::registerAmpPipeline() {
  PassPipelineRegistration<AmpPipelineOptions>(
      "amp-pipeline",
      "Mixed precision: assign-precision, insert-casts, master-weights, "
      "loss-scaling",
      buildAmpPipeline);
}
