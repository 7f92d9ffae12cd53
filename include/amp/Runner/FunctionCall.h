//===- FunctionCall.h - run one function on given tensors -------*- C++ -*-===//
//
// `amp-run --function NAME --input @x.npy ... --output y.npy
// [--expected-output @ref.npy --tolerance T]`: calls any compiled function
// once on tensors from files, e.g. an imported ONNX model's @forward on an
// ONNX node test's inputs. Params (nn.role<param>) come from --load-params;
// every other argument from the --input files, in argument order. Each
// input is checked against its argument's shape and element type before
// anything runs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_FUNCTIONCALL_H
#define AMP_RUNNER_FUNCTIONCALL_H

#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"
#include "amp/Runner/TensorFile.h"

#include <string>
#include <vector>

namespace amp::runner {

/// The flags of a function call (RunFlags::call).
struct FunctionCallOptions {
  /// The function; empty: no call (a training run).
  std::string function;
  /// Tensor files (@path or path; .npy, or .pb with the ONNX importer).
  std::vector<std::string> inputs, outputs, expected;
  /// |actual - expected| <= tolerance * (1 + |expected|).
  double tolerance = 1e-5;
  /// A params file for the function's params (amp-run's --load-params).
  std::string params;

  /// Checks the combination (outputs and expected outputs at most one per
  /// result is checked at the call).
  Status validate() const;
};

/// Reads a tensor file: .npy here; `readOther` (may be null) for other
/// extensions (the ONNX importer's .pb reader).
using TensorReader = StatusOr<HostArray> (*)(const std::string &path);
StatusOr<HostArray> readTensorFile(const std::string &path,
                                   TensorReader readOther);

/// Calls `entry` (the lowered `fn`) once with `inputs` for the non-param
/// arguments and `params` for the params; returns the results.
StatusOr<std::vector<HostArray>>
callFunction(const RuntimeLibrary &rt, const FunctionSignature &fn,
             StepFn entry, const char *const *errorSite,
             const std::vector<HostArray> &inputs,
             const std::vector<HostTensor> &params);

/// The whole --function flow after compilation: reads the files, calls,
/// writes --output, compares --expected-output, and prints one summary
/// line per result to `out`.
Status runFunctionCall(const RuntimeLibrary &rt, const FunctionSignature &fn,
                       StepFn entry, const char *const *errorSite,
                       const FunctionCallOptions &options,
                       TensorReader readOther, std::ostream &out);

} // namespace amp::runner

#endif // AMP_RUNNER_FUNCTIONCALL_H
