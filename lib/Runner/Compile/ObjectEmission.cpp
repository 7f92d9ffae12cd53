//===- ObjectEmission.cpp - a lowered module as a native object file ------===//
//
// The ahead-of-time path: translate the lowered module to LLVM IR, optimize
// it as the JIT does (kStepIROptLevel), and emit a position-independent
// object for the host with a TargetMachine, so that it can be linked into a
// shared object and run by the execution half where no compiler is
// installed.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

llvm::Error amp::runner::emitObjectFile(ModuleOp lowered,
                                        llvm::StringRef path) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The host, as the JIT targets it (same CPU and features).
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  // A shared object's code model. A JIT target machine defaults to the large
  // one on x86-64 (the JIT may place code anywhere), where each call of a
  // runtime function is an absolute address in a register: FastISel does
  // not lower such calls, so every call fell back to SelectionDAG, which was
  // most of the code generator's time (a 10k-op step: 1.55 s -> 0.79 s in
  // llc -O0).
  builder->setCodeModel(llvm::CodeModel::Small);
  builder->setCodeGenOptLevel(kStepCodeGenOptLevel);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(lowered, context, "amp-step");
  if (!module)
    return llvm::createStringError(
        "cannot translate the lowered module to LLVM IR");
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple());
  if (llvm::Error error = makeOptimizingTransformer(
          kStepIROptLevel, /*sizeLevel=*/0, machine->get())(module.get()))
    return error;

  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + ec.message());
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, out.os(), nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit object files");
  codegen.run(*module);
  out.keep();
  return llvm::Error::success();
}
