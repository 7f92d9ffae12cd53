//===- ObjectEmission.cpp - a lowered module as a native object file ------===//
//
// The ahead-of-time path: a step translated to LLVM IR as the JIT translates
// it (StepTarget.cpp), emitted as a position-independent object for the host
// with a TargetMachine, so that it can be linked into a shared object and
// run by the execution half where no compiler is installed.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

llvm::Error amp::runner::emitObjectFile(amp::runner::HostStep step,
                                        llvm::StringRef path) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> target = hostStepTarget();
  if (!target)
    return target.takeError();
  auto machine = target->createTargetMachine();
  if (!machine)
    return machine.takeError();
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, out.os(), nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  codegen.run(*step.module);
  out.keep();
  return llvm::Error::success();
}
