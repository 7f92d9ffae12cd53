//===- StepBindingTest.cpp - binding by role and bad signatures -----------===//

#include "RunnerTestUtil.h"

#include "amp/Runner/StepBinding.h"

#include "gtest/gtest.h"

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
std::string bindError(const FunctionSignature &step) {
  StatusOr<StepBinding> binding = bindStep(step);
  return binding.failed() ? binding.getStatus().message() : "(bound)";
}

StepBinding bound(const FunctionSignature &step) {
  StatusOr<StepBinding> binding = bindStep(step);
  EXPECT_FALSE(binding.failed()) << binding.getStatus().message();
  return binding.failed() ? StepBinding() : *binding;
}
} // namespace

TEST(StepBindingTest, BindsByRole) {
  StepBinding b = bound(linearStepSignature());
  EXPECT_EQ(b.inputs(), (std::vector<int>{7}));
  EXPECT_EQ(b.label, 8);
  EXPECT_EQ(b.args(Role::Param), (std::vector<int>{0, 1}));
  EXPECT_EQ(b.args(Role::OptState), (std::vector<int>{2, 3}));
  EXPECT_TRUE(b.args(Role::HysteresisTracker).empty());
  EXPECT_EQ(b.feedsArg, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, -1}));
  EXPECT_EQ(b.loss, 7);
  EXPECT_EQ(b.lossScale, 4);
  EXPECT_EQ(b.foundInf, 5);
  EXPECT_EQ(b.growthTracker, 6);
}

// Results thread into the arguments of their role in order, wherever they
// stand among the results.
// A model with several inputs (token ids and an attention mask, ...) takes
// them in argument order.
TEST(StepBindingTest, SeveralInputs) {
  FunctionSignature s = linearStepSignature();
  s.args.insert(s.args.begin() + 2, tensor(Role::Input, {4, 3}));
  StepBinding b = bound(s);
  EXPECT_EQ(b.inputs(), (std::vector<int>{2, 8}));
  EXPECT_EQ(b.label, 9);
  EXPECT_EQ(b.feedsArg, (std::vector<int>{0, 1, 3, 4, 5, 6, 7, -1}));
}

TEST(StepBindingTest, ThreadsByRoleAndPosition) {
  FunctionSignature s = linearStepSignature();
  const std::vector<TensorDesc> &a = s.args;
  s.results = {s.results[7], a[0], a[2], a[1], a[3], a[4], a[5], a[6]};
  StepBinding b = bound(s);
  EXPECT_EQ(b.loss, 0);
  EXPECT_EQ(b.feedsArg, (std::vector<int>{-1, 0, 2, 1, 3, 4, 5, 6}));
}

TEST(StepBindingTest, WithoutLossScaleState) {
  FunctionSignature s = linearStepSignature();
  s.args.erase(s.args.begin() + 4, s.args.begin() + 7);
  s.results.erase(s.results.begin() + 4, s.results.begin() + 7);
  StepBinding b = bound(s);
  EXPECT_EQ(b.lossScale, -1);
  EXPECT_EQ(b.foundInf, -1);
  EXPECT_EQ(b.growthTracker, -1);
}

// lr and grad_norm (nn-autodiff's with a schedule and clipping) are
// reported, like the loss: bound, not threaded.
TEST(StepBindingTest, ReportedResults) {
  FunctionSignature s = linearStepSignature();
  EXPECT_EQ(bound(s).lr, -1);
  EXPECT_EQ(bound(s).gradNorm, -1);
  TensorDesc lr = s.results[7], norm = s.results[7];
  lr.role = Role::Lr;
  norm.role = Role::GradNorm;
  s.results.insert(s.results.begin() + 2, norm);
  s.results.push_back(lr);
  StepBinding b = bound(s);
  EXPECT_EQ(b.loss, 8);
  EXPECT_EQ(b.lr, 9);
  EXPECT_EQ(b.gradNorm, 2);
  EXPECT_EQ(b.feedsArg, (std::vector<int>{0, 1, -1, 2, 3, 4, 5, 6, -1, -1}));

  s.results.push_back(lr);
  EXPECT_EQ(bindError(s), "@linear_step must return at most one 0-d f32 lr");
  s.results.pop_back();
  s.results[2].shape = {1};
  EXPECT_EQ(bindError(s),
            "@linear_step must return at most one 0-d f32 grad_norm");
  s.results[2].shape = {};
  s.results[2].type = ElementType::F16;
  EXPECT_EQ(bindError(s),
            "@linear_step must return at most one 0-d f32 grad_norm");
}

TEST(StepBindingTest, ArgumentErrors) {
  FunctionSignature s = linearStepSignature();
  s.args[1].role.reset();
  EXPECT_EQ(bindError(s), "argument #1 of @linear_step has no nn.role "
                          "(param, opt_state, input, label, ...)");
  s = linearStepSignature();
  s.args[0].role = Role::Label;
  EXPECT_EQ(bindError(s), "@linear_step has more than one label argument");
  s = linearStepSignature();
  for (Role role : {Role::Loss, Role::Lr, Role::GradNorm}) {
    s = linearStepSignature();
    s.args[1].role = role;
    EXPECT_EQ(bindError(s), std::string("argument #1 of @linear_step has "
                                        "nn.role \"") +
                                roleName(role) +
                                "\", which a step returns but does not take");
  }
  s = linearStepSignature();
  s.args.erase(s.args.begin() + 7);
  EXPECT_EQ(bindError(s), "@linear_step needs an argument with nn.role = "
                          "#nn.role<input> (or more, one per model input), "
                          "and one with #nn.role<label> unless its loss "
                          "reads only the inputs");
}

// A step without a label (a self-supervised loss): its eval function and
// underflow probe take none, and the eval function returns the loss.
TEST(StepBindingTest, WithoutLabel) {
  FunctionSignature step = linearStepSignature();
  step.args.pop_back();
  StepBinding b = bound(step);
  EXPECT_FALSE(b.hasLabel());
  EXPECT_EQ(b.inputs(), (std::vector<int>{7}));
  EXPECT_TRUE(bound(linearStepSignature()).hasLabel());

  auto evalError = [&](const FunctionSignature &eval) {
    Status s = checkEvalFunction(eval, step, b);
    return s.failed() ? s.message() : "(ok)";
  };
  FunctionSignature eval = linearPredictSignature();
  eval.results[0].shape = {};
  EXPECT_EQ(evalError(eval), "(ok)");
  eval.args.push_back(linearStepSignature().args[8]);
  EXPECT_EQ(evalError(eval),
            "@linear_predict takes a label, but @linear_step has none");
  eval.args.pop_back();
  eval.args.pop_back();
  EXPECT_EQ(evalError(eval),
            "@linear_predict returns the loss, so it must take (params..., "
            "buffers..., inputs...) with @linear_step's 1 input(s)");
  EXPECT_EQ(evalError(linearPredictSignature()),
            "@linear_predict must return the loss (0-d f32): @linear_step "
            "has no label to score predictions against");

  FunctionSignature probe;
  probe.name = "grads";
  probe.args = {step.args[0], step.args[7]};
  probe.results = {tensor(std::nullopt, {4, 2})};
  EXPECT_TRUE(checkUnderflowProbe(probe, step, b).succeeded());
  probe.args.push_back(linearStepSignature().args[8]);
  EXPECT_EQ(checkUnderflowProbe(probe, step, b).message(),
            "@grads takes a label, but @linear_step has none");
}

TEST(StepBindingTest, ResultErrors) {
  FunctionSignature s = linearStepSignature();
  s.results.pop_back();
  EXPECT_EQ(bindError(s), "@linear_step returns no loss (a result with "
                          "nn.role = #nn.role<loss>)");
  s = linearStepSignature();
  s.results.back().shape = {1};
  EXPECT_EQ(bindError(s), "@linear_step must return exactly one 0-d f32 loss");
  s = linearStepSignature();
  s.results.push_back(s.results.back());
  EXPECT_EQ(bindError(s), "@linear_step must return exactly one 0-d f32 loss");
  s = linearStepSignature();
  s.results[0].role.reset();
  EXPECT_EQ(bindError(s), "result #0 of @linear_step has no nn.role");
  s = linearStepSignature();
  s.results[0].shape = {4};
  EXPECT_EQ(bindError(s),
            "result #0 (param) does not have the type of argument #0");
  s = linearStepSignature();
  s.results[1].type = ElementType::F16;
  EXPECT_EQ(bindError(s),
            "result #1 (param) does not have the type of argument #1");
  s = linearStepSignature();
  s.results.insert(s.results.begin() + 2, s.args[0]);
  EXPECT_EQ(bindError(s), "result #2 (param) of @linear_step has no matching "
                          "argument with that role");
  s = linearStepSignature();
  s.results.erase(s.results.begin() + 3);
  EXPECT_EQ(bindError(s), "@linear_step takes 2 opt_state argument(s) but "
                          "returns 1");
  s = linearStepSignature();
  s.results[0].role = Role::Input;
  EXPECT_EQ(bindError(s), "result #0 of @linear_step has nn.role \"input\", "
                          "which a step takes but does not return");
}

// A result computed in an argument's buffer (a donated argument) must be
// the one that argument takes in the next step; the loss is in none.
TEST(StepBindingTest, ResultsInArguments) {
  FunctionSignature s = linearStepSignature();
  s.results[0].inArgument = 0;
  s.results[3].inArgument = 3;
  EXPECT_EQ(bound(s).feedsArg, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, -1}));
  s.results[1].inArgument = 0;
  EXPECT_EQ(bindError(s), "result #1 of @linear_step is computed in the "
                          "buffer of argument #0, which is not the argument "
                          "it becomes in the next step");
  s = linearStepSignature();
  s.results[7].inArgument = 0;
  EXPECT_EQ(bindError(s), "result #7 of @linear_step is computed in the "
                          "buffer of argument #0, which is not the argument "
                          "it becomes in the next step");
}

TEST(StepBindingTest, EvalFunction) {
  FunctionSignature step = linearStepSignature();
  StepBinding b = bound(step);
  auto evalError = [&](const FunctionSignature &eval) {
    Status s = checkEvalFunction(eval, step, b);
    return s.failed() ? s.message() : "(ok)";
  };
  FunctionSignature eval = linearPredictSignature();
  EXPECT_EQ(evalError(eval), "(ok)");
  eval.args.insert(eval.args.begin(), eval.args[0]);
  EXPECT_EQ(evalError(eval), "@linear_predict's param #1 is [2, 2] f32, but "
                             "@linear_step's is [2] f32");
  eval = linearPredictSignature();
  eval.args.insert(eval.args.begin() + 2, eval.args[1]);
  EXPECT_EQ(evalError(eval),
            "@linear_predict takes more params than @linear_step");
  eval = linearPredictSignature();
  eval.args[2].shape = {8, 2};
  EXPECT_EQ(evalError(eval), "@linear_predict's input #0 is [8, 2] f32, but "
                             "@linear_step's is [4, 2] f32 (or the same with "
                             "a batch that divides it)");
  // One micro-batch of the step's (a step that accumulates gradients): its
  // logits have its batch.
  eval = linearPredictSignature();
  eval.args[2].shape = {2, 2};
  EXPECT_EQ(
      evalError(eval),
      "@linear_predict must take (params..., buffers..., inputs..., "
      "[label]) with @linear_step's 1 input(s) and return f32 logits of the "
      "labels' shape and then the classes ([batch, classes]; classes "
      ">= 1), or the loss (0-d f32)");
  eval.results[0].shape = {2, 2};
  EXPECT_EQ(evalError(eval), "(ok)");
  eval.args[2].shape = {3, 2};
  eval.results[0].shape = {3, 2};
  EXPECT_EQ(evalError(eval), "@linear_predict's input #0 is [3, 2] f32, but "
                             "@linear_step's is [4, 2] f32 (or the same with "
                             "a batch that divides it)");
  eval.args[2].shape = {2, 3};
  EXPECT_EQ(evalError(eval), "@linear_predict's input #0 is [2, 3] f32, but "
                             "@linear_step's is [4, 2] f32 (or the same with "
                             "a batch that divides it)");
  eval = linearPredictSignature();
  eval.args.push_back(eval.args[2]);
  EXPECT_EQ(evalError(eval),
            "@linear_predict takes more inputs than @linear_step");
  // A model that reads its labels (an encoder-decoder's decoder) takes the
  // step's label, or one micro-batch of it.
  eval = linearPredictSignature();
  eval.args.push_back(step.args[8]);
  EXPECT_EQ(evalError(eval), "(ok)");
  eval.args.back().shape = {2};
  eval.args[2].shape = {2, 2};
  eval.results[0].shape = {2, 2};
  EXPECT_EQ(evalError(eval), "(ok)");
  eval.args.back().shape = {4};
  EXPECT_EQ(evalError(eval),
            "@linear_predict's inputs have different batches (2 and 4)");
  eval = linearPredictSignature();
  eval.args.push_back(step.args[8]);
  eval.args.back().type = ElementType::I64;
  EXPECT_EQ(evalError(eval),
            "@linear_predict takes more than one label, or one that is [4] "
            "i64, not @linear_step's label [4] i32 (or the same with a batch "
            "that divides it)");
  eval.args.back().type = ElementType::I32;
  eval.args.push_back(step.args[8]);
  EXPECT_EQ(evalError(eval),
            "@linear_predict takes more than one label, or one that is [4] "
            "i32, not @linear_step's label [4] i32 (or the same with a batch "
            "that divides it)");
  eval = linearPredictSignature();
  eval.args.push_back(step.args[2]);
  EXPECT_EQ(evalError(eval), "@linear_predict arguments must be params, "
                             "buffers, inputs and the label");
  const std::string mustReturnLogits =
      "@linear_predict must take (params..., buffers..., inputs..., "
      "[label]) with @linear_step's "
      "1 input(s) and return f32 logits of the labels' shape and then the "
      "classes ([batch, classes]; classes >= 1), or the loss (0-d f32)";
  eval = linearPredictSignature();
  eval.results[0].shape = {4};
  EXPECT_EQ(evalError(eval), mustReturnLogits);
  eval = linearPredictSignature();
  eval.args.pop_back();
  EXPECT_EQ(evalError(eval), mustReturnLogits);
  // Logits of no class: argmax over nothing.
  eval = linearPredictSignature();
  eval.results[0].shape[1] = 0;
  EXPECT_EQ(evalError(eval), mustReturnLogits);
  // The loss (a loss written out of other ops): it takes the label, and
  // every input.
  eval = linearPredictSignature();
  eval.args.push_back(step.args[8]);
  eval.results[0].shape = {};
  EXPECT_EQ(evalError(eval), "(ok)");
  const std::string lossNeedsLabel =
      "@linear_predict returns the loss, so it must take (params..., "
      "buffers..., inputs..., label) with @linear_step's 1 input(s)";
  eval.args.pop_back();
  EXPECT_EQ(evalError(eval), lossNeedsLabel);
  eval.args.push_back(step.args[8]);
  eval.args.erase(eval.args.begin() + 2);
  EXPECT_EQ(evalError(eval), lossNeedsLabel);
  // Not f32.
  eval = linearPredictSignature();
  eval.args.push_back(step.args[8]);
  eval.results[0].shape = {};
  eval.results[0].type = ElementType::F16;
  EXPECT_EQ(evalError(eval), mustReturnLogits);
}

TEST(StepBindingTest, UnderflowProbe) {
  FunctionSignature step = linearStepSignature();
  StepBinding b = bound(step);
  FunctionSignature probe;
  probe.name = "grads";
  probe.args = {step.args[0], step.args[7], step.args[8]};
  probe.results = {tensor(std::nullopt, {4, 2})};
  EXPECT_TRUE(checkUnderflowProbe(probe, step, b).succeeded());
  std::vector<void *> stepArgs;
  for (int i = 0; i < 9; ++i)
    stepArgs.push_back(reinterpret_cast<void *>(uintptr_t(0x100 + i)));
  void *result = reinterpret_cast<void *>(uintptr_t(0x200));
  EXPECT_EQ(
      bindCallArgs(probe, b, stepArgs, {result}),
      (std::vector<void *>{stepArgs[0], stepArgs[7], stepArgs[8], result}));

  probe.results[0].type = ElementType::F16;
  EXPECT_EQ(checkUnderflowProbe(probe, step, b).message(),
            "@grads must return f32 tensors");
  probe.results[0].type = ElementType::F32;
  probe.args.push_back(step.args[2]);
  EXPECT_EQ(checkUnderflowProbe(probe, step, b).message(),
            "@grads takes params, buffers, inputs and a label");
  probe.args.pop_back();
  probe.args[2].type = ElementType::I64;
  EXPECT_EQ(checkUnderflowProbe(probe, step, b).message(),
            "@grads's label must have the type of @linear_step's");
}

namespace {
/// linear_step with a buffer and moving averages (nn-autodiff's ema-decay):
/// one per param, then with `bufferAverages` one for the buffer, and their
/// count; arguments 0-1 params, 7 input, 8 label, 9 the buffer, then the
/// averages and the count.
FunctionSignature averagedStep(bool bufferAverages) {
  FunctionSignature s = linearStepSignature();
  std::vector<TensorDesc> added = {tensor(Role::Buffer, {3}),
                                   tensor(Role::Ema, {2, 2}),
                                   tensor(Role::Ema, {2})};
  if (bufferAverages)
    added.push_back(tensor(Role::Ema, {3}));
  added.push_back(tensor(Role::EmaCount, {}, ElementType::I64));
  for (const TensorDesc &arg : added) {
    s.args.push_back(arg);
    s.results.push_back(arg);
  }
  return s;
}
} // namespace

// The averaged model's params are the averages; its buffers are the
// model's, or their averages when the step keeps them (ema-buffers).
TEST(StepBindingTest, MovingAverages) {
  FunctionSignature eval;
  eval.name = "forward";
  const TensorDesc input = linearStepSignature().args[7];
  eval.args = {tensor(Role::Param, {2, 2}), tensor(Role::Param, {2}),
               tensor(Role::Buffer, {3}), input};
  eval.results = {tensor(std::nullopt, {input.shape[0], 2})};
  for (bool bufferAverages : {false, true}) {
    FunctionSignature step = averagedStep(bufferAverages);
    StepBinding b = bound(step);
    EXPECT_EQ(b.args(Role::Ema).size(), bufferAverages ? 3u : 2u);
    EXPECT_EQ(b.args(Role::EmaCount),
              (std::vector<int>{bufferAverages ? 13 : 12}));
    EXPECT_EQ(checkEvalFunction(eval, step, b).message(), "");
    std::vector<void *> stepArgs;
    for (size_t i = 0; i < step.args.size(); ++i)
      stepArgs.push_back(reinterpret_cast<void *>(uintptr_t(0x100 + i)));
    EXPECT_EQ(bindCallArgs(eval, b, stepArgs, {}),
              (std::vector<void *>{stepArgs[0], stepArgs[1], stepArgs[9],
                                   stepArgs[7]}));
    EXPECT_EQ(
        bindCallArgs(eval, b, stepArgs, {}, Role::Ema),
        (std::vector<void *>{stepArgs[10], stepArgs[11],
                             stepArgs[bufferAverages ? 12 : 9], stepArgs[7]}));
  }
}

TEST(StepBindingTest, MovingAverageErrors) {
  FunctionSignature s = averagedStep(false);
  s.args.erase(s.args.begin() + 11);
  s.results.erase(s.results.begin() + 11);
  EXPECT_EQ(bindError(s),
            "@linear_step takes 1 ema argument(s), 2 param(s) and 1 "
            "buffer(s): an average of each param, then of each buffer or of "
            "none");
  s = averagedStep(false);
  s.args[11].shape = s.results[11].shape = {3};
  EXPECT_EQ(bindError(s), "ema argument #11 of @linear_step is [3] f32, but "
                          "argument #1 it averages is [2] f32");
  s = averagedStep(false);
  s.args[12].type = s.results[12].type = ElementType::F32;
  EXPECT_EQ(bindError(s), "@linear_step takes ema arguments, so it needs "
                          "exactly one ema_count argument, a 0-d i64");
  s = averagedStep(false);
  s.args.pop_back();
  s.results.pop_back();
  EXPECT_EQ(bindError(s), "@linear_step takes ema arguments, so it needs "
                          "exactly one ema_count argument, a 0-d i64");
}
