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
