//===- TrainingLog.cpp - the per-step CSV log -----------------------------===//

#include "amp/Runner/TrainingLog.h"
#include "amp/Runner/Text.h"

#include <cerrno>
#include <cstring>

using namespace amp::runner;

Status TrainingLog::open(const std::string &path, bool lr, bool gradNorm) {
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file)
    return Status::error("cannot write '" + path +
                         "': " + std::strerror(errno));
  withLr = lr;
  withGradNorm = gradNorm;
  file << "step,loss,scale,found_inf,growth_tracker";
  if (withLr)
    file << ",lr";
  if (withGradNorm)
    file << ",grad_norm";
  file << "\n";
  return Status::success();
}

void TrainingLog::write(const StepReport &r) {
  auto exact = [](float v) { return formatString("%.9g", v); };
  file << r.step << "," << exact(r.loss) << "," << exact(r.scale) << ","
       << int(r.foundInf) << "," << r.growthTracker;
  if (withLr)
    file << "," << exact(r.lr.value_or(NAN));
  if (withGradNorm)
    file << "," << exact(r.gradNorm.value_or(NAN));
  file << "\n";
}
