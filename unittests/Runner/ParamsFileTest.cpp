//===- ParamsFileTest.cpp - the params file round trip and its errors -----===//

#include "RunnerTestUtil.h"

#include "amp/Runner/ParamsFile.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
std::vector<HostTensor> sampleParams() {
  return {{{2, 3}, {1, -2, 3.5f, 0x1p-140f, -0.0f, 7}},
          {{3}, {8, 9, 10}},
          {{}, {42}}};
}

std::string readError(const std::string &path) {
  StatusOr<std::vector<HostTensor>> params = readParamsFile(path);
  return params.failed() ? params.getStatus().message() : "(read)";
}

/// "AMPPARAM1", then the given int64 fields, then `floats` f32 zeros.
std::string rawFile(std::vector<int64_t> fields, size_t floats = 0) {
  std::string bytes = "AMPPARAM1";
  bytes.append(reinterpret_cast<const char *>(fields.data()),
               8 * fields.size());
  bytes.append(4 * floats, '\0');
  return bytes;
}
} // namespace

TEST(ParamsFileTest, RoundTripIsBitwise) {
  std::string path = tempPath("params");
  std::vector<HostTensor> params = sampleParams();
  ASSERT_TRUE(writeParamsFile(path, params).succeeded());
  EXPECT_EQ(readFile(path).size(),
            9 + 8 + (8 + 16 + 24) + (8 + 8 + 12) + (8 + 4));
  StatusOr<std::vector<HostTensor>> read = readParamsFile(path);
  ASSERT_FALSE(read.failed()) << read.getStatus().message();
  ASSERT_EQ(read->size(), params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    EXPECT_EQ((*read)[i].shape, params[i].shape);
    ASSERT_EQ((*read)[i].values.size(), params[i].values.size());
    EXPECT_EQ(std::memcmp((*read)[i].values.data(), params[i].values.data(),
                          4 * params[i].values.size()),
              0);
  }
}

TEST(ParamsFileTest, Errors) {
  std::string path = tempPath("params");
  EXPECT_EQ(readError(path), "cannot read params file '" + path +
                                 "': No such file or directory");
  writeFile(path, "1,2,3\n");
  EXPECT_EQ(readError(path),
            "'" + path + "' is not a params file from --save-params");
  writeFile(path, "AMPPARAM1");
  EXPECT_EQ(readError(path),
            "'" + path + "' is not a params file from --save-params");

  ASSERT_TRUE(writeParamsFile(path, sampleParams()).succeeded());
  std::string whole = readFile(path);
  writeFile(path, whole.substr(0, whole.size() - 1));
  EXPECT_EQ(readError(path), "'" + path + "' is truncated");
  writeFile(path, whole + "x");
  EXPECT_EQ(readError(path), "'" + path + "' has 1 bytes after its last param");

  writeFile(path, rawFile({1, -1}));
  EXPECT_EQ(readError(path), "'" + path + "' is damaged: param #0 has rank -1");
  writeFile(path, rawFile({1, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(readError(path), "'" + path + "' is damaged: param #0 has rank 9");
  writeFile(path, rawFile({1, 2, 4, -3}));
  EXPECT_EQ(readError(path),
            "'" + path + "' is damaged: param #0 has shape [4, -3]");
  writeFile(path, rawFile({-1}));
  EXPECT_EQ(readError(path), "'" + path + "' is damaged: it claims -1 params");
  writeFile(path, rawFile({int64_t{1} << 40}));
  EXPECT_EQ(readError(path),
            "'" + path + "' is damaged: it claims 1099511627776 params");
  // Dims whose product overflows int64 are caught before any allocation.
  writeFile(path, rawFile({1, 3, int64_t{1} << 40, int64_t{1} << 40, 16}, 4));
  EXPECT_EQ(readError(path), "'" + path + "' is truncated");
  writeFile(path, rawFile({1, 1, 5}, 4));
  EXPECT_EQ(readError(path), "'" + path + "' is truncated");
  writeFile(path, rawFile({1, 2, 0, 5}));
  EXPECT_EQ(readError(path), "(read)");
}

TEST(ParamsFileTest, MustMatchTheModel) {
  FunctionSignature step = linearStepSignature();
  std::vector<int> params = {0, 1};
  std::vector<HostTensor> loaded = {{{2, 2}, {1, 2, 3, 4}}, {{2}, {5, 6}}};
  EXPECT_TRUE(checkParamsMatch(loaded, "p", step, params).succeeded());
  loaded[1].shape = {1, 2};
  EXPECT_EQ(checkParamsMatch(loaded, "p", step, params).message(),
            "param #1 in 'p' has shape [1, 2], but argument #1 of "
            "@linear_step is [2]");
  // A transposed shape with the same element count is another shape.
  loaded[1].shape = {2};
  loaded[0].shape = {2, 2};
  step.args[0].shape = {1, 4};
  EXPECT_EQ(checkParamsMatch(loaded, "p", step, params).message(),
            "param #0 in 'p' has shape [2, 2], but argument #0 of "
            "@linear_step is [1, 4]");
  step = linearStepSignature();
  // With source names (amp::parseFileNamingArguments), messages use them.
  step.args[1].name = "%b";
  loaded.pop_back();
  EXPECT_EQ(checkParamsMatch(loaded, "p", step, params).message(),
            "'p' holds 1 params, but @linear_step takes 2 (the first missing "
            "is param #1 (%b))");
  loaded.push_back({{3}, {1, 2, 3}});
  EXPECT_EQ(checkParamsMatch(loaded, "p", step, params).message(),
            "param #1 (%b) in 'p' has shape [3], but argument #1 of "
            "@linear_step is [2]");
  loaded.push_back({{2}, {1, 2}});
  EXPECT_EQ(checkParamsMatch(loaded, "p", step, params).message(),
            "'p' holds 3 params, but @linear_step takes 2");
}

// A params file holds the params, then the buffers (running statistics),
// each in argument order; buffers are named by their own count.
TEST(ParamsFileTest, BuffersFollowTheParams) {
  FunctionSignature fn;
  fn.name = "step";
  fn.args = {tensor(Role::Buffer, {3}), tensor(Role::Param, {2}),
             tensor(Role::Input, {4, 2}), tensor(Role::Buffer, {3}),
             tensor(Role::Param, {5})};
  EXPECT_EQ(paramsFileArgs(fn), (std::vector<int>{1, 4, 0, 3}));
  std::vector<HostTensor> loaded = {{{2}, {1, 2}}, {{5}, {0, 0, 0, 0, 0}}};
  EXPECT_EQ(checkParamsMatch(loaded, "p", fn, paramsFileArgs(fn)).message(),
            "'p' holds 2 params, but @step takes 4 params and buffers (the "
            "first missing is buffer #0)");
  loaded.push_back({{3}, {0, 0, 0}});
  loaded.push_back({{4}, {1, 1, 1, 1}});
  EXPECT_EQ(checkParamsMatch(loaded, "p", fn, paramsFileArgs(fn)).message(),
            "buffer #1 in 'p' has shape [4], but argument #3 of @step is [3]");
  loaded.back().shape = {3};
  loaded.back().values.pop_back();
  EXPECT_TRUE(
      checkParamsMatch(loaded, "p", fn, paramsFileArgs(fn)).succeeded());
}

// The averaged model's file (--save-ema): the params' averages, then the
// buffers' averages when the step keeps them (ema-buffers), else the
// buffers.
TEST(ParamsFileTest, AveragedModel) {
  FunctionSignature fn;
  fn.name = "step";
  fn.args = {tensor(Role::Param, {2}), tensor(Role::Buffer, {3}),
             tensor(Role::Ema, {2}),
             tensor(Role::EmaCount, {}, ElementType::I64)};
  EXPECT_EQ(paramsFileArgs(fn, Role::Ema), (std::vector<int>{2, 1}));
  fn.args.push_back(tensor(Role::Ema, {3}));
  EXPECT_EQ(paramsFileArgs(fn, Role::Ema), (std::vector<int>{2, 4}));
  EXPECT_EQ(paramsFileArgs(fn), (std::vector<int>{0, 1}));
}
