//===- DerivativeModelsTest.cpp - a forgotten derivative registration -----===//
//
// The nn dialect promises DifferentiableOpInterface for the ops that have a
// derivative rule (NNDifferentiableOps.def). An embedder that loads the
// dialects but forgets registerNNDerivativeModels gets an error that names
// the registration, not "has no derivative rule" on the model's first op.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Autodiff.h"
#include "amp/Interfaces/DifferentiableOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

static constexpr const char *kForward = R"mlir(
func.func @f(%x: tensor<4x8xf32> {nn.role = #nn.role<input>},
             %w: tensor<8x8xf32> {nn.role = #nn.role<param>})
    -> (tensor<f32> {nn.role = #nn.role<loss>}) {
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = nn.reduce_sum %0 [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
  return %1 : tensor<f32>
}
)mlir";

namespace {
class DerivativeModelsTest : public ::testing::Test {
protected:
  /// Builds the training step of kForward, with or without the models;
  /// returns the diagnostics and sets `ok`.
  std::string buildStep(bool registerModels, bool &ok) {
    DialectRegistry registry;
    registry.insert<amp::AMPDialect, amp::nn::NNDialect, func::FuncDialect,
                    arith::ArithDialect>();
    if (registerModels)
      amp::registerNNDerivativeModels(registry);
    MLIRContext context(registry);
    context.loadAllAvailableDialects();
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kForward, &context);
    EXPECT_TRUE(module) << errors;
    if (!module) {
      ok = false;
      return errors;
    }
    auto fn = cast<func::FuncOp>(module->getBody()->front());
    ok = succeeded(amp::nn::buildTrainingStep(fn, amp::nn::AutodiffOptions()));
    return errors;
  }
};
} // namespace

TEST_F(DerivativeModelsTest, AutodiffReportsTheMissingModels) {
  bool ok = true;
  std::string errors = buildStep(/*registerModels=*/false, ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(errors.find("nn-autodiff: 'nn."), std::string::npos) << errors;
  EXPECT_NE(errors.find("has no DifferentiableOpInterface model"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("amp::registerNNDerivativeModels(registry)"),
            std::string::npos)
      << errors;
  EXPECT_EQ(errors.find("has no derivative rule"), std::string::npos) << errors;
}

TEST_F(DerivativeModelsTest, RegisteringTheModelsKeepsThePromise) {
  bool ok = false;
  std::string errors = buildStep(/*registerModels=*/true, ok);
  EXPECT_TRUE(ok) << errors;
}
