//===- PrecisionModelsTest.cpp - a forgotten model registration -----------===//
//
// The nn dialect promises MixedPrecisionOpInterface for its ops. An
// embedder that loads the dialects but forgets registerNNPrecisionModels
// gets an error from the precision passes instead of nn ops they silently
// skip. (MLIR itself checks promises on every interface query only in
// builds with assertions; the passes check in every build.)
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/Transforms/Passes.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Interfaces/MixedPrecisionOpInterface.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <gtest/gtest.h>

using namespace mlir;

static constexpr const char *kStep = R"mlir(
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
)mlir";

namespace {
/// A context with the dialects but without registerNNPrecisionModels.
class PrecisionModelsTest : public ::testing::Test {
protected:
  PrecisionModelsTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    amp::registerAMPPasses();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registry.insert<amp::AMPDialect, amp::nn::NNDialect, func::FuncDialect>();
    return registry;
  }

  /// Runs the passes `build` adds on kStep; expects a failure and returns
  /// the diagnostics.
  std::string runAndCollectErrors(function_ref<void(PassManager &)> build) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kStep, &context);
    EXPECT_TRUE(module);
    std::string errors;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    PassManager pm(&context);
    build(pm);
    EXPECT_TRUE(failed(pm.run(*module)));
    return errors;
  }

  MLIRContext context;
};
} // namespace

TEST_F(PrecisionModelsTest, PipelineReportsTheMissingModels) {
  std::string errors = runAndCollectErrors([](PassManager &pm) {
    amp::buildAmpPipeline(pm, amp::AmpPipelineOptions());
  });
  EXPECT_NE(errors.find("amp-assign-precision: 'nn."), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("amp::registerNNPrecisionModels(registry)"),
            std::string::npos)
      << errors;
}

TEST_F(PrecisionModelsTest, EveryPrecisionPassReportsTheMissingModels) {
  for (StringRef pass :
       {"amp-assign-precision", "amp-insert-casts", "amp-master-weights"}) {
    std::string errors = runAndCollectErrors([&](PassManager &pm) {
      ASSERT_TRUE(succeeded(parsePassPipeline(
          ("builtin.module(func.func(" + pass + "))").str(), pm)));
    });
    EXPECT_NE(errors.find((pass + ": 'nn.").str()), std::string::npos)
        << pass.str() << ": " << errors;
  }
}

TEST_F(PrecisionModelsTest, RegisteringTheModelsKeepsThePromise) {
  DialectRegistry models;
  amp::registerNNPrecisionModels(models);
  context.appendDialectRegistry(models);
  EXPECT_TRUE(succeeded(amp::checkPrecisionModelsRegistered(&context, "test")));
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kStep, &context);
  ASSERT_TRUE(module);
  module->walk([&](amp::nn::MatmulOp op) {
    EXPECT_TRUE(isa<amp::MixedPrecisionOpInterface>(op.getOperation()));
  });
}
