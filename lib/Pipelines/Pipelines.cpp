//===- Pipelines.cpp - the amp mixed-precision pipeline -------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void amp::buildAmpPipeline(OpPassManager &pm,
                           const AmpPipelineOptions &options) {
  // 1. Decide a precision per op from the policy (graph coloring).
  AssignPrecisionOptions assign;
  assign.computeType = options.computeType;
  assign.allowOps.assign(options.allowOps.begin(), options.allowOps.end());
  assign.denyOps.assign(options.denyOps.begin(), options.denyOps.end());
  assign.inferOps.assign(options.inferOps.begin(), options.inferOps.end());
  assign.clearOps.assign(options.clearOps.begin(), options.clearOps.end());
  assign.policyFile = options.policyFile;
  assign.reportFile = options.reportFile;
  assign.emitRemarks = options.emitRemarks;
  pm.addPass(createAssignPrecision(std::move(assign)));

  // 2. Retype ops and insert the minimal set of casts.
  InsertCastsOptions casts;
  casts.keepIOTypes = options.keepIOTypes;
  pm.addPass(createInsertCasts(casts));

  // 3. f32 masters: one low-precision working copy per param and step.
  pm.addPass(createMasterWeights());

  // 4. Loss scaling; bf16 has f32's range, so "auto" turns it off there.
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
  pm.addPass(createLossScaling(scaling));
}

void amp::registerAmpPipeline() {
  PassPipelineRegistration<AmpPipelineOptions>(
      "amp-pipeline",
      "Mixed precision: assign-precision, insert-casts, master-weights, "
      "loss-scaling",
      buildAmpPipeline);
}
