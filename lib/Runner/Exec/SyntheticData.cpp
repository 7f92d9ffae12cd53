//===- SyntheticData.cpp - generated datasets -----------------------------===//

#include "amp/Runner/Dataset.h"

#include "amp_runtime/checked_size.h"

#include <algorithm>
#include <cmath>

using namespace amp;
using namespace amp::runner;

/// max(20 batches, minRows) rows of `values` values each, or an error when
/// they exceed kMaxSyntheticValues.
static StatusOr<int64_t> syntheticRows(int64_t batch, int64_t values,
                                       int64_t minRows) {
  std::optional<int64_t> rows = checked::mul(batch, 20);
  std::optional<int64_t> total =
      rows ? checked::mul(std::max(*rows, minRows), values) : std::nullopt;
  if (!total || *total > kMaxSyntheticValues)
    return Status::error(
        "synthetic data for batches of " + std::to_string(batch) + " x " +
        std::to_string(values) + " values needs max(20 batches, " +
        std::to_string(minRows) + ") rows, more than the 2^28 values it may "
        "generate; pass --data or use a smaller batch");
  return std::max(*rows, minRows);
}

/// max(20 batches, 1000) rows of `features` standard normal values and the
/// `outputs` outputs of a random linear teacher (standard normal weights
/// times `scale`, drawn first) for each; `label(d, outputs)` labels a row.
template <typename Label>
static StatusOr<Dataset> teacherRows(int64_t batch, int64_t features,
                                     int64_t outputs, float scale,
                                     std::mt19937_64 &rng, Label label) {
  StatusOr<int64_t> rowCount = syntheticRows(batch, features, 1000);
  if (rowCount.failed())
    return rowCount.takeStatus();
  const int64_t rows = *rowCount;
  std::normal_distribution<float> normal;
  std::vector<float> teacher(features * outputs);
  for (float &t : teacher)
    t = normal(rng) * scale;
  Dataset d;
  d.features = features;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<float> out(outputs, 0.0f);
    for (int64_t f = 0; f < features; ++f) {
      float v = normal(rng);
      d.x.push_back(v);
      for (int64_t c = 0; c < outputs; ++c)
        out[c] += v * teacher[f * outputs + c];
    }
    label(d, out);
  }
  return d;
}

StatusOr<Dataset> amp::runner::makeSyntheticDataset(int64_t batch,
                                                    int64_t features,
                                                    int64_t classes,
                                                    std::mt19937_64 &rng) {
  return teacherRows(batch, features, classes, 1.0f, rng,
                     [](Dataset &d, const std::vector<float> &score) {
                       d.y.push_back(
                           std::max_element(score.begin(), score.end()) -
                           score.begin());
                     });
}

StatusOr<Dataset> amp::runner::makeSyntheticRegression(int64_t batch,
                                                       int64_t features,
                                                       int64_t targets,
                                                       bool binary,
                                                       std::mt19937_64 &rng) {
  StatusOr<Dataset> d = teacherRows(
      batch, features, targets, 1.0f / std::sqrt(static_cast<float>(features)),
      rng, [binary](Dataset &data, const std::vector<float> &out) {
        for (float v : out)
          data.targets.push_back(binary ? float(v > 0.0f) : v);
      });
  if (!d.failed())
    d->labelsPerRow = targets;
  return d;
}

StatusOr<Dataset> amp::runner::makeTokenSequences(int64_t batch,
                                                  int64_t length, int64_t vocab,
                                                  std::mt19937_64 &rng) {
  // Rows of a deterministic sequence, so there is something to learn.
  StatusOr<int64_t> rowCount = syntheticRows(batch, length, 256);
  if (rowCount.failed())
    return rowCount.takeStatus();
  int64_t rows = *rowCount;
  std::uniform_int_distribution<int64_t> start(0, vocab - 1);
  Dataset d;
  d.features = length;
  d.labelsPerRow = length;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t t = start(rng);
    for (int64_t f = 0; f < length; ++f) {
      d.x.push_back(static_cast<float>(t));
      t = (5 * t + 3) % vocab;
      d.y.push_back(t);
    }
  }
  return d;
}
