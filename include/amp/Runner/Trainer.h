//===- Trainer.h - train a compiled step: the execution half ----*- C++ -*-===//
//
// The execution half of the runner library: given the signatures of a
// compiled training step (and optionally its eval and underflow-probe
// functions) and their entry points, it binds arguments by role,
// initializes or loads params, feeds batches, runs the steps, threads the
// state from results into arguments, logs, evaluates and saves params. It
// links neither MLIR nor LLVM: the entry points may come from a JIT (amp-run)
// or from a step compiled ahead of time (dlsym), and the runtime backend is
// a RuntimeLibrary loaded with dlopen.
//
// Trainer::create does everything that can fail before any code runs
// (signature checks, data, buffers); run() then runs the training.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TRAINER_H
#define AMP_RUNNER_TRAINER_H

#include "amp/Runner/Dataset.h"
#include "amp/Runner/DeviceBuffer.h"
#include "amp/Runner/HostBuffer.h"
#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Signature.h"
#include "amp/Runner/Status.h"
#include "amp/Runner/StepBinding.h"

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace amp::runner {

/// The name of a checkpoint's array for the `index`-th step argument of
/// `role` ("param.0", "opt_state.3"): the one spelling of it, for the
/// trainer and for amp-export-onnx, which reads the params of one.
std::string checkpointArrayName(Role role, size_t index);

class TrainingLog;

/// What to train on, how long, and what to write. The defaults are amp-run's.
struct TrainOptions {
  /// Names the run in its first line ("amp-run: @train_step on ...").
  std::string programName = "amp-run";
  /// The precision the step was compiled for, for that line.
  std::string precision = "f32";
  int steps = 100;
  /// Seeds param init, synthetic data and shuffling.
  uint64_t seed = 0;
  /// A CSV dataset; empty: synthetic data.
  std::string dataFile;
  float featureScale = 1.0f;
  /// Keep NaN and infinite features of --data instead of failing on them.
  bool allowNonfinite = false;
  double evalFraction = 0.2;
  /// Shuffle the held-out split and every epoch's training rows; false
  /// keeps the file's order (the last rows held out), as PyTorch's
  /// DataLoader(shuffle=False).
  bool shuffle = true;
  /// The CSV log; empty: none.
  std::string logFile;
  /// Progress every N steps (and the first and last); 0: only the summary.
  int printEvery = 10;
  /// Also evaluate on the held-out rows after every N-th step (0: only
  /// after training).
  int evalEvery = 0;
  std::string saveParams;
  std::string loadParams;
  /// Steps with moving averages of the params (nn-autodiff's ema-decay):
  /// evaluate the averaged model instead of the trained one, and write its
  /// params file (the averages, then the buffers).
  bool evalEma = false;
  std::string saveEma;
  /// Write a checkpoint (Checkpoint.cpp: the whole threaded state and the
  /// data order) here after training, and every `checkpointEvery` steps
  /// when > 0.
  std::string saveCheckpoint;
  int checkpointEvery = 0;
  /// Resume from a checkpoint: training continues with the step after the
  /// one it was saved at, up to `steps`.
  std::string resume;
  /// Steps whose input batch gets a +inf (a NaN) feature.
  std::set<int> infSteps;
  std::set<int> nanSteps;
  /// Fail unless every skipped step leaves params and optimizer state
  /// bitwise unchanged.
  bool verifySkippedSteps = false;
  /// Token models: the vocabulary of the synthetic sequences; sequence
  /// classifiers: the bound on the dataset's token ids (0: 2^24).
  int64_t vocab = 0;
  /// Capture the step into a graph after one warm-up step and replay it
  /// (backends with graph support: cuda).
  bool cudaGraph = false;
  /// Gather each next batch while a step runs; false: in line before its
  /// step.
  bool prefetch = true;
  /// After training, print the backend's memory counters.
  bool reportMemory = false;
  /// After training, print the median and mean wall time of a step (each
  /// step whole: batch upload, the compiled step, the loss read back), the
  /// first step (plans, caches, JIT warm-up) left out, and the medians of
  /// its phases (StepTimes).
  bool reportTime = false;

  /// Checks the values that do not depend on the step.
  Status validate() const;
};

/// Adds the steps of an --inject-inf list ("3,n7": +inf at step 3, NaN at
/// step 7) to `options`.
Status parseInjectSteps(const std::string &text, TrainOptions &options);

/// The signatures of what was compiled.
struct TrainingProgram {
  FunctionSignature step;
  /// (params..., input) -> logits, for the held-out accuracy.
  std::optional<FunctionSignature> eval;
  /// (params..., input, label) -> f32 tensors, for --underflow-report.
  std::optional<FunctionSignature> underflowProbe;
};

/// The entry points of a TrainingProgram's functions.
struct EntryPoints {
  StepFn step = nullptr;
  StepFn eval = nullptr;
  StepFn underflowProbe = nullptr;
  /// The compiled module's `__amp_error_site`, or null.
  const char *const *errorSite = nullptr;
};

class Trainer {
public:
  /// `rt` must outlive the trainer.
  static StatusOr<std::unique_ptr<Trainer>> create(const RuntimeLibrary &rt,
                                                   TrainingProgram program,
                                                   TrainOptions options);

  /// Trains, printing progress to `out`.
  Status run(const EntryPoints &entry, std::ostream &out);

  const StepBinding &getBinding() const { return binding; }
  /// The current value of argument `index` of the step, as host bytes.
  StatusOr<std::vector<char>> readArgument(int index) const;

private:
  Trainer(const RuntimeLibrary &rt, TrainingProgram program,
          TrainOptions options)
      : rt(rt), program(std::move(program)), options(std::move(options)),
        rng(this->options.seed) {}

  /// What the step's inputs and label are: sets idInputs, targets,
  /// labelShape, batch, features and columns, checking the options that depend
  /// on them.
  Status checkInputKind();
  Status loadData();
  /// Checks the dataset's values of integer inputs (ids and masks).
  Status checkIds() const;
  /// What readNpzDataset reads: an array per input, named like it (its
  /// source name without `%`; `input<k>` when it has none), and the labels
  /// named like the label argument, else `labels` or `label`.
  std::vector<DataInput> dataInputs() const;
  std::vector<std::string> labelArrays() const;
  /// "input argument #3 (mask)": step argument `arg`, an input.
  Status checkLabelKind(const TensorDesc &firstInput);
  Status checkUnlabelledInputs(const TensorDesc &firstInput);
  std::string describeInput(int arg) const;
  /// "input takes 64", or "inputs take 16 (#7 (ids): 8, #8 (mask): 8)".
  std::string describeColumns() const;
  Status allocateState();

  /// A batch staged in host memory (amp_host_alloc): per input, f32
  /// features or ids as its integer type; the labels as theirs.
  struct HostBatch {
    std::vector<HostBuffer> inputs;
    HostBuffer labels;
  };
  /// Writes rows [first, first + batch) of `rows` into `into` (padding past
  /// the end with rows from the start).
  void assembleBatch(const std::vector<int64_t> &rows, size_t first,
                     HostBatch &into) const;
  /// Writes only the inputs of those rows, for evaluation.
  void assembleInputs(const std::vector<int64_t> &rows, size_t first,
                      HostBatch &into) const;
  /// Queues the copies of a host batch's inputs (and labels) into the step's
  /// arguments; they may read it until the next synchronization.
  Status uploadInputs(const HostBatch &from);
  Status uploadBatch(const HostBatch &from);
  /// While the step runs: the next step's rows gathered into the spare
  /// host batch, unless a reshuffle comes first.
  void prefetchBatch();
  /// The bytes of one host batch.
  int64_t hostBatchBytes() const;
  /// The gather work (bytes written) worth a thread of its own.
  static constexpr int64_t kGatherBytesPerThread = int64_t(1) << 20;

  /// Calls a compiled function; on failure names the failing op's location
  /// and the runtime's error.
  Status call(StepFn fn, std::vector<void *> &buffers, const std::string &what,
              const EntryPoints &entry) const;

  Status reportUnderflow(const EntryPoints &entry, std::ostream &out);
  Status runStep(int step, const EntryPoints &entry, TrainingLog &log,
                 std::ostream &out);
  /// The eval function's accuracy and mean cross-entropy on the held-out
  /// rows.
  /// Held-out classes: argmax hits of `total` labels and the mean
  /// cross-entropy; for targets, the mean squared error (loss) and the
  /// mean absolute error over `total` targets (correct unused); for
  /// binary targets, the hits of the logits' signs on targets above or
  /// below 0.5 and the mean binary cross-entropy; for an eval function that
  /// returns the loss, its mean over the whole batches of `total` rows, and
  /// the `leftOut` rows that fill no batch.
  struct EvalResult {
    int64_t correct = 0, total = 0, leftOut = 0;
    double loss = 0, absError = 0;
  };
  StatusOr<EvalResult> evaluate(const EntryPoints &entry);
  /// The rows of one call of the eval function: its inputs' batch.
  int64_t evalRows() const;
  /// "0.9750 (351/360), loss 0.0812"; for targets "mse 0.0812, mae 0.2140
  /// (360 targets)"; for binary targets "0.9750 (351/360 targets), bce
  /// 0.0812"; for the loss "loss 0.0812 (360 rows)".
  std::string describe(const EvalResult &result) const;
  /// Whether describe's text is an accuracy (of classes) rather than other
  /// scores: the lines that print it say "accuracy".
  bool reportsAccuracy() const { return !targets && !lossEval; }
  /// Writes the params file of the trained model to `path`, or with
  /// `weights` = Role::Ema that of the averaged one.
  Status saveParams(const std::string &path, Role weights) const;
  /// " (ema)" when evaluations use the moving averages, else "".
  const char *evalModel() const { return options.evalEma ? " (ema)" : ""; }
  /// The step arguments a checkpoint holds: every threaded one, in
  /// argument order.
  std::vector<int> checkpointArgs() const;
  /// The name of argument `arg`'s array in a checkpoint: its role and its
  /// index among the arguments of that role ("param.0", "opt_state.3").
  std::string checkpointName(int arg) const;
  /// Writes the checkpoint of the state after step `step`.
  Status saveCheckpoint(int step) const;
  /// Reads --resume: the data order, the RNG and the step counts into the
  /// trainer, and each checkpointed argument's bytes into `state`.
  Status loadCheckpoint(std::map<int, std::vector<char>> &state);
  /// Runs the step on `pointers`: a plain call, or with --cuda-graph after
  /// the first step the replay of the graph captured for this buffer parity
  /// (the state buffers swap every step, so there are two).
  Status runCompiledStep(int step, const EntryPoints &entry,
                         std::vector<void *> &pointers);
  void reportMemory(std::ostream &out) const;
  /// The wall time of one step and of its phases: the batch (its rows
  /// gathered on the host, unless the previous step prefetched them, and
  /// its upload queued), the compiled step until the backend has finished it
  /// (the upload included, and the next batch's prefetch, which runs on
  /// another thread meanwhile), and the rest (results read back, the
  /// log). `prefetch` is the time the prefetch took.
  struct StepTimes {
    double total = 0, batch = 0, compute = 0, prefetch = 0;
  };
  void reportTime(std::vector<StepTimes> times, std::ostream &out) const;

  std::vector<void *> argPointers() const;
  /// Where result `j` of the step is after the step: its own buffer, or the
  /// argument's it is computed in (TensorDesc::inArgument).
  const DeviceBuffer &resultBuffer(size_t j) const;

  const RuntimeLibrary &rt;
  TrainingProgram program;
  TrainOptions options;
  std::mt19937_64 rng;

  StepBinding binding;
  /// Whether an input takes integers (ids, masks): then --data's values
  /// for them are checked as ids, and the f32-only options are refused.
  bool idInputs = false;
  /// Whether the labels are a regression's f32 targets (an f32 label
  /// argument, read by an elementwise loss) rather than integer classes.
  bool targets = false;
  /// Whether those targets are probabilities of binary decisions (read by
  /// nn.bce_with_logits_loss: multi-label classification).
  bool binaryTargets = false;
  /// Whether the eval function returns the loss (0-d) rather than
  /// predictions: a loss written out of other ops. It is scored over whole
  /// batches of held-out rows.
  bool lossEval = false;
  /// The label's shape after the batch: empty for a class per row.
  std::vector<int64_t> labelShape;
  /// Where an input's values lie in a dataset row: the inputs' per-row
  /// values are concatenated in argument order.
  struct InputColumns {
    int arg = 0;
    int64_t offset = 0, size = 0;
  };
  /// The rows of a batch, and the values of a dataset row.
  int64_t batch = 0, features = 0;
  /// One per input argument, in order.
  std::vector<InputColumns> columns;
  Dataset data;
  /// data.fingerprint(), when a checkpoint is saved or resumed.
  uint64_t dataFingerprint = 0;
  DatasetSplit split;
  size_t cursor = 0;
  /// The phases of the step in progress (runStep fills them).
  StepTimes stepTimes;

  /// The step's buffers; a result computed in an argument's buffer has an
  /// empty one here (resultBuffer finds it).
  std::vector<DeviceBuffer> argBuffers, resultBuffers;
  /// Two host batches: the uploads read staging[current]; the next step's
  /// rows are gathered into the other while a step runs.
  HostBatch staging[2];
  int current = 0;
  /// Where in split.train the rows of staging[1 - current] start, when
  /// prefetchBatch filled it.
  std::optional<size_t> prefetchedAt;

  /// The captured steps (--cuda-graph), by parity of the step number.
  struct Graph {
    const RuntimeLibrary *rt = nullptr;
    void *exec = nullptr;
    ~Graph() {
      if (exec)
        (void)rt->graphDestroy(exec);
    }
  };
  Graph graphs[2];

  /// The first step this run takes: 1, or the one after a checkpoint's.
  int firstStep = 1;
  /// Skipped steps, from the first step of the training (a checkpoint
  /// carries the count of the steps before it).
  int64_t skipped = 0;
  float lastLoss = std::numeric_limits<float>::quiet_NaN();
  float lastScale = std::numeric_limits<float>::quiet_NaN();
};

} // namespace amp::runner

#endif // AMP_RUNNER_TRAINER_H
