//===- RunnerTestUtil.cpp - shared helpers of the runner tests ------------===//

#include "RunnerTestUtil.h"

#include "LinearStep.h"

#include "gtest/gtest.h"

#include <fstream>
#include <iterator>

using namespace amp::runner;

TensorDesc test::tensor(std::optional<Role> role, std::vector<int64_t> shape,
                        ElementType type, std::optional<double> init) {
  TensorDesc desc;
  desc.role = role;
  desc.shape = std::move(shape);
  desc.type = type;
  desc.init = init;
  return desc;
}

FunctionSignature test::linearStepSignature() {
  const int64_t batch = LINEAR_STEP_BATCH;
  FunctionSignature s;
  s.name = "linear_step";
  s.args = {tensor(Role::Param, {2, 2}),
            tensor(Role::Param, {2}),
            tensor(Role::OptState, {2, 2}),
            tensor(Role::OptState, {2}),
            tensor(Role::LossScale, {}, ElementType::F32, 1024.0),
            tensor(Role::FoundInf, {}, ElementType::I1),
            tensor(Role::GrowthTracker, {}, ElementType::I32),
            tensor(Role::Input, {batch, 2}),
            tensor(Role::Label, {batch}, ElementType::I32)};
  for (int i = 0; i < 7; ++i)
    s.results.push_back(s.args[i]);
  s.results.push_back(tensor(Role::Loss, {}));
  return s;
}

FunctionSignature test::linearPredictSignature() {
  FunctionSignature s;
  s.name = "linear_predict";
  s.args = {tensor(Role::Param, {2, 2}), tensor(Role::Param, {2}),
            tensor(Role::Input, {LINEAR_STEP_BATCH, 2})};
  s.results = {tensor(std::nullopt, {LINEAR_STEP_BATCH, 2})};
  return s;
}

const RuntimeLibrary &test::referenceRuntime() {
  static StatusOr<RuntimeLibrary> rt =
      RuntimeLibrary::load(AMP_RUNTIME_REF_PATH);
  if (rt.failed())
    ADD_FAILURE() << rt.getStatus().message();
  return *rt;
}

void test::writeFile(const std::string &path, const std::string &contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

std::string test::readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(file),
                     std::istreambuf_iterator<char>());
}
