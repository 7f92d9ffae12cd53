//===- SyntheticData.cpp - generated datasets -----------------------------===//

#include "amp/Runner/Dataset.h"

#include <algorithm>

using namespace amp::runner;

Dataset amp::runner::makeSyntheticDataset(int64_t batch, int64_t features,
                                          std::mt19937_64 &rng) {
  int64_t classes = 10, rows = std::max<int64_t>(batch * 20, 1000);
  std::normal_distribution<float> normal;
  std::vector<float> teacher(features * classes);
  for (float &t : teacher)
    t = normal(rng);
  Dataset d;
  d.features = features;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<float> score(classes, 0.0f);
    for (int64_t f = 0; f < features; ++f) {
      float v = normal(rng);
      d.x.push_back(v);
      for (int64_t c = 0; c < classes; ++c)
        score[c] += v * teacher[f * classes + c];
    }
    d.y.push_back(std::max_element(score.begin(), score.end()) - score.begin());
  }
  return d;
}

Dataset amp::runner::makeTokenSequences(int64_t batch, int64_t length,
                                        int64_t vocab, std::mt19937_64 &rng) {
  // Rows of a deterministic sequence, so there is something to learn.
  int64_t rows = std::max<int64_t>(batch * 20, 256);
  std::uniform_int_distribution<int64_t> start(0, vocab - 1);
  Dataset d;
  d.features = length;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t t = start(rng);
    for (int64_t f = 0; f <= length; ++f) {
      if (f < length)
        d.x.push_back(static_cast<float>(t));
      int64_t next = (5 * t + 3) % vocab;
      if (f < length)
        d.tokenLabels.push_back(next);
      t = next;
    }
    d.y.push_back(0);
  }
  return d;
}
