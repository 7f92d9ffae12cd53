//===- CompileForRuntime.cpp - fusion, autodiff, pipeline, lowering ------===//

#include "amp/Runner/Compile.h"

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/Transforms/FuseAttention.h"
#include "amp/Dialect/NN/Transforms/Recompute.h"
#include "amp/InitAll.h"
#include "amp/Runner/StepBinding.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;
using namespace amp::runner;

void amp::runner::registerCompileDialects(DialectRegistry &registry) {
  amp::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

/// Donates each threaded argument of `step` to the result that becomes it
/// in the next step, when `step` binds as a training step (else the
/// trainer reports why it does not).
static void donateStepState(func::FuncOp step,
                            const FunctionSignature &signature) {
  StatusOr<StepBinding> binding = bindStep(signature);
  if (binding.failed())
    return;
  Builder b(step.getContext());
  for (auto [result, arg] : llvm::enumerate(binding->feedsArg))
    if (arg >= 0)
      step.setArgAttr(arg, amp::AMPDialect::getAliasingOutputAttrName(),
                      b.getI64IntegerAttr(result));
}

/// Which results the lowered `fn` left in the buffers of the arguments
/// donated to them.
static void readResultsInArguments(Operation *fn,
                                   FunctionSignature &signature) {
  auto attr = fn ? fn->getAttrOfType<DenseI64ArrayAttr>(
                       amp::AMPDialect::getResultsInArgumentsAttrName())
                 : nullptr;
  if (!attr)
    return;
  for (auto [desc, arg] : llvm::zip(signature.results, attr.asArrayRef()))
    if (arg >= 0)
      desc.inArgument = static_cast<int>(arg);
}

llvm::Expected<std::vector<FunctionSignature>>
amp::runner::compileForRuntime(ModuleOp module, const CompileOptions &options) {
  if (options.fuseAttention)
    amp::nn::fuseAttention(module);

  // A forward loss function as the step: nn-autodiff makes it one, keeping
  // the forward pass when @<step>_forward is asked for.
  auto step = options.functions.empty()
                  ? func::FuncOp()
                  : module.lookupSymbol<func::FuncOp>(options.functions[0]);
  if (step && !step.isExternal() && nn::isForwardLossFunction(step)) {
    nn::AutodiffOptions autodiff = options.autodiff;
    std::string forward = (step.getSymName() + "_forward").str();
    autodiff.keepForward |= llvm::is_contained(options.functions, forward) &&
                            !module.lookupSymbol(forward);
    if (failed(nn::buildTrainingStep(step, autodiff)))
      return llvm::createStringError("nn-autodiff failed on @" +
                                     step.getSymName() + " in " +
                                     options.sourceName);
  }
  for (const std::string &name : options.functions)
    if (!module.lookupSymbol<func::FuncOp>(name))
      return llvm::createStringError("no function @" + name + " in " +
                                     options.sourceName);

  PassManager pm(module.getContext());
  if (options.pipeline)
    amp::buildAmpPipeline(pm, *options.pipeline);
  if (failed(pm.run(module)))
    return llvm::createStringError("amp-pipeline failed on " +
                                   options.sourceName);
  if (options.recompute)
    amp::nn::recompute(module);

  // Describe the functions after the pipeline (it may have added state) and
  // before the lowering (which leaves no tensor types).
  std::vector<FunctionSignature> signatures;
  for (const std::string &name : options.functions) {
    llvm::Expected<FunctionSignature> signature =
        describeFunction(module.lookupSymbol<func::FuncOp>(name));
    if (!signature)
      return signature.takeError();
    signatures.push_back(std::move(*signature));
  }

  if (options.donateState && !signatures.empty())
    donateStepState(module.lookupSymbol<func::FuncOp>(options.functions[0]),
                    signatures[0]);

  // The lowering's passes keep the module valid, and verifying its ~40 ops
  // per op of the step after each of its eleven passes took most of its
  // time: the module is verified once, at the end.
  PassManager lower(module.getContext());
  lower.enableVerifier(false);
  amp::AmpToRuntimeOptions lowering;
  lowering.planBuffers = options.bufferArena;
  lowering.inPlace = options.inPlace;
  amp::buildAmpToRuntimePipeline(lower, lowering);
  if (failed(lower.run(module)) || failed(mlir::verify(module)))
    return llvm::createStringError("lowering " + options.sourceName +
                                   " to the runtime failed");
  for (auto [name, signature] : llvm::zip(options.functions, signatures))
    readResultsInArguments(module.lookupSymbol(name), signature);
  return signatures;
}
