//===- UnderflowReport.cpp - how many gradients an f16 cast loses ---------===//
//
// --underflow-report runs a probe function (params..., input, label) -> f32
// tensors on the first training batch and counts, per result, the non-zero
// values that round to zero or to a subnormal in f16 (docs/underflow.md).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Text.h"
#include "amp/Runner/Trainer.h"

#include <cmath>

using namespace amp::runner;

static double percent(int64_t part, int64_t whole) {
  return whole ? 100.0 * part / whole : 0.0;
}

Status Trainer::reportUnderflow(const EntryPoints &entry, std::ostream &out) {
  const FunctionSignature &probe = *program.underflowProbe;
  assembleBatch(split.train, 0, staging[current]);
  if (Status s = uploadBatch(staging[current]); s.failed())
    return s;
  std::vector<DeviceBuffer> outs;
  std::vector<void *> results;
  for (const TensorDesc &result : probe.results) {
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, result.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    results.push_back(buffer->data());
    outs.push_back(std::move(*buffer));
  }
  std::vector<void *> pointers =
      bindCallArgs(probe, binding, argPointers(), results);
  if (Status s = call(entry.underflowProbe, pointers, "@" + probe.name, entry);
      s.failed())
    return s;
  int64_t totalNonzero = 0, totalFlushed = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    std::vector<float> values(probe.results[i].numElements());
    if (Status s = outs[i].download(values.data()); s.failed())
      return s;
    int64_t nonzero = 0, flushed = 0, subnormal = 0;
    for (float x : values) {
      float a = std::fabs(x);
      if (a == 0.0f)
        continue;
      ++nonzero;
      // Round-to-nearest-even to f16: |x| <= 2^-25 becomes 0 (2^-25 is the
      // tie between 0 and the smallest subnormal 2^-24).
      if (a <= 0x1p-25f)
        ++flushed;
      else if (a < 0x1p-14f)
        ++subnormal;
    }
    totalNonzero += nonzero;
    totalFlushed += flushed;
    out << "underflow: result #" << i << " (" << values.size() << " values, "
        << nonzero
        << " non-zero): " << formatString("%.2f%%", percent(flushed, nonzero))
        << " flush to zero in f16, "
        << formatString("%.2f%%", percent(subnormal, nonzero))
        << " become f16 subnormals\n";
  }
  out << "underflow: overall "
      << formatString("%.2f%%", percent(totalFlushed, totalNonzero))
      << " of non-zero gradient values flush to zero in f16\n";
  return Status::success();
}
