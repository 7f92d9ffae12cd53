//===- TrainerTest.cpp - the execution half on a hand-written C step ------===//
//
// Trains LinearStep.c's step through the execution half alone: no MLIR, no
// LLVM, only the runner's Exec library, the reference runtime and a function
// with the lowered calling convention, as an ahead-of-time compiled step
// would run where no compiler is installed.
//
//===----------------------------------------------------------------------===//

#include "LinearStep.h"
#include "RunnerTestUtil.h"

#include "amp/Runner/ParamsFile.h"
#include "amp/Runner/Trainer.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <sstream>

using namespace amp::runner;
using namespace amp::runner::test;

namespace {
/// 40 rows of 2 features, labelled 1 where x0 > x1.
std::string writeDataset() {
  std::string csv;
  for (int i = 0; i < 40; ++i) {
    double x0 = (i * 37 % 19) / 10.0 - 0.9, x1 = (i * 11 % 17) / 8.0 - 1.0;
    csv += std::to_string(x0) + "," + std::to_string(x1) + "," +
           (x0 > x1 ? "1" : "0") + "\n";
  }
  std::string path = tempPath("data.csv");
  writeFile(path, csv);
  return path;
}

TrainOptions baseOptions() {
  TrainOptions options;
  options.dataFile = writeDataset();
  options.evalFraction = 0.25;
  options.seed = 1;
  options.steps = 40;
  return options;
}

TrainingProgram linearProgram() {
  TrainingProgram program;
  program.step = linearStepSignature();
  program.eval = linearPredictSignature();
  return program;
}

EntryPoints linearEntryPoints() {
  EntryPoints entry;
  entry.step = linear_step;
  entry.eval = linear_predict;
  entry.errorSite = &__amp_error_site;
  return entry;
}

struct TrainingRun {
  Status status;
  std::string out;
  std::unique_ptr<Trainer> trainer;
};

TrainingRun train(TrainOptions options,
                  TrainingProgram program = linearProgram(),
                  EntryPoints entry = linearEntryPoints()) {
  TrainingRun run;
  StatusOr<std::unique_ptr<Trainer>> trainer =
      Trainer::create(referenceRuntime(), program, options);
  if (trainer.failed()) {
    run.status = trainer.takeStatus();
    return run;
  }
  run.trainer = std::move(*trainer);
  std::ostringstream out;
  run.status = run.trainer->run(entry, out);
  run.out = out.str();
  return run;
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    result.push_back(line);
  return result;
}

float lossOf(const std::string &logLine) {
  return std::stof(logLine.substr(logLine.find(',') + 1));
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}
} // namespace

TEST(TrainerTest, TrainsAHandWrittenStep) {
  TrainOptions options = baseOptions();
  options.logFile = tempPath("log.csv");
  TrainingRun run = train(options);
  ASSERT_TRUE(run.status.succeeded()) << run.status.message();
  std::vector<std::string> out = lines(run.out);
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out[0], "amp-run: @linear_step on reference, precision f32, "
                    "batch 4, 30 training rows, 10 held out");
  EXPECT_EQ(out[1].rfind("step 1  loss ", 0), 0u) << out[1];
  EXPECT_TRUE(contains(run.out, "\nstep 40  loss ")) << run.out;
  EXPECT_TRUE(contains(run.out, ", loss scale 1024, skipped steps 0\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "eval accuracy: ")) << run.out;

  std::vector<std::string> log = lines(readFile(options.logFile));
  ASSERT_EQ(log.size(), 41u);
  EXPECT_EQ(log[0], "step,loss,scale,found_inf,growth_tracker");
  EXPECT_EQ(log[40].rfind("40,", 0), 0u);
  EXPECT_TRUE(contains(log[40], ",1024,0,40")) << log[40];
  // It learns: the last five steps' loss is well below the first five's.
  float first = 0, last = 0;
  for (int i = 1; i <= 5; ++i) {
    first += lossOf(log[i]);
    last += lossOf(log[41 - i]);
  }
  EXPECT_LT(last, 0.5f * first);
}

TEST(TrainerTest, SameSeedSameRun) {
  TrainOptions a = baseOptions(), b = baseOptions();
  a.logFile = tempPath("a.csv");
  b.logFile = tempPath("b.csv");
  TrainingRun first = train(a), second = train(b);
  ASSERT_TRUE(first.status.succeeded() && second.status.succeeded());
  EXPECT_EQ(first.out, second.out);
  EXPECT_EQ(readFile(a.logFile), readFile(b.logFile));
  TrainOptions c = baseOptions();
  c.seed = 2;
  TrainingRun other = train(c);
  ASSERT_TRUE(other.status.succeeded());
  EXPECT_NE(other.out, first.out);
}

TEST(TrainerTest, SkippedStepsLeaveTheStateUnchanged) {
  TrainOptions options = baseOptions();
  options.steps = 6;
  options.printEvery = 1;
  options.infSteps = {3};
  options.nanSteps = {5};
  options.verifySkippedSteps = true;
  options.logFile = tempPath("log.csv");
  TrainingRun run = train(options);
  ASSERT_TRUE(run.status.succeeded()) << run.status.message();
  EXPECT_TRUE(contains(run.out, "step 3: skipped; 4 params and "
                                "optimizer-state tensors are bitwise "
                                "unchanged\nstep 3  loss "))
      << run.out;
  EXPECT_TRUE(contains(run.out, "scale 512  (skipped: inf/nan gradients)\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, "scale 256  (skipped: inf/nan gradients)\n"))
      << run.out;
  EXPECT_TRUE(contains(run.out, ", loss scale 256, skipped steps 2\n"))
      << run.out;
  std::vector<std::string> log = lines(readFile(options.logFile));
  ASSERT_EQ(log.size(), 7u);
  EXPECT_TRUE(contains(log[3], ",512,1,0")) << log[3];
  EXPECT_TRUE(contains(log[4], ",512,0,1")) << log[4];
}

TEST(TrainerTest, ABrokenSkipIsCaught) {
  TrainOptions options = baseOptions();
  options.steps = 4;
  options.infSteps = {3};
  options.verifySkippedSteps = true;
  linear_step_ignores_found_inf = 1;
  TrainingRun run = train(options);
  linear_step_ignores_found_inf = 0;
  ASSERT_TRUE(run.status.failed());
  EXPECT_EQ(run.status.message(),
            "step 3 was skipped but result #0 (param) changed");
}

TEST(TrainerTest, AFailingStepNamesTheOpAndTheRuntimeError) {
  EntryPoints entry = linearEntryPoints();
  entry.step = failing_step;
  TrainingRun run = train(baseOptions(), linearProgram(), entry);
  __amp_error_site = nullptr;
  ASSERT_TRUE(run.status.failed());
  const std::string &message = run.status.message();
  EXPECT_EQ(
      message.rfind("step 1 failed with status 1 at linear.mlir:7:3: ", 0), 0u)
      << message;
  EXPECT_GT(message.size(), std::string("step 1 failed with status 1 at "
                                        "linear.mlir:7:3: ")
                                .size())
      << "the runtime's error is missing: " << message;
}

TEST(TrainerTest, SavedParamsLoadBack) {
  TrainOptions save = baseOptions();
  save.saveParams = tempPath("params");
  TrainingRun trained = train(save);
  ASSERT_TRUE(trained.status.succeeded()) << trained.status.message();
  StatusOr<std::vector<HostTensor>> file = readParamsFile(save.saveParams);
  ASSERT_FALSE(file.failed()) << file.getStatus().message();
  ASSERT_EQ(file->size(), 2u);

  TrainOptions load = baseOptions();
  load.loadParams = save.saveParams;
  load.steps = 0;
  TrainingRun loaded = train(load);
  ASSERT_TRUE(loaded.status.succeeded()) << loaded.status.message();
  EXPECT_TRUE(contains(loaded.out, "done: 0 steps, final loss nan, loss scale "
                                   "nan, skipped steps 0\n"))
      << loaded.out;
  for (int p = 0; p < 2; ++p) {
    StatusOr<std::vector<char>> now = loaded.trainer->readArgument(p);
    StatusOr<std::vector<char>> then = trained.trainer->readArgument(p);
    ASSERT_FALSE(now.failed() || then.failed());
    EXPECT_EQ(*now, *then) << "param #" << p;
  }
  // The same eval on the same params and rows: the same accuracy.
  auto accuracy = [](const std::string &out) {
    return out.substr(out.find("eval accuracy"));
  };
  EXPECT_EQ(accuracy(loaded.out), accuracy(trained.out));
}

TEST(TrainerTest, CreateErrors) {
  auto createError = [](TrainOptions options,
                        TrainingProgram program = linearProgram()) {
    StatusOr<std::unique_ptr<Trainer>> trainer =
        Trainer::create(referenceRuntime(), program, options);
    return trainer.failed() ? trainer.getStatus().message() : "(created)";
  };
  TrainOptions options = baseOptions();
  options.steps = -1;
  EXPECT_EQ(createError(options), "--steps must be >= 0");
  options = baseOptions();
  options.evalFraction = 1;
  EXPECT_EQ(createError(options), "--eval-fraction must be in [0, 1)");
  options = baseOptions();
  options.infSteps = {41};
  EXPECT_EQ(createError(options),
            "--inject-inf step 41 is not one of the steps 1..40");
  options = baseOptions();
  options.evalFraction = 0.95;
  EXPECT_EQ(createError(options),
            "the training split has 2 rows, fewer than one batch of 4");
  options = baseOptions();
  options.dataFile = tempPath("three.csv");
  writeFile(options.dataFile, "1,2,3,0\n");
  EXPECT_EQ(createError(options), "dataset '" + options.dataFile +
                                      "' has 3 features, but the model's "
                                      "input takes 2");
  options = baseOptions();
  options.loadParams = tempPath("params");
  ASSERT_TRUE(writeParamsFile(options.loadParams, {{{2, 2}, {1, 2, 3, 4}}})
                  .succeeded());
  EXPECT_EQ(createError(options), "'" + options.loadParams +
                                      "' holds 1 params, but @linear_step "
                                      "takes 2 (the first missing is param "
                                      "#1)");

  TrainingProgram program = linearProgram();
  program.step.args[7].type = ElementType::F16;
  const std::string inputError =
      "the input argument must be a [batch, features] f32 tensor (or [batch, "
      "d1, d2, ...], each row d1 x d2 x ... features, e.g. NCHW images) or an "
      "integer [batch, seq] token tensor";
  EXPECT_EQ(createError(baseOptions(), program), inputError);
  program = linearProgram();
  program.step.args[7].shape = {4};
  EXPECT_EQ(createError(baseOptions(), program), inputError);
  program = linearProgram();
  program.step.args[7].shape = {4, 2, 0};
  EXPECT_EQ(createError(baseOptions(), program),
            "the input argument [4, 2, 0] f32 has no elements");
  program = linearProgram();
  program.step.args[7].type = ElementType::I32;
  program.step.args[8].shape = {3};
  EXPECT_EQ(createError(baseOptions(), program),
            "the label argument [3] i32 must be an i32/i64 tensor [batch] (a "
            "class per row) or [batch, seq, ...] (a label per position), or "
            "an f32 tensor [batch, ...] (a regression's targets), with the "
            "inputs' batch, 4");
  // Integer [4, 2] input and [4] labels: a sequence classifier, which
  // trains on --data only, and only on token ids. f32 targets likewise.
  program.step.args[8].shape = {4};
  options = baseOptions();
  options.dataFile.clear();
  program.step.args[8].type = ElementType::F32;
  EXPECT_EQ(createError(options, program),
            "regression targets (an f32 label) on integer inputs need --data: "
            "CSV rows of the inputs' values then the targets, or a NumPy .npz "
            "archive of an array per input and the targets");
  program.step.args[8].type = ElementType::I32;
  EXPECT_EQ(createError(options, program),
            "a sequence classifier (integer [batch, seq] input, [batch] "
            "labels) needs --data: CSV rows of seq token ids, then the label, "
            "or a NumPy .npz archive of an array per input and the labels");
  options = baseOptions();
  options.featureScale = 0.5f;
  EXPECT_EQ(createError(options, program),
            "--feature-scale, --allow-nonfinite and --inject-inf need a "
            "[batch, features] f32 input");
  options = baseOptions();
  options.vocab = (int64_t{1} << 24) + 1;
  EXPECT_EQ(createError(options, program), "--vocab must be at most 2^24");
  // [4, 2] labels, one per position: synthetic next-token sequences need
  // --vocab and labels of the input's shape; --data rows end in 2 labels.
  program.step.args[8].shape = {4, 2};
  program.eval.reset();
  options = baseOptions();
  options.dataFile.clear();
  EXPECT_EQ(createError(options, program),
            "synthetic next-token sequences need --vocab (their vocabulary "
            "size, at most 2^24)");
  program.step.args[8].shape = {4, 3};
  EXPECT_EQ(createError(options, program),
            "labels per position need --data (CSV rows of the inputs' values "
            "then the labels, or a NumPy .npz archive), or, for synthetic "
            "next-token sequences, one integer [batch, seq] input and labels "
            "of its shape");
  program.step.args[8].shape = {4, 2};
  options = baseOptions();
  options.dataFile = tempPath("tokens.csv");
  writeFile(options.dataFile, "1,2\n");
  EXPECT_EQ(createError(options, program),
            options.dataFile + ":1: expected features and 2 labels");
  // The eval function's logits: the labels' shape, then the classes.
  program = linearProgram();
  program.step.args[8].shape = {4, 2};
  EXPECT_EQ(createError(baseOptions(), program),
            "@linear_predict must take (params..., buffers..., inputs..., "
            "[label]) with "
            "@linear_step's 1 input(s) and return f32 logits of the labels' "
            "shape and then the classes ([batch, classes]; classes >= 1), or "
            "the loss (0-d f32)");
  // A second input: the batches must agree, and each input be f32 features
  // or integer ids.
  program = linearProgram();
  program.step.args.insert(program.step.args.begin() + 8,
                           tensor(Role::Input, {3, 2}));
  program.eval.reset();
  EXPECT_EQ(createError(baseOptions(), program),
            "input argument #8 [3, 2] f32 has another batch than input "
            "argument #7 [4, 2] f32");
  program.step.args[8] = tensor(Role::Input, {4, 2}, ElementType::BF16);
  program.step.args[8].name = "mask";
  EXPECT_EQ(createError(baseOptions(), program),
            "input argument #8 (mask) must be a [batch, features] f32 tensor "
            "(or [batch, d1, d2, ...], each row d1 x d2 x ... features, e.g. "
            "NCHW images) or an integer [batch, seq] token tensor");
  program.step.args[8].type = ElementType::F32;
  options = baseOptions();
  EXPECT_EQ(createError(options, program),
            "dataset '" + options.dataFile +
                "' has 2 values per row before the label, but the model's "
                "inputs take 4 (#7: 2, #8 (mask): 2)");
  program = linearProgram();
  program.step.args[0].type = ElementType::F16;
  program.step.results[0].type = ElementType::F16;
  EXPECT_EQ(createError(baseOptions(), program),
            "argument #0 of @linear_step is a param of type [2, 2] f16; "
            "params and buffers must be f32");
}

TEST(TrainerTest, InjectStepsParse) {
  TrainOptions options;
  ASSERT_TRUE(parseInjectSteps("3,n7,,12", options).succeeded());
  EXPECT_EQ(options.infSteps, (std::set<int>{3, 12}));
  EXPECT_EQ(options.nanSteps, (std::set<int>{7}));
  for (const char *bad : {"0", "x", "n", "3n", "-2", "n-1", "1.5"}) {
    TrainOptions o;
    Status s = parseInjectSteps(bad, o);
    ASSERT_TRUE(s.failed()) << bad;
    EXPECT_EQ(s.message(), std::string("bad --inject-inf entry '") + bad + "'");
  }
}

TEST(TrainerTest, MissingEntryPoint) {
  EntryPoints entry = linearEntryPoints();
  entry.eval = nullptr;
  TrainingRun run = train(baseOptions(), linearProgram(), entry);
  ASSERT_TRUE(run.status.failed());
  EXPECT_EQ(run.status.message(),
            "an entry point of @linear_step's program is missing");
}

// A run cut at a checkpoint and resumed trains bitwise like one that never
// stopped: the same log lines (losses, loss-scale state across a skipped
// step), the same final state, across epoch reshuffles (30 training rows,
// batch 4: an epoch is 7 steps).
TEST(TrainerTest, ResumedRunsContinueBitwise) {
  TrainOptions whole = baseOptions();
  whole.infSteps = {9, 30};
  whole.logFile = tempPath("whole.csv");
  TrainingRun uninterrupted = train(whole);
  ASSERT_TRUE(uninterrupted.status.succeeded())
      << uninterrupted.status.message();

  TrainOptions first = whole;
  first.steps = 17;
  first.infSteps = {9}; // step 30 lies past this run
  first.saveCheckpoint = tempPath("ckpt-{step}.npz");
  first.checkpointEvery = 5;
  first.logFile = tempPath("first.csv");
  TrainingRun cut = train(first);
  ASSERT_TRUE(cut.status.succeeded()) << cut.status.message();
  auto checkpointAt = [&](int step) {
    std::string path = first.saveCheckpoint;
    return path.replace(path.find("{step}"), 6, std::to_string(step));
  };
  for (int step : {5, 10, 15, 17})
    EXPECT_FALSE(readFile(checkpointAt(step)).empty()) << step;

  TrainOptions second = whole;
  second.resume = checkpointAt(17);
  second.seed = 99; // the checkpoint's generator state wins
  second.logFile = tempPath("second.csv");
  TrainingRun resumed = train(second);
  ASSERT_TRUE(resumed.status.succeeded()) << resumed.status.message();
  EXPECT_TRUE(contains(resumed.out, "\nresumed from '" + second.resume +
                                        "' after step 17 (1 skipped)\n"))
      << resumed.out;
  EXPECT_TRUE(contains(resumed.out, "\nstep 18  loss ")) << resumed.out;
  EXPECT_TRUE(contains(resumed.out, "done: 40 steps (23 in this run)"))
      << resumed.out;
  EXPECT_TRUE(contains(resumed.out, ", skipped steps 2\n")) << resumed.out;

  std::vector<std::string> all = lines(readFile(whole.logFile)),
                           a = lines(readFile(first.logFile)),
                           b = lines(readFile(second.logFile));
  ASSERT_EQ(a.size(), 18u);
  ASSERT_EQ(b.size(), 24u);
  a.insert(a.end(), b.begin() + 1, b.end());
  EXPECT_EQ(a, all);
  const StepBinding &binding = uninterrupted.trainer->getBinding();
  for (size_t arg = 0; arg < linearProgram().step.args.size(); ++arg) {
    if (binding.label == static_cast<int>(arg) ||
        std::count(binding.inputs().begin(), binding.inputs().end(), arg))
      continue;
    StatusOr<std::vector<char>> x = uninterrupted.trainer->readArgument(arg);
    StatusOr<std::vector<char>> y = resumed.trainer->readArgument(arg);
    ASSERT_FALSE(x.failed() || y.failed());
    EXPECT_EQ(*x, *y) << "argument #" << arg;
  }
  EXPECT_EQ(uninterrupted.out.substr(uninterrupted.out.find("eval accuracy")),
            resumed.out.substr(resumed.out.find("eval accuracy")));

  // A checkpoint at the last step: nothing left to run.
  TrainOptions done = first;
  done.saveCheckpoint.clear();
  done.checkpointEvery = 0;
  done.resume = checkpointAt(17);
  done.steps = 17;
  TrainingRun nothing = train(done);
  ASSERT_TRUE(nothing.status.succeeded()) << nothing.status.message();
  EXPECT_TRUE(contains(nothing.out, "done: 17 steps (0 in this run)"))
      << nothing.out;
}

TEST(TrainerTest, CheckpointErrors) {
  auto createError = [](const TrainOptions &options) {
    StatusOr<std::unique_ptr<Trainer>> trainer =
        Trainer::create(referenceRuntime(), linearProgram(), options);
    return trainer.failed() ? trainer.getStatus().message() : "(created)";
  };
  TrainOptions save = baseOptions();
  save.steps = 6;
  save.saveCheckpoint = tempPath("ckpt.npz");
  ASSERT_TRUE(train(save).status.succeeded());

  TrainOptions options = baseOptions();
  options.checkpointEvery = 3;
  EXPECT_EQ(createError(options),
            "--checkpoint-every needs --save-checkpoint FILE");
  options.checkpointEvery = -1;
  EXPECT_EQ(createError(options), "--checkpoint-every must be >= 0");
  // Resuming `save`'s checkpoint.
  auto resuming = [&] {
    TrainOptions o = baseOptions();
    o.resume = save.saveCheckpoint;
    return o;
  };
  options = resuming();
  options.loadParams = tempPath("params");
  EXPECT_EQ(createError(options), "--resume and --load-params both set the "
                                  "params; give one");
  options = resuming();
  options.steps = 5;
  EXPECT_EQ(createError(options),
            "--resume '" + options.resume +
                "': it was saved after step 6, past --steps 5 (--steps "
                "counts from the start of the training)");
  options = resuming();
  options.featureScale = 2;
  EXPECT_EQ(createError(options),
            "--resume '" + options.resume +
                "': it was saved training on data with other values or "
                "labels than this run's; resume with the run's --data, "
                "--feature-scale and --seed (for synthetic data), or start "
                "from its params with --load-params");
  options = baseOptions();
  options.resume = tempPath("missing.npz");
  EXPECT_EQ(createError(options).rfind(
                "cannot read checkpoint '" + options.resume + "': ", 0),
            0u)
      << createError(options);
  // Another step: a param of another shape.
  TrainingProgram other = linearProgram();
  other.step.args[0].shape = {2, 3};
  other.step.results[0].shape = {2, 3};
  other.eval.reset();
  options = resuming();
  StatusOr<std::unique_ptr<Trainer>> trainer =
      Trainer::create(referenceRuntime(), other, options);
  ASSERT_TRUE(trainer.failed());
  EXPECT_EQ(trainer.getStatus().message(),
            "--resume '" + options.resume +
                "': 'param.0' is [2, 2] f32, but argument #0 of "
                "@linear_step is [2, 3] f32");
}

// Nothing held out: the checkpoint's eval rows are an empty array.
TEST(TrainerTest, CheckpointWithoutHeldOutRows) {
  TrainOptions save = baseOptions();
  save.evalFraction = 0;
  save.steps = 3;
  save.saveCheckpoint = tempPath("ckpt.npz");
  TrainingRun saved = train(save);
  ASSERT_TRUE(saved.status.succeeded()) << saved.status.message();
  TrainOptions resume = save;
  resume.saveCheckpoint.clear();
  resume.resume = save.saveCheckpoint;
  resume.steps = 5;
  TrainingRun resumed = train(resume);
  ASSERT_TRUE(resumed.status.succeeded()) << resumed.status.message();
  EXPECT_TRUE(contains(resumed.out, "after step 3 (0 skipped)\n"))
      << resumed.out;
}
