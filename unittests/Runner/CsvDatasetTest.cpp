//===- CsvDatasetTest.cpp - the CSV loader and its errors -----------------===//

#include "RunnerTestUtil.h"

#include "amp/Runner/Dataset.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
std::string csvError(const std::string &contents,
                     const DataOptions &options = {}) {
  std::string path = tempPath("data.csv");
  writeFile(path, contents);
  StatusOr<Dataset> d = readCsvDataset(path, options);
  std::string message = d.failed() ? d.getStatus().message() : "(read)";
  // Name the file "P" so that the expectations read easily.
  for (size_t at; (at = message.find(path)) != std::string::npos;)
    message.replace(at, path.size(), "P");
  return message;
}
} // namespace

TEST(CsvDatasetTest, Reads) {
  std::string path = tempPath("data.csv");
  writeFile(path, "1,2,0\n 3 , 4 ,1\r\n\n5,-6e1,7\n16,inf,-2");
  DataOptions options;
  options.featureScale = 0.5f;
  options.allowNonfinite = true;
  StatusOr<Dataset> d = readCsvDataset(path, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->features, 2);
  EXPECT_EQ(d->rows(), 4);
  EXPECT_EQ(d->x,
            (std::vector<float>{0.5f, 1, 1.5f, 2, 2.5f, -30, 8, INFINITY}));
  EXPECT_EQ(d->y, (std::vector<int64_t>{0, 1, 7, -2}));
  EXPECT_EQ(d->labelsPerRow, 1);
}

// A step without a label: every value of a row is an input's.
TEST(CsvDatasetTest, RowsWithoutLabels) {
  std::string path = tempPath("data.csv");
  writeFile(path, "1,2,0\n3,4,1\n");
  DataOptions options;
  options.labels = false;
  StatusOr<Dataset> d = readCsvDataset(path, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->features, 3);
  EXPECT_EQ(d->labelsPerRow, 0);
  EXPECT_EQ(d->rows(), 2);
  EXPECT_EQ(d->x, (std::vector<float>{1, 2, 0, 3, 4, 1}));
  EXPECT_TRUE(d->y.empty());
  EXPECT_EQ(csvError("1,2\n3\n", options), "P:2: 1 features, but the first "
                                           "row has 2");
  EXPECT_EQ(csvError("\n", options), "dataset 'P' is empty");
}

TEST(CsvDatasetTest, Errors) {
  EXPECT_EQ(csvError("a,1\n"), "P:1: 'a' is not a number");
  EXPECT_EQ(csvError("1e,1\n"), "P:1: '1e' is not a number");
  EXPECT_EQ(csvError("1,,1\n"), "P:1: '' is not a number");
  EXPECT_EQ(csvError("1,2,0\n1,0\n"),
            "P:2: 1 features, but the first row has 2");
  // Line numbers count the blank lines too.
  EXPECT_EQ(csvError("1,2,0\n\n1,x,0\n"), "P:3: 'x' is not a number");
  EXPECT_EQ(csvError("1,2,x\n"), "P:1: label 'x' is not an integer");
  EXPECT_EQ(csvError("1,2,1.5\n"), "P:1: label '1.5' is not an integer");
  EXPECT_EQ(csvError("1,2,+1\n"), "P:1: label '+1' is not an integer");
  EXPECT_EQ(csvError("1,2,99999999999999999999\n"),
            "P:1: label '99999999999999999999' is not an integer");
  EXPECT_EQ(csvError("1.5\n"), "P:1: expected features and a label");
  EXPECT_EQ(csvError("   \n"), "P:1: expected features and a label");
  EXPECT_EQ(csvError(""), "dataset 'P' is empty");
  EXPECT_EQ(csvError("\n\n"), "dataset 'P' is empty");

  std::string missing = tempPath("missing.csv");
  StatusOr<Dataset> d = readCsvDataset(missing, {});
  ASSERT_TRUE(d.failed());
  EXPECT_EQ(d.getStatus().message(),
            "cannot read dataset '" + missing + "': No such file or directory");
}

TEST(CsvDatasetTest, LabelsAreCheckedAgainstTheClassesInEveryRow) {
  DataOptions three;
  three.classes = 3;
  EXPECT_EQ(csvError("1,0\n1,2\n", three), "(read)");
  EXPECT_EQ(csvError("1,0\n1,2\n1,3\n", three),
            "P:3: label 3 is outside the model's classes [0, 3)");
  EXPECT_EQ(csvError("1,-1\n", three),
            "P:1: label -1 is outside the model's classes [0, 3)");
  // classes = 0: the model's class count is unknown, nothing is checked.
  EXPECT_EQ(csvError("1,7\n"), "(read)");
}

TEST(CsvDatasetTest, NonFiniteFeaturesAreErrorsUnlessAllowed) {
  EXPECT_EQ(csvError("1,nan,0\n"),
            "P:1: feature 1 ('nan') is not finite; pass --allow-nonfinite to "
            "keep non-finite features");
  EXPECT_EQ(csvError("1,2,0\n-inf,2,0\n"),
            "P:2: feature 0 ('-inf') is not finite; pass --allow-nonfinite to "
            "keep non-finite features");
  // Finite in the file, but not as an f32 after scaling.
  EXPECT_EQ(csvError("1e39,0\n"),
            "P:1: feature 0 ('1e39') is not finite as a scaled f32; pass "
            "--allow-nonfinite to keep non-finite features");
  DataOptions scaled;
  scaled.featureScale = 1e30f;
  EXPECT_EQ(csvError("1e30,0\n", scaled),
            "P:1: feature 0 ('1e30') is not finite as a scaled f32; pass "
            "--allow-nonfinite to keep non-finite features");
  DataOptions allowed;
  allowed.allowNonfinite = true;
  EXPECT_EQ(csvError("nan,inf,0\n", allowed), "(read)");
}

TEST(CsvDatasetTest, SyntheticDataIsBoundedBeforeAllocation) {
  std::mt19937_64 rng(1);
  StatusOr<Dataset> huge =
      makeSyntheticDataset(/*batch=*/int64_t{1} << 40, /*features=*/64,
                           /*classes=*/10, rng);
  ASSERT_TRUE(huge.failed());
  EXPECT_EQ(huge.getStatus().message(),
            "synthetic data for batches of 1099511627776 x 64 values needs "
            "max(20 batches, 1000) rows, more than the 2^28 values it may "
            "generate; pass --data or use a smaller batch");
  // 20 * batch overflows int64.
  EXPECT_TRUE(makeSyntheticDataset(int64_t{1} << 62, 1, 10, rng).failed());
  EXPECT_TRUE(makeTokenSequences(int64_t{1} << 30, 8, 11, rng).failed());
  StatusOr<Dataset> small = makeSyntheticDataset(2, 3, /*classes=*/2, rng);
  ASSERT_FALSE(small.failed());
  EXPECT_EQ(small->rows(), 1000);
  for (int64_t label : small->y)
    EXPECT_TRUE(label == 0 || label == 1);
}

TEST(CsvDatasetTest, SplitHoldsOutAFraction) {
  std::mt19937_64 rng(5);
  DatasetSplit split = splitDataset(10, 0.25, &rng);
  EXPECT_EQ(split.eval.size(), 2u);
  EXPECT_EQ(split.train.size(), 8u);
  std::vector<int64_t> all = split.eval;
  all.insert(all.end(), split.train.begin(), split.train.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  // Without shuffling: the file's order, the last rows held out.
  DatasetSplit ordered = splitDataset(10, 0.25, nullptr);
  EXPECT_EQ(ordered.train, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(ordered.eval, (std::vector<int64_t>{8, 9}));
}

TEST(CsvDatasetTest, TokenSequencesFollowTheRecurrence) {
  std::mt19937_64 rng(1);
  StatusOr<Dataset> sequences =
      makeTokenSequences(/*batch=*/2, /*length=*/5, /*vocab=*/11, rng);
  ASSERT_FALSE(sequences.failed());
  const Dataset &d = *sequences;
  EXPECT_EQ(d.rows(), 256);
  EXPECT_EQ(d.features, 5);
  EXPECT_EQ(d.labelsPerRow, 5);
  for (int64_t r = 0; r < d.rows(); ++r)
    for (int64_t t = 0; t < 5; ++t) {
      int64_t x = static_cast<int64_t>(d.x[r * 5 + t]);
      EXPECT_EQ(d.y[r * 5 + t], (5 * x + 3) % 11);
      if (t + 1 < 5) {
        EXPECT_EQ(d.x[r * 5 + t + 1], d.y[r * 5 + t]);
      }
    }
}

// A label per position: each row ends in the labels' product of columns.
TEST(CsvDatasetTest, LabelsPerPosition) {
  std::string path = tempPath("data.csv");
  writeFile(path, "1,2,3,2,3,4\n4,5,6,5,6,0\n");
  DataOptions options;
  options.labelShape = {3};
  options.classes = 7;
  StatusOr<Dataset> d = readCsvDataset(path, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->features, 3);
  EXPECT_EQ(d->labelsPerRow, 3);
  EXPECT_EQ(d->rows(), 2);
  EXPECT_EQ(d->y, (std::vector<int64_t>{2, 3, 4, 5, 6, 0}));
  EXPECT_EQ(csvError("1,2,3\n", options),
            "P:1: expected features and 3 labels");
  EXPECT_EQ(csvError("1,2,3,2,3,7\n", options),
            "P:1: label 7 is outside the model's classes [0, 7)");
  EXPECT_EQ(csvError("1,2,3,2,x,1\n", options),
            "P:1: label 'x' is not an integer");
}

// A regression's f32 targets: each row ends in the targets' product of
// columns, read as numbers (not scaled, unlike the features), and finite.
TEST(CsvDatasetTest, Targets) {
  std::string path = tempPath("data.csv");
  writeFile(path, "1,2,0.5,-3\n4,5,1e-3,2.25\n");
  DataOptions options;
  options.labelShape = {2};
  options.targets = true;
  options.featureScale = 2.0f;
  StatusOr<Dataset> d = readCsvDataset(path, options);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  EXPECT_EQ(d->features, 2);
  EXPECT_EQ(d->rows(), 2);
  EXPECT_TRUE(d->y.empty());
  EXPECT_EQ(d->targets, (std::vector<float>{0.5f, -3, 1e-3f, 2.25f}));
  EXPECT_EQ(d->x, (std::vector<float>{2, 4, 8, 10}));
  EXPECT_EQ(csvError("1,2,0.5,x\n", options),
            "P:1: target 'x' is not a number");
  EXPECT_EQ(csvError("1,2,0.5,nan\n", options),
            "P:1: target nan is not a finite f32");
  EXPECT_EQ(csvError("1,2,0.5,1e39\n", options),
            "P:1: target 1e+39 is not a finite f32");
  // The targets take part in the fingerprint a checkpoint records.
  Dataset other = *d;
  other.targets[3] = 2.5f;
  EXPECT_NE(d->fingerprint(), other.fingerprint());
}

TEST(CsvDatasetTest, SyntheticRegressionFollowsALinearTeacher) {
  std::mt19937_64 rng(3);
  StatusOr<Dataset> d = makeSyntheticRegression(/*batch=*/4, /*features=*/3,
                                                /*targets=*/2,
                                                /*binary=*/false, rng);
  ASSERT_FALSE(d.failed()) << d.getStatus().message();
  ASSERT_EQ(d->rows(), 1000);
  EXPECT_EQ(d->labelsPerRow, 2);
  EXPECT_TRUE(d->y.empty());
  // The targets are a linear function of the features: a least-squares
  // fit over every row, W (3 x 2) from the normal equations X^T X W =
  // X^T Y, leaves no residual but rounding.
  double residual = 0, total = 0;
  double xtx[3][3] = {}, xty[3][2] = {};
  for (int64_t r = 0; r < d->rows(); ++r)
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j)
        xtx[i][j] += double(d->x[r * 3 + i]) * d->x[r * 3 + j];
      for (int t = 0; t < 2; ++t)
        xty[i][t] += double(d->x[r * 3 + i]) * d->targets[r * 2 + t];
    }
  // Gaussian elimination on the 3 x 3 system, both right-hand sides.
  for (int i = 0; i < 3; ++i)
    for (int k = i + 1; k < 3; ++k) {
      double f = xtx[k][i] / xtx[i][i];
      for (int j = 0; j < 3; ++j)
        xtx[k][j] -= f * xtx[i][j];
      for (int t = 0; t < 2; ++t)
        xty[k][t] -= f * xty[i][t];
    }
  double w[3][2];
  for (int i = 2; i >= 0; --i)
    for (int t = 0; t < 2; ++t) {
      double v = xty[i][t];
      for (int j = i + 1; j < 3; ++j)
        v -= xtx[i][j] * w[j][t];
      w[i][t] = v / xtx[i][i];
    }
  for (int64_t r = 0; r < d->rows(); ++r)
    for (int t = 0; t < 2; ++t) {
      double fit = 0;
      for (int i = 0; i < 3; ++i)
        fit += w[i][t] * d->x[r * 3 + i];
      double y = d->targets[r * 2 + t];
      residual += (y - fit) * (y - fit);
      total += y * y;
    }
  EXPECT_GT(total, 0.0);
  EXPECT_LT(residual, 1e-9 * total);
  EXPECT_TRUE(
      makeSyntheticRegression(int64_t{1} << 40, 64, 1, false, rng).failed());

  // Binary: the same teacher's signs, as 1 and 0 (the same rows and
  // teacher from the same seed).
  std::mt19937_64 again(3);
  StatusOr<Dataset> b =
      makeSyntheticRegression(4, 3, 2, /*binary=*/true, again);
  ASSERT_FALSE(b.failed()) << b.getStatus().message();
  ASSERT_EQ(b->targets.size(), d->targets.size());
  EXPECT_EQ(b->x, d->x);
  int64_t ones = 0;
  for (size_t i = 0; i < b->targets.size(); ++i) {
    EXPECT_EQ(b->targets[i], d->targets[i] > 0 ? 1.0f : 0.0f) << i;
    ones += b->targets[i] == 1.0f;
  }
  EXPECT_GT(ones, 0);
  EXPECT_LT(ones, int64_t(b->targets.size()));
}
