//===- LossTest.cpp - Embedding and cross-entropy kernels -----------------===//
//
// amp_embedding (exact gather), amp_embedding_grad (scatter-add, against an
// f64 scatter), amp_cross_entropy and amp_cross_entropy_grad (against f64
// log-softmax), with i32 and i64 ids/labels, and the range checks, which
// must leave the outputs untouched; amp_elementwise_loss and
// amp_elementwise_loss_grad (MSE, L1, Huber, BCE with logits) against f64
// and finite differences.
//
// Tolerances: embedding_grad: (k + 1) u sum|dy| over the k rows that hit
// one table row. cross_entropy with C classes, R = the row's max |x - max|:
// each row's term l = log s - (x_l - m) is within (C + R + 4) u (1 + |l|),
// and the mean adds (rows + 1) u mean|l|. cross_entropy_grad: |coef| ((2R +
// C + 6) u p + u|p - onehot|) + u|r| with coef = g / rows. All doubled.
// elementwise_loss over n terms: (n + 8) u sum|term parts| / n + u|r|,
// doubled (each term a few roundings; BCE's expf and log1pf a few ulps);
// the gradient: 8u|r|, BCE's plus 8u (sigmoid + t) |g| / n, for the
// subtraction. Finite differences of the quadratic and linear pieces are
// exact but for the f32 rounding of the loss: 1e-5.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace amp::test;

namespace {

Tensor randomIds(amp_dtype_t dtype, const Shape &shape, int64_t bound,
                 std::mt19937 &rng) {
  Tensor t(dtype, shape);
  std::uniform_int_distribution<int64_t> dist(0, bound - 1);
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, static_cast<double>(dist(rng)));
  return t;
}

class EmbeddingTest
    : public ::testing::TestWithParam<std::tuple<int, amp_dtype_t>> {};

TEST_P(EmbeddingTest, GatherIsExactAndScatterAddMatchesF64) {
  const auto [dyDtype, tableDtype] =
      accumulatorPairs()[std::get<0>(GetParam())];
  const amp_dtype_t idsDtype = std::get<1>(GetParam());
  const int64_t v = 17, d = 5;
  const Shape idsShape = {3, 7}; // ids may have any shape: n_ids = 21
  std::mt19937 rng(51);
  Tensor table = randomTensor(dyDtype, {v, d}, rng);
  Tensor ids = randomIds(idsDtype, idsShape, v, rng);
  ids.set(0, 0);
  ids.set(1, v - 1);
  ids.set(2, 0); // repeated
  const int64_t n = ids.size();
  Tensor out = sentinelTensor(dyDtype, {3, 7, d});
  ASSERT_TRUE(isOk(amp_embedding(table.data(), ids.data(), out.data(), v, d, n,
                                 dyDtype, idsDtype, nullptr)));
  std::vector<double> ref;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < d; ++k)
      ref.push_back(table.get(static_cast<int64_t>(ids.get(i)) * d + k));
  EXPECT_TRUE(allEqual(out, ref, "embedding"));

  Tensor dy = randomTensor(dyDtype, {3, 7, d}, rng);
  std::vector<double> count(v);
  for (int64_t i = 0; i < n; ++i)
    count[static_cast<int64_t>(ids.get(i))] += 1;
  // Without a padding row, and with row 0 (named twice) as the padding row,
  // which must come out +0 exactly; with and without the division by each
  // id's count (scale_grad_by_freq).
  for (int64_t padding : {int64_t{AMP_IGNORE_NONE}, int64_t{0}})
    for (int32_t scale : {0, 1}) {
      SCOPED_TRACE("padding_idx " + std::to_string(padding) +
                   ", scale_grad_by_freq " + std::to_string(scale));
      Tensor dtable = sentinelTensor(tableDtype, {v, d});
      ASSERT_TRUE(isOk(amp_embedding_grad(dy.data(), ids.data(), dtable.data(),
                                          v, d, n, padding, scale, dyDtype,
                                          idsDtype, tableDtype, nullptr)));
      std::vector<double> sum(v * d), abs(v * d), tol;
      std::vector<int> hits(v * d);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t id = static_cast<int64_t>(ids.get(i));
        if (id == padding)
          continue;
        const double by = scale ? count[id] : 1.0;
        for (int64_t k = 0; k < d; ++k) {
          int64_t o = id * d + k;
          sum[o] += dy.get(i * d + k) / by;
          abs[o] += std::fabs(dy.get(i * d + k) / by);
          ++hits[o];
        }
      }
      for (int64_t o = 0; o < v * d; ++o)
        tol.push_back(outTol(tableDtype, sum[o], (hits[o] + 1) * kU * abs[o]));
      EXPECT_TRUE(allClose(dtable, sum, tol, "embedding_grad"));
      if (padding == 0) {
        for (int64_t k = 0; k < d; ++k)
          EXPECT_EQ(dtable.bits(k), 0u) << "padding row, column " << k;
      }
    }
}

std::string embeddingCaseName(int pair, amp_dtype_t ids) {
  auto [dy, table] = accumulatorPairs()[pair];
  return std::string(dtypeName(dy)) + "_to_" + dtypeName(table) + "_" +
         dtypeName(ids);
}

INSTANTIATE_TEST_SUITE_P(Cases, EmbeddingTest,
                         ::testing::Combine(::testing::Range(0, 5),
                                            ::testing::Values(AMP_DTYPE_I32,
                                                              AMP_DTYPE_I64)),
                         [](const auto &info) {
                           return embeddingCaseName(std::get<0>(info.param),
                                                    std::get<1>(info.param));
                         });

// An integer table (ONNX's Gather of ids) gathers its rows bit for bit,
// values past 2^53 included; a boolean table is not supported.
TEST(Embedding, IntegerTablesGatherExactly) {
  const int64_t v = 3, d = 2;
  Tensor ids(AMP_DTYPE_I32, {4});
  for (int64_t i = 0; i < 4; ++i)
    ids.set(i, double((i * 2 + 1) % v)); // 1, 0, 2, 1
  for (amp_dtype_t dtype : {AMP_DTYPE_I32, AMP_DTYPE_I64}) {
    SCOPED_TRACE(dtypeName(dtype));
    Tensor table(dtype, {v, d});
    const uint64_t wide = dtype == AMP_DTYPE_I64 ? (uint64_t(1) << 62) : 0;
    for (int64_t k = 0; k < v * d; ++k)
      table.setBits(k, wide + uint64_t(k) * 0x01010101u);
    Tensor out = sentinelTensor(dtype, {4, d});
    ASSERT_TRUE(isOk(amp_embedding(table.data(), ids.data(), out.data(), v, d,
                                   4, dtype, AMP_DTYPE_I32, nullptr)));
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t k = 0; k < d; ++k)
        EXPECT_EQ(out.bits(i * d + k), table.bits(int64_t(ids.get(i)) * d + k));
  }
  Tensor mask(AMP_DTYPE_BOOL, {v, d}), out(AMP_DTYPE_BOOL, {4, d});
  EXPECT_TRUE(
      failsWith(amp_embedding(mask.data(), ids.data(), out.data(), v, d, 4,
                              AMP_DTYPE_BOOL, AMP_DTYPE_I32, nullptr),
                AMP_STATUS_NOT_SUPPORTED, "dtype is bool"));
}

TEST(Embedding, OutOfRangeIdsAreErrorsAndWriteNothing) {
  const int64_t v = 4, d = 3;
  Tensor table(AMP_DTYPE_F32, {v, d});
  for (int64_t bad : {int64_t{4}, int64_t{-1}, int64_t{1} << 40}) {
    Tensor ids(AMP_DTYPE_I64, {3});
    ids.set(0, 1);
    ids.set(1, 2);
    ids.setBits(2, static_cast<uint64_t>(bad));
    Tensor out = sentinelTensor(AMP_DTYPE_F32, {3, d});
    const Tensor before = out;
    EXPECT_TRUE(
        failsWith(amp_embedding(table.data(), ids.data(), out.data(), v, d, 3,
                                AMP_DTYPE_F32, AMP_DTYPE_I64, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT, "outside [0, 4)"));
    EXPECT_TRUE(out.sameBits(before));
    Tensor dtable = sentinelTensor(AMP_DTYPE_F32, {v, d});
    const Tensor tableBefore = dtable;
    EXPECT_TRUE(
        failsWith(amp_embedding_grad(out.data(), ids.data(), dtable.data(), v,
                                     d, 3, AMP_IGNORE_NONE, 0, AMP_DTYPE_F32,
                                     AMP_DTYPE_I64, AMP_DTYPE_F32, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT, "position 2"));
    EXPECT_TRUE(dtable.sameBits(tableBefore));
  }
  // A padding_idx that is no row of the table.
  for (int64_t padding : {int64_t{-1}, v}) {
    Tensor ids(AMP_DTYPE_I64, {3}), dy(AMP_DTYPE_F32, {3, d});
    Tensor dtable = sentinelTensor(AMP_DTYPE_F32, {v, d});
    const Tensor tableBefore = dtable;
    EXPECT_TRUE(
        failsWith(amp_embedding_grad(dy.data(), ids.data(), dtable.data(), v, d,
                                     3, padding, 0, AMP_DTYPE_F32,
                                     AMP_DTYPE_I64, AMP_DTYPE_F32, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT,
                  "padding_idx " + std::to_string(padding) +
                      " is not a row of the 4-row table"));
    EXPECT_TRUE(dtable.sameBits(tableBefore));
  }
  Tensor ids32(AMP_DTYPE_I32, {1});
  ids32.set(0, -7);
  Tensor out(AMP_DTYPE_F32, {1, d});
  EXPECT_TRUE(
      failsWith(amp_embedding(table.data(), ids32.data(), out.data(), v, d, 1,
                              AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "id -7"));
  EXPECT_TRUE(
      failsWith(amp_embedding(table.data(), ids32.data(), out.data(), v, d, 1,
                              AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_NOT_SUPPORTED, "ids_dtype is f32"));
}

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

class CrossEntropyTest
    : public ::testing::TestWithParam<std::tuple<amp_dtype_t, amp_dtype_t>> {};

TEST_P(CrossEntropyTest, LossAndGradMatchF64) {
  const amp_dtype_t dtype = std::get<0>(GetParam());
  const amp_dtype_t labelsDtype = std::get<1>(GetParam());
  const int64_t rows = 13, classes = 10;
  std::mt19937 rng(61);
  Tensor logits = randomTensor(dtype, {rows, classes}, rng, -6, 6);
  for (int64_t c = 0; c < classes; ++c) // a row that needs the max shift
    logits.set(2 * classes + c, 30 + c);
  Tensor labels = randomIds(labelsDtype, {rows}, classes, rng);
  float loss = -1.0f;
  ASSERT_TRUE(isOk(amp_cross_entropy(logits.data(), labels.data(), &loss, rows,
                                     classes, AMP_IGNORE_NONE, 0.0f, dtype,
                                     labelsDtype, nullptr)));
  double total = 0, totalAbs = 0, rowTol = 0;
  std::vector<double> m(rows), s(rows), spread(rows);
  for (int64_t r = 0; r < rows; ++r) {
    m[r] = -INFINITY;
    for (int64_t c = 0; c < classes; ++c)
      m[r] = std::max(m[r], logits.get(r * classes + c));
    for (int64_t c = 0; c < classes; ++c) {
      s[r] += std::exp(logits.get(r * classes + c) - m[r]);
      spread[r] = std::max(spread[r], m[r] - logits.get(r * classes + c));
    }
    int64_t l = static_cast<int64_t>(labels.get(r));
    double term = std::log(s[r]) - (logits.get(r * classes + l) - m[r]);
    total += term;
    totalAbs += std::fabs(term);
    rowTol += (classes + spread[r] + 4) * kU * (1 + std::fabs(term));
  }
  const double expected = total / rows;
  EXPECT_NEAR(loss, expected,
              2 * (rowTol / rows + (rows + 1) * kU * totalAbs / rows));

  for (double gradLoss : {1.0, 65536.0, 0.375}) {
    const amp_dtype_t gDtype =
        gradLoss == 0.375 ? AMP_DTYPE_BF16 : AMP_DTYPE_F32;
    Tensor g(gDtype, {});
    g.set(0, gradLoss);
    Tensor dlogits = sentinelTensor(dtype, {rows, classes});
    ASSERT_TRUE(isOk(amp_cross_entropy_grad(
        g.data(), logits.data(), labels.data(), dlogits.data(), rows, classes,
        AMP_IGNORE_NONE, 0.0f, gDtype, dtype, labelsDtype, nullptr)));
    const double coef = gradLoss / rows;
    std::vector<double> ref, tol;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < classes; ++c) {
        double p = std::exp(logits.get(r * classes + c) - m[r]) / s[r];
        double onehot = c == static_cast<int64_t>(labels.get(r)) ? 1.0 : 0.0;
        double v = coef * (p - onehot);
        ref.push_back(v);
        tol.push_back(outTol(
            dtype, v,
            2 * (std::fabs(coef) * ((2 * spread[r] + classes + 6) * kU * p +
                                    kU * std::fabs(p - onehot)) +
                 kU * std::fabs(v))));
      }
    EXPECT_TRUE(allClose(dlogits, ref, tol,
                         "cross_entropy_grad g=" + std::to_string(gradLoss)));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Dtypes, CrossEntropyTest,
    ::testing::Combine(::testing::Values(AMP_DTYPE_F32, AMP_DTYPE_F16,
                                         AMP_DTYPE_BF16),
                       ::testing::Values(AMP_DTYPE_I32, AMP_DTYPE_I64)),
    [](const auto &info) {
      return std::string(dtypeName(std::get<0>(info.param))) + "_" +
             dtypeName(std::get<1>(info.param));
    });

TEST(CrossEntropy, UniformLogitsGiveLogC) {
  // Every row uniform: the loss is log(C) exactly up to f32 rounding of log.
  Tensor logits(AMP_DTYPE_F16, {4, 8});
  for (int64_t i = 0; i < logits.size(); ++i)
    logits.set(i, 2.5);
  Tensor labels(AMP_DTYPE_I32, {4});
  for (int64_t r = 0; r < 4; ++r)
    labels.set(r, r);
  float loss;
  ASSERT_TRUE(isOk(amp_cross_entropy(logits.data(), labels.data(), &loss, 4, 8,
                                     AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F16,
                                     AMP_DTYPE_I32, nullptr)));
  EXPECT_EQ(loss, std::log(8.0f));
}

TEST(CrossEntropy, OutOfRangeLabelsAreErrorsAndWriteNothing) {
  Tensor logits(AMP_DTYPE_F32, {2, 3});
  Tensor labels(AMP_DTYPE_I32, {2});
  labels.set(0, 1);
  labels.set(1, 3);
  float loss = 42.0f;
  EXPECT_TRUE(
      failsWith(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 3,
                                  AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                                  AMP_DTYPE_I32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "label 3 at position 1"));
  EXPECT_EQ(loss, 42.0f);
  labels.set(1, -1);
  Tensor g(AMP_DTYPE_F32, {});
  Tensor d = sentinelTensor(AMP_DTYPE_F32, {2, 3});
  const Tensor before = d;
  EXPECT_TRUE(failsWith(
      amp_cross_entropy_grad(g.data(), logits.data(), labels.data(), d.data(),
                             2, 3, AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                             AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "label -1"));
  EXPECT_TRUE(d.sameBits(before));
  EXPECT_TRUE(
      failsWith(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 0,
                                  AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                                  AMP_DTYPE_I32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "classes"));
  // The ignore_index is no error, but any other label out of range is.
  labels.set(1, -100);
  EXPECT_TRUE(
      isOk(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 3, -100,
                             0.0f, AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr)));
  EXPECT_TRUE(
      failsWith(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 3, -1,
                                  0.0f, AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "label -100 at position 1"));
  // AMP_IGNORE_NONE ignores nothing, not even a label equal to it.
  Tensor wide(AMP_DTYPE_I64, {2});
  wide.setBits(1, uint64_t{1} << 63); // INT64_MIN
  EXPECT_TRUE(
      failsWith(amp_cross_entropy(logits.data(), wide.data(), &loss, 2, 3,
                                  AMP_IGNORE_NONE, 0.0f, AMP_DTYPE_F32,
                                  AMP_DTYPE_I64, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "at position 1"));
}

// Rows whose label is the ignore_index are left out: the loss and the kept
// rows' gradients are bitwise those of the kept rows alone (the same sum in
// the same order, divided by their count), and ignored rows get zeros.
TEST(CrossEntropy, IgnoredRowsAreLeftOut) {
  const int64_t rows = 9, classes = 5;
  std::mt19937 rng(7);
  for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16}) {
    Tensor logits = randomTensor(dtype, {rows, classes}, rng, -4, 4);
    Tensor labels = randomIds(AMP_DTYPE_I64, {rows}, classes, rng);
    std::vector<int64_t> kept;
    for (int64_t r : {1, 4, 5, 8})
      labels.set(r, 3); // ignore_index 3, a class too
    for (int64_t r = 0; r < rows; ++r)
      if (labels.get(r) != 3)
        kept.push_back(r);
    const int64_t n = kept.size();
    Tensor keptLogits(dtype, {n, classes}), keptLabels(AMP_DTYPE_I64, {n});
    for (int64_t k = 0; k < n; ++k) {
      keptLabels.set(k, labels.get(kept[k]));
      for (int64_t c = 0; c < classes; ++c)
        keptLogits.set(k * classes + c, logits.get(kept[k] * classes + c));
    }
    float loss = 0, keptLoss = 1;
    ASSERT_TRUE(isOk(amp_cross_entropy(logits.data(), labels.data(), &loss,
                                       rows, classes, 3, 0.0f, dtype,
                                       AMP_DTYPE_I64, nullptr)));
    ASSERT_TRUE(isOk(amp_cross_entropy(keptLogits.data(), keptLabels.data(),
                                       &keptLoss, n, classes, AMP_IGNORE_NONE,
                                       0.0f, dtype, AMP_DTYPE_I64, nullptr)));
    EXPECT_EQ(loss, keptLoss);

    Tensor g(AMP_DTYPE_F32, {});
    g.set(0, 1024.0);
    Tensor d = sentinelTensor(dtype, {rows, classes});
    Tensor keptD = sentinelTensor(dtype, {n, classes});
    ASSERT_TRUE(isOk(amp_cross_entropy_grad(
        g.data(), logits.data(), labels.data(), d.data(), rows, classes, 3,
        0.0f, AMP_DTYPE_F32, dtype, AMP_DTYPE_I64, nullptr)));
    ASSERT_TRUE(isOk(
        amp_cross_entropy_grad(g.data(), keptLogits.data(), keptLabels.data(),
                               keptD.data(), n, classes, AMP_IGNORE_NONE, 0.0f,
                               AMP_DTYPE_F32, dtype, AMP_DTYPE_I64, nullptr)));
    for (int64_t r = 0, k = 0; r < rows; ++r)
      for (int64_t c = 0; c < classes; ++c) {
        const bool ignored = labels.get(r) == 3;
        EXPECT_EQ(d.get(r * classes + c),
                  ignored ? 0.0 : keptD.get(k * classes + c))
            << "row " << r << " class " << c;
        k += !ignored && c + 1 == classes;
      }
  }
  // Every row ignored: 0 / 0, as PyTorch's mean.
  Tensor logits(AMP_DTYPE_F32, {2, 3});
  Tensor labels(AMP_DTYPE_I32, {2});
  labels.set(0, -100);
  labels.set(1, -100);
  float loss = 0;
  ASSERT_TRUE(
      isOk(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 3, -100,
                             0.0f, AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr)));
  EXPECT_TRUE(std::isnan(loss));
}

// Label smoothing e (PyTorch's CrossEntropyLoss(label_smoothing=e)): the
// loss is the mean over the kept rows of (1 - e) * -log p[label] + (e / C)
// * sum_c -log p[c], the gradient (g / kept) * (p - (1 - e) onehot - e / C),
// both against f64; ignored rows are left out as without smoothing.
TEST(CrossEntropy, LabelSmoothingMatchesF64) {
  const int64_t rows = 11, classes = 7;
  std::mt19937 rng(19);
  for (amp_dtype_t dtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16})
    for (float e : {0.1f, 0.35f, 1.0f}) {
      Tensor logits = randomTensor(dtype, {rows, classes}, rng, -5, 5);
      Tensor labels = randomIds(AMP_DTYPE_I32, {rows}, classes, rng);
      labels.set(4, -100);
      labels.set(9, -100);
      float loss = -1.0f;
      ASSERT_TRUE(isOk(amp_cross_entropy(logits.data(), labels.data(), &loss,
                                         rows, classes, -100, e, dtype,
                                         AMP_DTYPE_I32, nullptr)));
      Tensor g(AMP_DTYPE_F32, {});
      g.set(0, 512.0);
      Tensor d = sentinelTensor(dtype, {rows, classes});
      ASSERT_TRUE(isOk(amp_cross_entropy_grad(
          g.data(), logits.data(), labels.data(), d.data(), rows, classes, -100,
          e, AMP_DTYPE_F32, dtype, AMP_DTYPE_I32, nullptr)));
      const double kept = rows - 2, coef = 512.0 / kept;
      double total = 0;
      std::vector<double> ref, tol;
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t label = static_cast<int64_t>(labels.get(r));
        double m = -INFINITY, s = 0;
        for (int64_t c = 0; c < classes; ++c)
          m = std::max(m, logits.get(r * classes + c));
        for (int64_t c = 0; c < classes; ++c)
          s += std::exp(logits.get(r * classes + c) - m);
        double smooth = 0;
        for (int64_t c = 0; c < classes; ++c) {
          const double x = logits.get(r * classes + c);
          smooth += std::log(s) - (x - m);
          const double target =
              (c == label ? 1.0 - e : 0.0) + double(e) / classes;
          const double v =
              label == -100 ? 0.0 : coef * (std::exp(x - m) / s - target);
          ref.push_back(v);
          tol.push_back(outTol(dtype, v, (2 * 10 + classes + 8) * kU * coef));
        }
        if (label != -100)
          total += (1.0 - e) *
                       (std::log(s) - (logits.get(r * classes + label) - m)) +
                   double(e) / classes * smooth;
      }
      const std::string what = std::string(dtypeName(dtype)) +
                               " label_smoothing " + std::to_string(e);
      EXPECT_NEAR(loss, total / kept, 64 * kU * (1 + total / kept)) << what;
      EXPECT_TRUE(allClose(d, ref, tol, what));
    }
}

TEST(CrossEntropy, LabelSmoothingOutsideZeroOneIsAnError) {
  Tensor logits(AMP_DTYPE_F32, {2, 3});
  Tensor labels(AMP_DTYPE_I32, {2});
  Tensor g(AMP_DTYPE_F32, {});
  for (float e : {-0.25f, 1.5f, std::nanf("")}) {
    float loss = 42.0f;
    EXPECT_TRUE(
        failsWith(amp_cross_entropy(logits.data(), labels.data(), &loss, 2, 3,
                                    AMP_IGNORE_NONE, e, AMP_DTYPE_F32,
                                    AMP_DTYPE_I32, nullptr),
                  AMP_STATUS_INVALID_ARGUMENT, "label_smoothing"));
    EXPECT_EQ(loss, 42.0f);
    Tensor d = sentinelTensor(AMP_DTYPE_F32, {2, 3});
    const Tensor before = d;
    EXPECT_TRUE(failsWith(
        amp_cross_entropy_grad(g.data(), logits.data(), labels.data(), d.data(),
                               2, 3, AMP_IGNORE_NONE, e, AMP_DTYPE_F32,
                               AMP_DTYPE_F32, AMP_DTYPE_I32, nullptr),
        AMP_STATUS_INVALID_ARGUMENT, "label_smoothing"));
    EXPECT_TRUE(d.sameBits(before));
  }
}

//===----------------------------------------------------------------------===//
// Elementwise losses
//===----------------------------------------------------------------------===//

constexpr double kDelta = 0.5; // Huber's

/// loss(p, t) of one element in f64; *magnitude is the sum of the
/// magnitudes of its parts (what the f32 roundings scale with).
double lossTerm(amp_elementwise_loss_t op, double p, double t,
                double *magnitude) {
  const double d = p - t, z = std::fabs(d);
  switch (op) {
  case AMP_LOSS_MSE:
    return *magnitude = d * d;
  case AMP_LOSS_L1:
    return *magnitude = z;
  case AMP_LOSS_HUBER:
    return *magnitude = z < kDelta ? 0.5 * d * d : kDelta * (z - 0.5 * kDelta);
  case AMP_LOSS_BCE_WITH_LOGITS: {
    const double soft = std::log1p(std::exp(-std::fabs(p)));
    *magnitude = std::fabs((1 - t) * p) + std::fabs(std::min(p, 0.0)) + soft;
    return (1 - t) * p - (std::min(p, 0.0) - soft);
  }
  }
  return NAN;
}

/// d loss(p, t) / dp.
double lossSlope(amp_elementwise_loss_t op, double p, double t) {
  const double d = p - t;
  switch (op) {
  case AMP_LOSS_MSE:
    return 2 * d;
  case AMP_LOSS_L1:
    return d > 0 ? 1 : d < 0 ? -1 : 0;
  case AMP_LOSS_HUBER:
    return std::clamp(d, -kDelta, kDelta);
  case AMP_LOSS_BCE_WITH_LOGITS:
    return 1 / (1 + std::exp(-p)) - t;
  }
  return NAN;
}

const char *lossName(amp_elementwise_loss_t op) {
  switch (op) {
  case AMP_LOSS_MSE:
    return "mse";
  case AMP_LOSS_L1:
    return "l1";
  case AMP_LOSS_HUBER:
    return "huber";
  case AMP_LOSS_BCE_WITH_LOGITS:
    return "bce";
  }
  return "?";
}

constexpr amp_elementwise_loss_t kLosses[] = {
    AMP_LOSS_MSE, AMP_LOSS_L1, AMP_LOSS_HUBER, AMP_LOSS_BCE_WITH_LOGITS};

/// BCE reads targets as probabilities in [0, 1]; the others any value.
Tensor randomTarget(amp_elementwise_loss_t op, amp_dtype_t dtype, int64_t n,
                    std::mt19937 &rng) {
  return op == AMP_LOSS_BCE_WITH_LOGITS ? randomTensor(dtype, {n}, rng, 0, 1)
                                        : randomTensor(dtype, {n}, rng, -3, 3);
}

class ElementwiseLossTest
    : public ::testing::TestWithParam<
          std::tuple<amp_elementwise_loss_t, amp_dtype_t>> {};

// The mean (divisor n) and the sum (divisor 1).
TEST_P(ElementwiseLossTest, LossAndGradMatchF64) {
  const auto [op, dtype] = GetParam();
  std::mt19937 rng(71);
  for (int64_t n : {1, 7, 1001})
    for (int64_t m : {n, int64_t{1}}) {
      Tensor pred = randomTensor(dtype, {n}, rng, -3, 3);
      Tensor target = randomTarget(op, dtype, n, rng);
      float loss = -1.0f;
      ASSERT_TRUE(
          isOk(amp_elementwise_loss(op, kDelta, pred.data(), target.data(),
                                    &loss, n, m, dtype, nullptr)));
      double sum = 0, magnitudes = 0;
      for (int64_t i = 0; i < n; ++i) {
        double mag = 0;
        sum += lossTerm(op, pred.get(i), target.get(i), &mag);
        magnitudes += mag;
      }
      const double expected = sum / m;
      EXPECT_NEAR(
          loss, expected,
          2 * ((n + 8) * kU * magnitudes / m + kU * std::fabs(expected)))
          << lossName(op) << ", n = " << n << ", divisor " << m;

      // grad_loss in its own dtype, 0-d.
      for (amp_dtype_t gDtype : {AMP_DTYPE_F32, AMP_DTYPE_BF16}) {
        Tensor g(gDtype, {});
        g.set(0, 0.375);
        Tensor dpred = sentinelTensor(dtype, {n});
        ASSERT_TRUE(isOk(amp_elementwise_loss_grad(
            op, kDelta, g.data(), pred.data(), target.data(), dpred.data(), n,
            m, gDtype, dtype, nullptr)));
        std::vector<double> ref, tol;
        for (int64_t i = 0; i < n; ++i) {
          const double p = pred.get(i), t = target.get(i);
          const double r = 0.375 * lossSlope(op, p, t) / m;
          ref.push_back(r);
          // BCE subtracts t from sigmoid(p) (expf, a few ulps): its error
          // scales with sigmoid(p) + t, not with the difference.
          const double parts =
              op == AMP_LOSS_BCE_WITH_LOGITS
                  ? 0.375 * (1 / (1 + std::exp(-p)) + std::fabs(t)) / m
                  : 0.0;
          tol.push_back(outTol(dtype, r, 8 * kU * (std::fabs(r) + parts)));
        }
        EXPECT_TRUE(allClose(dpred, ref, tol, lossName(op)));
        // In place over pred.
        Tensor inPlace = pred;
        ASSERT_TRUE(isOk(amp_elementwise_loss_grad(
            op, kDelta, g.data(), inPlace.data(), target.data(), inPlace.data(),
            n, m, gDtype, dtype, nullptr)));
        EXPECT_TRUE(inPlace.sameBits(dpred));
      }
    }
}

INSTANTIATE_TEST_SUITE_P(LossesAndDtypes, ElementwiseLossTest,
                         ::testing::Combine(::testing::ValuesIn(kLosses),
                                            ::testing::Values(AMP_DTYPE_F32,
                                                              AMP_DTYPE_F16,
                                                              AMP_DTYPE_BF16)),
                         [](const auto &info) {
                           return std::string(
                                      lossName(std::get<0>(info.param))) +
                                  "_" + dtypeName(std::get<1>(info.param));
                         });

class ElementwiseLossGradTest
    : public ::testing::TestWithParam<amp_elementwise_loss_t> {};

// Targets sit 0.1 to 0.4 or 0.6 to 0.9 away from the predictions, so that
// no finite-difference step crosses L1's kink at 0 or Huber's at delta.
TEST_P(ElementwiseLossGradTest, GradMatchesFiniteDifferencesOfTheLoss) {
  const amp_elementwise_loss_t op = GetParam();
  std::mt19937 rng(73);
  const int64_t n = 37;
  Tensor pred = randomTensor(AMP_DTYPE_F32, {n}, rng);
  Tensor target(AMP_DTYPE_F32, {n});
  std::uniform_real_distribution<double> gap(0.1, 0.4);
  for (int64_t i = 0; i < n; ++i) {
    const double away = gap(rng) + (i % 2 ? 0.5 : 0.0);
    if (op == AMP_LOSS_BCE_WITH_LOGITS)
      target.set(i, away);
    else
      target.set(i, pred.get(i) + (i % 3 ? away : -away));
  }
  const double g = 1.5;
  const std::vector<double> fd =
      finiteDifferenceGrad(pred, {g}, 1.0 / 64, [&](const Tensor &in) {
        float loss;
        EXPECT_TRUE(
            isOk(amp_elementwise_loss(op, kDelta, in.data(), target.data(),
                                      &loss, n, n, AMP_DTYPE_F32, nullptr)));
        return std::vector<double>{loss};
      });
  Tensor gl(AMP_DTYPE_F32, {}), dpred(AMP_DTYPE_F32, {n});
  gl.set(0, g);
  ASSERT_TRUE(isOk(amp_elementwise_loss_grad(
      op, kDelta, gl.data(), pred.data(), target.data(), dpred.data(), n, n,
      AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(
      allClose(dpred, fd, std::vector<double>(fd.size(), 1e-5), lossName(op)));
}

INSTANTIATE_TEST_SUITE_P(Losses, ElementwiseLossGradTest,
                         ::testing::ValuesIn(kLosses), [](const auto &info) {
                           return std::string(lossName(info.param));
                         });

TEST(ElementwiseLoss, SpecialValues) {
  // L1's gradient is 0 where p = t; Huber's is clamped at +-delta (times
  // g / n); BCE stays finite at large logits.
  Tensor p(AMP_DTYPE_F32, {4}), t(AMP_DTYPE_F32, {4}), g(AMP_DTYPE_F32, {});
  const double ps[] = {2.0, 5.0, -100.0, 100.0}, ts[] = {2.0, 0.0, 1.0, 0.0};
  for (int64_t i = 0; i < 4; ++i)
    p.set(i, ps[i]), t.set(i, ts[i]);
  g.set(0, 4.0);
  Tensor d(AMP_DTYPE_F32, {4});
  ASSERT_TRUE(isOk(amp_elementwise_loss_grad(
      AMP_LOSS_L1, 0, g.data(), p.data(), t.data(), d.data(), 4, 4,
      AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(d, {0, 1, -1, 1}, "l1 grad"));
  ASSERT_TRUE(isOk(amp_elementwise_loss_grad(
      AMP_LOSS_HUBER, kDelta, g.data(), p.data(), t.data(), d.data(), 4, 4,
      AMP_DTYPE_F32, AMP_DTYPE_F32, nullptr)));
  EXPECT_TRUE(allEqual(d, {0, 0.5, -0.5, 0.5}, "huber grad"));
  // Elements 2 and 3: each loss is 100 (the wrong side, confidently).
  float loss = 0;
  ASSERT_TRUE(isOk(amp_elementwise_loss(
      AMP_LOSS_BCE_WITH_LOGITS, 0, static_cast<const float *>(p.data()) + 2,
      static_cast<const float *>(t.data()) + 2, &loss, 2, 2, AMP_DTYPE_F32,
      nullptr)));
  EXPECT_EQ(loss, 100.0f);
  // Summed (divisor 1): both.
  ASSERT_TRUE(isOk(amp_elementwise_loss(
      AMP_LOSS_BCE_WITH_LOGITS, 0, static_cast<const float *>(p.data()) + 2,
      static_cast<const float *>(t.data()) + 2, &loss, 2, 1, AMP_DTYPE_F32,
      nullptr)));
  EXPECT_EQ(loss, 200.0f);
}

TEST(ElementwiseLoss, EmptyAndErrors) {
  float loss = 0.0f;
  ASSERT_TRUE(isOk(amp_elementwise_loss(AMP_LOSS_MSE, 0, nullptr, nullptr,
                                        &loss, 0, 0, AMP_DTYPE_F16, nullptr)));
  EXPECT_TRUE(std::isnan(loss)) << "0 / 0";
  Tensor g(AMP_DTYPE_F32, {});
  EXPECT_TRUE(isOk(amp_elementwise_loss_grad(
      AMP_LOSS_L1, 0, g.data(), nullptr, nullptr, nullptr, 0, 0, AMP_DTYPE_F32,
      AMP_DTYPE_F16, nullptr)));
  Tensor p(AMP_DTYPE_F32, {3});
  EXPECT_TRUE(failsWith(
      amp_elementwise_loss(AMP_LOSS_MSE, 0, p.data(), p.data(), nullptr, 3, 3,
                           AMP_DTYPE_F32, nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "amp_elementwise_loss: loss is NULL"));
  EXPECT_TRUE(
      failsWith(amp_elementwise_loss(AMP_LOSS_MSE, 0, p.data(), nullptr, &loss,
                                     3, 3, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "target is NULL"));
  EXPECT_TRUE(
      failsWith(amp_elementwise_loss(AMP_LOSS_MSE, 0, p.data(), p.data(), &loss,
                                     -2, 1, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "n (-2)"));
  EXPECT_TRUE(
      failsWith(amp_elementwise_loss(AMP_LOSS_MSE, 0, p.data(), p.data(), &loss,
                                     3, -1, AMP_DTYPE_F32, nullptr),
                AMP_STATUS_INVALID_ARGUMENT, "divisor (-1)"));
  EXPECT_TRUE(failsWith(
      amp_elementwise_loss_grad(AMP_LOSS_MSE, 0, g.data(), p.data(), p.data(),
                                p.data(), 3, 0, AMP_DTYPE_F32, AMP_DTYPE_F32,
                                nullptr),
      AMP_STATUS_INVALID_ARGUMENT, "divisor is 0 for 3 elements"));
  // Unknown kinds: ErrorTest.cpp's UnknownEnumValuesFromC (from C, where
  // such a value is well defined).
  for (float delta : {0.0f, -1.0f, NAN, INFINITY})
    EXPECT_TRUE(failsWith(
        amp_elementwise_loss_grad(AMP_LOSS_HUBER, delta, g.data(), p.data(),
                                  p.data(), p.data(), 3, 3, AMP_DTYPE_F32,
                                  AMP_DTYPE_F32, nullptr),
        AMP_STATUS_INVALID_ARGUMENT, "Huber's delta"))
        << delta;
  EXPECT_TRUE(failsWith(amp_elementwise_loss_grad(AMP_LOSS_MSE, 0, nullptr,
                                                  p.data(), p.data(), p.data(),
                                                  3, 3, AMP_DTYPE_F32,
                                                  AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_INVALID_ARGUMENT,
                        "amp_elementwise_loss_grad: grad_loss is NULL"));
  EXPECT_TRUE(failsWith(amp_elementwise_loss_grad(AMP_LOSS_MSE, 0, g.data(),
                                                  p.data(), p.data(), p.data(),
                                                  3, 3, AMP_DTYPE_I32,
                                                  AMP_DTYPE_F32, nullptr),
                        AMP_STATUS_NOT_SUPPORTED, "grad_loss_dtype is i32"));
}

} // namespace
