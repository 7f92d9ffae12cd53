//===- JitModule.cpp - JIT-compile a lowered module -----------------------===//
//
// ORC's LLJIT with JITLink, on the target of StepTarget.cpp. Not MLIR's
// ExecutionEngine: it builds its target machine before it reads its
// jitCodeGenOptLevel option, so its code generator ran at -O2 whatever the
// option said (SelectionDAG and the greedy register allocator: 79 s and
// 5.4 GB of amp-run for a 10k-op step that amp-compile built in 1.9 s), and
// it has no option for the code model.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "amp/Conversion/NNToRuntime/NNToRuntime.h"

#include "llvm/ExecutionEngine/Orc/EHFrameRegistrationPlugin.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace amp::runner;

JitModule::JitModule(std::unique_ptr<llvm::orc::LLJIT> jit, bool hasErrorSite)
    : jit(std::move(jit)), hasErrorSite(hasErrorSite) {}

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(HostStep step, const std::vector<std::string> &sharedLibs) {
  auto fail = [](llvm::Error error) -> llvm::Error {
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(std::move(error)));
  };
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> target = hostStepTarget();
  if (!target)
    return fail(target.takeError());
  char globalPrefix = step.module->getDataLayout().getGlobalPrefix();
  // Looking up a missing symbol makes ORC print an error, so only look for
  // the error site when the module defines it.
  bool hasErrorSite =
      step.module->getNamedGlobal(amp::kErrorSiteGlobal) != nullptr;

  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*target))
          .setObjectLinkingLayerCreator(
              [](llvm::orc::ExecutionSession &session)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                auto layer =
                    std::make_unique<llvm::orc::ObjectLinkingLayer>(session);
                // Unwind tables for debuggers and profilers.
                auto frames =
                    llvm::orc::EHFrameRegistrationPlugin::Create(session);
                if (!frames)
                  return frames.takeError();
                layer->addPlugin(std::move(*frames));
                return std::move(layer);
              })
          .create();
  if (!jit)
    return fail(jit.takeError());
  // The runtime backend's functions; the C library's come from the
  // process, which LLJIT links by default.
  for (const std::string &lib : sharedLibs) {
    auto symbols = llvm::orc::DynamicLibrarySearchGenerator::Load(
        lib.c_str(), globalPrefix);
    if (!symbols)
      return fail(symbols.takeError());
    (*jit)->getMainJITDylib().addGenerator(std::move(*symbols));
  }
  if (llvm::Error error = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(
          std::move(step.module), std::move(step.context))))
    return fail(std::move(error));
  return std::unique_ptr<JitModule>(
      new JitModule(std::move(*jit), hasErrorSite));
}

llvm::Expected<StepFn> JitModule::lookup(llvm::StringRef function) {
  auto address = jit->lookup(function);
  if (!address)
    return llvm::createStringError(
        "cannot find @" + function +
        " in the JIT: " + llvm::toString(address.takeError()));
  return address->toPtr<StepFn>();
}

const char *const *JitModule::errorSite() {
  if (!hasErrorSite)
    return nullptr;
  auto address = jit->lookup(amp::kErrorSiteGlobal);
  if (!address) {
    llvm::consumeError(address.takeError());
    return nullptr;
  }
  return address->toPtr<const char *const *>();
}
