//===- amp-opt.cpp - the amp optimizer driver -----------------------------===//
//
// mlir-opt for amp: the nn and amp dialects, amp's passes, and the upstream
// dialects and passes amp programs use. Besides registration it does what
// MlirOptMain(argc, argv, ...) does, with one step added: the input is
// refused before parsing when MLIR's parser would crash on it (brackets
// nested deeper than it has stack for, a dense array of index:
// amp/Parser/ParserHazards.h).
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Parser/ParserHazards.h"

#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"

namespace amp::test {
void registerTestPasses();
} // namespace amp::test

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::DialectRegistry registry;
  amp::registerAllDialects(registry);
  amp::registerAllPasses();
  amp::test::registerTestPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "amp: automatic mixed-precision training compiler\n",
      registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // --show-dialects, --list-passes: nothing to parse.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(mlir::MlirOptMain(
        argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (amp::reportParserHazard(*file, llvm::errs()))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
