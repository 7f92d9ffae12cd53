//===- StepLibrary.cpp - a compiled step as a shared object ---------------===//
//
// amp-compile's output: the lowered functions plus
//   const char *amp_step_metadata(void);
// returning the program's metadata (ProgramMetadata.h), emitted as an
// object file and linked into a shared object by the host C compiler. The
// runtime's entry points stay undefined: they resolve, when amp-exec loads
// the step, against the runtime backend it loaded first (RTLD_GLOBAL).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Compile.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace amp::runner;

// The C compiler CMake found (lib/Runner/Compile/CMakeLists.txt).
#ifndef AMP_HOST_CC
#error "AMP_HOST_CC must be defined by the build"
#endif

llvm::Error amp::runner::addStepMetadata(ModuleOp lowered,
                                         const CompiledProgram &compiled) {
  if (lowered.lookupSymbol(kStepMetadataSymbol))
    return llvm::createStringError(llvm::Twine("the module already defines @") +
                                   kStepMetadataSymbol);
  MLIRContext *ctx = lowered.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(lowered.getBody());
  Location loc = lowered.getLoc();
  std::string bytes = serializeProgramMetadata(compiled);
  bytes.push_back('\0');
  auto arrayTy = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                          bytes.size());
  auto global = LLVM::GlobalOp::create(
      b, loc, arrayTy, /*isConstant=*/true, LLVM::Linkage::Internal,
      "__amp_step_metadata_text", b.getStringAttr(bytes));
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, kStepMetadataSymbol,
                                     LLVM::LLVMFunctionType::get(ptrTy, {}));
  Block *body = fn.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  Value address = LLVM::AddressOfOp::create(b, loc, global);
  LLVM::ReturnOp::create(b, loc, address);
  return llvm::Error::success();
}

llvm::Error amp::runner::writeStepLibrary(HostStep step, llvm::StringRef path) {
  llvm::SmallString<128> object;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("amp-step", "o", object))
    return llvm::createStringError("cannot create a temporary object file: " +
                                   ec.message());
  llvm::FileRemover removeObject(object);
  if (llvm::Error error = emitObjectFile(std::move(step), object))
    return error;

  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName(AMP_HOST_CC);
  if (!cc)
    return llvm::createStringError(
        std::string("cannot find the C compiler '") + AMP_HOST_CC +
        "' to link the shared object");
  std::string output = path.str();
  llvm::SmallVector<llvm::StringRef> args = {*cc, "-shared", "-o", output,
                                             object};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return llvm::createStringError("linking '" + output + "' with " + *cc +
                                   " failed" +
                                   (message.empty() ? "" : ": " + message));
  return llvm::Error::success();
}
