//===- Evaluate.cpp - held-out accuracy -----------------------------------===//
//
// Runs the eval function (params..., input) -> [batch, classes] logits over
// the held-out rows with the trained params and counts argmax hits. The last
// partial batch is padded with the first held-out rows and only its real
// rows are scored.
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
  int64_t classes = eval.results[0].shape[1], correct = 0;
  int64_t rows = split.eval.size();
  std::vector<float> hostLogits(batch * classes);
  for (int64_t start = 0; start < rows; start += batch) {
    assembleInputs(split.eval, start);
    if (Status s = uploadInputs(); s.failed())
      return s;
    if (Status s = call(entry.eval, pointers, "@" + eval.name, entry);
        s.failed())
      return s;
    if (Status s = logits->download(hostLogits.data()); s.failed())
      return s;
    for (int64_t r = 0; r < batch && start + r < rows; ++r) {
      const float *l = &hostLogits[r * classes];
      int64_t predicted = std::max_element(l, l + classes) - l;
      correct += predicted == data.y[split.eval[start + r]];
    }
  }
  out << "eval accuracy: " << formatString("%.4f", double(correct) / rows)
      << " (" << correct << "/" << rows << ")\n";
  return Status::success();
}
