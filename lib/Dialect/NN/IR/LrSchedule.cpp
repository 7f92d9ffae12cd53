//===- LrSchedule.cpp - a learning-rate schedule's parameters -------------===//
//
// The range checks of nn.lr_schedule's parameters (the verifier's and
// nn-autodiff's options').
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/NN/IR/LrSchedule.h"

#include "amp_runtime/kernels.h"

#include "llvm/ADT/Twine.h"

#include <cmath>

using namespace amp::nn;

std::string LrSchedule::check(
    llvm::function_ref<std::string(llvm::StringRef)> spell) const {
  std::string kindName = stringifyLrScheduleKind(kind).str();
  bool polynomial = kind == LrScheduleKind::Polynomial;
  bool decays = kind == LrScheduleKind::Linear ||
                kind == LrScheduleKind::Cosine || polynomial;
  bool steps = kind == LrScheduleKind::Step;
  bool multistep = kind == LrScheduleKind::Multistep;
  bool powers = steps || multistep || kind == LrScheduleKind::Exponential;
  // A parameter the kind does not use, or one it needs.
  auto presence = [&](bool given, bool used, llvm::StringRef name,
                      llvm::StringRef users) -> std::string {
    if (given && !used)
      return (llvm::Twine(spell(name)) + " applies to " + users +
              " schedules only, not " + kindName)
          .str();
    if (!given && used)
      return (llvm::Twine(kindName) + " schedules need " + spell(name)).str();
    return "";
  };
  for (std::string error :
       {presence(totalSteps.has_value(), decays, "total_steps",
                 "linear, cosine and polynomial"),
        presence(stepSize.has_value(), steps, "step_size", "step"),
        presence(gamma.has_value(), powers, "gamma",
                 "step, exponential and multistep"),
        presence(milestones.has_value(), multistep, "milestones", "multistep")})
    if (!error.empty())
      return error;
  // Optional parameters (defaults: final_factor 0, power 1).
  if (finalFactor && !decays)
    return spell("final_factor") +
           " applies to linear, cosine and polynomial schedules only, not " +
           kindName;
  if (power && !polynomial)
    return spell("power") + " applies to polynomial schedules only, not " +
           kindName;

  auto unit = [](double v) { return v >= 0.0 && v <= 1.0; };
  if (warmupSteps < 0)
    return spell("warmup_steps") + " must be >= 0, got " +
           std::to_string(warmupSteps);
  if (!unit(warmupStartFactor))
    return spell("warmup_start_factor") + " must be in [0, 1]";
  if (totalSteps && *totalSteps <= warmupSteps)
    return spell("total_steps") + " must be greater than " +
           spell("warmup_steps") + " (" + std::to_string(warmupSteps) +
           "), got " + std::to_string(*totalSteps);
  if (finalFactor && !unit(*finalFactor))
    return spell("final_factor") + " must be in [0, 1]";
  if (stepSize && *stepSize < 1)
    return spell("step_size") + " must be >= 1, got " +
           std::to_string(*stepSize);
  if (gamma && !(*gamma > 0.0 && std::isfinite(*gamma)))
    return spell("gamma") + " must be positive and finite";
  if (power && !(*power > 0.0 && std::isfinite(*power)))
    return spell("power") + " must be positive and finite";
  if (milestones) {
    if (milestones->empty() ||
        milestones->size() > AMP_LR_SCHEDULE_MAX_MILESTONES)
      return spell("milestones") + " must hold 1 to " +
             std::to_string(AMP_LR_SCHEDULE_MAX_MILESTONES) + " steps, got " +
             std::to_string(milestones->size());
    for (size_t i = 0; i < milestones->size(); ++i)
      if ((*milestones)[i] < 0 ||
          (i > 0 && (*milestones)[i] <= (*milestones)[i - 1]))
        return spell("milestones") + " must be increasing steps >= 0, got " +
               std::to_string((*milestones)[i]) +
               (i == 0 ? "" : " after " + std::to_string((*milestones)[i - 1]));
  }
  return "";
}
