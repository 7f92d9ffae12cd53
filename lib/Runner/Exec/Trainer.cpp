//===- Trainer.cpp - check a step, load its data, initialize its state ----===//
//
// Everything the trainer does before running code: the option and signature
// checks, the data, the buffers and their initial values. The random draws
// happen in a fixed order (data, held-out split, param init, then the
// per-epoch shuffles of the step loop), which runs of the same seed rely on.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/Trainer.h"

#include "amp/Runner/ParamInit.h"
#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/Text.h"

#include <algorithm>
#include <charconv>
#include <cmath>

using namespace amp::runner;

/// Token ids travel as f32 in a Dataset; above 2^24 they would round.
static constexpr int64_t kMaxVocab = int64_t{1} << 24;

Status TrainOptions::validate() const {
  if (steps < 0)
    return Status::error("--steps must be >= 0");
  if (!(evalFraction >= 0.0 && evalFraction < 1.0))
    return Status::error("--eval-fraction must be in [0, 1)");
  for (const std::set<int> *injected : {&infSteps, &nanSteps})
    for (int step : *injected)
      if (step < 1 || step > steps)
        return Status::error("--inject-inf step " + std::to_string(step) +
                             " is not one of the steps 1.." +
                             std::to_string(steps));
  return Status::success();
}

Status amp::runner::parseInjectSteps(const std::string &text,
                                     TrainOptions &options) {
  for (std::string_view item : splitString(text, ',')) {
    if (item.empty())
      continue;
    std::string_view number = item;
    bool nan = !number.empty() && number.front() == 'n';
    if (nan)
      number.remove_prefix(1);
    int step = 0;
    auto [end, error] =
        std::from_chars(number.data(), number.data() + number.size(), step);
    if (error != std::errc() || end != number.data() + number.size() ||
        step < 1)
      return Status::error("bad --inject-inf entry '" + std::string(item) +
                           "'");
    (nan ? options.nanSteps : options.infSteps).insert(step);
  }
  return Status::success();
}

StatusOr<std::unique_ptr<Trainer>> Trainer::create(const RuntimeLibrary &rt,
                                                   TrainingProgram program,
                                                   TrainOptions options) {
  if (Status s = options.validate(); s.failed())
    return s;
  for (const std::optional<FunctionSignature> &fn :
       {std::optional(program.step), program.eval, program.underflowProbe})
    if (fn)
      if (Status s = checkTensorSizes(*fn); s.failed())
        return s;
  std::unique_ptr<Trainer> trainer(
      new Trainer(rt, std::move(program), std::move(options)));
  const TrainingProgram &p = trainer->program;
  StatusOr<StepBinding> binding = bindStep(p.step);
  if (binding.failed())
    return binding.takeStatus();
  trainer->binding = std::move(*binding);
  if (Status s = trainer->checkInputKind(); s.failed())
    return s;
  for (int a : trainer->binding.args(Role::Param))
    if (p.step.args[a].type != ElementType::F32)
      return Status::error("argument #" + std::to_string(a) + " of @" +
                           p.step.name + " is a param of type " +
                           describeType(p.step.args[a]) +
                           "; params must be f32");
  if (p.eval)
    if (Status s = checkEvalFunction(*p.eval, p.step, trainer->binding);
        s.failed())
      return s;
  if (p.underflowProbe)
    if (Status s =
            checkUnderflowProbe(*p.underflowProbe, p.step, trainer->binding);
        s.failed())
      return s;
  if (Status s = trainer->loadData(); s.failed())
    return s;
  if (Status s = trainer->allocateState(); s.failed())
    return s;
  return trainer;
}

/// The values of one row of the input: the product of its dims after the
/// batch (checkTensorSizes has made sure it fits).
static int64_t rowSize(const TensorDesc &in) {
  int64_t n = 1;
  for (size_t i = 1; i < in.shape.size(); ++i)
    n *= in.shape[i];
  return n;
}

/// Classification of f32 rows ([batch, features] input, or [batch, d1, ...]
/// with d1 x ... features per row; [batch] labels), a token model (integer
/// [batch, seq] input and next-token labels), or a sequence classifier
/// (integer [batch, seq] input, [batch] labels).
Status Trainer::checkInputKind() {
  const TensorDesc &in = program.step.args[binding.input];
  const TensorDesc &lab = program.step.args[binding.label];
  bool intLabels = lab.type == ElementType::I32 || lab.type == ElementType::I64;
  bool tokenInput = in.type == ElementType::I32 || in.type == ElementType::I64;
  bool rowLabels = lab.shape.size() == 1 && !in.shape.empty() &&
                   lab.shape[0] == in.shape[0] && intLabels;
  if (!tokenInput) {
    if (in.shape.size() < 2 || in.type != ElementType::F32)
      return Status::error("the input argument must be a [batch, features] "
                           "f32 tensor (or [batch, d1, d2, ...], each row "
                           "d1 x d2 x ... features, e.g. NCHW images) or an "
                           "integer [batch, seq] token tensor");
    if (!rowLabels)
      return Status::error("the label argument must be a [batch] i32/i64 "
                           "tensor matching the input's batch");
    kind = InputKind::Features;
  } else if (in.shape.size() == 2 && rowLabels) {
    kind = InputKind::TokenClasses;
    if (options.dataFile.empty())
      return Status::error("a sequence classifier (integer [batch, seq] "
                           "input, [batch] labels) needs --data: CSV rows of "
                           "seq token ids, then the label");
    if (options.featureScale != 1.0f || options.allowNonfinite ||
        !options.infSteps.empty() || !options.nanSteps.empty())
      return Status::error("--feature-scale, --allow-nonfinite and "
                           "--inject-inf need a [batch, features] f32 input");
    if (options.vocab < 0 || options.vocab > kMaxVocab)
      return Status::error("--vocab must be at most 2^24");
  } else {
    if (in.shape.size() != 2 || lab.shape != in.shape || !intLabels)
      return Status::error("a token model needs an integer [batch, seq] "
                           "input and labels of the same shape (next "
                           "tokens), or [batch] labels (a sequence "
                           "classifier)");
    kind = InputKind::NextTokens;
    if (options.vocab <= 0 || options.vocab > kMaxVocab)
      return Status::error("a token model needs --vocab (the synthetic "
                           "sequences' vocabulary size, at most 2^24)");
    if (!options.dataFile.empty() || !options.infSteps.empty() ||
        !options.nanSteps.empty() || program.eval || program.underflowProbe)
      return Status::error("--data, --inject-inf, --eval-entry and "
                           "--underflow-report need a [batch, features] f32 "
                           "input or a sequence classifier");
  }
  if (in.shape[0] <= 0 || rowSize(in) <= 0)
    return Status::error("the input argument " + describeType(in) +
                         " has no elements");
  return Status::success();
}

/// Checks that every value of a sequence classifier's dataset is a token
/// id: an integer in [0, vocab) (2^24 without --vocab, the most a float
/// holds exactly).
static Status checkTokenIds(const Dataset &data, const std::string &path,
                            int64_t vocab) {
  const int64_t limit = vocab > 0 ? vocab : kMaxVocab;
  for (size_t k = 0; k < data.x.size(); ++k) {
    float v = data.x[k];
    if (!(v >= 0.0f && v < float(limit) && v == std::floor(v)))
      return Status::error("dataset '" + path + "': row " +
                           std::to_string(k / data.features + 1) + ", column " +
                           std::to_string(k % data.features + 1) + ": " +
                           formatString("%g", double(v)) +
                           " is not a token id (an integer in [0, " +
                           std::to_string(limit) + ")" +
                           (vocab > 0 ? ", --vocab" : "") + ")");
  }
  return Status::success();
}

/// The model's class count: that of the nn.cross_entropy reading the
/// labels, else the eval function's [batch, classes] logits; 0 if unknown.
static int64_t modelClasses(const TrainingProgram &program,
                            const StepBinding &binding) {
  if (std::optional<int64_t> classes = program.step.args[binding.label].classes)
    return *classes;
  if (program.eval)
    return program.eval->results[0].shape[1];
  return 0;
}

Status Trainer::loadData() {
  const TensorDesc &in = program.step.args[binding.input];
  batch = in.shape[0];
  features = rowSize(in);
  const int64_t classes = modelClasses(program, binding);
  StatusOr<Dataset> loaded = Status::error("no data");
  if (kind == InputKind::NextTokens) {
    if (classes > 0 && options.vocab > classes)
      return Status::error("--vocab " + std::to_string(options.vocab) +
                           " is larger than the model's " +
                           std::to_string(classes) + " classes");
    loaded = makeTokenSequences(batch, features, options.vocab, rng);
  } else if (!options.dataFile.empty()) {
    CsvOptions csv;
    csv.featureScale = options.featureScale;
    csv.classes = classes;
    csv.allowNonfinite = options.allowNonfinite;
    loaded = readCsvDataset(options.dataFile, csv);
  } else {
    // Ten classes, or the model's when it has fewer.
    loaded = makeSyntheticDataset(
        batch, features, classes > 0 ? std::min<int64_t>(classes, 10) : 10,
        rng);
  }
  if (loaded.failed())
    return loaded.takeStatus();
  data = std::move(*loaded);
  if (!options.dataFile.empty() && data.features != features)
    return Status::error(
        "dataset '" + options.dataFile + "' has " +
        std::to_string(data.features) +
        (kind == InputKind::TokenClasses ? " tokens per row" : " features") +
        ", but the model's input takes " + std::to_string(features));
  if (kind == InputKind::TokenClasses)
    if (Status s = checkTokenIds(data, options.dataFile, options.vocab);
        s.failed())
      return s;
  split = splitDataset(data.rows(), options.evalFraction, rng);
  if (static_cast<int64_t>(split.train.size()) < batch)
    return Status::error(
        "the training split has " + std::to_string(split.train.size()) +
        " rows, fewer than one batch of " + std::to_string(batch));
  cursor = split.train.size();
  return Status::success();
}

Status Trainer::allocateState() {
  const FunctionSignature &step = program.step;
  std::vector<HostTensor> loaded;
  if (!options.loadParams.empty()) {
    StatusOr<std::vector<HostTensor>> file = readParamsFile(options.loadParams);
    if (file.failed())
      return file.takeStatus();
    loaded = std::move(*file);
    if (Status s = checkParamsMatch(loaded, options.loadParams, step,
                                    binding.args(Role::Param));
        s.failed())
      return s;
  }
  size_t paramIndex = 0;
  for (const TensorDesc &arg : step.args) {
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, arg.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    Status uploaded;
    if (arg.role == Role::Param) {
      std::vector<float> values = options.loadParams.empty()
                                      ? initParam(arg, rng)
                                      : std::move(loaded[paramIndex].values);
      ++paramIndex;
      uploaded = buffer->upload(values.data());
    } else if (arg.role != Role::Input && arg.role != Role::Label) {
      StatusOr<std::vector<char>> state = initState(arg);
      if (state.failed())
        return state.takeStatus();
      uploaded = buffer->upload(state->data());
    }
    if (uploaded.failed())
      return uploaded;
    argBuffers.push_back(std::move(*buffer));
  }
  for (const TensorDesc &result : step.results) {
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, result.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    resultBuffers.push_back(std::move(*buffer));
  }
  featureBatch.resize(batch * features);
  tokenBatch.resize(step.args[binding.input].bytes());
  labelBatch.resize(step.args[binding.label].bytes());
  return Status::success();
}

template <typename T>
static void store(std::vector<char> &bytes, int64_t i, int64_t value) {
  reinterpret_cast<T *>(bytes.data())[i] = static_cast<T>(value);
}

/// Stores `value` as element `i` of an i32 or i64 host tensor.
static void storeInt(std::vector<char> &bytes, ElementType type, int64_t i,
                     int64_t value) {
  if (type == ElementType::I32)
    store<int32_t>(bytes, i, value);
  else
    store<int64_t>(bytes, i, value);
}

void Trainer::assembleBatch(const std::vector<int64_t> &rows, size_t first) {
  ElementType labelType = program.step.args[binding.label].type;
  assembleInputs(rows, first);
  for (int64_t r = 0; r < batch; ++r) {
    int64_t row = rows[first + r];
    if (kind != InputKind::NextTokens) {
      storeInt(labelBatch, labelType, r, data.y[row]);
      continue;
    }
    for (int64_t f = 0; f < features; ++f)
      storeInt(labelBatch, labelType, r * features + f,
               data.tokenLabels[row * features + f]);
  }
}

void Trainer::assembleInputs(const std::vector<int64_t> &rows, size_t first) {
  ElementType inType = program.step.args[binding.input].type;
  for (int64_t r = 0; r < batch; ++r) {
    int64_t row = rows[(first + r) % rows.size()];
    const float *values = &data.x[row * features];
    if (kind == InputKind::Features) {
      std::copy_n(values, features, &featureBatch[r * features]);
      continue;
    }
    // Token ids, exact in the dataset's floats (checked at load).
    for (int64_t f = 0; f < features; ++f)
      storeInt(tokenBatch, inType, r * features + f,
               static_cast<int64_t>(values[f]));
  }
}

const void *Trainer::inputBatch() const {
  if (kind == InputKind::Features)
    return featureBatch.data();
  return tokenBatch.data();
}

Status Trainer::uploadBatch() {
  if (Status s = argBuffers[binding.input].upload(inputBatch()); s.failed())
    return s;
  return argBuffers[binding.label].upload(labelBatch.data());
}

Status Trainer::call(StepFn fn, std::vector<void *> &buffers,
                     const std::string &what, const EntryPoints &entry) const {
  int32_t status = fn(buffers.data());
  if (status == AMP_STATUS_OK)
    return Status::success();
  const char *site =
      entry.errorSite && *entry.errorSite ? *entry.errorSite : "?";
  return Status::error(what + " failed with status " + std::to_string(status) +
                       " at " + site + ": " + rt.lastError());
}

std::vector<void *> Trainer::argPointers() const {
  std::vector<void *> pointers;
  for (const DeviceBuffer &b : argBuffers)
    pointers.push_back(b.data());
  return pointers;
}

StatusOr<std::vector<char>> Trainer::readArgument(int index) const {
  if (index < 0 || index >= static_cast<int>(argBuffers.size()))
    return Status::error("no argument #" + std::to_string(index));
  return argBuffers[index].read();
}
