//===- LoaderFuzzers.cpp - libFuzzer targets of amp-run's loaders ---------===//
//
// amp-csv-fuzzer, amp-params-fuzzer, amp-npy-fuzzer and amp-npz-fuzzer
// (this file built four times, with AMP_FUZZ_CSV, AMP_FUZZ_PARAMS,
// AMP_FUZZ_NPY or AMP_FUZZ_NPZ): the CSV dataset parser, the params file
// parser plus the check against a fixed model, the .npy reader of `amp-run
// --function --input`, and the .npz archive reader of `amp-run --data`, on
// arbitrary bytes. Every input must end in a value or a Status with a message:
// no crash, no sanitizer report, no unbounded allocation.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Dataset.h"
#include "amp/Runner/NpzFile.h"
#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/TensorFile.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace amp::runner;

namespace {
[[noreturn]] void invariantBroken(const char *what) {
  __builtin_printf("fuzzer invariant broken: %s\n", what);
  std::abort();
}

#if defined(AMP_FUZZ_CSV)
/// The first byte picks the options (classes, where 15 stands for a
/// regression's f32 targets, non-finite features, scale, three labels per
/// row, an ignore_index of -1), the rest is the file.
void fuzzOne(const uint8_t *data, size_t size) {
  if (size == 0)
    return;
  DataOptions options;
  options.targets = (data[0] & 0x0f) == 0x0f;
  options.classes = options.targets ? 0 : data[0] & 0x0f;
  options.allowNonfinite = data[0] & 0x10;
  options.featureScale = (data[0] & 0x20) ? 1e30f : 0.0625f;
  if (data[0] & 0x40)
    options.labelShape = {3};
  if (data[0] & 0x80)
    options.ignoreIndex = -1;
  std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
  StatusOr<Dataset> d = parseCsvDataset(text, "fuzz.csv", options);
  if (d.failed()) {
    if (d.getStatus().message().empty())
      invariantBroken("an error without a message");
    return;
  }
  const size_t labels = static_cast<size_t>(d->rows() * d->labelsPerRow);
  if (d->rows() == 0 || d->features < 1 ||
      d->x.size() != static_cast<size_t>(d->rows() * d->features) ||
      d->labelsPerRow != options.labelsPerRow() ||
      (options.targets ? d->targets.size() : d->y.size()) != labels ||
      (options.targets ? d->y.size() : d->targets.size()) != 0)
    invariantBroken("a dataset of inconsistent size");
  for (float target : d->targets)
    if (!std::isfinite(target))
      invariantBroken("a target that is not finite");
  for (int64_t label : d->y)
    if (options.classes > 0 && (label < 0 || label >= options.classes) &&
        label != options.ignoreIndex)
      invariantBroken("a label outside the classes");
}
#elif defined(AMP_FUZZ_PARAMS)
/// The params of a small model: [2, 3], [3] and [0, 4] (zero-size).
FunctionSignature model() {
  FunctionSignature step;
  step.name = "fuzz_step";
  for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 3}, {3}, {0, 4}}) {
    TensorDesc arg;
    arg.role = Role::Param;
    arg.shape = shape;
    step.args.push_back(arg);
  }
  return step;
}

void fuzzOne(const uint8_t *data, size_t size) {
  std::vector<char> bytes(data, data + size);
  StatusOr<std::vector<HostTensor>> params =
      parseParamsFile(bytes, "fuzz.params");
  if (params.failed()) {
    if (params.getStatus().message().empty())
      invariantBroken("an error without a message");
    return;
  }
  size_t values = 0;
  for (const HostTensor &p : *params)
    values += p.values.size();
  if (values * sizeof(float) > size)
    invariantBroken("more values than the file holds");
  static const FunctionSignature step = model();
  Status match = checkParamsMatch(*params, "fuzz.params", step, {0, 1, 2});
  if (match.failed() && match.message().empty())
    invariantBroken("an error without a message");
}
#elif defined(AMP_FUZZ_NPY)
void fuzzOne(const uint8_t *data, size_t size) {
  std::vector<char> bytes(data, data + size);
  StatusOr<HostArray> array = parseNpy(bytes, "fuzz.npy");
  if (array.failed()) {
    if (array.getStatus().message().empty())
      invariantBroken("an error without a message");
    return;
  }
  for (int64_t d : array->shape)
    if (d < 0)
      invariantBroken("a negative dimension");
  if (array->bytes.size() != static_cast<size_t>(array->numElements() *
                                                 elementSize(array->type)))
    invariantBroken("data whose size does not match the shape");
  // What --expected-output does: every array equals itself (NaN too).
  if (compareArrays(*array, *array, 0.0, "fuzz.npy").failed())
    invariantBroken("an array that differs from itself");
}
#elif defined(AMP_FUZZ_NPZ)
void fuzzOne(const uint8_t *data, size_t size) {
  std::vector<char> bytes(data, data + size);
  StatusOr<NamedArrays> arrays = parseNpz(bytes, "fuzz.npz");
  if (arrays.failed()) {
    if (arrays.getStatus().message().empty())
      invariantBroken("an error without a message");
    return;
  }
  for (const auto &[name, array] : *arrays)
    if (array.bytes.size() !=
        static_cast<size_t>(array.numElements() * elementSize(array.type)))
      invariantBroken("data whose size does not match the shape");
}
#else
#error "define AMP_FUZZ_CSV, AMP_FUZZ_PARAMS, AMP_FUZZ_NPY or AMP_FUZZ_NPZ"
#endif
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzzOne(data, size);
  return 0;
}
