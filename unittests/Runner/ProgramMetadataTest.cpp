//===- ProgramMetadataTest.cpp - the metadata of a compiled step ----------===//

#include "amp/Runner/ProgramMetadata.h"

#include "gtest/gtest.h"

#include <string>

using namespace amp::runner;

// A step of the 100k-op transformer has ~166k arguments (params and AdamW
// moments); the reader once refused any function with more than 100000.
// Counts are bounded by what the text can hold instead.
TEST(ProgramMetadataTest, ManyArgumentsRoundTrip) {
  CompiledProgram compiled;
  compiled.program.step.name = "train_step";
  for (int i = 0; i < 150000; ++i) {
    TensorDesc t;
    t.role = i % 2 ? Role::OptState : Role::Param;
    t.shape = {4, i % 7 + 1};
    compiled.program.step.args.push_back(t);
  }
  TensorDesc loss;
  loss.role = Role::Loss;
  compiled.program.step.results.push_back(loss);
  StatusOr<CompiledProgram> parsed =
      parseProgramMetadata(serializeProgramMetadata(compiled));
  ASSERT_FALSE(parsed.failed()) << parsed.takeStatus().message();
  const FunctionSignature &step = parsed->program.step;
  ASSERT_EQ(step.args.size(), 150000u);
  EXPECT_EQ(step.args[149999].shape, (std::vector<int64_t>{4, 149999 % 7 + 1}));
  EXPECT_EQ(step.args[149999].role, Role::OptState);
  ASSERT_EQ(step.results.size(), 1u);
  EXPECT_EQ(step.results[0].role, Role::Loss);
}

// Every field of a tensor record survives: the init as the exact double,
// the labels' classes and ignore_index (negative, and INT64's extremes),
// a result's inArgument, and names with spaces.
TEST(ProgramMetadataTest, TensorFieldsRoundTrip) {
  CompiledProgram compiled;
  compiled.program.step.name = "train_step";
  TensorDesc init;
  init.role = Role::LossScale;
  init.init = 0.1;
  init.name = "%scale and more";
  TensorDesc labels;
  labels.role = Role::Label;
  labels.type = ElementType::I64;
  labels.shape = {4, 8};
  labels.classes = 50;
  labels.ignoreIndex = -100;
  TensorDesc extreme = labels;
  extreme.classes = INT64_MAX;
  extreme.ignoreIndex = INT64_MIN;
  compiled.program.step.args = {init, labels, extreme};
  TensorDesc inPlace = init;
  inPlace.inArgument = 0;
  compiled.program.step.results = {inPlace, init};
  StatusOr<CompiledProgram> parsed =
      parseProgramMetadata(serializeProgramMetadata(compiled));
  ASSERT_FALSE(parsed.failed()) << parsed.takeStatus().message();
  const std::vector<TensorDesc> &args = parsed->program.step.args;
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].init, 0.1);
  EXPECT_EQ(args[0].name, "%scale and more");
  EXPECT_FALSE(args[0].classes);
  EXPECT_FALSE(args[0].ignoreIndex);
  EXPECT_EQ(args[1].shape, (std::vector<int64_t>{4, 8}));
  EXPECT_EQ(args[1].classes, 50);
  EXPECT_EQ(args[1].ignoreIndex, -100);
  EXPECT_EQ(args[2].classes, INT64_MAX);
  EXPECT_EQ(args[2].ignoreIndex, INT64_MIN);
  EXPECT_FALSE(args[0].inArgument);
  const std::vector<TensorDesc> &results = parsed->program.step.results;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].inArgument, 0);
  EXPECT_FALSE(results[1].inArgument);
}
