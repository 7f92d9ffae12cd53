//===- JitModule.cpp - JIT-compile a lowered module -----------------------===//

#include "amp/Runner/Compile.h"

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace amp::runner;

JitModule::JitModule(std::unique_ptr<ExecutionEngine> engine, bool hasErrorSite)
    : engine(std::move(engine)), hasErrorSite(hasErrorSite) {}

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(ModuleOp lowered,
                  const std::vector<std::string> &sharedLibs) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  // `transformer` is a function_ref: the std::function must outlive create.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(kStepIROptLevel, /*sizeLevel=*/0,
                                /*targetMachine=*/nullptr);
  options.transformer = optimize;
  options.jitCodeGenOptLevel = kStepCodeGenOptLevel;
  llvm::SmallVector<llvm::StringRef> libs(sharedLibs.begin(), sharedLibs.end());
  options.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(lowered, options);
  if (!engine)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(engine.takeError()));
  // Looking up a missing symbol makes ORC print an error, so only look for
  // the error site when the module defines it.
  bool hasErrorSite = lowered.lookupSymbol(amp::kErrorSiteGlobal) != nullptr;
  return std::unique_ptr<JitModule>(
      new JitModule(std::move(*engine), hasErrorSite));
}

llvm::Expected<StepFn> JitModule::lookup(llvm::StringRef function) {
  auto address = engine->lookup(function);
  if (!address)
    return llvm::createStringError(
        "cannot find @" + function +
        " in the JIT: " + llvm::toString(address.takeError()));
  return reinterpret_cast<StepFn>(*address);
}

const char *const *JitModule::errorSite() {
  if (!hasErrorSite)
    return nullptr;
  auto address = engine->lookup(amp::kErrorSiteGlobal);
  if (!address) {
    llvm::consumeError(address.takeError());
    return nullptr;
  }
  return reinterpret_cast<const char *const *>(*address);
}
