//===- StepBinding.cpp - bind a step's arguments and results by role ------===//

#include "amp/Runner/StepBinding.h"

#include "amp/Runner/ParamsFile.h"

#include <algorithm>

using namespace amp::runner;

const std::vector<int> &StepBinding::args(Role role) const {
  static const std::vector<int> none;
  auto it = argsByRole.find(role);
  return it == argsByRole.end() ? none : it->second;
}

StatusOr<StepBinding> amp::runner::bindStep(const FunctionSignature &step) {
  const std::string fn = "@" + step.name;
  StepBinding b;
  for (size_t i = 0; i < step.args.size(); ++i) {
    const std::optional<Role> &role = step.args[i].role;
    if (!role)
      return Status::error("argument #" + std::to_string(i) + " of " + fn +
                           " has no nn.role (param, opt_state, input, label, "
                           "...)");
    if (isReportedRole(*role))
      return Status::error("argument #" + std::to_string(i) + " of " + fn +
                           " has nn.role \"" + roleName(*role) +
                           "\", which a step returns but does not take");
    b.argsByRole[*role].push_back(i);
    if (*role != Role::Label)
      continue;
    if (b.label >= 0)
      return Status::error(fn + " has more than one label argument");
    b.label = i;
  }
  if (b.inputs().empty())
    return Status::error(fn + " needs an argument with nn.role = "
                              "#nn.role<input> (or more, one per model "
                              "input), and one with #nn.role<label> unless "
                              "its loss reads only the inputs");

  // The moving averages (nn-autodiff's ema-decay): one per param, then
  // with ema-buffers one per buffer, of its type, and the 0-d i64 count of
  // their updates.
  std::vector<int> averaged = b.args(Role::Param);
  const std::vector<int> &buffers = b.args(Role::Buffer),
                         &averages = b.args(Role::Ema),
                         &counts = b.args(Role::EmaCount);
  if (averages.size() > averaged.size())
    averaged.insert(averaged.end(), buffers.begin(), buffers.end());
  if (!averages.empty() || !counts.empty()) {
    if (averages.size() != averaged.size())
      return Status::error(
          fn + " takes " + std::to_string(averages.size()) +
          " ema argument(s), " + std::to_string(b.args(Role::Param).size()) +
          " param(s) and " + std::to_string(buffers.size()) +
          " buffer(s): an average of each param, then of each buffer or "
          "of none");
    for (size_t k = 0; k < averaged.size(); ++k)
      if (step.args[averages[k]].shape != step.args[averaged[k]].shape ||
          step.args[averages[k]].type != step.args[averaged[k]].type)
        return Status::error(
            "ema argument #" + std::to_string(averages[k]) + " of " + fn +
            " is " + describeType(step.args[averages[k]]) + ", but argument #" +
            std::to_string(averaged[k]) + " it averages is " +
            describeType(step.args[averaged[k]]));
    if (counts.size() != 1 || !step.args[counts[0]].shape.empty() ||
        step.args[counts[0]].type != ElementType::I64)
      return Status::error(fn + " takes ema arguments, so it needs exactly "
                                "one ema_count argument, a 0-d i64");
  }

  std::map<Role, int> seen;
  b.feedsArg.assign(step.results.size(), -1);
  for (size_t j = 0; j < step.results.size(); ++j) {
    const TensorDesc &result = step.results[j];
    std::string name = "result #" + std::to_string(j);
    if (!result.role)
      return Status::error(name + " of " + fn + " has no nn.role");
    Role role = *result.role;
    if (isReportedRole(role)) {
      int &index = role == Role::Loss ? b.loss
                   : role == Role::Lr ? b.lr
                                      : b.gradNorm;
      if (index >= 0 || !result.shape.empty() ||
          result.type != ElementType::F32)
        return Status::error(fn + " must return " +
                             (role == Role::Loss ? "exactly" : "at most") +
                             " one 0-d f32 " + roleName(role));
      index = j;
      continue;
    }
    if (!isThreadedRole(role))
      return Status::error(name + " of " + fn + " has nn.role \"" +
                           roleName(role) +
                           "\", which a step takes but does not return");
    int k = seen[role]++;
    const std::vector<int> &candidates = b.args(role);
    if (k >= static_cast<int>(candidates.size()))
      return Status::error(name + " (" + roleName(role) + ") of " + fn +
                           " has no matching argument with that role");
    int a = candidates[k];
    if (step.args[a].shape != result.shape || step.args[a].type != result.type)
      return Status::error(name + " (" + roleName(role) +
                           ") does not have the type of argument #" +
                           std::to_string(a));
    b.feedsArg[j] = a;
    if (role == Role::LossScale)
      b.lossScale = j;
    if (role == Role::FoundInf)
      b.foundInf = j;
    if (role == Role::GrowthTracker)
      b.growthTracker = j;
  }
  if (b.loss < 0)
    return Status::error(fn +
                         " returns no loss (a result with nn.role = #nn.role<loss>)");
  // A result computed in an argument's buffer must be the one that argument
  // takes in the next step: the state is then threaded without a copy.
  for (size_t j = 0; j < step.results.size(); ++j)
    if (std::optional<int> a = step.results[j].inArgument;
        a && *a != b.feedsArg[j])
      return Status::error("result #" + std::to_string(j) + " of " + fn +
                           " is computed in the buffer of argument #" +
                           std::to_string(*a) +
                           ", which is not the argument it becomes in the "
                           "next step");
  for (const auto &[role, indices] : b.argsByRole)
    if (role != Role::Input && role != Role::Label &&
        seen[role] != static_cast<int>(indices.size()))
      return Status::error(fn + " takes " + std::to_string(indices.size()) +
                           " " + roleName(role) + " argument(s) but returns " +
                           std::to_string(seen[role]));
  return b;
}

/// Param (or buffer) #index of a function that shares the step's params
/// and buffers.
static Status checkParam(const TensorDesc &param, size_t index,
                         const std::string &fn, const FunctionSignature &step,
                         const StepBinding &binding) {
  const std::string role = roleName(*param.role);
  const std::vector<int> &stepParams = binding.args(*param.role);
  if (index >= stepParams.size())
    return Status::error(fn + " takes more " + role + "s than @" + step.name);
  const TensorDesc &stepParam = step.args[stepParams[index]];
  if (param.shape != stepParam.shape || param.type != stepParam.type)
    return Status::error(fn + "'s " + role + " #" + std::to_string(index) +
                         " is " + describeType(param) + ", but @" + step.name +
                         "'s is " + describeType(stepParam));
  return Status::success();
}

/// Whether a function that shares the step's state takes `role`'s
/// arguments as the step's, in order.
static bool isSharedState(const std::optional<Role> &role) {
  return role == Role::Param || role == Role::Buffer;
}

/// Whether `input` has the shape of `stepInput` but for a batch that
/// divides the step's: one micro-batch of a step that accumulates
/// gradients (nn-autodiff's accumulate-steps).
static bool isMicroBatchOf(const TensorDesc &input,
                           const TensorDesc &stepInput) {
  const std::vector<int64_t> &a = input.shape, &b = stepInput.shape;
  return !a.empty() && a.size() == b.size() && a[0] >= 1 && b[0] % a[0] == 0 &&
         std::equal(a.begin() + 1, a.end(), b.begin() + 1);
}

/// Input #index of a function that takes the step's inputs in order (or,
/// with `microBatch`, inputs of one micro-batch of them).
static Status checkInput(const TensorDesc &input, size_t index,
                         const std::string &fn, const FunctionSignature &step,
                         const StepBinding &binding, bool microBatch) {
  if (index >= binding.inputs().size())
    return Status::error(fn + " takes more inputs than @" + step.name);
  const TensorDesc &stepInput = step.args[binding.inputs()[index]];
  if (input.type != stepInput.type ||
      (input.shape != stepInput.shape &&
       !(microBatch && isMicroBatchOf(input, stepInput))))
    return Status::error(fn + "'s input #" + std::to_string(index) + " is " +
                         describeType(input) + ", but @" + step.name +
                         "'s is " + describeType(stepInput) +
                         (microBatch ? " (or the same with a batch that "
                                       "divides it)"
                                     : ""));
  return Status::success();
}

Status amp::runner::checkEvalFunction(const FunctionSignature &eval,
                                      const FunctionSignature &step,
                                      const StepBinding &binding) {
  const std::string fn = "@" + eval.name;
  std::map<Role, size_t> state;
  size_t inputs = 0, labels = 0;
  std::optional<int64_t> batch;
  for (const TensorDesc &arg : eval.args) {
    Status s = Status::success();
    if (isSharedState(arg.role))
      s = checkParam(arg, state[*arg.role]++, fn, step, binding);
    else if (arg.role == Role::Input)
      s = checkInput(arg, inputs++, fn, step, binding, /*microBatch=*/true);
    else if (arg.role != Role::Label)
      s = Status::error(fn + " arguments must be params, buffers, inputs "
                             "and the label");
    else if (!binding.hasLabel())
      s = Status::error(fn + " takes a label, but @" + step.name + " has none");
    else if (const TensorDesc &stepLabel = step.args[binding.label];
             labels++ || arg.shape.empty() ||
             !(arg.shape == stepLabel.shape ||
               isMicroBatchOf(arg, stepLabel)) ||
             arg.type != stepLabel.type)
      s = Status::error(fn + " takes more than one label, or one that is " +
                        describeType(arg) + ", not @" + step.name +
                        "'s label " + describeType(stepLabel) +
                        " (or the same with a batch that divides it)");
    if (s.failed())
      return s;
    if (arg.role == Role::Input || arg.role == Role::Label) {
      if (batch && *batch != arg.shape[0])
        return Status::error(fn + "'s inputs have different batches (" +
                             std::to_string(*batch) + " and " +
                             std::to_string(arg.shape[0]) + ")");
      batch = arg.shape[0];
    }
  }
  // Or the loss itself (a loss written out of other ops), which needs the
  // label.
  if (eval.results.size() == 1 && eval.results[0].shape.empty() &&
      eval.results[0].type == ElementType::F32) {
    if (inputs != binding.inputs().size() ||
        labels != (binding.hasLabel() ? 1u : 0u))
      return Status::error(
          fn + " returns the loss, so it must take (params..., buffers..., " +
          (binding.hasLabel() ? "inputs..., label" : "inputs...") + ") with @" +
          step.name + "'s " + std::to_string(binding.inputs().size()) +
          " input(s)");
    return Status::success();
  }
  if (!binding.hasLabel())
    return Status::error(fn + " must return the loss (0-d f32): @" + step.name +
                         " has no label to score predictions against");
  const TensorDesc &stepLabel = step.args[binding.label];
  // The logits: the labels' shape (with the inputs' batch), then the
  // classes; a regression's predictions (f32 labels): the labels' shape.
  std::vector<int64_t> labelShape = stepLabel.shape;
  if (batch && !labelShape.empty())
    labelShape[0] = *batch;
  const bool targets = stepLabel.type == ElementType::F32;
  const std::vector<int64_t> *logits =
      eval.results.size() == 1 ? &eval.results[0].shape : nullptr;
  if (inputs != binding.inputs().size() || !logits ||
      logits->size() != labelShape.size() + (targets ? 0 : 1) ||
      !std::equal(labelShape.begin(), labelShape.end(), logits->begin()) ||
      (!targets && logits->back() < 1) ||
      eval.results[0].type != ElementType::F32)
    return Status::error(
        fn + " must take (params..., buffers..., inputs..., [label]) with @" +
        step.name + "'s " + std::to_string(binding.inputs().size()) +
        " input(s) and return " +
        (targets ? "f32 predictions of the labels' shape (the targets')"
                 : "f32 logits of the labels' shape and then the classes "
                   "([batch, classes]; classes >= 1)") +
        ", or the loss (0-d f32)");
  return Status::success();
}

Status amp::runner::checkUnderflowProbe(const FunctionSignature &probe,
                                        const FunctionSignature &step,
                                        const StepBinding &binding) {
  const std::string fn = "@" + probe.name;
  std::map<Role, size_t> state;
  size_t inputs = 0;
  for (const TensorDesc &arg : probe.args) {
    Status s = Status::success();
    if (isSharedState(arg.role))
      s = checkParam(arg, state[*arg.role]++, fn, step, binding);
    else if (arg.role == Role::Input)
      s = checkInput(arg, inputs++, fn, step, binding, /*microBatch=*/false);
    else if (arg.role != Role::Label)
      s = Status::error(fn + " takes params, buffers, inputs and a label");
    else if (!binding.hasLabel())
      s = Status::error(fn + " takes a label, but @" + step.name + " has none");
    else if (const TensorDesc &label = step.args[binding.label];
             arg.shape != label.shape || arg.type != label.type)
      s = Status::error(fn + "'s label must have the type of @" + step.name +
                        "'s");
    if (s.failed())
      return s;
  }
  for (const TensorDesc &result : probe.results)
    if (result.type != ElementType::F32)
      return Status::error(fn + " must return f32 tensors");
  return Status::success();
}

std::vector<void *>
amp::runner::bindCallArgs(const FunctionSignature &fn,
                          const StepBinding &binding,
                          const std::vector<void *> &stepArgs,
                          const std::vector<void *> &results, Role weights) {
  std::vector<void *> pointers;
  std::map<Role, size_t> state;
  size_t input = 0;
  // The model's params, then its buffers (those of the averaged model with
  // weights = Role::Ema).
  const std::vector<int> &params = binding.args(Role::Param);
  const std::vector<int> model = weightArgs(
      weights, params, binding.args(Role::Buffer), binding.args(Role::Ema));
  auto stepArg = [&](Role role, size_t k) {
    return model[role == Role::Param ? k : params.size() + k];
  };
  for (const TensorDesc &arg : fn.args) {
    if (isSharedState(arg.role))
      pointers.push_back(stepArgs[stepArg(*arg.role, state[*arg.role]++)]);
    else if (arg.role == Role::Input)
      pointers.push_back(stepArgs[binding.inputs()[input++]]);
    else
      pointers.push_back(stepArgs[binding.label]);
  }
  pointers.insert(pointers.end(), results.begin(), results.end());
  return pointers;
}
