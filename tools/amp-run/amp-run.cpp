//===- amp-run.cpp - JIT-run a compiled training step ---------------------===//
//
// amp-run takes a training-step module (the nn.role convention of
// docs/dialects.md), compiles it with the runner library's compile half
// (amp-pipeline for the requested precision, amp-to-runtime, the JIT) and
// trains it with its execution half (bind by role, init, data, steps, logs,
// eval, params I/O) on a runtime backend. This file is argument parsing plus
// calls into lib/Runner; docs/amp-run.md describes both.
//
//===----------------------------------------------------------------------===//

#include "amp/Parser/ParseNamingArguments.h"
#include "amp/Runner/Compile.h"
#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Trainer.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>

using namespace mlir;
using namespace amp::runner;
namespace cl = llvm::cl;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static cl::OptionCategory category("amp-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<training-step .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    precision("precision", cl::init("f16"),
              cl::desc("f32 (no AMP pipeline), f16 or bf16 (amp-pipeline "
                       "with that compute type)"),
              cl::cat(category));
static cl::opt<std::string> pipelineOptions(
    "pipeline-options", cl::init(""),
    cl::desc("Extra amp-pipeline options, e.g. \"loss-scale=static "
             "init-scale=1024\""),
    cl::cat(category));
static cl::opt<std::string> autodiffOptions(
    "autodiff-options", cl::init(""),
    cl::desc("nn-autodiff options for a forward loss function as --entry, "
             "e.g. \"optimizer=adamw lr=3e-4\""),
    cl::cat(category));
static cl::opt<std::string> entry(
    "entry", cl::init("train_step"), cl::cat(category),
    cl::desc("The training step, or a forward loss function for nn-autodiff"));
static cl::opt<std::string>
    evalEntry("eval-entry", cl::init(""),
              cl::desc("A function (params..., input) -> logits used to "
                       "measure accuracy on the held-out split (for a "
                       "forward --entry F, F_forward is its forward pass)"),
              cl::cat(category));
static cl::opt<std::string>
    backend("backend", cl::init("reference"),
            cl::desc("reference (CPU) or cuda: picks the runtime library"),
            cl::cat(category));
static cl::opt<std::string>
    runtimeLib("runtime-lib", cl::init(""),
               cl::desc("Path of the runtime library (default: "
                        "libamp_runtime_<backend>.so in $AMP_RUNTIME_DIR, "
                        "else where the build or install puts it)"),
               cl::cat(category));
static cl::opt<int> steps("steps", cl::init(100),
                          cl::desc("Training steps to run"), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::init(0),
                              cl::desc("Seed of param init and shuffling"),
                              cl::cat(category));
static cl::opt<std::string>
    dataFile("data", cl::init(""),
             cl::desc("CSV dataset: feature columns then an integer label; "
                      "without it batches are synthetic"),
             cl::cat(category));
static cl::opt<float> featureScale("feature-scale", cl::init(1.0f),
                                   cl::desc("Multiply every feature by this"),
                                   cl::cat(category));
static cl::opt<bool> allowNonfinite(
    "allow-nonfinite", cl::init(false),
    cl::desc("Keep NaN and infinite features of --data (after "
             "--feature-scale) instead of failing on them, e.g. for "
             "loss-scaling experiments"),
    cl::cat(category));
static cl::opt<double>
    evalFraction("eval-fraction", cl::init(0.2),
                 cl::desc("Fraction of the dataset held out for evaluation"),
                 cl::cat(category));
static cl::opt<std::string> logFile(
    "log", cl::init(""),
    cl::desc("Write a CSV log: step,loss,scale,found_inf,growth_tracker"),
    cl::cat(category));
static cl::opt<int> printEvery("print-every", cl::init(10),
                               cl::desc("Print progress every N steps (0: "
                                        "only the summary)"),
                               cl::cat(category));
static cl::opt<std::string>
    saveParams("save-params", cl::init(""),
               cl::desc("Write the final params (binary, see --help of "
                        "--load-params)"),
               cl::cat(category));
static cl::opt<std::string> loadParams(
    "load-params", cl::init(""),
    cl::desc("Initialize params from a file written by --save-params "
             "(\"AMPPARAM1\", count, then per param rank, dims, f32 data)"),
    cl::cat(category));
static cl::opt<std::string> injectInf(
    "inject-inf", cl::init(""),
    cl::desc("Comma-separated steps whose input batch gets a +inf (and, for "
             "steps prefixed with 'n', a NaN) feature, to exercise loss "
             "scaling: e.g. 3,n7"),
    cl::cat(category));
static cl::opt<bool> verifySkips(
    "verify-skipped-steps", cl::init(false),
    cl::desc("Check that every skipped step leaves params and optimizer "
             "state bitwise unchanged (fails otherwise)"),
    cl::cat(category));
static cl::opt<std::string> underflowReport(
    "underflow-report", cl::init(""),
    cl::desc("Before training, run this function (params..., input, label) "
             "-> (f32 tensors...) on the first batch and report which "
             "fraction of the non-zero values an f16 cast flushes to zero or "
             "makes subnormal"),
    cl::cat(category));
static cl::opt<int64_t>
    vocab("vocab", cl::init(0),
          cl::desc("For token models (integer input [batch, seq], label = next "
                   "tokens): the vocabulary size of the synthetic sequences "
                   "x[t+1] = (5 x[t] + 3) mod vocab"),
          cl::cat(category));
static cl::opt<bool> dumpLowered("dump-lowered", cl::init(false),
                                 cl::desc("Print the lowered module"),
                                 cl::cat(category));

namespace {
[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::outs().flush();
  std::cout.flush();
  llvm::errs() << "amp-run: error: " << msg << "\n";
  std::exit(1);
}

void check(const Status &status) {
  if (status.failed())
    fail(status.message());
}

template <typename T> T check(StatusOr<T> value) {
  check(value.getStatus());
  return std::move(*value);
}

template <typename T> T check(llvm::Expected<T> value) {
  if (!value)
    fail(llvm::toString(value.takeError()));
  return std::move(*value);
}

TrainOptions trainOptions() {
  TrainOptions o;
  o.precision = precision;
  o.steps = steps;
  o.seed = seed;
  o.dataFile = dataFile;
  o.featureScale = featureScale;
  o.allowNonfinite = allowNonfinite;
  o.evalFraction = evalFraction;
  o.logFile = logFile;
  o.printEvery = printEvery;
  o.saveParams = saveParams;
  o.loadParams = loadParams;
  check(parseInjectSteps(injectInf, o));
  o.verifySkippedSteps = verifySkips;
  o.vocab = vocab;
  return o;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: JIT-run a training step compiled by amp\n\n"
      "Applies amp-pipeline (unless --precision=f32), lowers with "
      "amp-to-runtime and runs --steps steps on the chosen backend.\n");

  if (precision != "f32" && precision != "f16" && precision != "bf16")
    fail("--precision must be f32, f16 or bf16, got '" + precision + "'");
  TrainOptions options = trainOptions();
  check(options.validate());

  // The runtime library, next to the tools unless given.
  std::string exe = llvm::sys::fs::getMainExecutable(argv[0], (void *)&fail);
  std::string lib = check(findRuntimeLibrary(
      backend, runtimeLib, llvm::sys::path::parent_path(exe).str()));
  RuntimeLibrary rt = check(RuntimeLibrary::load(lib));

  // Compile: amp-pipeline (unless f32), the signatures, amp-to-runtime.
  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext context(registry);
  // Arguments keep their source names (%w1) for the runner's messages.
  OwningOpRef<ModuleOp> module =
      amp::parseFileNamingArguments(inputFile, &context);
  if (!module)
    return 1; // the parser printed the error
  amp::AmpPipelineOptions pipeline;
  pipeline.computeType = precision.getValue();
  if (failed(pipeline.parseFromString(pipelineOptions)))
    fail("bad --pipeline-options '" + pipelineOptions + "'");
  CompileOptions compile;
  std::string error;
  FailureOr<amp::nn::AutodiffOptions> autodiff =
      amp::nn::parseAutodiffOptions(autodiffOptions, error);
  if (failed(autodiff))
    fail("bad --autodiff-options '" + autodiffOptions + "': " + error);
  compile.autodiff = *autodiff;
  compile.pipeline = precision == "f32" ? nullptr : &pipeline;
  compile.sourceName = inputFile;
  for (const std::string &fn :
       std::vector<std::string>{entry, evalEntry, underflowReport})
    if (!fn.empty())
      compile.functions.push_back(fn);
  std::vector<FunctionSignature> signatures =
      check(compileForRuntime(*module, compile));
  if (dumpLowered)
    module->print(llvm::outs());
  llvm::outs().flush();

  TrainingProgram program;
  auto next = signatures.begin();
  program.step = *next++;
  if (!evalEntry.empty())
    program.eval = *next++;
  if (!underflowReport.empty())
    program.underflowProbe = *next++;
  std::unique_ptr<Trainer> trainer =
      check(Trainer::create(rt, program, std::move(options)));

  std::unique_ptr<JitModule> jit = check(JitModule::create(*module, {lib}));
  EntryPoints entryPoints;
  entryPoints.step = check(jit->lookup(entry));
  if (!evalEntry.empty())
    entryPoints.eval = check(jit->lookup(evalEntry));
  if (!underflowReport.empty())
    entryPoints.underflowProbe = check(jit->lookup(underflowReport));
  entryPoints.errorSite = jit->errorSite();
  check(trainer->run(entryPoints, std::cout));
  return 0;
}
