//===- RunFlags.cpp - the flags of a training run -------------------------===//

#include "amp/Runner/RunFlags.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>

using namespace amp::runner;

namespace {

Status badValue(const char *flag, const std::string &value,
                const char *expected) {
  return Status::error("--" + std::string(flag) + ": '" + value + "' is not " +
                       expected);
}

/// A flag setting a field of TrainOptions from its text: integers of the
/// field's type (std::from_chars: range and sign checked), finite numbers,
/// strings, booleans (a flag without a value).
template <typename T>
RunFlag field(const char *name, const char *value, const char *help,
              T TrainOptions::*member) {
  if constexpr (std::is_same_v<T, bool>)
    value = nullptr;
  return {name, value, help, [=](RunFlags &f, const std::string &v) -> Status {
            T &out = f.train.*member;
            if constexpr (std::is_same_v<T, bool>) {
              if (v != "true" && v != "false")
                return badValue(name, v, "true or false");
              out = v == "true";
            } else if constexpr (std::is_integral_v<T>) {
              auto [end, error] =
                  std::from_chars(v.data(), v.data() + v.size(), out);
              if (v.empty() || error != std::errc() ||
                  end != v.data() + v.size())
                return badValue(name, v,
                                std::is_signed_v<T> ? "an integer"
                                                    : "a non-negative integer");
            } else if constexpr (std::is_floating_point_v<T>) {
              char *end = nullptr;
              double x = std::strtod(v.c_str(), &end);
              if (v.empty() || *end || !std::isfinite(x))
                return badValue(name, v, "a finite number");
              out = static_cast<T>(x);
            } else {
              out = v;
            }
            return Status::success();
          }};
}

RunFlag text(const char *name, const char *value, const char *help,
             std::string RunFlags::*member) {
  return {name, value, help, [=](RunFlags &f, const std::string &v) {
            f.*member = v;
            return Status::success();
          }};
}

} // namespace

Status RunFlags::finish() {
  if (Status s = call.validate(); s.failed())
    return s;
  if (!call.function.empty()) {
    // A function call: its params come from --load-params.
    call.params = train.loadParams;
    return Status::success();
  }
  if (Status s = parseInjectSteps(injectInf, train); s.failed())
    return s;
  return train.validate();
}

/// A repeatable flag appending to a list of FunctionCallOptions.
static RunFlag listFlag(const char *name, const char *value, const char *help,
                        std::vector<std::string> FunctionCallOptions::*member) {
  return {name, value, help, [=](RunFlags &f, const std::string &v) -> Status {
            (f.call.*member).push_back(v);
            return Status::success();
          }};
}

const std::vector<RunFlag> &amp::runner::runFlagTable() {
  static const std::vector<RunFlag> table = {
      text("backend", "NAME",
           "cpu (oneDNN), reference (the simple CPU oracle) or cuda: picks "
           "the runtime library (default: cpu where it was built, else "
           "reference)",
           &RunFlags::backend),
      {"threads", "N",
       "Threads of the cpu backend (sets AMP_NUM_THREADS before the backend "
       "is loaded; default: every core)",
       [](RunFlags &, const std::string &v) -> Status {
         int threads = 0;
         auto [end, error] =
             std::from_chars(v.data(), v.data() + v.size(), threads);
         if (v.empty() || error != std::errc() || end != v.data() + v.size() ||
             threads < 1 || threads > 4096)
           return badValue("threads", v, "an integer in [1, 4096]");
         ::setenv("AMP_NUM_THREADS", v.c_str(), 1);
         return Status::success();
       }},
      {"deterministic", nullptr,
       "cpu backend: results that do not depend on the thread count (sets "
       "AMP_DETERMINISTIC=1: oneDNN's GEMMs and convolutions run on one "
       "thread)",
       [](RunFlags &, const std::string &v) -> Status {
         if (v != "true" && v != "false")
           return badValue("deterministic", v, "true or false");
         ::setenv("AMP_DETERMINISTIC", v == "true" ? "1" : "0", 1);
         return Status::success();
       }},
      text("runtime-lib", "PATH",
           "Path of the runtime library (default: libamp_runtime_<backend>.so "
           "in $AMP_RUNTIME_DIR, else where the build or install puts it)",
           &RunFlags::runtimeLib),
      field("steps", "N", "Training steps to run (default 100)",
            &TrainOptions::steps),
      field("seed", "N", "Seed of param init and shuffling (default 0)",
            &TrainOptions::seed),
      field("data", "FILE",
            "CSV dataset: feature columns (token ids for a sequence "
            "classifier; every input's values in order) then an integer "
            "label, or a NumPy .npz archive of an array per input, named "
            "like it, and 'labels'; without it batches are synthetic",
            &TrainOptions::dataFile),
      field("feature-scale", "X", "Multiply every feature by this",
            &TrainOptions::featureScale),
      field("allow-nonfinite", nullptr,
            "Keep NaN and infinite features of --data (after "
            "--feature-scale) instead of failing on them, e.g. for "
            "loss-scaling experiments",
            &TrainOptions::allowNonfinite),
      field("eval-fraction", "X",
            "Fraction of the dataset held out for evaluation (default 0.2)",
            &TrainOptions::evalFraction),
      field("shuffle", nullptr,
            "Shuffle the rows: the held-out split and every epoch's order "
            "(default); --shuffle=false keeps the dataset's order, the last "
            "--eval-fraction rows held out, like DataLoader(shuffle=False)",
            &TrainOptions::shuffle),
      field("log", "FILE",
            "Write a CSV log: step,loss,scale,found_inf,growth_tracker, then "
            "lr and grad_norm when the step returns them (nn-autodiff's "
            "lr-schedule and clip-norm)",
            &TrainOptions::logFile),
      field("print-every", "N",
            "Print progress every N steps (0: only the summary; default 10)",
            &TrainOptions::printEvery),
      field("eval-every", "N",
            "Also print the held-out accuracy and loss after every N-th step "
            "(0: only after training; default 0)",
            &TrainOptions::evalEvery),
      field("save-params", "FILE",
            "Write the final params (the format of --load-params)",
            &TrainOptions::saveParams),
      field("eval-ema", nullptr,
            "Evaluate the moving averages of the params (a step built "
            "with nn-autodiff's ema-decay) instead of the params, as "
            "PyTorch's AveragedModel is evaluated",
            &TrainOptions::evalEma),
      field("save-ema", "FILE",
            "Write the params file of the averaged model: the moving "
            "averages of the params (ema-decay), then the buffers (their "
            "averages with ema-buffers); --load-params reads it",
            &TrainOptions::saveEma),
      field("load-params", "FILE",
            "Initialize params from a file written by --save-params "
            "(\"AMPPARAM1\", count, then per param rank, dims, f32 data)",
            &TrainOptions::loadParams),
      field("save-checkpoint", "FILE",
            "After training (and every --checkpoint-every steps), write a "
            "checkpoint: a NumPy .npz archive of the params, buffers, "
            "optimizer, loss-scale and lr-schedule state, the step and the "
            "data order, which --resume continues from ('{step}' in FILE "
            "becomes the step number: a file per checkpoint)",
            &TrainOptions::saveCheckpoint),
      field("checkpoint-every", "N",
            "Also write --save-checkpoint after every N-th step (0: only "
            "after training; default 0)",
            &TrainOptions::checkpointEvery),
      field("resume", "FILE",
            "Continue the training of a --save-checkpoint file: its state, "
            "data order and step; --steps counts from the training's start, "
            "so the same command with --resume runs the remaining steps, "
            "bitwise like a run that never stopped",
            &TrainOptions::resume),
      text("inject-inf", "LIST",
           "Comma-separated steps whose input batch gets a +inf (and, for "
           "steps prefixed with 'n', a NaN) feature, to exercise loss "
           "scaling: e.g. 3,n7",
           &RunFlags::injectInf),
      field("verify-skipped-steps", nullptr,
            "Check that every skipped step leaves params and optimizer "
            "state bitwise unchanged (fails otherwise)",
            &TrainOptions::verifySkippedSteps),
      field("vocab", "N",
            "For token models (integer input [batch, seq], label = next "
            "tokens): the vocabulary size of the synthetic sequences "
            "x[t+1] = (5 x[t] + 3) mod vocab; for sequence classifiers "
            "([batch] labels): the bound on --data's token ids",
            &TrainOptions::vocab),
      field("cuda-graph", nullptr,
            "Capture the step into a CUDA graph after a warm-up step and "
            "replay it (cuda backend; bitwise the uncaptured run)",
            &TrainOptions::cudaGraph),
      field("prefetch", nullptr,
            "Gather the next batch's rows while a step runs, on its own "
            "thread for a batch of 1 MiB or more (default); --prefetch=false "
            "gathers each batch in line before its step",
            &TrainOptions::prefetch),
      field("report-memory", nullptr,
            "After training, print the backend's peak memory (bytes in use "
            "and reserved) and its allocator's cache hits",
            &TrainOptions::reportMemory),
      field("report-time", nullptr,
            "After training, print the median and mean wall time of a step "
            "(batch upload, the step, the loss read back), without step 1, "
            "and the medians of its phases: the batch (gathered unless "
            "prefetched), the step, the next batch's prefetch",
            &TrainOptions::reportTime),
      // Calling one function on tensor files instead of training
      // (FunctionCall.h): amp-run only.
      {"function", "NAME",
       "Instead of training, call this function once on the --input "
       "tensors (params from --load-params) and write or check its results",
       [](RunFlags &f, const std::string &v) -> Status {
         if (v.empty())
           return Status::error("--function needs a function name");
         f.call.function = v;
         return Status::success();
       }},
      listFlag("input", "@FILE",
               "A tensor file (.npy, or ONNX TensorProto .pb) for the next "
               "non-param argument of --function (repeatable)",
               &FunctionCallOptions::inputs),
      listFlag("output", "FILE",
               "Write the next result of --function as .npy (repeatable)",
               &FunctionCallOptions::outputs),
      listFlag("expected-output", "@FILE",
               "Compare the next result of --function with this tensor file "
               "(repeatable); a mismatch fails the run",
               &FunctionCallOptions::expected),
      {"tolerance", "T",
       "--expected-output passes when |actual - expected| <= T * (1 + "
       "|expected|) (default 1e-5)",
       [](RunFlags &f, const std::string &v) -> Status {
         char *end = nullptr;
         double x = std::strtod(v.c_str(), &end);
         if (v.empty() || *end || !std::isfinite(x) || x < 0)
           return badValue("tolerance", v, "a non-negative number");
         f.call.tolerance = x;
         return Status::success();
       }},
  };
  return table;
}

Status amp::runner::parseRunFlags(int argc, char **argv, RunFlags &flags,
                                  std::vector<char *> &rest) {
  rest.clear();
  if (argc > 0)
    rest.push_back(argv[0]);
  const std::vector<RunFlag> &table = runFlagTable();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      for (; i < argc; ++i)
        rest.push_back(argv[i]);
      break;
    }
    // -name and --name are the same, as for llvm::cl.
    size_t dashes = arg.rfind("--", 0) == 0 ? 2 : arg.rfind("-", 0) == 0;
    std::string body = arg.substr(dashes);
    size_t eq = body.find('=');
    std::string name = body.substr(0, eq);
    const RunFlag *flag = nullptr;
    for (const RunFlag &f : table)
      if (dashes && name == f.name)
        flag = &f;
    if (!flag) {
      rest.push_back(argv[i]);
      continue;
    }
    std::string value;
    if (eq != std::string::npos)
      value = body.substr(eq + 1);
    else if (!flag->value)
      value = "true";
    else if (i + 1 < argc)
      value = argv[++i];
    else
      return Status::error("--" + name + " needs a value (" + flag->value +
                           ")");
    if (Status s = flag->set(flags, value); s.failed())
      return s;
  }
  return Status::success();
}

std::string amp::runner::runFlagsHelp() {
  std::string help;
  for (const RunFlag &f : runFlagTable()) {
    std::string head = std::string("  --") + f.name;
    if (f.value)
      head += std::string("=") + f.value;
    help += head + "\n      " + f.help + "\n";
  }
  return help;
}
