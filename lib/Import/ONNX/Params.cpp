//===- Params.cpp - the initializers as an amp-run params file ------------===//
//
// The values of the param arguments (float initializers, in argument
// order) in the format of amp-run's --save-params/--load-params, written by
// the runner's execution half, so that training starts from the model's
// weights: amp-run --load-params FILE.
//
//===----------------------------------------------------------------------===//

#include "amp/Import/ONNX.h"
#include "amp/Runner/ParamsFile.h"

std::string amp::writeONNXParams(llvm::StringRef path,
                                 const std::vector<ONNXParam> &params) {
  std::vector<runner::HostTensor> tensors;
  tensors.reserve(params.size());
  for (const ONNXParam &p : params)
    tensors.push_back(runner::HostTensor{p.shape, p.values});
  runner::Status status = runner::writeParamsFile(path.str(), tensors);
  return status.failed() ? status.message() : std::string();
}
