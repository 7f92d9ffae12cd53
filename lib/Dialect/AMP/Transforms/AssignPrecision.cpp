//===- AssignPrecision.cpp - decide f16/bf16/f32 for every op -------------===//
//
// amp-assign-precision: builds the policy from the options once, then for
// each function computes its PrecisionAnalysis and writes the decisions as
// `amp.precision`. It reads and writes nothing outside the function.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/Passes.h"

#include "PrecisionUtils.h"

#include "amp/Dialect/AMP/Transforms/PrecisionAnalysis.h"
#include "amp/Dialect/AMP/Transforms/PrecisionPolicy.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace amp {
#define GEN_PASS_DEF_ASSIGNPRECISION
#include "amp/Dialect/AMP/Transforms/Passes.h.inc"
} // namespace amp

using namespace mlir;
using namespace amp;

namespace {
struct AssignPrecisionPass
    : amp::impl::AssignPrecisionBase<AssignPrecisionPass> {
  using AssignPrecisionBase::AssignPrecisionBase;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  FloatType lowType;
  PrecisionPolicy f16Policy, bf16Policy;
};
} // namespace

LogicalResult AssignPrecisionPass::initialize(MLIRContext *ctx) {
  if (failed(checkPrecisionModelsRegistered(ctx, "amp-assign-precision")))
    return failure();
  std::optional<FloatType> ct = parsePrecision(ctx, computeType);
  if (!ct || ct->isF32())
    return emitError(UnknownLoc::get(ctx))
           << "amp-assign-precision: compute-type must be f16 or bf16, got '"
           << computeType << "'";
  lowType = *ct;

  auto isKnownOp = [&](StringRef name) {
    return RegisteredOperationName::lookup(name, ctx).has_value();
  };
  f16Policy = PrecisionPolicy::getDefaults(/*bf16=*/false);
  bf16Policy = PrecisionPolicy::getDefaults(/*bf16=*/true);
  for (PrecisionPolicy *policy : {&f16Policy, &bf16Policy}) {
    std::string error;
    if (!policyFile.empty() &&
        failed(policy->applyJSONFile(policyFile, isKnownOp, error)))
      return emitError(UnknownLoc::get(ctx))
             << "amp-assign-precision: policy file '" << policyFile
             << "': " << error;
    auto applyList = [&](ArrayRef<std::string> names,
                         PrecisionClass cls) -> LogicalResult {
      for (const std::string &name : names) {
        if (!isKnownOp(name))
          return emitError(UnknownLoc::get(ctx))
                 << "amp-assign-precision: unknown op '" << name << "' in "
                 << stringifyPrecisionClass(cls)
                 << "= (no registered dialect defines it)";
        policy->set(name, cls);
      }
      return success();
    };
    if (failed(applyList(allowOps, PrecisionClass::Allow)) ||
        failed(applyList(denyOps, PrecisionClass::Deny)) ||
        failed(applyList(inferOps, PrecisionClass::Infer)) ||
        failed(applyList(clearOps, PrecisionClass::Clear)))
      return failure();
  }
  return success();
}

void AssignPrecisionPass::runOnOperation() {
  PrecisionAnalysis &analysis = getAnalysis<PrecisionAnalysis>();
  analysis.compute({lowType, &f16Policy, &bf16Policy});
  for (const PrecisionNote &note : analysis.getNotes())
    note.op->emitRemark() << note.message;

  MLIRContext *ctx = &getContext();
  StringAttr ruleName =
      StringAttr::get(ctx, AMPDialect::getPrecisionRuleAttrName());
  for (const OpPrecision &decision : analysis.getOpPrecisions()) {
    setOpPrecision(decision.op, decision.precision);
    if (recordRules)
      decision.op->setAttr(ruleName, StringAttr::get(ctx, decision.rule));
    (decision.precision.isF32() ? numF32 : numLowPrecision)++;
  }
  for (const GroupPrecision &group : analysis.getGroupPrecisions())
    setResultPrecisions(group.op, group.precisions);

  if (emitRemarks)
    for (const OpPrecision &decision : analysis.getOpPrecisions())
      decision.op->emitRemark()
          << precisionName(decision.precision) << " (" << decision.rule << ")";

  // Writing the decisions does not change them.
  markAnalysesPreserved<PrecisionAnalysis>();
}
