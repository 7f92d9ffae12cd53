//===- PipelineTest.cpp - the pipeline through its C++ API ----------------===//
//
// Runs amp::buildAmpPipeline on the shipped MLP training step the way an
// embedder would, and checks what each option changes.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/NN/IR/NNOps.h"
#include "amp/Dialect/NN/Transforms/Autodiff.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
class PipelineTest : public ::testing::Test {
protected:
  PipelineTest() : context(makeRegistry()) {
    context.allowUnregisteredDialects(false);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    amp::registerAllDialects(registry);
    return registry;
  }

  /// The digits MLP's training step: examples/mlp.mlir (forward + loss)
  /// through nn-autodiff (SGD, lr 0.05, momentum 0.9).
  OwningOpRef<ModuleOp> parseExample() {
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(AMP_SOURCE_DIR "/examples/mlp.mlir", &context);
    if (!module)
      return nullptr;
    amp::nn::AutodiffOptions options;
    options.lr = 0.05;
    options.momentum = 0.9;
    auto step = module->lookupSymbol<func::FuncOp>("train_step");
    if (!step || failed(amp::nn::buildTrainingStep(step, options)))
      return nullptr;
    return module;
  }

  LogicalResult run(ModuleOp module, const amp::AmpPipelineOptions &options) {
    PassManager pm(&context);
    amp::buildAmpPipeline(pm, options);
    return pm.run(module);
  }

  template <typename OpT> int count(ModuleOp module) {
    int n = 0;
    module.walk([&](OpT) { ++n; });
    return n;
  }

  MLIRContext context;
};
} // namespace

TEST_F(PipelineTest, F16DynamicLossScaling) {
  OwningOpRef<ModuleOp> module = parseExample();
  ASSERT_TRUE(module);
  amp::AmpPipelineOptions options;
  ASSERT_TRUE(succeeded(run(*module, options)));
  EXPECT_EQ(count<amp::ScaledGradSeedOp>(*module), 1);
  EXPECT_EQ(count<amp::UnscaleAndCheckOp>(*module), 1);
  EXPECT_EQ(count<amp::SkipStepIfOp>(*module), 1);
  EXPECT_EQ(count<amp::UpdateScaleOp>(*module), 1);
  EXPECT_EQ(count<amp::nn::GradSeedOp>(*module), 0);
  // Every matmul takes f16 operands.
  module->walk([](amp::nn::MatmulOp op) {
    EXPECT_TRUE(op.getLhs().getType().getElementType().isF16());
  });
  // Scale, growth tracker and found_inf are appended.
  auto fn = *module->getOps<func::FuncOp>().begin();
  EXPECT_EQ(fn.getNumArguments(), 13u);
  EXPECT_EQ(fn.getNumResults(), 12u);
}

TEST_F(PipelineTest, Bf16TurnsScalingOffUnlessAsked) {
  OwningOpRef<ModuleOp> module = parseExample();
  ASSERT_TRUE(module);
  amp::AmpPipelineOptions options;
  options.computeType = "bf16";
  ASSERT_TRUE(succeeded(run(*module, options)));
  EXPECT_EQ(count<amp::UnscaleAndCheckOp>(*module), 0);
  EXPECT_EQ(count<amp::nn::GradSeedOp>(*module), 1);
  module->walk([](amp::nn::MatmulOp op) {
    EXPECT_TRUE(op.getLhs().getType().getElementType().isBF16());
  });

  OwningOpRef<ModuleOp> scaled = parseExample();
  options.lossScale = "dynamic";
  ASSERT_TRUE(succeeded(run(*scaled, options)));
  EXPECT_EQ(count<amp::UpdateScaleOp>(*scaled), 1);
}

TEST_F(PipelineTest, StaticScalingHasNoUpdate) {
  OwningOpRef<ModuleOp> module = parseExample();
  ASSERT_TRUE(module);
  amp::AmpPipelineOptions options;
  options.lossScale = "static";
  options.initScale = 128.0;
  ASSERT_TRUE(succeeded(run(*module, options)));
  EXPECT_EQ(count<amp::UpdateScaleOp>(*module), 0);
  EXPECT_EQ(count<amp::SkipStepIfOp>(*module), 1);
}

TEST_F(PipelineTest, BadOptionFailsTheRun) {
  OwningOpRef<ModuleOp> module = parseExample();
  ASSERT_TRUE(module);
  amp::AmpPipelineOptions options;
  options.computeType = "f8";
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str();
    return success();
  });
  EXPECT_TRUE(failed(run(*module, options)));
  EXPECT_NE(diagnostics.find("compute-type must be f16 or bf16"),
            std::string::npos);
}
