//===- StepBinding.cpp - bind a step's arguments and results by role ------===//

#include "amp/Runner/StepBinding.h"

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
    b.argsByRole[*role].push_back(i);
    int *slot = *role == Role::Input   ? &b.input
                : *role == Role::Label ? &b.label
                                       : nullptr;
    if (slot && *slot >= 0)
      return Status::error(fn + " has more than one " + roleName(*role) +
                           " argument");
    if (slot)
      *slot = i;
  }
  if (b.input < 0 || b.label < 0)
    return Status::error(fn + " needs one argument with nn.role = #nn.role<input> "
                              "and one with #nn.role<label>");

  std::map<Role, int> seen;
  b.feedsArg.assign(step.results.size(), -1);
  for (size_t j = 0; j < step.results.size(); ++j) {
    const TensorDesc &result = step.results[j];
    std::string name = "result #" + std::to_string(j);
    if (result.role == Role::Loss) {
      if (b.loss >= 0 || !result.shape.empty() ||
          result.type != ElementType::F32)
        return Status::error(fn + " must return exactly one 0-d f32 loss");
      b.loss = j;
      continue;
    }
    if (!result.role)
      return Status::error(name + " of " + fn + " has no nn.role");
    Role role = *result.role;
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
  for (const auto &[role, indices] : b.argsByRole)
    if (role != Role::Input && role != Role::Label &&
        seen[role] != static_cast<int>(indices.size()))
      return Status::error(fn + " takes " + std::to_string(indices.size()) +
                           " " + roleName(role) + " argument(s) but returns " +
                           std::to_string(seen[role]));
  return b;
}

/// Param #index of a function that shares the step's params.
static Status checkParam(const TensorDesc &param, size_t index,
                         const std::string &fn, const FunctionSignature &step,
                         const StepBinding &binding) {
  const std::vector<int> &stepParams = binding.args(Role::Param);
  if (index >= stepParams.size())
    return Status::error(fn + " takes more params than @" + step.name);
  const TensorDesc &stepParam = step.args[stepParams[index]];
  if (param.shape != stepParam.shape || param.type != stepParam.type)
    return Status::error(fn + "'s param #" + std::to_string(index) + " is " +
                         describeType(param) + ", but @" + step.name +
                         "'s is " + describeType(stepParam));
  return Status::success();
}

Status amp::runner::checkEvalFunction(const FunctionSignature &eval,
                                      const FunctionSignature &step,
                                      const StepBinding &binding) {
  const std::string fn = "@" + eval.name;
  const TensorDesc &input = step.args[binding.input];
  size_t params = 0;
  bool sawInput = false;
  for (const TensorDesc &arg : eval.args) {
    if (arg.role == Role::Param) {
      if (Status s = checkParam(arg, params++, fn, step, binding); s.failed())
        return s;
    } else if (arg.role == Role::Input && !sawInput) {
      if (arg.shape != input.shape || arg.type != input.type)
        return Status::error(fn + "'s input must have the training input's "
                                  "shape and type");
      sawInput = true;
    } else {
      return Status::error(fn + " arguments must be params and one input");
    }
  }
  int64_t batch = input.shape.empty() ? 0 : input.shape[0];
  if (!sawInput || eval.results.size() != 1 ||
      eval.results[0].shape.size() != 2 || eval.results[0].shape[0] != batch ||
      eval.results[0].shape[1] < 1 || eval.results[0].type != ElementType::F32)
    return Status::error(fn + " must take (params..., input) and return "
                              "[batch, classes] f32 logits (classes >= 1)");
  return Status::success();
}

Status amp::runner::checkUnderflowProbe(const FunctionSignature &probe,
                                        const FunctionSignature &step,
                                        const StepBinding &binding) {
  const std::string fn = "@" + probe.name;
  size_t params = 0;
  for (const TensorDesc &arg : probe.args) {
    if (arg.role == Role::Param) {
      if (Status s = checkParam(arg, params++, fn, step, binding); s.failed())
        return s;
      continue;
    }
    const TensorDesc *bound =
        arg.role == Role::Input   ? &step.args[binding.input]
        : arg.role == Role::Label ? &step.args[binding.label]
                                  : nullptr;
    if (!bound)
      return Status::error(fn + " takes params, an input and a label");
    if (arg.shape != bound->shape || arg.type != bound->type)
      return Status::error(fn + "'s " + roleName(*arg.role) +
                           " must have the type of @" + step.name + "'s");
  }
  for (const TensorDesc &result : probe.results)
    if (result.type != ElementType::F32)
      return Status::error(fn + " must return f32 tensors");
  return Status::success();
}

std::vector<void *> amp::runner::bindCallArgs(
    const FunctionSignature &fn, const StepBinding &binding,
    const std::vector<void *> &stepArgs, const std::vector<void *> &results) {
  std::vector<void *> pointers;
  size_t param = 0;
  for (const TensorDesc &arg : fn.args) {
    if (arg.role == Role::Param)
      pointers.push_back(stepArgs[binding.args(Role::Param)[param++]]);
    else if (arg.role == Role::Input)
      pointers.push_back(stepArgs[binding.input]);
    else
      pointers.push_back(stepArgs[binding.label]);
  }
  pointers.insert(pointers.end(), results.begin(), results.end());
  return pointers;
}
