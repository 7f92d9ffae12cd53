//===- amp-run.cpp - JIT-run a compiled training step ---------------------===//
//
// amp-run takes a training-step module (the nn.role convention of
// docs/dialects.md), applies the AMP pipeline for the requested precision,
// lowers it with amp-lower-to-runtime, JIT-compiles it with MLIR's
// ExecutionEngine against a runtime backend (libamp_runtime_ref, or a CUDA
// one), and runs it for N steps: it initializes params, feeds batches from a
// CSV dataset or a synthetic source, threads params, optimizer state and
// loss-scale state from results back into arguments by role, and logs the
// loss, the loss scale and skipped steps.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/NN/IR/NNDialect.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>

using namespace mlir;
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
static cl::opt<std::string> entry("entry", cl::init("train_step"),
                                  cl::desc("The training-step function"),
                                  cl::cat(category));
static cl::opt<std::string>
    evalEntry("eval-entry", cl::init(""),
              cl::desc("A function (params..., input) -> logits used to "
                       "measure accuracy on the held-out split"),
              cl::cat(category));
static cl::opt<std::string>
    backend("backend", cl::init("reference"),
            cl::desc("reference (CPU) or cuda: picks the runtime library"),
            cl::cat(category));
static cl::opt<std::string>
    runtimeLib("runtime-lib", cl::init(""),
               cl::desc("Path of the runtime library (default: next to "
                        "amp-run, ../lib/libamp_runtime_<backend>.so)"),
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
static cl::opt<double> evalFraction(
    "eval-fraction", cl::init(0.2),
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
static cl::opt<int64_t> vocab(
    "vocab", cl::init(0),
    cl::desc("For token models (integer input [batch, seq], label = next "
             "tokens): the vocabulary size of the synthetic sequences "
             "x[t+1] = (5 x[t] + 3) mod vocab"),
    cl::cat(category));
static cl::opt<bool> dumpLowered("dump-lowered", cl::init(false),
                                 cl::desc("Print the lowered module"),
                                 cl::cat(category));

//===----------------------------------------------------------------------===//
// Runtime library
//===----------------------------------------------------------------------===//

namespace {
[[noreturn]] void fail(const llvm::Twine &msg) {
  llvm::errs() << "amp-run: error: " << msg << "\n";
  std::exit(1);
}

/// The runtime entry points amp-run calls itself, resolved from the backend
/// library that the JIT-compiled step also links against.
struct Runtime {
  void *(*alloc)(int64_t, void *) = nullptr;
  int32_t (*free)(void *, void *) = nullptr;
  int32_t (*memcpy)(void *, const void *, int64_t, void *) = nullptr;
  int32_t (*synchronize)(void *) = nullptr;
  const char *(*kernelError)() = nullptr;
  const char *(*gemmError)() = nullptr;
  const char *(*backendName)() = nullptr;

  void load(const std::string &path) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle)
      fail("cannot load the runtime library '" + path + "': " + dlerror());
    auto sym = [&](const char *name) {
      void *p = dlsym(handle, name);
      if (!p)
        fail("the runtime library '" + path + "' lacks " + name +
             " (this backend does not implement the kernel ABI yet)");
      return p;
    };
    alloc = reinterpret_cast<decltype(alloc)>(sym("amp_alloc"));
    free = reinterpret_cast<decltype(free)>(sym("amp_free"));
    memcpy = reinterpret_cast<decltype(memcpy)>(sym("amp_memcpy"));
    synchronize =
        reinterpret_cast<decltype(synchronize)>(sym("amp_synchronize"));
    kernelError =
        reinterpret_cast<decltype(kernelError)>(sym("amp_kernel_last_error"));
    gemmError =
        reinterpret_cast<decltype(gemmError)>(sym("amp_gemm_last_error"));
    backendName =
        reinterpret_cast<decltype(backendName)>(sym("amp_gemm_backend_name"));
  }
};
Runtime rt;

/// One tensor argument or result of a step, described from the source IR.
struct Slot {
  std::string role;
  SmallVector<int64_t> shape;
  Type elem;
  Attribute init;
  int64_t numElements() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t{1},
                           std::multiplies<int64_t>());
  }
  int64_t bytes() const {
    int64_t width = elem.isInteger(1) ? 1 : elem.getIntOrFloatBitWidth() / 8;
    return numElements() * width;
  }
};

SmallVector<Slot> describe(ArrayRef<Type> types, ArrayRef<DictionaryAttr> attrs,
                           StringRef fn, StringRef what) {
  SmallVector<Slot> slots;
  for (auto [i, t] : llvm::enumerate(types)) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      fail("@" + fn + " " + what + " #" + Twine(i) +
           " is not a statically shaped tensor");
    Slot s;
    s.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    s.elem = tensor.getElementType();
    DictionaryAttr d = i < attrs.size() ? attrs[i] : DictionaryAttr();
    if (d) {
      if (auto role = d.getAs<StringAttr>(amp::nn::NNDialect::getRoleAttrName()))
        s.role = role.getValue().str();
      s.init = d.get(amp::nn::NNDialect::getInitAttrName());
    }
    slots.push_back(s);
  }
  return slots;
}

/// A device buffer.
struct Buffer {
  void *ptr = nullptr;
  int64_t bytes = 0;
};

Buffer allocBuffer(int64_t bytes) {
  Buffer b{rt.alloc(bytes, nullptr), bytes};
  if (!b.ptr)
    fail("amp_alloc of " + Twine(bytes) + " bytes failed: " +
         rt.kernelError());
  return b;
}

void upload(Buffer &b, const void *host) {
  if (rt.memcpy(b.ptr, host, b.bytes, nullptr) != 0)
    fail(Twine("amp_memcpy failed: ") + rt.kernelError());
}

void download(const Buffer &b, void *host) {
  if (rt.memcpy(host, b.ptr, b.bytes, nullptr) != 0)
    fail(Twine("amp_memcpy failed: ") + rt.kernelError());
}

/// Host bytes of `count` elements of `elem` holding `value`.
std::vector<char> filled(const Slot &s, double value) {
  std::vector<char> data(s.bytes());
  int64_t n = s.numElements();
  if (s.elem.isF32()) {
    std::fill_n(reinterpret_cast<float *>(data.data()), n,
                static_cast<float>(value));
  } else if (s.elem.isInteger(32)) {
    std::fill_n(reinterpret_cast<int32_t *>(data.data()), n,
                static_cast<int32_t>(value));
  } else if (s.elem.isInteger(64)) {
    std::fill_n(reinterpret_cast<int64_t *>(data.data()), n,
                static_cast<int64_t>(value));
  } else if (s.elem.isInteger(1)) {
    std::fill_n(reinterpret_cast<int8_t *>(data.data()), n,
                static_cast<int8_t>(value != 0));
  } else {
    fail("cannot initialize a state argument of element type other than "
         "f32, i32, i64 or i1");
  }
  return data;
}

double initValue(Attribute init) {
  if (auto f = dyn_cast_if_present<FloatAttr>(init))
    return f.getValueAsDouble();
  if (auto i = dyn_cast_if_present<IntegerAttr>(init))
    return static_cast<double>(i.getInt());
  if (auto b = dyn_cast_if_present<BoolAttr>(init))
    return b.getValue() ? 1.0 : 0.0;
  return 0.0;
}

/// PyTorch-like default init: uniform(+-1/sqrt(fan_in)) for weights
/// ([in, out] matrices: fan_in = dim 0; OIHW filters: I*KH*KW), zeros for
/// 1-D params, or the `nn.init` value when the argument has one.
std::vector<float> initParam(const Slot &s, std::mt19937_64 &rng) {
  std::vector<float> data(s.numElements(), 0.0f);
  if (s.init) {
    std::fill(data.begin(), data.end(), static_cast<float>(initValue(s.init)));
    return data;
  }
  int64_t fanIn = 0;
  if (s.shape.size() == 2)
    fanIn = s.shape[0];
  else if (s.shape.size() == 4)
    fanIn = s.shape[1] * s.shape[2] * s.shape[3];
  if (fanIn == 0)
    return data;
  float bound = 1.0f / std::sqrt(static_cast<float>(fanIn));
  std::uniform_real_distribution<float> dist(-bound, bound);
  for (float &v : data)
    v = dist(rng);
  return data;
}

/// A labelled dataset held as f32 features and int64 labels.
struct Dataset {
  int64_t features = 0;
  std::vector<float> x;
  std::vector<int64_t> y;
  std::vector<int64_t> tokenLabels; // token models: [rows, features]
  int64_t rows() const { return static_cast<int64_t>(y.size()); }
};

Dataset readCsv(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    fail("cannot read dataset '" + path + "': " + buffer.getError().message());
  Dataset d;
  SmallVector<StringRef> lines, cells;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (auto [row, line] : llvm::enumerate(lines)) {
    cells.clear();
    line.trim().split(cells, ',');
    if (cells.size() < 2)
      fail(path + ":" + Twine(row + 1) + ": expected features and a label");
    int64_t features = cells.size() - 1;
    if (d.features == 0)
      d.features = features;
    if (features != d.features)
      fail(path + ":" + Twine(row + 1) + ": " + Twine(features) +
           " features, but the first row has " + Twine(d.features));
    for (StringRef c : ArrayRef<StringRef>(cells).drop_back()) {
      double v;
      if (c.trim().getAsDouble(v))
        fail(path + ":" + Twine(row + 1) + ": '" + c + "' is not a number");
      d.x.push_back(static_cast<float>(v) * featureScale);
    }
    int64_t label;
    if (cells.back().trim().getAsInteger(10, label))
      fail(path + ":" + Twine(row + 1) + ": label '" + cells.back() +
           "' is not an integer");
    d.y.push_back(label);
  }
  if (d.rows() == 0)
    fail("dataset '" + path + "' is empty");
  return d;
}

void checkStatus(int32_t status, ExecutionEngine &engine, const llvm::Twine &what) {
  if (status == 0)
    return;
  std::string site = "?";
  if (auto addr = engine.lookup(amp::kErrorSiteGlobal))
    if (auto *p = *reinterpret_cast<const char **>(*addr))
      site = p;
  const char *kernel = rt.kernelError();
  const char *gemm = rt.gemmError();
  fail(what + " failed with status " + Twine(status) + " at " + site + ": " +
       (kernel && *kernel ? kernel : gemm ? gemm : "unknown error"));
}
} // namespace

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: JIT-run a training step compiled by amp\n\n"
      "Applies amp-pipeline (unless --precision=f32), lowers with "
      "amp-lower-to-runtime and runs --steps steps on the chosen backend.\n");

  if (precision != "f32" && precision != "f16" && precision != "bf16")
    fail("--precision must be f32, f16 or bf16, got '" + precision + "'");
  if (backend != "reference" && backend != "cuda")
    fail("--backend must be reference or cuda, got '" + backend + "'");
  if (steps < 0)
    fail("--steps must be >= 0");
  if (!(evalFraction >= 0.0 && evalFraction < 1.0))
    fail("--eval-fraction must be in [0, 1)");

  // The runtime library.
  std::string lib = runtimeLib;
  if (lib.empty()) {
    std::string exe =
        llvm::sys::fs::getMainExecutable(argv[0], (void *)&fail);
    SmallString<256> path(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(path, "..", "lib",
                            backend == "cuda" ? "libamp_runtime_cuda.so"
                                              : "libamp_runtime_ref.so");
    lib = std::string(path);
  }
  rt.load(lib);

  // Parse and compile.
  DialectRegistry registry;
  amp::registerAllDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(inputFile, &context);
  if (!module)
    return 1; // the parser printed the error

  auto stepFn = module->lookupSymbol<func::FuncOp>(entry);
  if (!stepFn)
    fail("no function @" + entry + " in " + inputFile);
  func::FuncOp evalFn;
  if (!evalEntry.empty() &&
      !(evalFn = module->lookupSymbol<func::FuncOp>(evalEntry)))
    fail("no function @" + evalEntry + " in " + inputFile);

  PassManager pm(&context);
  if (precision != "f32") {
    amp::AmpPipelineOptions options;
    std::string text = "compute-type=" + precision + " " + pipelineOptions;
    if (failed(options.parseFromString(text)))
      fail("bad --pipeline-options '" + pipelineOptions + "'");
    amp::buildAmpPipeline(pm, options);
  }
  if (failed(pm.run(*module)))
    return 1;

  // Describe the step after the pipeline (it may have added state).
  stepFn = module->lookupSymbol<func::FuncOp>(entry);
  auto argAttrs = [](func::FuncOp f) {
    SmallVector<DictionaryAttr> attrs;
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      attrs.push_back(f.getArgAttrDict(i));
    return attrs;
  };
  auto resAttrs = [](func::FuncOp f) {
    SmallVector<DictionaryAttr> attrs;
    for (unsigned i = 0; i < f.getNumResults(); ++i)
      attrs.push_back(f.getResultAttrDict(i));
    return attrs;
  };
  SmallVector<Slot> args = describe(stepFn.getArgumentTypes(),
                                    argAttrs(stepFn), entry, "argument");
  SmallVector<Slot> results = describe(stepFn.getResultTypes(),
                                       resAttrs(stepFn), entry, "result");
  func::FuncOp probeFn;
  SmallVector<Slot> probeArgs, probeResults;
  if (!underflowReport.empty()) {
    probeFn = module->lookupSymbol<func::FuncOp>(underflowReport);
    if (!probeFn)
      fail("no function @" + underflowReport + " in " + inputFile);
    probeArgs = describe(probeFn.getArgumentTypes(), argAttrs(probeFn),
                         underflowReport, "argument");
    probeResults = describe(probeFn.getResultTypes(), resAttrs(probeFn),
                            underflowReport, "result");
  }
  SmallVector<Slot> evalArgs, evalResults;
  if (evalFn) {
    evalArgs = describe(evalFn.getArgumentTypes(), argAttrs(evalFn), evalEntry,
                        "argument");
    evalResults = describe(evalFn.getResultTypes(), resAttrs(evalFn),
                           evalEntry, "result");
  }

  PassManager lower(&context);
  amp::buildAmpToRuntimePipeline(lower);
  if (failed(lower.run(*module)))
    return 1;
  if (dumpLowered)
    module->print(llvm::outs());

  // The role convention: every argument has a role; each state result
  // (param, opt_state, loss-scale state) feeds the next step's argument of
  // the same role and position; there is exactly one loss.
  std::map<std::string, SmallVector<int>> argsByRole;
  int inputArg = -1, labelArg = -1;
  for (auto [i, s] : llvm::enumerate(args)) {
    if (s.role.empty())
      fail("argument #" + Twine(i) + " of @" + entry +
           " has no nn.role (param, opt_state, input, label, ...)");
    argsByRole[s.role].push_back(i);
    if (s.role == "input") {
      if (inputArg >= 0)
        fail("@" + entry + " has more than one input argument");
      inputArg = i;
    }
    if (s.role == "label") {
      if (labelArg >= 0)
        fail("@" + entry + " has more than one label argument");
      labelArg = i;
    }
  }
  if (inputArg < 0 || labelArg < 0)
    fail("@" + entry + " needs one argument with nn.role = \"input\" and one "
                       "with \"label\"");
  const Slot &in = args[inputArg], &lab = args[labelArg];
  // Tabular classification ([batch, features] f32 input, [batch] labels) or
  // a token model (integer [batch, seq] input and next-token labels).
  bool tokens = in.elem.isInteger(32) || in.elem.isInteger(64);
  if (!tokens && (in.shape.size() != 2 || !in.elem.isF32()))
    fail("the input argument must be a [batch, features] f32 tensor or an "
         "integer [batch, seq] token tensor");
  if (!tokens && (lab.shape.size() != 1 || lab.shape[0] != in.shape[0] ||
                  !(lab.elem.isInteger(32) || lab.elem.isInteger(64))))
    fail("the label argument must be a [batch] i32/i64 tensor matching the "
         "input's batch");
  if (tokens) {
    if (in.shape.size() != 2 || lab.shape != in.shape ||
        !(lab.elem.isInteger(32) || lab.elem.isInteger(64)))
      fail("a token model needs an integer [batch, seq] input and labels of "
           "the same shape");
    if (vocab <= 0)
      fail("a token model needs --vocab (the synthetic sequences' "
           "vocabulary size)");
    if (!dataFile.empty() || !injectInf.empty() || !evalEntry.empty() ||
        !underflowReport.empty())
      fail("--data, --inject-inf, --eval-entry and --underflow-report need a "
           "[batch, features] f32 input");
  }
  int64_t batch = in.shape[0], features = in.shape[1];

  std::map<std::string, int> seen;
  std::vector<int> feedsArg(results.size(), -1);
  int lossResult = -1, scaleResult = -1, foundInfResult = -1,
      trackerResult = -1;
  for (auto [j, s] : llvm::enumerate(results)) {
    if (s.role == "loss") {
      if (lossResult >= 0 || !s.shape.empty() || !s.elem.isF32())
        fail("@" + entry + " must return exactly one 0-d f32 loss");
      lossResult = j;
      continue;
    }
    if (s.role.empty())
      fail("result #" + Twine(j) + " of @" + entry + " has no nn.role");
    int k = seen[s.role]++;
    auto it = argsByRole.find(s.role);
    if (it == argsByRole.end() || k >= static_cast<int>(it->second.size()))
      fail("result #" + Twine(j) + " (" + s.role + ") of @" + entry +
           " has no matching argument with that role");
    int a = it->second[k];
    if (args[a].shape != s.shape || args[a].elem != s.elem)
      fail("result #" + Twine(j) + " (" + s.role +
           ") does not have the type of argument #" + Twine(a));
    feedsArg[j] = a;
    if (s.role == "loss_scale")
      scaleResult = j;
    if (s.role == "found_inf")
      foundInfResult = j;
    if (s.role == "growth_tracker")
      trackerResult = j;
  }
  if (lossResult < 0)
    fail("@" + entry + " returns no loss (a result with nn.role = \"loss\")");
  for (auto &[role, indices] : argsByRole)
    if (role != "input" && role != "label" &&
        seen[role] != static_cast<int>(indices.size()))
      fail("@" + entry + " takes " + Twine(indices.size()) + " " + role +
           " argument(s) but returns " + Twine(seen[role]));

  // Data.
  std::mt19937_64 rng(seed);
  Dataset data;
  if (tokens) {
    // Rows of a deterministic sequence, so there is something to learn.
    int64_t rows = std::max<int64_t>(batch * 20, 256);
    std::uniform_int_distribution<int64_t> start(0, vocab - 1);
    data.features = features;
    for (int64_t r = 0; r < rows; ++r) {
      int64_t t = start(rng);
      for (int64_t f = 0; f <= features; ++f) {
        if (f < features)
          data.x.push_back(static_cast<float>(t));
        int64_t next = (5 * t + 3) % vocab;
        if (f < features)
          data.tokenLabels.push_back(next);
        t = next;
      }
      data.y.push_back(0);
    }
  } else if (!dataFile.empty()) {
    data = readCsv(dataFile);
    if (data.features != features)
      fail("dataset '" + dataFile + "' has " + Twine(data.features) +
           " features, but the model's input takes " + Twine(features));
  } else {
    // Synthetic: a random linear teacher labels Gaussian features.
    int64_t classes = 10, rows = std::max<int64_t>(batch * 20, 1000);
    std::normal_distribution<float> normal;
    std::vector<float> teacher(features * classes);
    for (float &t : teacher)
      t = normal(rng);
    data.features = features;
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<float> score(classes, 0.0f);
      for (int64_t f = 0; f < features; ++f) {
        float v = normal(rng);
        data.x.push_back(v);
        for (int64_t c = 0; c < classes; ++c)
          score[c] += v * teacher[f * classes + c];
      }
      data.y.push_back(std::max_element(score.begin(), score.end()) -
                       score.begin());
    }
  }
  std::vector<int64_t> order(data.rows());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  int64_t evalRows = static_cast<int64_t>(data.rows() * evalFraction);
  std::vector<int64_t> evalSet(order.begin(), order.begin() + evalRows);
  std::vector<int64_t> trainSet(order.begin() + evalRows, order.end());
  if (static_cast<int64_t>(trainSet.size()) < batch)
    fail("the training split has " + Twine(trainSet.size()) +
         " rows, fewer than one batch of " + Twine(batch));

  std::set<int> infSteps, nanSteps;
  if (!injectInf.empty()) {
    SmallVector<StringRef> items;
    StringRef(injectInf).split(items, ',', -1, false);
    for (StringRef item : items) {
      bool nan = item.consume_front("n");
      int s;
      if (item.getAsInteger(10, s) || s < 1)
        fail("bad --inject-inf entry '" + item + "'");
      (nan ? nanSteps : infSteps).insert(s);
    }
  }

  // Buffers: arguments and results, initialized by role.
  std::vector<Buffer> argBufs, resBufs;
  std::vector<std::vector<float>> loadedParams;
  if (!loadParams.empty()) {
    std::ifstream f(loadParams, std::ios::binary);
    char magic[9] = {};
    int64_t count = 0;
    if (!f.read(magic, 9) || std::string(magic, 9) != "AMPPARAM1" ||
        !f.read(reinterpret_cast<char *>(&count), 8))
      fail("'" + loadParams + "' is not a params file from --save-params");
    for (int64_t p = 0; p < count; ++p) {
      int64_t rank = 0;
      f.read(reinterpret_cast<char *>(&rank), 8);
      std::vector<int64_t> dims(rank);
      f.read(reinterpret_cast<char *>(dims.data()), 8 * rank);
      int64_t n = std::accumulate(dims.begin(), dims.end(), int64_t{1},
                                  std::multiplies<int64_t>());
      std::vector<float> values(n);
      if (!f.read(reinterpret_cast<char *>(values.data()), 4 * n))
        fail("'" + loadParams + "' is truncated");
      loadedParams.push_back(std::move(values));
    }
  }
  int paramIndex = 0;
  for (const Slot &s : args) {
    Buffer b = allocBuffer(s.bytes());
    if (s.role == "param") {
      std::vector<float> values;
      if (!loadParams.empty()) {
        if (paramIndex >= static_cast<int>(loadedParams.size()) ||
            static_cast<int64_t>(loadedParams[paramIndex].size()) !=
                s.numElements())
          fail("'" + loadParams + "' does not match the model's params");
        values = loadedParams[paramIndex];
      } else {
        values = initParam(s, rng);
      }
      ++paramIndex;
      upload(b, values.data());
    } else if (s.role != "input" && s.role != "label") {
      std::vector<char> v = filled(s, initValue(s.init));
      upload(b, v.data());
    }
    argBufs.push_back(b);
  }
  for (const Slot &s : results)
    resBufs.push_back(allocBuffer(s.bytes()));

  // JIT.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  // `transformer` is a function_ref: the std::function must outlive it.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(2, 0, nullptr);
  engineOptions.transformer = optimize;
  SmallVector<StringRef> libs = {lib};
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
  using StepFn = int32_t (*)(void **);
  auto lookup = [&](StringRef name) {
    auto addr = (*engine)->lookup(name);
    if (!addr)
      fail("cannot find @" + name + " in the JIT: " +
           llvm::toString(addr.takeError()));
    return reinterpret_cast<StepFn>(*addr);
  };
  StepFn step = lookup(entry);

  std::unique_ptr<llvm::raw_fd_ostream> log;
  if (!logFile.empty()) {
    std::error_code ec;
    log = std::make_unique<llvm::raw_fd_ostream>(logFile, ec);
    if (ec)
      fail("cannot write '" + logFile + "': " + ec.message());
    *log << "step,loss,scale,found_inf,growth_tracker\n";
  }
  llvm::outs() << "amp-run: @" << entry << " on " << rt.backendName()
               << ", precision " << precision << ", batch " << batch << ", "
               << trainSet.size() << " training rows";
  if (evalRows)
    llvm::outs() << ", " << evalRows << " held out";
  llvm::outs() << "\n";

  std::vector<float> xBatch(batch * features);
  std::vector<char> yBatch(lab.bytes());

  // Gradient underflow: how many non-zero f32 values an f16 cast loses.
  if (probeFn) {
    std::vector<int32_t> labels32(batch);
    std::vector<int64_t> labels64(batch);
    for (int64_t r = 0; r < batch; ++r) {
      int64_t row = trainSet[r];
      std::copy_n(&data.x[row * features], features, &xBatch[r * features]);
      labels32[r] = static_cast<int32_t>(data.y[row]);
      labels64[r] = data.y[row];
    }
    upload(argBufs[inputArg], xBatch.data());
    upload(argBufs[labelArg], lab.elem.isInteger(32)
                                  ? static_cast<const void *>(labels32.data())
                                  : labels64.data());
    std::vector<void *> ptrs;
    int param = 0;
    for (const Slot &s : probeArgs) {
      if (s.role == "param")
        ptrs.push_back(argBufs[argsByRole["param"][param++]].ptr);
      else if (s.role == "input")
        ptrs.push_back(argBufs[inputArg].ptr);
      else if (s.role == "label")
        ptrs.push_back(argBufs[labelArg].ptr);
      else
        fail("@" + underflowReport + " takes params, an input and a label");
    }
    std::vector<Buffer> outs;
    for (const Slot &s : probeResults) {
      if (!s.elem.isF32())
        fail("@" + underflowReport + " must return f32 tensors");
      outs.push_back(allocBuffer(s.bytes()));
      ptrs.push_back(outs.back().ptr);
    }
    checkStatus(lookup(underflowReport)(ptrs.data()), **engine,
                "@" + underflowReport);
    int64_t totalNonzero = 0, totalFlushed = 0;
    for (auto [i, b] : llvm::enumerate(outs)) {
      std::vector<float> v(probeResults[i].numElements());
      download(b, v.data());
      int64_t nonzero = 0, flushed = 0, subnormal = 0;
      for (float x : v) {
        float a = std::fabs(x);
        if (a == 0.0f)
          continue;
        ++nonzero;
        // Round-to-nearest-even to f16: |x| <= 2^-25 becomes 0 (2^-25 is
        // the tie between 0 and the smallest subnormal 2^-24).
        if (a <= 0x1p-25f)
          ++flushed;
        else if (a < 0x1p-14f)
          ++subnormal;
      }
      totalNonzero += nonzero;
      totalFlushed += flushed;
      llvm::outs() << "underflow: result #" << i << " ("
                   << probeResults[i].numElements() << " values, " << nonzero
                   << " non-zero): "
                   << llvm::format("%.2f%%", nonzero ? 100.0 * flushed / nonzero : 0.0)
                   << " flush to zero in f16, "
                   << llvm::format("%.2f%%", nonzero ? 100.0 * subnormal / nonzero : 0.0)
                   << " become f16 subnormals\n";
      rt.free(b.ptr, nullptr);
    }
    llvm::outs() << "underflow: overall "
                 << llvm::format("%.2f%%", totalNonzero ? 100.0 * totalFlushed / totalNonzero : 0.0)
                 << " of non-zero gradient values flush to zero in f16\n";
  }

  size_t cursor = trainSet.size();
  int skipped = 0;
  float lastLoss = NAN, lastScale = NAN;
  for (int s = 1; s <= steps; ++s) {
    if (cursor + batch > trainSet.size()) {
      std::shuffle(trainSet.begin(), trainSet.end(), rng);
      cursor = 0;
    }
    std::vector<char> xTokens(in.bytes());
    for (int64_t r = 0; r < batch; ++r) {
      int64_t row = trainSet[cursor + r];
      if (tokens) {
        for (int64_t f = 0; f < features; ++f) {
          int64_t x = static_cast<int64_t>(data.x[row * features + f]);
          int64_t y = data.tokenLabels[row * features + f];
          int64_t k = r * features + f;
          if (in.elem.isInteger(32))
            reinterpret_cast<int32_t *>(xTokens.data())[k] =
                static_cast<int32_t>(x);
          else
            reinterpret_cast<int64_t *>(xTokens.data())[k] = x;
          if (lab.elem.isInteger(32))
            reinterpret_cast<int32_t *>(yBatch.data())[k] =
                static_cast<int32_t>(y);
          else
            reinterpret_cast<int64_t *>(yBatch.data())[k] = y;
        }
        continue;
      }
      std::copy_n(&data.x[row * features], features, &xBatch[r * features]);
      if (lab.elem.isInteger(32))
        reinterpret_cast<int32_t *>(yBatch.data())[r] =
            static_cast<int32_t>(data.y[row]);
      else
        reinterpret_cast<int64_t *>(yBatch.data())[r] = data.y[row];
    }
    cursor += batch;
    if (infSteps.count(s))
      xBatch[0] = INFINITY;
    if (nanSteps.count(s))
      xBatch[0] = NAN;
    upload(argBufs[inputArg], tokens ? static_cast<const void *>(xTokens.data())
                                     : xBatch.data());
    upload(argBufs[labelArg], yBatch.data());

    // With --verify-skipped-steps, keep the state the step starts from.
    std::vector<std::pair<int, std::vector<char>>> before;
    if (verifySkips)
      for (auto [j, a] : llvm::enumerate(feedsArg))
        if (a >= 0 && (args[a].role == "param" || args[a].role == "opt_state")) {
          std::vector<char> bytes(argBufs[a].bytes);
          download(argBufs[a], bytes.data());
          before.emplace_back(j, std::move(bytes));
        }

    std::vector<void *> ptrs;
    for (Buffer &b : argBufs)
      ptrs.push_back(b.ptr);
    for (Buffer &b : resBufs)
      ptrs.push_back(b.ptr);
    checkStatus(step(ptrs.data()), **engine, "step " + llvm::Twine(s));
    if (rt.synchronize(nullptr) != 0)
      fail(Twine("step ") + Twine(s) + ": " + rt.kernelError());

    float loss = 0, scale = NAN;
    int8_t foundInf = 0;
    int32_t tracker = 0;
    download(resBufs[lossResult], &loss);
    if (scaleResult >= 0)
      download(resBufs[scaleResult], &scale);
    if (foundInfResult >= 0)
      download(resBufs[foundInfResult], &foundInf);
    if (trackerResult >= 0)
      download(resBufs[trackerResult], &tracker);
    skipped += foundInf != 0;
    if (verifySkips && foundInf) {
      for (auto &[j, bytes] : before) {
        std::vector<char> after(bytes.size());
        download(resBufs[j], after.data());
        if (after != bytes)
          fail("step " + Twine(s) + " was skipped but result #" + Twine(j) +
               " (" + results[j].role + ") changed");
      }
      llvm::outs() << "step " << s << ": skipped; " << before.size()
                   << " params and optimizer-state tensors are bitwise "
                      "unchanged\n";
    }
    lastLoss = loss;
    lastScale = scale;
    if (log)
      *log << s << "," << llvm::format("%.9g", loss) << ","
           << llvm::format("%.9g", scale) << "," << int(foundInf) << ","
           << tracker << "\n";
    if (printEvery > 0 && (s % printEvery == 0 || s == 1 || s == steps)) {
      llvm::outs() << "step " << s << "  loss " << llvm::format("%.6g", loss);
      if (scaleResult >= 0)
        llvm::outs() << "  scale " << llvm::format("%g", scale);
      if (foundInf)
        llvm::outs() << "  (skipped: inf/nan gradients)";
      llvm::outs() << "\n";
    }
    // Thread the state: results become the next step's arguments.
    for (auto [j, a] : llvm::enumerate(feedsArg))
      if (a >= 0)
        std::swap(argBufs[a], resBufs[j]);
  }
  llvm::outs() << "done: " << steps << " steps, final loss "
               << llvm::format("%.6g", lastLoss);
  if (scaleResult >= 0)
    llvm::outs() << ", loss scale " << llvm::format("%g", lastScale);
  llvm::outs() << ", skipped steps " << skipped << "\n";

  // Accuracy on the held-out rows, with @eval_entry(params..., input).
  if (evalFn && evalRows > 0) {
    StepFn eval = lookup(evalEntry);
    int evalInput = -1, evalParam = 0;
    std::vector<void *> evalPtrs;
    std::vector<Buffer> owned;
    for (auto [i, s] : llvm::enumerate(evalArgs)) {
      if (s.role == "param") {
        auto &params = argsByRole["param"];
        if (evalParam >= static_cast<int>(params.size()))
          fail("@" + evalEntry + " takes more params than @" + entry);
        evalPtrs.push_back(argBufs[params[evalParam++]].ptr);
      } else if (s.role == "input") {
        if (s.shape != in.shape)
          fail("@" + evalEntry + "'s input must have the training input's "
                                 "shape");
        evalInput = i;
        evalPtrs.push_back(argBufs[inputArg].ptr);
      } else {
        fail("@" + evalEntry + " arguments must be params and one input");
      }
    }
    if (evalInput < 0 || evalResults.size() != 1 ||
        evalResults[0].shape.size() != 2 ||
        evalResults[0].shape[0] != batch || !evalResults[0].elem.isF32())
      fail("@" + evalEntry + " must take (params..., input) and return "
                             "[batch, classes] f32 logits");
    Buffer logits = allocBuffer(evalResults[0].bytes());
    evalPtrs.push_back(logits.ptr);
    int64_t classes = evalResults[0].shape[1], correct = 0;
    std::vector<float> hostLogits(batch * classes);
    for (int64_t start = 0; start < evalRows; start += batch) {
      // The last partial batch is padded with the first rows and only its
      // real rows are scored.
      for (int64_t r = 0; r < batch; ++r) {
        int64_t row = evalSet[(start + r) % evalRows];
        std::copy_n(&data.x[row * features], features, &xBatch[r * features]);
      }
      upload(argBufs[inputArg], xBatch.data());
      checkStatus(eval(evalPtrs.data()), **engine, "@" + evalEntry);
      download(logits, hostLogits.data());
      for (int64_t r = 0; r < batch && start + r < evalRows; ++r) {
        const float *l = &hostLogits[r * classes];
        int64_t pred = std::max_element(l, l + classes) - l;
        correct += pred == data.y[evalSet[start + r]];
      }
    }
    llvm::outs() << "eval accuracy: "
                 << llvm::format("%.4f", double(correct) / evalRows) << " ("
                 << correct << "/" << evalRows << ")\n";
    rt.free(logits.ptr, nullptr);
  }

  if (!saveParams.empty()) {
    std::ofstream f(saveParams, std::ios::binary);
    auto &params = argsByRole["param"];
    int64_t count = params.size();
    f.write("AMPPARAM1", 9);
    f.write(reinterpret_cast<const char *>(&count), 8);
    for (int a : params) {
      const Slot &s = args[a];
      int64_t rank = s.shape.size();
      f.write(reinterpret_cast<const char *>(&rank), 8);
      f.write(reinterpret_cast<const char *>(s.shape.data()), 8 * rank);
      std::vector<float> values(s.numElements());
      download(argBufs[a], values.data());
      f.write(reinterpret_cast<const char *>(values.data()), 4 * values.size());
    }
    if (!f)
      fail("cannot write '" + saveParams + "'");
  }
  for (Buffer &b : argBufs)
    rt.free(b.ptr, nullptr);
  for (Buffer &b : resBufs)
    rt.free(b.ptr, nullptr);
  return 0;
}
