// Imports an ONNX model with the installed amp::importONNXFile and prints
// the nn-dialect module with its locations (the ONNX node names), as
// amp-import-onnx does, or the importer's diagnostics and exit code 1.
#include "amp/Import/ONNX.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: import-onnx MODEL.onnx\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  amp::registerONNXImportDialects(registry);
  mlir::MLIRContext context(registry);
  amp::ONNXImportOptions options;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      amp::importONNXFile(argv[1], options, context);
  if (!module)
    return 1;
  module->print(llvm::outs(), mlir::OpPrintingFlags()
                                  .enableDebugInfo(true, false)
                                  .useLocalScope());
  llvm::outs() << "\n";
  return 0;
}
