//===- amp-opt.cpp - the amp optimizer driver -----------------------------===//
//
// mlir-opt for amp: the nn and amp dialects, amp's passes, and the upstream
// dialects and passes amp programs use. Nothing but registration lives here.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace amp::test {
void registerTestPasses();
} // namespace amp::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  amp::registerAllDialects(registry);
  amp::registerAllPasses();
  amp::test::registerTestPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "amp: automatic mixed-precision training compiler\n",
      registry));
}
