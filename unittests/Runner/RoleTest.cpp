//===- RoleTest.cpp - role and element-type spellings ---------------------===//

#include "amp/Runner/Role.h"
#include "amp/Runner/Signature.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace amp::runner;

TEST(RoleTest, NamesRoundTrip) {
  for (Role role : kAllRoles)
    EXPECT_EQ(parseRole(roleName(role)), role) << roleName(role);
}

// The spellings are the IR's (`#nn.role<...>`, docs/dialects.md); the
// compile half maps each nn::Role to the runner's by spelling
// (toRunnerRole, checked against the ODS enum in CompileTest).
TEST(RoleTest, SpellingsAreTheIRs) {
  std::vector<std::string> names;
  for (Role role : kAllRoles)
    names.push_back(roleName(role));
  EXPECT_EQ(names, (std::vector<std::string>{
                       "param", "opt_state", "input", "label", "loss",
                       "loss_scale", "growth_tracker", "hysteresis_tracker",
                       "found_inf", "buffer", "schedule_state", "lr",
                       "grad_norm", "rng_state", "ema", "ema_count"}));
}

TEST(RoleTest, UnknownSpellings) {
  EXPECT_EQ(parseRole("weights"), std::nullopt);
  EXPECT_EQ(parseRole("Param"), std::nullopt);
  EXPECT_EQ(parseRole(""), std::nullopt);
}

TEST(RoleTest, OnlyStateIsThreaded) {
  const std::vector<Role> notThreaded = {Role::Input, Role::Label, Role::Loss,
                                         Role::Lr, Role::GradNorm};
  for (Role role : kAllRoles)
    EXPECT_EQ(isThreadedRole(role),
              std::find(notThreaded.begin(), notThreaded.end(), role) ==
                  notThreaded.end())
        << roleName(role);
}

TEST(RoleTest, ReportedRolesAreResultsOnly) {
  for (Role role : kAllRoles)
    EXPECT_EQ(isReportedRole(role),
              role == Role::Loss || role == Role::Lr || role == Role::GradNorm)
        << roleName(role);
}

TEST(RoleTest, ElementTypes) {
  for (auto [name, size] :
       std::vector<std::pair<std::string, int64_t>>{{"f32", 4},
                                                    {"f16", 2},
                                                    {"bf16", 2},
                                                    {"i1", 1},
                                                    {"i32", 4},
                                                    {"i64", 8}}) {
    std::optional<ElementType> type = parseElementType(name);
    ASSERT_TRUE(type) << name;
    EXPECT_EQ(elementTypeName(*type), name);
    EXPECT_EQ(elementSize(*type), size) << name;
  }
  EXPECT_EQ(parseElementType("f64"), std::nullopt);
  TensorDesc desc;
  desc.shape = {3, 0, 2};
  EXPECT_EQ(desc.numElements(), 0);
  desc.shape = {};
  desc.type = ElementType::I64;
  EXPECT_EQ(desc.bytes(), 8);
  EXPECT_EQ(describeType(desc), "[] i64");
  // Sizes int64 cannot count are -1, never a wrapped number, and
  // checkSignature names the tensor.
  desc.shape = {int64_t{1} << 61};
  EXPECT_EQ(desc.numElements(), int64_t{1} << 61);
  EXPECT_EQ(desc.bytes(), -1);
  desc.shape = {4611686018427387908, 4};
  EXPECT_EQ(desc.numElements(), -1);
  FunctionSignature fn;
  fn.name = "step";
  fn.args.push_back(TensorDesc());
  EXPECT_TRUE(checkSignature(fn).succeeded());
  fn.results.push_back(desc);
  EXPECT_EQ(checkSignature(fn).message(),
            "result #0 of @step is [4611686018427387908, 4] i64, whose size "
            "in bytes does not fit in int64");
}

// A result in an argument's buffer: an argument of its type, at most one
// result per argument.
TEST(RoleTest, ResultsInArguments) {
  FunctionSignature fn;
  fn.name = "step";
  TensorDesc w;
  w.shape = {4};
  fn.args = {w, w};
  fn.results = {w, w};
  fn.results[0].inArgument = 1;
  fn.results[1].inArgument = 0;
  EXPECT_TRUE(checkSignature(fn).succeeded());
  fn.results[1].inArgument = 1;
  EXPECT_EQ(checkSignature(fn).message(),
            "argument #1 of @step is said to hold two results");
  fn.results[1].inArgument = 2;
  EXPECT_EQ(checkSignature(fn).message(),
            "result #1 of @step is said to be in argument #2, which it does "
            "not have");
  fn.results[1].inArgument = -1;
  EXPECT_EQ(checkSignature(fn).message(),
            "result #1 of @step is said to be in argument #-1, which it does "
            "not have");
  fn.results[1].inArgument = 0;
  fn.args[0].type = ElementType::BF16;
  EXPECT_EQ(checkSignature(fn).message(),
            "result #1 of @step is [4] f32 but is said to be in argument #0, "
            "[4] bf16");
}
