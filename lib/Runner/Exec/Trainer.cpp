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
#include <cstring>
#include <map>
#include <thread>

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
  if (checkpointEvery < 0)
    return Status::error("--checkpoint-every must be >= 0");
  if (evalEvery < 0)
    return Status::error("--eval-every must be >= 0");
  if (checkpointEvery > 0 && saveCheckpoint.empty())
    return Status::error("--checkpoint-every needs --save-checkpoint FILE");
  if (!resume.empty() && !loadParams.empty())
    return Status::error("--resume and --load-params both set the params; "
                         "give one");
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
      if (Status s = checkSignature(*fn); s.failed())
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
  for (int a : paramsFileArgs(p.step))
    if (p.step.args[a].type != ElementType::F32)
      return Status::error(
          "argument #" + std::to_string(a) + " of @" + p.step.name + " is a " +
          roleName(*p.step.args[a].role) + " of type " +
          describeType(p.step.args[a]) + "; params and buffers must be f32");
  if (p.eval) {
    if (Status s = checkEvalFunction(*p.eval, p.step, trainer->binding);
        s.failed())
      return s;
    trainer->lossEval = p.eval->results[0].shape.empty();
  }
  if (p.underflowProbe)
    if (Status s =
            checkUnderflowProbe(*p.underflowProbe, p.step, trainer->binding);
        s.failed())
      return s;
  if ((trainer->options.evalEma || !trainer->options.saveEma.empty()) &&
      trainer->binding.args(Role::Ema).empty())
    return Status::error(
        std::string(trainer->options.evalEma ? "--eval-ema" : "--save-ema") +
        " needs a step that keeps moving averages of its params (ema "
        "arguments: nn-autodiff's ema-decay); @" +
        p.step.name + " has none");
  if (trainer->options.evalEma && !p.eval)
    return Status::error("--eval-ema needs an eval function (amp-run's "
                         "--eval-entry, amp-compile's --eval-entry)");
  if (Status s = trainer->loadData(); s.failed())
    return s;
  if (Status s = trainer->allocateState(); s.failed())
    return s;
  if (trainer->options.evalEvery > 0 &&
      (!p.eval || trainer->split.eval.empty()))
    return Status::error(
        "--eval-every needs an eval function (amp-run's --eval-entry, "
        "amp-compile's --eval-entry) and held-out rows (--eval-fraction > 0)");
  if (const int64_t held = trainer->split.eval.size();
      trainer->lossEval && held > 0 && held < trainer->evalRows())
    return Status::error("@" + p.eval->name +
                         " returns the loss of a batch of " +
                         std::to_string(trainer->evalRows()) +
                         " rows, which the " + std::to_string(held) +
                         " held-out rows do not fill (raise --eval-fraction)");
  return trainer;
}

/// The values of one row of an input: the product of its dims after the
/// batch (checkSignature has made sure it fits).
static int64_t rowSize(const TensorDesc &in) {
  int64_t n = 1;
  for (size_t i = 1; i < in.shape.size(); ++i)
    n *= in.shape[i];
  return n;
}

/// What a step trains on: its inputs (f32 features, [batch, d1, ...] with
/// d1 x ... values per row, or integer ids and masks) and its labels, a
/// class per row ([batch]) or a label per position ([batch, seq, ...]: a
/// language model's next tokens, a token classifier's tags). Data comes
/// from --data, else is synthetic: Gaussian rows for f32 inputs and class
/// labels, next-token sequences for one integer [batch, seq] input with
/// labels of its shape.
Status Trainer::checkInputKind() {
  const std::vector<int> &inputs = binding.inputs();
  // "the input argument", or "input argument #3 (mask)" among several.
  auto inputName = [&](int a) {
    return inputs.size() == 1 ? std::string("the input argument")
                              : describeInput(a);
  };
  for (int a : inputs) {
    const TensorDesc &in = program.step.args[a];
    bool ids = isInteger(in.type);
    if (ids ? in.shape.empty()
            : in.shape.size() < 2 || in.type != ElementType::F32)
      return Status::error(inputName(a) +
                           " must be a [batch, features] f32 tensor (or "
                           "[batch, d1, d2, ...], each row d1 x d2 x ... "
                           "features, e.g. NCHW images) or an integer "
                           "[batch, seq] token tensor");
    if (in.shape[0] != program.step.args[inputs[0]].shape[0])
      return Status::error(inputName(a) + " " + describeType(in) +
                           " has another batch than " + inputName(inputs[0]) +
                           " " + describeType(program.step.args[inputs[0]]));
    if (in.shape[0] <= 0 || rowSize(in) <= 0)
      return Status::error(inputName(a) + " " + describeType(in) +
                           " has no elements");
    idInputs |= ids;
  }
  const TensorDesc &in = program.step.args[inputs[0]];
  batch = in.shape[0];
  if (Status s =
          binding.hasLabel() ? checkLabelKind(in) : checkUnlabelledInputs(in);
      s.failed())
    return s;
  if (idInputs && (options.featureScale != 1.0f || options.allowNonfinite ||
                   !options.infSteps.empty() || !options.nanSteps.empty()))
    return Status::error("--feature-scale, --allow-nonfinite and "
                         "--inject-inf need a [batch, features] f32 input");
  if (options.vocab < 0 || options.vocab > kMaxVocab)
    return Status::error("--vocab must be at most 2^24");

  features = 0;
  for (int a : inputs) {
    int64_t size = rowSize(program.step.args[a]);
    columns.push_back({a, features, size});
    if (__builtin_add_overflow(features, size, &features))
      return Status::error("the inputs' rows hold more values than int64 "
                           "counts");
  }
  return Status::success();
}

/// The label: classes, labels per position or f32 targets, and what data
/// they need. `in` is the first input.
Status Trainer::checkLabelKind(const TensorDesc &in) {
  const std::vector<int> &inputs = binding.inputs();
  const TensorDesc &lab = program.step.args[binding.label];
  targets = lab.type == ElementType::F32;
  binaryTargets = targets && lab.loss == kBinaryCrossEntropyLoss;
  if (!(targets || lab.type == ElementType::I32 ||
        lab.type == ElementType::I64) ||
      lab.shape.empty() || lab.shape[0] != batch || lab.numElements() <= 0)
    return Status::error("the label argument " + describeType(lab) +
                         " must be an i32/i64 tensor [batch] (a class per "
                         "row) or [batch, seq, ...] (a label per position), "
                         "or an f32 tensor [batch, ...] (a regression's "
                         "targets), with the inputs' batch, " +
                         std::to_string(batch));
  labelShape.assign(lab.shape.begin() + 1, lab.shape.end());

  if (targets && options.dataFile.empty() && idInputs)
    return Status::error(
        "regression targets (an f32 label) on integer inputs need --data: "
        "CSV rows of the inputs' values then the targets, or a NumPy .npz "
        "archive of an array per input and the targets");

  if (options.dataFile.empty() && idInputs && labelShape.empty() && !targets)
    return Status::error(
        "a sequence classifier (integer [batch, seq] input, [batch] labels) "
        "needs --data: CSV rows of seq token ids" +
        std::string(inputs.size() > 1 ? " (every input's values)" : "") +
        ", then the label, or a NumPy .npz archive of an array per input "
        "and the labels");
  if (options.dataFile.empty() && !labelShape.empty() && !targets) {
    if (inputs.size() != 1 || !idInputs || in.shape.size() != 2 ||
        lab.shape != in.shape)
      return Status::error(
          "labels per position need --data (CSV rows of the inputs' values "
          "then the labels, or a NumPy .npz archive), or, for synthetic "
          "next-token sequences, one integer [batch, seq] input and labels "
          "of its shape");
    if (options.vocab <= 0)
      return Status::error("synthetic next-token sequences need --vocab "
                           "(their vocabulary size, at most 2^24)");
  }
  return Status::success();
}

/// A step without labels (a self-supervised loss) trains on its inputs'
/// values alone: synthetic ones are Gaussian features, or next-token
/// sequences for one integer [batch, seq] input.
Status Trainer::checkUnlabelledInputs(const TensorDesc &in) {
  if (options.dataFile.empty() && idInputs &&
      (binding.inputs().size() != 1 || in.shape.size() != 2 ||
       options.vocab <= 0))
    return Status::error(
        "a step without a label on integer inputs needs --data (CSV rows of "
        "the inputs' values, or a NumPy .npz archive of an array per "
        "input), or, for synthetic token sequences, one integer [batch, "
        "seq] input and --vocab");
  return Status::success();
}

/// Checks that every value of a sequence classifier's dataset that feeds an
/// integer input is an id: an integer in [0, vocab) (2^24 without --vocab,
/// the most a float holds exactly; 2 for an i1 mask).
Status Trainer::checkIds() const {
  for (const InputColumns &c : columns) {
    ElementType type = program.step.args[c.arg].type;
    if (!isInteger(type))
      continue;
    const bool mask = type == ElementType::I1;
    const int64_t limit = mask                ? 2
                          : options.vocab > 0 ? options.vocab
                                              : kMaxVocab;
    for (int64_t row = 0; row < data.rows(); ++row)
      for (int64_t k = c.offset; k < c.offset + c.size; ++k) {
        float v = data.x[row * features + k];
        if (v >= 0.0f && v < float(limit) && v == std::floor(v))
          continue;
        return Status::error(
            "dataset '" + options.dataFile + "': row " +
            std::to_string(row + 1) + ", column " + std::to_string(k + 1) +
            ": " + formatString("%g", double(v)) + " is not " +
            (mask ? "a mask value (0 or 1"
                  : "a token id (an integer in [0, " + std::to_string(limit) +
                        ")" + (options.vocab > 0 ? ", --vocab" : "")) +
            ")" + (columns.size() > 1 ? " for " + describeInput(c.arg) : ""));
      }
  }
  return Status::success();
}

/// Whether --data names a NumPy archive rather than a CSV file.
static bool isNpzFile(const std::string &path) {
  return path.size() > 4 && path.compare(path.size() - 4, 4, ".npz") == 0;
}

/// The array name of an argument: its source name without the `%`, or
/// `fallback` when it has none.
static std::string arrayName(const TensorDesc &arg, std::string fallback) {
  if (arg.name.empty())
    return fallback;
  return arg.name[0] == '%' ? arg.name.substr(1) : arg.name;
}

std::vector<DataInput> Trainer::dataInputs() const {
  std::vector<DataInput> inputs;
  for (size_t k = 0; k < columns.size(); ++k) {
    const TensorDesc &arg = program.step.args[columns[k].arg];
    inputs.push_back(
        {arrayName(arg, "input" + std::to_string(k)),
         describeInput(columns[k].arg),
         std::vector<int64_t>(arg.shape.begin() + 1, arg.shape.end()),
         isInteger(arg.type)});
  }
  return inputs;
}

std::vector<std::string> Trainer::labelArrays() const {
  if (!binding.hasLabel())
    return {};
  std::vector<std::string> names = {
      arrayName(program.step.args[binding.label], "labels")};
  for (const char *common : {"labels", "label"})
    if (names[0] != common)
      names.push_back(common);
  return names;
}

std::string Trainer::describeInput(int arg) const {
  return withName("input argument #" + std::to_string(arg),
                  program.step.args[arg]);
}

std::string Trainer::describeColumns() const {
  if (columns.size() == 1)
    return "input takes " + std::to_string(features);
  std::string text = "inputs take " + std::to_string(features) + " (";
  for (const InputColumns &c : columns)
    text += (&c == &columns.front() ? "" : ", ") +
            withName("#" + std::to_string(c.arg), program.step.args[c.arg]) +
            ": " + std::to_string(c.size);
  return text + ")";
}

/// The model's class count: that of the nn.cross_entropy reading the
/// labels, else the eval function's [batch, classes] logits; 0 if unknown.
static int64_t modelClasses(const TrainingProgram &program,
                            const StepBinding &binding) {
  if (!binding.hasLabel())
    return 0;
  if (std::optional<int64_t> classes = program.step.args[binding.label].classes)
    return *classes;
  if (program.eval && program.eval->results[0].shape.size() == 2)
    return program.eval->results[0].shape[1];
  return 0;
}

Status Trainer::loadData() {
  const int64_t classes = targets ? 0 : modelClasses(program, binding);
  StatusOr<Dataset> loaded = Status::error("no data");
  if (options.dataFile.empty() && !binding.hasLabel()) {
    // The synthetic rows without their labels.
    loaded = idInputs ? makeTokenSequences(batch, features, options.vocab, rng)
                      : makeSyntheticDataset(batch, features, 10, rng);
    if (!loaded.failed()) {
      loaded->labelsPerRow = 0;
      loaded->y.clear();
    }
  } else if (options.dataFile.empty() && targets) {
    loaded = makeSyntheticRegression(batch, features,
                                     rowSize(program.step.args[binding.label]),
                                     binaryTargets, rng);
  } else if (options.dataFile.empty() && !labelShape.empty()) {
    if (classes > 0 && options.vocab > classes)
      return Status::error("--vocab " + std::to_string(options.vocab) +
                           " is larger than the model's " +
                           std::to_string(classes) + " classes");
    loaded = makeTokenSequences(batch, features, options.vocab, rng);
  } else if (!options.dataFile.empty()) {
    DataOptions checks;
    checks.featureScale = options.featureScale;
    checks.classes = classes;
    checks.allowNonfinite = options.allowNonfinite;
    checks.labelShape = labelShape;
    checks.labels = binding.hasLabel();
    if (binding.hasLabel())
      checks.ignoreIndex = program.step.args[binding.label].ignoreIndex;
    checks.targets = targets;
    loaded = isNpzFile(options.dataFile)
                 ? readNpzDataset(options.dataFile, dataInputs(), labelArrays(),
                                  checks)
                 : readCsvDataset(options.dataFile, checks);
  } else if (classes == 0 && lossEval) {
    // A loss written out of other ops reads the labels, and draws of ten
    // classes may fall outside the model's.
    return Status::error(
        "synthetic labels need the model's class count, which @" +
        program.step.name +
        " does not show (no nn.cross_entropy reads its "
        "labels, and @" +
        program.eval->name +
        " returns the loss): give --data, CSV rows or a NumPy .npz archive");
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
    return Status::error("dataset '" + options.dataFile + "' has " +
                         std::to_string(data.features) +
                         (columns.size() > 1
                              ? " values per row before the label"
                          : idInputs ? " tokens per row"
                                     : " features") +
                         ", but the model's " + describeColumns());
  if (idInputs && !options.dataFile.empty())
    if (Status s = checkIds(); s.failed())
      return s;
  split = splitDataset(data.rows(), options.evalFraction,
                       options.shuffle ? &rng : nullptr);
  if (!options.saveCheckpoint.empty() || !options.resume.empty())
    dataFingerprint = data.fingerprint();
  if (static_cast<int64_t>(split.train.size()) < batch)
    return Status::error(
        "the training split has " + std::to_string(split.train.size()) +
        " rows, fewer than one batch of " + std::to_string(batch));
  cursor = split.train.size();
  return Status::success();
}

Status Trainer::allocateState() {
  const FunctionSignature &step = program.step;
  // A checkpoint holds every threaded argument; a params file the params,
  // then the buffers; without either, params are drawn and the rest of the
  // state takes its nn.init.
  std::map<int, std::vector<char>> loaded;
  if (!options.resume.empty()) {
    if (Status s = loadCheckpoint(loaded); s.failed())
      return s;
  } else if (!options.loadParams.empty()) {
    const std::vector<int> saved = paramsFileArgs(step);
    StatusOr<std::vector<HostTensor>> file = readParamsFile(options.loadParams);
    if (file.failed())
      return file.takeStatus();
    if (Status s = checkParamsMatch(*file, options.loadParams, step, saved);
        s.failed())
      return s;
    for (size_t i = 0; i < saved.size(); ++i) {
      const std::vector<float> &values = (*file)[i].values;
      const char *bytes = reinterpret_cast<const char *>(values.data());
      loaded[saved[i]].assign(bytes, bytes + values.size() * sizeof(float));
    }
  }
  for (size_t a = 0; a < step.args.size(); ++a) {
    const TensorDesc &arg = step.args[a];
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, arg.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    Status uploaded;
    auto file = loaded.find(static_cast<int>(a));
    if (file != loaded.end()) {
      uploaded = buffer->upload(file->second.data());
    } else if (arg.role == Role::Param) {
      std::vector<float> values = initParam(arg, rng);
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
    // A result the step computes in its argument's buffer has none of its
    // own.
    if (result.inArgument) {
      resultBuffers.emplace_back();
      continue;
    }
    StatusOr<DeviceBuffer> buffer = DeviceBuffer::allocate(rt, result.bytes());
    if (buffer.failed())
      return buffer.takeStatus();
    resultBuffers.push_back(std::move(*buffer));
  }
  for (HostBatch &host : staging) {
    for (const InputColumns &c : columns) {
      StatusOr<HostBuffer> buffer =
          HostBuffer::allocate(rt, step.args[c.arg].bytes());
      if (buffer.failed())
        return buffer.takeStatus();
      host.inputs.push_back(std::move(*buffer));
    }
    if (!binding.hasLabel())
      continue;
    StatusOr<HostBuffer> labels =
        HostBuffer::allocate(rt, step.args[binding.label].bytes());
    if (labels.failed())
      return labels.takeStatus();
    host.labels = std::move(*labels);
  }
  return Status::success();
}

template <typename T> static void store(char *bytes, int64_t i, T value) {
  std::memcpy(bytes + i * sizeof(T), &value, sizeof(T));
}

/// Stores `value` as element `i` of an i1, i32 or i64 host tensor.
static void storeInt(char *bytes, ElementType type, int64_t i, int64_t value) {
  if (type == ElementType::I1)
    store<uint8_t>(bytes, i, value != 0);
  else if (type == ElementType::I32)
    store<int32_t>(bytes, i, static_cast<int32_t>(value));
  else
    store<int64_t>(bytes, i, value);
}

/// Runs fn(begin, end) over [0, n) in contiguous parts on up to 8 threads,
/// each part moving at least `minBytes` (`bytesEach` per index): a large
/// batch's gather is spread over cores.
template <typename Fn>
static void forRanges(int64_t n, int64_t bytesEach, int64_t minBytes, Fn fn) {
  const int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const int64_t parts = std::clamp<int64_t>(n * bytesEach / minBytes, 1,
                                            std::min<int64_t>(hardware, 8));
  if (parts == 1)
    return fn(int64_t(0), n);
  std::vector<std::thread> threads;
  for (int64_t p = 1; p < parts; ++p)
    threads.emplace_back(fn, n * p / parts, n * (p + 1) / parts);
  fn(int64_t(0), n / parts);
  for (std::thread &t : threads)
    t.join();
}

void Trainer::assembleBatch(const std::vector<int64_t> &rows, size_t first,
                            HostBatch &into) const {
  assembleInputs(rows, first, into);
  if (!binding.hasLabel())
    return;
  ElementType labelType = program.step.args[binding.label].type;
  const int64_t labels = data.labelsPerRow;
  for (int64_t r = 0; r < batch; ++r) {
    const int64_t row = rows[(first + r) % rows.size()];
    if (targets) {
      std::memcpy(into.labels.data() + r * labels * sizeof(float),
                  &data.targets[row * labels], labels * sizeof(float));
      continue;
    }
    for (int64_t k = 0; k < labels; ++k)
      storeInt(into.labels.data(), labelType, r * labels + k,
               data.y[row * labels + k]);
  }
}

void Trainer::assembleInputs(const std::vector<int64_t> &rows, size_t first,
                             HostBatch &into) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    const InputColumns &c = columns[i];
    ElementType type = program.step.args[c.arg].type;
    char *out = into.inputs[i].data();
    forRanges(batch, c.size * sizeof(float), kGatherBytesPerThread,
              [&](int64_t begin, int64_t end) {
                for (int64_t r = begin; r < end; ++r) {
                  int64_t row = rows[(first + r) % rows.size()];
                  const float *values = &data.x[row * features + c.offset];
                  if (type == ElementType::F32) {
                    std::memcpy(out + r * c.size * sizeof(float), values,
                                c.size * sizeof(float));
                    continue;
                  }
                  // Ids and masks, exact in the dataset's floats (checked at
                  // load).
                  for (int64_t k = 0; k < c.size; ++k)
                    storeInt(out, type, r * c.size + k,
                             static_cast<int64_t>(values[k]));
                }
              });
  }
}

Status Trainer::uploadInputs(const HostBatch &from) {
  for (size_t i = 0; i < columns.size(); ++i)
    if (Status s = argBuffers[columns[i].arg].upload(from.inputs[i].data());
        s.failed())
      return s;
  return Status::success();
}

Status Trainer::uploadBatch(const HostBatch &from) {
  if (Status s = uploadInputs(from); s.failed())
    return s;
  if (!binding.hasLabel())
    return Status::success();
  return argBuffers[binding.label].upload(from.labels.data());
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

const DeviceBuffer &Trainer::resultBuffer(size_t j) const {
  std::optional<int> a = program.step.results[j].inArgument;
  return a ? argBuffers[*a] : resultBuffers[j];
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
