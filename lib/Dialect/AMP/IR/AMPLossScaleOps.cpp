//===- AMPLossScaleOps.cpp - loss-scale ops of the amp dialect ------------===//
//
// Type inference and verification of amp.scaled_grad_seed,
// amp.unscale_and_check, amp.update_scale and amp.skip_step_if.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <sstream>

using namespace mlir;
using namespace amp;

LogicalResult
UnscaleAndCheckOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                    ValueRange operands, DictionaryAttr,
                                    OpaqueProperties, RegionRange,
                                    SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.drop_front().getTypes());
  inferred.push_back(RankedTensorType::get({}, IntegerType::get(ctx, 1)));
  return success();
}

LogicalResult UnscaleAndCheckOp::verify() {
  if (getGrads().empty())
    return emitOpError("expects at least one gradient");
  return success();
}

/// Formats an attribute value the way a user writes it: `1`, `0.25`, `nan`.
static std::string fmtNumber(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

LogicalResult UpdateScaleOp::verify() {
  // The same rules as amp_loss_scale_validate_config in the runtime.
  double growth = getGrowthFactor().convertToDouble();
  double backoff = getBackoffFactor().convertToDouble();
  float minScale = getMinScale().convertToFloat();
  std::optional<float> maxScale;
  if (getMaxScaleAttr())
    maxScale = getMaxScaleAttr().getValue().convertToFloat();
  if (!(growth > 1.0) || std::isinf(growth))
    return emitOpError("growth_factor must be finite and > 1, got ")
           << fmtNumber(growth);
  if (!(backoff > 0.0 && backoff < 1.0))
    return emitOpError("backoff_factor must be in (0, 1), got ")
           << fmtNumber(backoff);
  if (getGrowthInterval() < 1)
    return emitOpError("growth_interval must be >= 1, got ")
           << getGrowthInterval();
  if (!(minScale >= 0.0f) || std::isinf(minScale))
    return emitOpError("min_scale must be finite and >= 0, got ")
           << fmtNumber(minScale);
  if (maxScale && !(*maxScale > 0.0f && *maxScale >= minScale))
    return emitOpError("max_scale must be > 0 and >= min_scale (")
           << fmtNumber(minScale) << "), got " << fmtNumber(*maxScale);
  if (getHysteresis() < 1)
    return emitOpError("hysteresis must be >= 1, got ") << getHysteresis();
  bool hasTracker = static_cast<bool>(getHysteresisTracker());
  if ((getHysteresis() > 1) != hasTracker)
    return emitOpError(hasTracker
                           ? "has a hysteresis tracker but hysteresis = 1"
                           : "hysteresis > 1 requires a hysteresis tracker");
  if (hasTracker != static_cast<bool>(getNewHysteresisTracker()))
    return emitOpError("hysteresis tracker operand and result must come "
                       "together");
  return success();
}

LogicalResult SkipStepIfOp::verify() {
  if (getKeep().getTypes() != getResultTypes()) {
    std::string keep, results;
    llvm::raw_string_ostream keepOs(keep), resultsOs(results);
    llvm::interleaveComma(getKeep().getTypes(), keepOs);
    llvm::interleaveComma(getResultTypes(), resultsOs);
    return emitOpError("keep operands (")
           << keep << ") must have the result types (" << results << ")";
  }
  return AMPDialect::verifyYieldingBody(*this);
}
