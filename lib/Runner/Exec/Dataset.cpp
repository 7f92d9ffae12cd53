//===- Dataset.cpp - the held-out split, label checks, fingerprint --------===//

#include "amp/Runner/Dataset.h"

#include "amp/Runner/Text.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace amp::runner;

int64_t DataOptions::labelsPerRow() const {
  if (!labels)
    return 0;
  int64_t n = 1;
  for (int64_t d : labelShape)
    n *= d;
  return n;
}

Status DataOptions::checkLabel(int64_t label, const std::string &where) const {
  if (classes <= 0 || (label >= 0 && label < classes) || label == ignoreIndex)
    return Status::success();
  return Status::error(
      where + "label " + std::to_string(label) +
      " is outside the model's classes [0, " + std::to_string(classes) + ")" +
      (ignoreIndex
           ? " and is not its ignore_index " + std::to_string(*ignoreIndex)
           : std::string()));
}

Status DataOptions::checkTarget(double target, const std::string &where) const {
  if (std::isfinite(target) && std::isfinite(static_cast<float>(target)))
    return Status::success();
  return Status::error(where + "target " + formatString("%g", target) +
                       " is not a finite f32");
}

uint64_t Dataset::fingerprint() const {
  uint64_t hash = 0xcbf29ce484222325ull;
  auto add = [&](const void *data, size_t size) {
    const auto *p = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < size; ++i)
      hash = (hash ^ p[i]) * 0x100000001b3ull;
  };
  add(&features, sizeof features);
  add(&labelsPerRow, sizeof labelsPerRow);
  add(x.data(), x.size() * sizeof(float));
  add(y.data(), y.size() * sizeof(int64_t));
  add(targets.data(), targets.size() * sizeof(float));
  return hash;
}

DatasetSplit amp::runner::splitDataset(int64_t rows, double evalFraction,
                                       std::mt19937_64 *rng) {
  std::vector<int64_t> order(rows);
  std::iota(order.begin(), order.end(), 0);
  int64_t evalRows = static_cast<int64_t>(rows * evalFraction);
  DatasetSplit split;
  if (!rng) {
    split.train.assign(order.begin(), order.end() - evalRows);
    split.eval.assign(order.end() - evalRows, order.end());
    return split;
  }
  std::shuffle(order.begin(), order.end(), *rng);
  split.eval.assign(order.begin(), order.begin() + evalRows);
  split.train.assign(order.begin() + evalRows, order.end());
  return split;
}
