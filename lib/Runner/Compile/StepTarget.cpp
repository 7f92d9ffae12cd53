//===- StepTarget.cpp - the host target and IR of a compiled step ---------===//
//
// What the JIT (JitModule.cpp) and the object files (ObjectEmission.cpp)
// share: the host target as a step is compiled for it, and the lowered
// module as optimized LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

llvm::Expected<llvm::orc::JITTargetMachineBuilder>
amp::runner::hostStepTarget() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The host, with its CPU and features.
  auto target = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  target->setRelocationModel(llvm::Reloc::PIC_);
  // A JIT target machine defaults to the large code model on x86-64, where
  // each call of a runtime function is an absolute address in a register:
  // FastISel does not lower such calls, so every call fell back to
  // SelectionDAG, which was most of the code generator's time (a 10k-op
  // step: 1.55 s -> 0.79 s in llc -O0). A shared object, and JITLink,
  // call through the PLT with the small one.
  target->setCodeModel(llvm::CodeModel::Small);
  target->setCodeGenOptLevel(kStepCodeGenOptLevel);
  return std::move(*target);
}

llvm::Expected<amp::runner::HostStep>
amp::runner::translateStep(ModuleOp lowered, size_t codegenFunctionSize) {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> target = hostStepTarget();
  if (!target)
    return target.takeError();
  HostStep step;
  step.context = std::make_unique<llvm::LLVMContext>();
  step.module = translateModuleToLLVMIR(lowered, *step.context, "amp-step");
  if (!step.module)
    return llvm::createStringError(
        "cannot translate the lowered module to LLVM IR");
  llvm::Expected<llvm::DataLayout> layout =
      target->getDefaultDataLayoutForTarget();
  if (!layout)
    return layout.takeError();
  step.module->setDataLayout(*layout);
  step.module->setTargetTriple(target->getTargetTriple());
  splitLargeFunctions(*step.module, codegenFunctionSize);
  if (llvm::Error error = makeOptimizingTransformer(
          kStepIROptLevel, /*sizeLevel=*/0,
          /*targetMachine=*/nullptr)(step.module.get()))
    return std::move(error);
  return std::move(step);
}
