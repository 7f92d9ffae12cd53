//===- CompileProgram.cpp - a request of amp-run or amp-compile -----------===//

#include "amp/Runner/Compile.h"

using namespace mlir;
using namespace amp::runner;

llvm::Expected<CompiledProgram>
amp::runner::compileProgram(ModuleOp module, const CompileRequest &request) {
  const std::string &precision = request.precision;
  if (precision != "f32" && precision != "f16" && precision != "bf16")
    return llvm::createStringError("--precision must be f32, f16 or bf16, "
                                   "got '" +
                                   precision + "'");
  amp::AmpPipelineOptions pipeline;
  pipeline.computeType = precision;
  if (failed(pipeline.parseFromString(request.pipelineOptions)))
    return llvm::createStringError("bad --pipeline-options '" +
                                   request.pipelineOptions + "'");
  CompileOptions options;
  std::string error;
  FailureOr<amp::nn::AutodiffOptions> autodiff =
      amp::nn::parseAutodiffOptions(request.autodiffOptions, error);
  if (failed(autodiff))
    return llvm::createStringError("bad --autodiff-options '" +
                                   request.autodiffOptions + "': " + error);
  options.autodiff = *autodiff;
  options.pipeline = precision == "f32" ? nullptr : &pipeline;
  options.sourceName = request.source;
  options.bufferArena = request.bufferArena;
  options.fuseAttention = request.fuseAttention;
  options.recompute = request.recompute;
  options.donateState = request.donateState;
  options.inPlace = request.inPlace;
  for (const std::string &fn :
       {request.entry, request.evalEntry, request.underflowProbe})
    if (!fn.empty())
      options.functions.push_back(fn);

  llvm::Expected<std::vector<FunctionSignature>> signatures =
      compileForRuntime(module, options);
  if (!signatures)
    return signatures.takeError();
  CompiledProgram compiled;
  compiled.precision = precision;
  compiled.pipelineOptions = request.pipelineOptions;
  compiled.autodiffOptions = request.autodiffOptions;
  compiled.source = request.source;
  auto next = signatures->begin();
  compiled.program.step = *next++;
  if (!request.evalEntry.empty())
    compiled.program.eval = *next++;
  if (!request.underflowProbe.empty())
    compiled.program.underflowProbe = *next++;
  return compiled;
}
