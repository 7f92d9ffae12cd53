//===- TrainingLog.h - the per-step CSV log of --log ------------*- C++ -*-===//
//
// One line per step: step,loss,scale,found_inf,growth_tracker, with floats
// printed with 9 significant digits so that they round-trip exactly (logs of
// two runs compare bitwise).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TRAININGLOG_H
#define AMP_RUNNER_TRAININGLOG_H

#include "amp/Runner/Status.h"

#include <cstdint>
#include <fstream>
#include <string>

namespace amp::runner {

class TrainingLog {
public:
  /// Creates `path` and writes the header line.
  Status open(const std::string &path);
  bool isOpen() const { return file.is_open(); }
  void write(int step, float loss, float scale, int8_t foundInf,
             int32_t growthTracker);

private:
  std::ofstream file;
};

} // namespace amp::runner

#endif // AMP_RUNNER_TRAININGLOG_H
