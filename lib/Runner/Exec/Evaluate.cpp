//===- Evaluate.cpp - held-out accuracy -----------------------------------===//
//
// Runs the eval function (params..., inputs...) -> logits ([batch, classes],
// or [batch, seq, classes] for a label per position) over the held-out rows
// with the trained params and counts argmax hits (per position; positions
// whose label is the ignore_index, padding, do not count). The eval
// function's batch may be a micro-batch of the step's (a step that
// accumulates gradients): it reads the first rows of the step's input
// buffers. The last partial batch is padded with the first held-out rows
// and only its real rows are scored.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Text.h"
#include "amp/Runner/Trainer.h"

#include <algorithm>

using namespace amp::runner;

Status Trainer::evaluate(const EntryPoints &entry, std::ostream &out) {
  const FunctionSignature &eval = *program.eval;
  StatusOr<DeviceBuffer> logits =
      DeviceBuffer::allocate(rt, eval.results[0].bytes());
  if (logits.failed())
    return logits.takeStatus();
  std::vector<void *> pointers =
      bindCallArgs(eval, binding, argPointers(), {logits->data()});
  // A class per row, or a label per position (next-token accuracy).
  const int64_t classes = eval.results[0].shape.back();
  const int64_t labels = data.labelsPerRow;
  const std::optional<int64_t> ignore =
      program.step.args[binding.label].ignoreIndex;
  const int64_t evalBatch = eval.results[0].shape[0];
  int64_t rows = split.eval.size(), correct = 0, total = 0;
  std::vector<float> hostLogits(eval.results[0].numElements());
  for (int64_t start = 0; start < rows; start += evalBatch) {
    assembleInputs(split.eval, start);
    if (Status s = uploadInputs(); s.failed())
      return s;
    if (Status s = call(entry.eval, pointers, "@" + eval.name, entry);
        s.failed())
      return s;
    if (Status s = logits->download(hostLogits.data()); s.failed())
      return s;
    for (int64_t r = 0; r < evalBatch && start + r < rows; ++r)
      for (int64_t k = 0; k < labels; ++k) {
        const int64_t label = data.y[split.eval[start + r] * labels + k];
        if (label == ignore)
          continue; // padding
        const float *l = &hostLogits[(r * labels + k) * classes];
        int64_t predicted = std::max_element(l, l + classes) - l;
        correct += predicted == label;
        ++total;
      }
  }
  out << "eval accuracy: " << formatString("%.4f", double(correct) / total)
      << " (" << correct << "/" << total << (labels > 1 ? " positions" : "")
      << ")\n";
  return Status::success();
}
