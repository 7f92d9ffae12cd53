//===- Evaluate.cpp - held-out accuracy and loss --------------------------===//
//
// Runs the eval function (params..., inputs..., [label]) -> logits ([batch,
// classes], or [batch, seq, classes] for a label per position) over the
// held-out rows with the trained params, counts argmax hits and sums the
// cross-entropy of the logits (in f64: log-sum-exp minus the label's logit),
// per position; positions whose label is the ignore_index, padding, do not
// count. The eval function's batch may be a micro-batch of the step's (a step
// that accumulates gradients): it reads the first rows of the step's input
// buffers. The last partial batch is padded with the first held-out rows
// and only its real rows are scored. With a regression's f32 targets the
// eval function returns predictions of the targets' shape, and the scores
// are their mean squared error (in f64), as nn.mse_loss's, and their mean
// absolute error; with binary targets (nn.bce_with_logits_loss) it returns
// logits, and the scores are the hits of their signs (a logit above 0 for a
// target above 0.5) and their mean binary cross-entropy. An eval function
// that returns the loss itself (a loss written out of other ops, taking the
// labels) is scored by the mean of its losses over the whole batches of
// held-out rows.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Text.h"
#include "amp/Runner/Trainer.h"

#include <algorithm>
#include <cmath>

using namespace amp::runner;

/// The binary cross-entropy of logit x against probability t, as
/// nn.bce_with_logits_loss's: (1 - t) x + log(1 + exp(-x)), finite for any
/// finite x.
static double binaryCrossEntropy(double x, double t) {
  return (1 - t) * x + std::max(-x, 0.0) + std::log1p(std::exp(-std::abs(x)));
}

/// The cross-entropy of `logits` for class `label`: log(sum(exp(l))) -
/// l[label], with the max subtracted first.
static double crossEntropy(const float *logits, int64_t classes,
                           int64_t label) {
  const double top = *std::max_element(logits, logits + classes);
  double sum = 0;
  for (int64_t c = 0; c < classes; ++c)
    sum += std::exp(double(logits[c]) - top);
  return top + std::log(sum) - logits[label];
}

int64_t Trainer::evalRows() const {
  for (const TensorDesc &arg : program.eval->args)
    if (arg.role == Role::Input)
      return arg.shape[0];
  return 0; // checkEvalFunction makes sure there is an input
}

StatusOr<Trainer::EvalResult> Trainer::evaluate(const EntryPoints &entry) {
  const FunctionSignature &eval = *program.eval;
  StatusOr<DeviceBuffer> logits =
      DeviceBuffer::allocate(rt, eval.results[0].bytes());
  if (logits.failed())
    return logits.takeStatus();
  std::vector<void *> pointers =
      bindCallArgs(eval, binding, argPointers(), {logits->data()},
                   options.evalEma ? Role::Ema : Role::Param);
  const int64_t evalBatch = evalRows();
  const int64_t rows = split.eval.size();
  const bool readsLabel =
      std::any_of(eval.args.begin(), eval.args.end(),
                  [](const TensorDesc &a) { return a.role == Role::Label; });
  // Runs the eval function on the held-out rows from `start` into `out`. An
  // eval function that reads the labels (an encoder-decoder's shifted
  // decoder ids, a loss) gets the held-out rows' labels too.
  // staging[current]: its upload finished with the last step, and the
  // result's download waits for this one's.
  auto runBatch = [&](int64_t start, void *out) -> Status {
    HostBatch &host = staging[current];
    if (readsLabel) {
      assembleBatch(split.eval, start, host);
      if (Status s = uploadBatch(host); s.failed())
        return s;
    } else {
      assembleInputs(split.eval, start, host);
      if (Status s = uploadInputs(host); s.failed())
        return s;
    }
    if (Status s = call(entry.eval, pointers, "@" + eval.name, entry);
        s.failed())
      return s;
    return logits->download(out);
  };
  EvalResult result;
  if (lossEval) {
    // The mean of the losses of the whole batches (Trainer::create has made
    // sure there is one); the rows of a partial batch would be counted
    // twice in a batch padded with others, so they are left out.
    const int64_t batches = rows / evalBatch;
    for (int64_t b = 0; b < batches; ++b) {
      float loss = 0;
      if (Status s = runBatch(b * evalBatch, &loss); s.failed())
        return s;
      result.loss += loss;
    }
    result.loss /= double(batches);
    result.total = batches * evalBatch;
    result.leftOut = rows - result.total;
    return result;
  }
  // A class per row, or a label per position (next-token accuracy).
  const int64_t classes = eval.results[0].shape.back();
  const int64_t labels = data.labelsPerRow;
  const std::optional<int64_t> ignore =
      program.step.args[binding.label].ignoreIndex;
  std::vector<float> hostLogits(eval.results[0].numElements());
  for (int64_t start = 0; start < rows; start += evalBatch) {
    if (Status s = runBatch(start, hostLogits.data()); s.failed())
      return s;
    for (int64_t r = 0; r < evalBatch && start + r < rows; ++r)
      for (int64_t k = 0; k < labels; ++k) {
        const int64_t at = split.eval[start + r] * labels + k;
        if (binaryTargets) {
          const double x = hostLogits[r * labels + k], t = data.targets[at];
          result.loss += binaryCrossEntropy(x, t);
          result.correct += (x > 0) == (t > 0.5);
          ++result.total;
          continue;
        }
        if (targets) {
          const double error =
              double(hostLogits[r * labels + k]) - double(data.targets[at]);
          result.loss += error * error;
          result.absError += std::abs(error);
          ++result.total;
          continue;
        }
        const int64_t label = data.y[at];
        if (label == ignore)
          continue; // padding
        if (label < 0 || label >= classes)
          return Status::error("held-out label " + std::to_string(label) +
                               " is outside @" + eval.name + "'s " +
                               std::to_string(classes) + " classes");
        const float *l = &hostLogits[(r * labels + k) * classes];
        int64_t predicted = std::max_element(l, l + classes) - l;
        result.correct += predicted == label;
        result.loss += crossEntropy(l, classes, label);
        ++result.total;
      }
  }
  if (result.total > 0) {
    result.loss /= double(result.total);
    result.absError /= double(result.total);
  }
  return result;
}

std::string Trainer::describe(const EvalResult &r) const {
  if (lossEval)
    return "loss " + formatString("%.6g", r.loss) + " (" +
           std::to_string(r.total) + " rows" +
           (r.leftOut > 0
                ? "; " + std::to_string(r.leftOut) + " more fill no batch"
                : "") +
           ")";
  if (binaryTargets)
    return formatString("%.4f", double(r.correct) / double(r.total)) + " (" +
           std::to_string(r.correct) + "/" + std::to_string(r.total) +
           " targets), bce " + formatString("%.6g", r.loss);
  if (targets)
    return "mse " + formatString("%.6g", r.loss) + ", mae " +
           formatString("%.6g", r.absError) + " (" + std::to_string(r.total) +
           " targets)";
  return formatString("%.4f", double(r.correct) / double(r.total)) + " (" +
         std::to_string(r.correct) + "/" + std::to_string(r.total) +
         (data.labelsPerRow > 1 ? " positions" : "") + "), loss " +
         formatString("%.6g", r.loss);
}
