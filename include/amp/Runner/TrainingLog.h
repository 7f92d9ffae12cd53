//===- TrainingLog.h - the per-step CSV log of --log ------------*- C++ -*-===//
//
// One line per step: step,loss,scale,found_inf,growth_tracker, then lr and
// grad_norm when the step returns them (nn-autodiff's with an lr-schedule and
// with clip-norm), with floats printed with 9 significant digits so that they
// round-trip exactly (logs of two runs compare bitwise).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TRAININGLOG_H
#define AMP_RUNNER_TRAININGLOG_H

#include "amp/Runner/Status.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace amp::runner {

/// What a step reports, read back after it.
struct StepReport {
  int step = 0;
  float loss = 0;
  /// The loss scale after the step (NaN without loss scaling).
  float scale = NAN;
  int8_t foundInf = 0;
  int32_t growthTracker = 0;
  /// The step's learning rate and gradient norm, when it returns them.
  std::optional<float> lr, gradNorm;
};

class TrainingLog {
public:
  /// Creates `path` and writes the header line, with the lr and grad_norm
  /// columns when the step reports them.
  Status open(const std::string &path, bool withLr, bool withGradNorm);
  bool isOpen() const { return file.is_open(); }
  void write(const StepReport &report);

private:
  std::ofstream file;
  bool withLr = false, withGradNorm = false;
};

} // namespace amp::runner

#endif // AMP_RUNNER_TRAININGLOG_H
