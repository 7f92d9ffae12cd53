//===- Autodiff.h - training steps from forward loss functions --*- C++ -*-===//
//
// The C++ entry point behind nn-autodiff, for embedders that build training
// steps without running the pass by name.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_NN_TRANSFORMS_AUTODIFF_H
#define AMP_DIALECT_NN_TRANSFORMS_AUTODIFF_H

#include "amp/Dialect/NN/IR/LrSchedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/LogicalResult.h"

#include <optional>
#include <string>
#include <vector>

namespace amp::nn {

/// None returns the param gradients instead of updating the params (for
/// gradient checks and for callers with their own update).
enum class Optimizer {
  Sgd,
  Adam,
  AdamW,
  Radam,
  Rmsprop,
  Adagrad,
  Adafactor,
  None
};

/// The decay of ema-decay's averages at update t > 0 (t = 0 copies):
/// constant (AveragedModel); min(decay, (1 + t) / (10 + t)) (diffusers'
/// EMAModel); min(decay, 1 - (1 + t / gamma)^-power) (timm's ModelEmaV3
/// use_warmup, diffusers' use_ema_warmup).
enum class EmaWarmup { None, Ratio, Power };

/// The optimizer and its hyper-parameters (PyTorch's names and defaults).
struct AutodiffOptions {
  Optimizer optimizer = Optimizer::Sgd;
  /// The pass's options default to 1e-2 for RMSprop, Adagrad and
  /// Adafactor, as PyTorch's do; this struct's default is the others' 1e-3.
  double lr = 1e-3;
  /// SGD's and RMSprop's momentum.
  double momentum = 0.0;
  /// SGD's Nesterov momentum (momentum > 0).
  bool nesterov = false;
  double beta1 = 0.9;
  double beta2 = 0.999;
  /// Adam's AMSGrad variant (a max_exp_avg_sq per param).
  bool amsgrad = false;
  /// RAdam's decoupled weight decay (AdamW's), instead of its L2 penalty.
  bool decoupledWeightDecay = false;
  /// Adam's, RMSprop's and Adagrad's epsilon (the pass's option defaults
  /// to PyTorch's 1e-10 for Adagrad).
  double eps = 1e-8;
  /// RMSprop's smoothing constant, and whether it is centered (the
  /// variance estimate less the squared mean gradient).
  double alpha = 0.99;
  bool centered = false;
  /// Adagrad's initial state_sum (the opt_state arguments' nn.init).
  double initialAccumulatorValue = 0.0;
  /// Adagrad's lr decay (a step counter per param when > 0).
  double lrDecay = 0.0;
  /// Adafactor's decay exponent of the second moments' weight, its floors
  /// (eps1 unset: f32's epsilon, PyTorch's None for f32 params) and the
  /// clipping threshold d of the update's root mean square.
  double beta2Decay = -0.8;
  std::optional<double> eps1;
  double eps2 = 1e-3;
  double adafactorD = 1.0;
  /// Unset: 0, except 0.01 for AdamW.
  std::optional<double> weightDecay;
  /// The params without weight decay (PyTorch's param group with
  /// weight_decay = 0): those whose name (NameLoc) contains one of these
  /// strings, and with noDecay1d those of rank 0 or 1.
  std::vector<std::string> noDecay;
  bool noDecay1d = false;
  /// Params with their own learning rate (PyTorch's param group with its
  /// own lr): a param whose name contains the string of an entry trains
  /// with its lr (the first entry that matches), the others with `lr`.
  std::vector<std::pair<std::string, double>> paramLr;
  /// The learning-rate schedule (nn.lr_schedule, its step counter a
  /// schedule_state argument after the opt_state); unset is a constant lr.
  std::optional<LrSchedule> lrSchedule;
  /// Gradient accumulation: the step takes K micro-batches ([K * B, ...]
  /// inputs and labels), runs the forward and backward pass of each in turn
  /// and sums their gradients (each loss divided by K) before one update.
  int64_t accumulateSteps = 1;
  /// The global norm the gradients are clipped to (after clipValue's
  /// clamping, when both are on); 0 is off.
  double clipNorm = 0.0;
  /// Which norm clipNorm bounds: p > 0 (the p-norm) or inf (the largest
  /// magnitude), clip_grad_norm_'s norm_type.
  double clipNormType = 2.0;
  /// Every gradient element is clamped to [-clipValue, clipValue]
  /// (clip_grad_value_); 0 is off.
  double clipValue = 0.0;
  /// Also keep the forward pass as @<name>_forward (predictions out).
  bool keepForward = false;
  /// New dropout masks each step: the seed of every training nn.dropout is
  /// offset by an rng_state argument, the count of earlier steps (the
  /// step returns it plus one); false keeps one mask for every step.
  bool stepDropoutMasks = true;
  /// An exponential moving average of the params with this decay, after
  /// every update (ema and ema_count arguments); 0 is off.
  double emaDecay = 0.0;
  /// Average the buffers too (AveragedModel's use_buffers=True).
  bool emaBuffers = false;
  /// How the averages' decay ramps up to emaDecay, and the gamma and power
  /// of EmaWarmup::Power.
  EmaWarmup emaWarmup = EmaWarmup::None;
  double emaWarmupGamma = 1.0;
  double emaWarmupPower = 2.0 / 3.0;
};

/// "sgd" / "adam" / "adamw" / "radam" / "rmsprop" / "adagrad" /
/// "adafactor" / "none", or nullopt.
std::optional<Optimizer> parseOptimizer(llvm::StringRef name);

/// Parses nn-autodiff's pass options ("optimizer=adamw lr=3e-4 ...", the
/// syntax of `--nn-autodiff="..."`) into AutodiffOptions, checking their
/// values; `entry` is not allowed here. On failure returns the message.
llvm::FailureOr<AutodiffOptions>
parseAutodiffOptions(llvm::StringRef text, std::string &error);

/// Whether `fn` has the form nn-autodiff takes: one result whose role is
/// loss, and any others `buffer` (the new values of its buffer arguments,
/// such as batch normalization's running statistics).
bool isForwardLossFunction(mlir::func::FuncOp fn);

/// The position of the loss among the results of a forward loss function.
unsigned getLossResultIndex(mlir::func::FuncOp fn);

/// Rewrites `fn` (a forward loss function) in place into its training step:
/// backward, clipping, optimizer update, new opt_state arguments and the
/// results of the training-step convention. Emits an error and fails on
/// input nn-autodiff does not take; `fn` is then left unchanged.
llvm::LogicalResult buildTrainingStep(mlir::func::FuncOp fn,
                                      const AutodiffOptions &options);

} // namespace amp::nn

#endif // AMP_DIALECT_NN_TRANSFORMS_AUTODIFF_H
