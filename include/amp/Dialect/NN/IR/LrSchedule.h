//===- LrSchedule.h - a learning-rate schedule's parameters -----*- C++ -*-===//
//
// The parameters of nn.lr_schedule as one value: what the op's attributes
// hold, what nn-autodiff's lr-schedule options build, and the one check of
// their ranges both report (in the spelling of the caller's names). The
// factor itself is computed by the runtime (amp_lr_schedule) and, in f64,
// by the reference interpreter (lib/Reference/OptimizerOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_IR_LRSCHEDULE_H
#define AMP_DIALECT_NN_IR_LRSCHEDULE_H

#include "amp/Dialect/NN/IR/NNDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amp::nn {

/// nn.lr_schedule's kind and parameters (unset: not given).
struct LrSchedule {
  LrScheduleKind kind = LrScheduleKind::Constant;
  int64_t warmupSteps = 0;
  double warmupStartFactor = 0.0;
  std::optional<int64_t> totalSteps;
  std::optional<double> finalFactor;
  std::optional<int64_t> stepSize;
  std::optional<double> gamma;
  std::optional<double> power;
  std::optional<std::vector<int64_t>> milestones;

  /// The first parameter out of range or given to a kind that does not use
  /// it (or missing where the kind needs it), as a message naming the
  /// parameters with `spell` (it receives the attribute name, such as
  /// "total_steps"); empty when the schedule is valid.
  std::string
  check(llvm::function_ref<std::string(llvm::StringRef)> spell) const;
};

} // namespace amp::nn

#endif // AMP_DIALECT_NN_IR_LRSCHEDULE_H
