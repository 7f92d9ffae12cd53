//===- StepBinding.h - bind a step's arguments and results by role -*- C++ -*-//
//
// The role convention of a training step: every argument has a role; there
// are one or more input arguments (a model's inputs: features, or token ids
// and an attention mask, ...) and at most one label argument (none: a
// self-supervised loss, which reads only the inputs); each threaded result
// (param, buffer, opt_state, loss-scale state) feeds the next step's argument
// of the same role and position, with the same type; there is exactly one 0-d
// f32 loss, and at most one 0-d f32 lr and grad_norm (what the step reports
// besides the loss); a result the step computes in an argument's buffer
// (TensorDesc::inArgument) is the one that argument takes in the next step.
// bindStep checks it and says which argument feeds which result.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_STEPBINDING_H
#define AMP_RUNNER_STEPBINDING_H

#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"

#include <map>
#include <vector>

namespace amp::runner {

struct StepBinding {
  /// Argument indices per role, in argument order.
  std::map<Role, std::vector<int>> argsByRole;
  /// The label argument, or -1 when the step has none.
  int label = -1;
  /// Per result: the argument it becomes in the next step, or -1 (the loss,
  /// lr and grad_norm).
  std::vector<int> feedsArg;
  int loss = -1;
  /// The lr and grad_norm results, or -1 when the step has none.
  int lr = -1;
  int gradNorm = -1;
  /// Results of the loss-scale state, or -1 when the step has none.
  int lossScale = -1;
  int foundInf = -1;
  int growthTracker = -1;

  /// The argument indices with `role` (empty when there are none).
  const std::vector<int> &args(Role role) const;
  /// The input arguments, in argument order (at least one).
  const std::vector<int> &inputs() const { return args(Role::Input); }
  bool hasLabel() const { return label >= 0; }
};

StatusOr<StepBinding> bindStep(const FunctionSignature &step);

/// Checks that `eval` takes params, buffers and inputs matching `step`'s
/// (each role in order), and the label when the model reads it (an
/// encoder-decoder's decoder is fed its shifted labels), and returns
/// [batch, classes] f32 logits (predictions of the labels' shape for f32
/// labels), or takes the label (when the step has one) and returns the
/// loss, a 0-d f32.
Status checkEvalFunction(const FunctionSignature &eval,
                         const FunctionSignature &step,
                         const StepBinding &binding);

/// Checks that `probe` (--underflow-report) takes params, buffers, the inputs
/// (in order) and the label of `step` (when it has one) and returns f32
/// tensors.
Status checkUnderflowProbe(const FunctionSignature &probe,
                           const FunctionSignature &step,
                           const StepBinding &binding);

/// The buffer pointers of a call to `fn`, whose arguments are params, buffers,
/// inputs and label bound to `step`'s argument buffers `stepArgs` (each role
/// in order), followed by `results`. With `weights` = Role::Ema, `fn`'s
/// params and buffers are bound to the step's moving averages of them (the
/// averaged model).
std::vector<void *> bindCallArgs(const FunctionSignature &fn,
                                 const StepBinding &binding,
                                 const std::vector<void *> &stepArgs,
                                 const std::vector<void *> &results,
                                 Role weights = Role::Param);

} // namespace amp::runner

#endif // AMP_RUNNER_STEPBINDING_H
