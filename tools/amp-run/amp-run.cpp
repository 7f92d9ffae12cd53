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

#ifdef AMP_HAVE_ONNX
#include "amp/Import/ONNX.h"
#endif
#include "amp/Parser/ParseNamingArguments.h"
#include "amp/Runner/Compile.h"
#include "amp/Runner/CompileFlags.h"
#include "amp/Runner/FunctionCall.h"
#include "amp/Runner/RunFlags.h"
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

static CompileFlags compileFlags(category);
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

/// .pb tensors (ONNX's node tests) through the ONNX importer's library.
StatusOr<HostArray> readOtherTensorFile(const std::string &path) {
#ifdef AMP_HAVE_ONNX
  if (llvm::StringRef(path).ends_with(".pb"))
    return amp::readONNXTensorFile(path);
#endif
  return Status::error("'" + path +
                       "': tensor files are .npy"
#ifdef AMP_HAVE_ONNX
                       " or ONNX TensorProto .pb"
#endif
  );
}

/// --function: compile just that function (in f32 unless --precision says
/// otherwise) and call it once on the --input tensors.
int runFunction(ModuleOp module, RunFlags &flags, const RuntimeLibrary &rt,
                const std::string &lib, const CompileRequest &request) {
  const std::string &precision = request.precision;
  const std::string &source = request.source;
  amp::AmpPipelineOptions pipelineOpts;
  CompileOptions options;
  options.functions = {flags.call.function};
  options.sourceName = source;
  if (precision != "f32") {
    if (precision != "f16" && precision != "bf16")
      fail("--precision must be f32, f16 or bf16");
    pipelineOpts.computeType = precision;
    options.pipeline = &pipelineOpts;
  }
  if (!module.lookupSymbol<func::FuncOp>(flags.call.function))
    fail("no function @" + flags.call.function + " in " + source);
  std::vector<FunctionSignature> signatures =
      check(compileForRuntime(module, options));
  std::unique_ptr<JitModule> jit = check(JitModule::create(
      check(translateStep(module, request.codegenFunctionSize)), {lib}));
  StepFn fn = check(jit->lookup(flags.call.function));
  check(runFunctionCall(rt, signatures[0], fn, jit->errorSite(), flags.call,
                        readOtherTensorFile, std::cout));
  return 0;
}

/// A parsed source file and its context.
struct Source {
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

/// Parses the source; exits when it does not parse (the parser has printed
/// why). Arguments keep their source names (%w1) for the runner's messages.
Source parseSource(const std::string &path) {
  DialectRegistry registry;
  registerCompileDialects(registry);
  Source source;
  source.context = std::make_unique<MLIRContext>(registry);
  source.module = amp::parseFileNamingArguments(path, source.context.get());
  if (!source.module)
    std::exit(1);
  return source;
}

/// The training program, compiled and in the JIT.
struct JitProgram {
  TrainingProgram program;
  std::unique_ptr<JitModule> jit;
  EntryPoints entryPoints;
};

/// Compiles the training program (nn-autodiff for a forward --entry,
/// amp-pipeline unless f32, the signatures, amp-to-runtime) and
/// JIT-compiles it. The MLIR context and module are destroyed before the
/// code generator runs and before the trainer allocates: a large step's IR
/// takes as much memory as its training (10k forward ops: 0.4 and 0.6 GB).
JitProgram compileAndJit(const CompileRequest &request,
                         const std::string &lib) {
  JitProgram jitted;
  {
    Source source = parseSource(request.source);
    ModuleOp module = *source.module;
    jitted.program = check(compileProgram(module, request)).program;
    if (dumpLowered)
      module.print(llvm::outs());
    llvm::outs().flush();
    // The code is generated at the first lookup, after this scope.
    jitted.jit = check(JitModule::create(
        check(translateStep(module, request.codegenFunctionSize)), {lib}));
  }
  JitModule &jit = *jitted.jit;
  jitted.entryPoints.step = check(jit.lookup(request.entry));
  if (!request.evalEntry.empty())
    jitted.entryPoints.eval = check(jit.lookup(request.evalEntry));
  if (!request.underflowProbe.empty())
    jitted.entryPoints.underflowProbe =
        check(jit.lookup(request.underflowProbe));
  jitted.entryPoints.errorSite = jit.errorSite();
  return jitted;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // The training flags (RunFlags.h, shared with amp-exec) first; llvm::cl
  // parses the compile options that remain.
  RunFlags flags;
  std::vector<char *> rest;
  check(parseRunFlags(argc, argv, flags, rest));
  cl::HideUnrelatedOptions(category);
  std::string overview =
      "amp-run: JIT-run a training step compiled by amp\n\n"
      "Applies amp-pipeline (unless --precision=f32), lowers with "
      "amp-to-runtime and runs --steps steps on the chosen backend.\n\n"
      "Training options (as amp-exec's):\n" +
      runFlagsHelp();
  cl::ParseCommandLineOptions(static_cast<int>(rest.size()), rest.data(),
                              overview);
  CompileRequest request = compileFlags.request();
  flags.train.precision = request.precision;
  check(flags.finish());

  // The runtime library, next to the tools unless given.
  std::string exe = llvm::sys::fs::getMainExecutable(argv[0], (void *)&fail);
  std::string lib = check(findRuntimeLibrary(
      flags.backend, flags.runtimeLib, llvm::sys::path::parent_path(exe).str()));
  RuntimeLibrary rt = check(RuntimeLibrary::load(lib));

  if (!flags.call.function.empty()) {
    Source source = parseSource(request.source);
    return runFunction(*source.module, flags, rt, lib, request);
  }
  JitProgram jitted = compileAndJit(request, lib);
  std::unique_ptr<Trainer> trainer = check(
      Trainer::create(rt, std::move(jitted.program), std::move(flags.train)));
  check(trainer->run(jitted.entryPoints, std::cout));
  return 0;
}
