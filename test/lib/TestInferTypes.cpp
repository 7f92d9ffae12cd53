//===- TestInferTypes.cpp - exercise result-type inference ----------------===//
//
// `-test-nn-infer-types` re-infers the result types of every op that
// implements InferTypeOpInterface from its operands and attributes alone and
// reports them as remarks, so lit tests can check the inference rules
// independently of the result types written in the input.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestInferTypesPass
    : PassWrapper<TestInferTypesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestInferTypesPass)

  StringRef getArgument() const final { return "test-nn-infer-types"; }
  StringRef getDescription() const final {
    return "Report the inferred result types of every InferTypeOpInterface op";
  }

  void runOnOperation() override {
    getOperation()->walk([&](InferTypeOpInterface iface) {
      Operation *op = iface.getOperation();
      SmallVector<Type> types;
      if (failed(iface.inferReturnTypes(
              op->getContext(), op->getLoc(), op->getOperands(),
              op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
              op->getRegions(), types))) {
        op->emitRemark("type inference failed");
        return;
      }
      InFlightDiagnostic remark = op->emitRemark("inferred: ");
      llvm::interleaveComma(types, remark);
    });
  }
};
} // namespace

namespace amp::test {
void registerTestPasses() { PassRegistration<TestInferTypesPass>(); }
} // namespace amp::test
