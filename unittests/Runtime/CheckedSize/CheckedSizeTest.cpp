//===- CheckedSizeTest.cpp - size arithmetic that cannot wrap -------------===//
//
// amp_runtime/checked_size.h at the int64 limits: every result that does not
// fit is nullopt (or false), never a wrapped number, and zero-size shapes
// are representable only when their strides are.
//
//===----------------------------------------------------------------------===//

#include "amp_runtime/checked_size.h"

#include "gtest/gtest.h"

#include <vector>

using namespace amp::checked;

namespace {
constexpr int64_t kMax = kInt64Max;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

std::optional<int64_t> count(const std::vector<int64_t> &dims,
                             int64_t limit = kMax) {
  return elementCount(dims.data(), dims.size(), limit);
}

std::optional<int64_t> bytes(const std::vector<int64_t> &dims,
                             int64_t elementBytes, int64_t limit = kMax) {
  return byteSize(dims.data(), dims.size(), elementBytes, limit);
}
} // namespace

TEST(CheckedSizeTest, AddMulAndMulAdd) {
  EXPECT_EQ(add(kMax - 1, 1), kMax);
  EXPECT_EQ(add(kMax, 1), std::nullopt);
  EXPECT_EQ(add(kMin, -1), std::nullopt);
  EXPECT_EQ(mul(int64_t{1} << 31, int64_t{1} << 31), int64_t{1} << 62);
  EXPECT_EQ(mul(int64_t{1} << 32, int64_t{1} << 31), std::nullopt);
  EXPECT_EQ(mul(kMin, -1), std::nullopt);
  EXPECT_EQ(mul(0, kMax), 0);
  EXPECT_EQ(mulAdd(3, 4, 5), 17);
  EXPECT_EQ(mulAdd(kMax, 1, 1), std::nullopt);
  EXPECT_EQ(mulAdd(kMax, 2, -kMax), std::nullopt); // the product overflows
}

TEST(CheckedSizeTest, ElementCount) {
  EXPECT_EQ(count({}), 1);
  EXPECT_EQ(count({4, 4}), 16);
  EXPECT_EQ(count({kMax}), kMax);
  // The reshape of issue #11: 4611686018427387908 * 4 wraps to 16.
  EXPECT_EQ(count({4611686018427387908, 4}), std::nullopt);
  EXPECT_EQ(count({int64_t{1} << 32, int64_t{1} << 31}), std::nullopt);
  EXPECT_EQ(count({-1, 4}), std::nullopt);
  EXPECT_EQ(count({4, kMin}), std::nullopt); // MLIR's dynamic size
  EXPECT_EQ(count({16}, /*limit=*/16), 16);
  EXPECT_EQ(count({17}, /*limit=*/16), std::nullopt);
}

TEST(CheckedSizeTest, ZeroSizeShapes) {
  EXPECT_EQ(count({0}), 0);
  EXPECT_EQ(count({3, 0, 2}), 0);
  EXPECT_EQ(count({0, kMax}), 0);
  // 0 elements, but its strides (2^62 * 2^62) do not fit: not representable,
  // whichever order the dims come in.
  EXPECT_EQ(count({0, int64_t{1} << 62, int64_t{1} << 62}), std::nullopt);
  EXPECT_EQ(count({int64_t{1} << 62, int64_t{1} << 62, 0}), std::nullopt);
  EXPECT_EQ(nonZeroExtent(std::vector<int64_t>{3, 0, 2}.data(), 3), 6);
  EXPECT_EQ(bytes({0, 5}, 4), 0);
  EXPECT_EQ(bytes({0, kMax}, 4), std::nullopt);
}

TEST(CheckedSizeTest, ByteSize) {
  EXPECT_EQ(bytes({}, 4), 4);
  EXPECT_EQ(bytes({32, 10}, 2), 640);
  EXPECT_EQ(bytes({kMax / 8}, 8), kMax / 8 * 8);
  EXPECT_EQ(bytes({kMax / 8 + 1}, 8), std::nullopt);
  // The count fits int64 but its bytes do not.
  EXPECT_EQ(bytes({int64_t{1} << 62}, 2), std::nullopt);
  EXPECT_EQ(bytes({int64_t{1} << 61}, 4), std::nullopt);
  EXPECT_EQ(bytes({4}, 0), std::nullopt);
  EXPECT_EQ(bytes({4}, -4), std::nullopt);
  EXPECT_EQ(bytes({16}, 4, /*limit=*/64), 64);
  EXPECT_EQ(bytes({17}, 4, /*limit=*/64), std::nullopt);
}

TEST(CheckedSizeTest, RowMajorStrides) {
  std::vector<int64_t> dims = {2, 3, 4}, strides(3);
  ASSERT_TRUE(rowMajorStrides(dims.data(), 3, strides.data()));
  EXPECT_EQ(strides, (std::vector<int64_t>{12, 4, 1}));
  dims = {2, 0, 4};
  ASSERT_TRUE(rowMajorStrides(dims.data(), 3, strides.data()));
  EXPECT_EQ(strides, (std::vector<int64_t>{0, 4, 1}));
  // Only the product of all dims overflows: every stride still fits.
  dims = {4, int64_t{1} << 62};
  strides.resize(2);
  ASSERT_TRUE(rowMajorStrides(dims.data(), 2, strides.data()));
  EXPECT_EQ(strides, (std::vector<int64_t>{int64_t{1} << 62, 1}));
  dims = {2, 4, int64_t{1} << 62};
  strides.resize(3);
  EXPECT_FALSE(rowMajorStrides(dims.data(), 3, strides.data()));
  dims = {2, -1, 2};
  EXPECT_FALSE(rowMajorStrides(dims.data(), 3, strides.data()));
}

TEST(CheckedSizeTest, RowCount) {
  EXPECT_EQ(rowCount(320, 10), 32);
  EXPECT_EQ(rowCount(0, 10), 0);
  // Zero classes: no rows only when there are no elements; never a division.
  EXPECT_EQ(rowCount(0, 0), 0);
  EXPECT_EQ(rowCount(5, 0), std::nullopt);
  EXPECT_EQ(rowCount(7, 2), std::nullopt);
  EXPECT_EQ(rowCount(4, -2), std::nullopt);
}

TEST(CheckedSizeTest, WindowExtent) {
  // 28 + 1 + 1 padded, a 3-wide kernel, stride 2: (30 - 3) / 2 + 1.
  WindowExtent e = windowExtent(28, 1, 1, 3, 2, 1);
  EXPECT_EQ(e.padded, 30);
  EXPECT_EQ(e.window, 3);
  EXPECT_EQ(e.output, 14);
  // Dilation 2 makes the 3-wide kernel 5 wide.
  EXPECT_EQ(windowExtent(5, 0, 0, 3, 1, 2).output, 1);
  EXPECT_EQ(windowExtent(4, 0, 0, 3, 1, 2).output, std::nullopt);
  // A zero-size input with enough padding still has an output.
  EXPECT_EQ(windowExtent(0, 1, 1, 2, 1, 1).output, 1);
  EXPECT_EQ(windowExtent(0, 0, 0, 1, 1, 1).output, std::nullopt);

  WindowExtent paddedOverflow = windowExtent(kMax - 1, 1, 1, 1, 1, 1);
  EXPECT_EQ(paddedOverflow.padded, std::nullopt);
  EXPECT_EQ(paddedOverflow.output, std::nullopt);
  WindowExtent windowOverflow = windowExtent(8, 0, 0, kMax, 1, 2);
  EXPECT_EQ(windowOverflow.window, std::nullopt);
  EXPECT_EQ(windowOverflow.output, std::nullopt);
  // The largest padded extent still works.
  EXPECT_EQ(windowExtent(kMax - 2, 1, 1, 1, kMax, 1).output, 1);

  // Arguments outside their domain give no output (and do not divide by 0).
  EXPECT_EQ(windowExtent(8, 0, 0, 3, 0, 1).output, std::nullopt);
  EXPECT_EQ(windowExtent(8, 0, 0, 0, 1, 1).output, std::nullopt);
  EXPECT_EQ(windowExtent(8, 0, 0, 3, 1, 0).output, std::nullopt);
  EXPECT_EQ(windowExtent(8, -1, 0, 3, 1, 1).output, std::nullopt);
  EXPECT_EQ(windowExtent(-8, 0, 0, 3, 1, 1).output, std::nullopt);
}
