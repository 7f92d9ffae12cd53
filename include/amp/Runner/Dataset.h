//===- Dataset.h - the data a runner trains on ------------------*- C++ -*-===//
//
// A dataset is a table of rows; a batch is `batch` rows. A row holds every
// input's values (flattened, in argument order), then its labels: one class,
// or one per position, or the f32 targets of a regression, or none (a step
// without labels: a self-supervised loss). Its loaders:
//   - CSV files (CsvDataset.cpp): the values' columns, then the labels;
//   - NumPy .npz archives (NpzDataset.cpp): an array per input, named like
//     it, and the labels;
//   - synthetic data (SyntheticData.cpp): Gaussian features labelled by a
//     random linear teacher (its argmax, or its outputs as targets), and
//     token sequences x[t+1] = (5 x[t] + 3) mod V for token models.
// The draws from the runner's RNG are part of its reproducibility contract.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_DATASET_H
#define AMP_RUNNER_DATASET_H

#include "amp/Runner/Status.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace amp::runner {

struct Dataset {
  /// Values per row: features, or tokens per sequence.
  int64_t features = 0;
  /// Labels per row: 1 (a class), or one per position (a language model's
  /// next tokens, a token classifier's tags), or 0 (no labels).
  int64_t labelsPerRow = 1;
  /// rows x features values (token ids, exactly, for token models).
  std::vector<float> x;
  /// rows x labelsPerRow labels.
  std::vector<int64_t> y;
  /// rows x labelsPerRow f32 targets instead, when the labels are a
  /// regression's or a multi-label classifier's (an f32 label argument
  /// read by an elementwise loss); y is then empty.
  std::vector<float> targets;

  bool hasTargets() const { return !targets.empty(); }
  int64_t rows() const {
    if (labelsPerRow == 0)
      return features > 0 ? static_cast<int64_t>(x.size()) / features : 0;
    return static_cast<int64_t>(hasTargets() ? targets.size() : y.size()) /
           labelsPerRow;
  }
  /// A 64-bit FNV-1a hash of the shape, values and labels: a checkpoint
  /// records it, so that a run resumes only on the data it was saved on.
  uint64_t fingerprint() const;
};

/// How readCsvDataset and readNpzDataset read and check a file. Every
/// check runs on every row at load time, so a bad row fails before
/// training, whichever split it falls in.
struct DataOptions {
  /// Multiplies every feature.
  float featureScale = 1.0f;
  /// When > 0, every label must be in [0, classes): the model's classes.
  int64_t classes = 0;
  /// The shape of a row's labels: empty for one class per row, [seq] for a
  /// label per position (a CSV row then ends in their product of labels).
  std::vector<int64_t> labelShape;
  /// A label that is padding, no class (the model's ignore_index).
  std::optional<int64_t> ignoreIndex;
  /// Whether rows have labels at all: a step without a label argument (a
  /// self-supervised loss) reads only the inputs' values.
  bool labels = true;
  /// The product of labelShape: the labels per row (0 without labels).
  int64_t labelsPerRow() const;
  /// Fails unless `label` is one of the classes (any, without them) or the
  /// ignoreIndex; the message begins with `where`.
  Status checkLabel(int64_t label, const std::string &where) const;
  /// Keep features that are NaN or infinite (after scaling) instead of
  /// failing on them.
  bool allowNonfinite = false;
  /// The labels are f32 targets (Dataset::targets): any finite number,
  /// not scaled; else integer classes (Dataset::y).
  bool targets = false;
  /// Fails unless `target` is finite; the message begins with `where`.
  Status checkTarget(double target, const std::string &where) const;
};

/// Reads a CSV file of `features..., label` rows (`features..., labels...`
/// with a labelShape; every row the same width, empty lines skipped); errors
/// name the file and line.
StatusOr<Dataset> readCsvDataset(const std::string &path,
                                 const DataOptions &options);

/// The same for the contents of a file; `path` names it in errors.
StatusOr<Dataset> parseCsvDataset(std::string_view text,
                                  const std::string &path,
                                  const DataOptions &options);

/// One input of a model, as readNpzDataset feeds it.
struct DataInput {
  /// The array that feeds it, and for messages the input ("input argument
  /// #1 (mask)").
  std::string array, what;
  /// The input's shape after the batch: each array is [rows, rowShape...].
  std::vector<int64_t> rowShape;
  /// Ids or a mask (integer or bool arrays) rather than features (float
  /// arrays).
  bool integer = false;
};

/// Reads a NumPy .npz archive (amp/Runner/NpzFile.h) into rows of every
/// input's values in order, then the label: the array `inputs[k].array`
/// feeds input k, and the first of `labelArrays` that the archive holds,
/// a [rows, labelShape...] integer array, the labels (or any numeric array,
/// the targets, with DataOptions::targets; none without
/// DataOptions::labels). Other arrays are ignored.
/// The checks are readCsvDataset's, and --feature-scale multiplies the float
/// arrays.
StatusOr<Dataset> readNpzDataset(const std::string &path,
                                 const std::vector<DataInput> &inputs,
                                 const std::vector<std::string> &labelArrays,
                                 const DataOptions &options);

/// The most values (rows x features) a synthetic dataset may have: its size
/// is checked against this before anything is allocated.
constexpr int64_t kMaxSyntheticValues = int64_t{1} << 28;

/// max(20 batches, 1000) rows of `features` standard normal values, each
/// labelled with the argmax of a random linear teacher over `classes`
/// classes; an error when the rows would hold more than kMaxSyntheticValues.
StatusOr<Dataset> makeSyntheticDataset(int64_t batch, int64_t features,
                                       int64_t classes, std::mt19937_64 &rng);

/// The same rows, each with `targets` f32 targets: the outputs of a random
/// linear teacher, W x / sqrt(features) with standard normal W (a
/// regression), or with `binary`, 1 where that output is positive and 0
/// elsewhere (multi-label classification); the same bound.
StatusOr<Dataset> makeSyntheticRegression(int64_t batch, int64_t features,
                                          int64_t targets, bool binary,
                                          std::mt19937_64 &rng);

/// max(20 batches, 256) sequences of `length` tokens of x[t+1] =
/// (5 x[t] + 3) mod vocab from random starts, labelled with the next token;
/// the same bound.
StatusOr<Dataset> makeTokenSequences(int64_t batch, int64_t length,
                                     int64_t vocab, std::mt19937_64 &rng);

/// The rows held out for evaluation (evalFraction of them) and the rest for
/// training.
struct DatasetSplit {
  std::vector<int64_t> train;
  std::vector<int64_t> eval;
};
/// With `rng`, the rows in a random order; without (no shuffling), the
/// last rows are held out and the rest train in file order.
DatasetSplit splitDataset(int64_t rows, double evalFraction,
                          std::mt19937_64 *rng);

} // namespace amp::runner

#endif // AMP_RUNNER_DATASET_H
