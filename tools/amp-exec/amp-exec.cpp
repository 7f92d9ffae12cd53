//===- amp-exec.cpp - run a step compiled ahead of time -------------------===//
//
// amp-exec step.so [training flags] trains a step that amp-compile wrote:
// it loads the runtime backend, then the step (whose runtime calls resolve
// against the backend), reads the step's metadata and trains it with the
// runner's execution half, exactly as amp-run does after compiling. It
// links neither MLIR nor LLVM, so it builds in the runtime-only
// configuration (-DAMP_RUNTIME_ONLY=ON) and runs where no compiler is
// installed. The flags are amp-run's training flags (RunFlags.h).
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/ProgramMetadata.h"
#include "amp/Runner/RunFlags.h"
#include "amp/Runner/RuntimeLibrary.h"
#include "amp/Runner/Trainer.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace amp::runner;

namespace {

[[noreturn]] void fail(const std::string &message) {
  std::cout.flush();
  std::cerr << "amp-exec: error: " << message << "\n";
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

void printHelp() {
  std::cout << "amp-exec: run a training step compiled by amp-compile\n\n"
               "USAGE: amp-exec <step.so> [options]\n\n"
               "Options (as amp-run's):\n"
            << runFlagsHelp();
}

/// `name` in the step library, or an error naming the library.
void *lookup(void *step, const std::string &path, const std::string &name) {
  void *symbol = ::dlsym(step, name.c_str());
  if (!symbol)
    fail("'" + path + "' has no function @" + name +
         " (was it written by amp-compile?)");
  return symbol;
}

} // namespace

int main(int argc, char **argv) {
  RunFlags flags;
  std::vector<char *> rest;
  check(parseRunFlags(argc, argv, flags, rest));
  std::string stepPath;
  for (size_t i = 1; i < rest.size(); ++i) {
    std::string arg = rest[i];
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      printHelp();
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-')
      fail("unknown option '" + arg + "' (see --help)");
    if (!stepPath.empty())
      fail("more than one step library: '" + stepPath + "' and '" + arg + "'");
    stepPath = arg;
  }
  if (stepPath.empty())
    fail("no step library given (amp-exec <step.so> [options]; see --help)");

  // The backend first, RTLD_GLOBAL: the step's runtime calls resolve to it.
  std::string lib = check(findRuntimeLibrary(flags.backend, flags.runtimeLib,
                                             currentExecutableDir()));
  RuntimeLibrary rt = check(RuntimeLibrary::load(lib));

  std::string path =
      stepPath.find('/') == std::string::npos ? "./" + stepPath : stepPath;
  void *step = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!step)
    fail("cannot load the step '" + stepPath + "': " + ::dlerror());
  auto metadataFn = reinterpret_cast<const char *(*)()>(
      lookup(step, stepPath, kStepMetadataSymbol));
  CompiledProgram compiled = check(parseProgramMetadata(metadataFn()));

  flags.train.programName = "amp-exec";
  flags.train.precision = compiled.precision;
  check(flags.finish());
  if (!flags.call.function.empty())
    fail("--function is amp-run's: a step compiled ahead of time holds only "
         "its training functions");
  std::unique_ptr<Trainer> trainer =
      check(Trainer::create(rt, compiled.program, std::move(flags.train)));
  EntryPoints entry;
  const TrainingProgram &program = compiled.program;
  entry.step = reinterpret_cast<StepFn>(
      lookup(step, stepPath, program.step.name));
  if (program.eval)
    entry.eval = reinterpret_cast<StepFn>(
        lookup(step, stepPath, program.eval->name));
  if (program.underflowProbe)
    entry.underflowProbe = reinterpret_cast<StepFn>(
        lookup(step, stepPath, program.underflowProbe->name));
  entry.errorSite = reinterpret_cast<const char *const *>(
      ::dlsym(step, AMP_ERROR_SITE_SYMBOL));
  check(trainer->run(entry, std::cout));
  return 0;
}
