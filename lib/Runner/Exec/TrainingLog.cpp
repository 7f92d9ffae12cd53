//===- TrainingLog.cpp - the per-step CSV log -----------------------------===//

#include "amp/Runner/TrainingLog.h"
#include "amp/Runner/Text.h"

#include <cerrno>
#include <cstring>

using namespace amp::runner;

Status TrainingLog::open(const std::string &path) {
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file)
    return Status::error("cannot write '" + path +
                         "': " + std::strerror(errno));
  file << "step,loss,scale,found_inf,growth_tracker\n";
  return Status::success();
}

void TrainingLog::write(int step, float loss, float scale, int8_t foundInf,
                        int32_t growthTracker) {
  file << step << "," << formatString("%.9g", loss) << ","
       << formatString("%.9g", scale) << "," << int(foundInf) << ","
       << growthTracker << "\n";
}
