//===- RunnerTestUtil.h - shared helpers of the runner tests ----*- C++ -*-===//

#ifndef AMP_UNITTESTS_RUNNER_RUNNERTESTUTIL_H
#define AMP_UNITTESTS_RUNNER_RUNNERTESTUTIL_H

#include "TempFiles.h"

#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Signature.h"

#include <string>
#include <vector>

namespace amp::runner::test {

TensorDesc tensor(std::optional<Role> role, std::vector<int64_t> shape,
                  ElementType type = ElementType::F32,
                  std::optional<double> init = std::nullopt);

/// The signature of linear_step in LinearStep.c.
FunctionSignature linearStepSignature();
/// The signature of linear_predict.
FunctionSignature linearPredictSignature();

/// The reference runtime, loaded once.
const RuntimeLibrary &referenceRuntime();

void writeFile(const std::string &path, const std::string &contents);
std::string readFile(const std::string &path);

} // namespace amp::runner::test

#endif // AMP_UNITTESTS_RUNNER_RUNNERTESTUTIL_H
