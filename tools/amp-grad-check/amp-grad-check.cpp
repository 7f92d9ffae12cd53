//===- amp-grad-check.cpp - check autodiff against finite differences -----===//
//
// amp-grad-check FILE: for every forward loss function of FILE (or
// --entry), compares nn-autodiff's gradient of each param with central
// finite differences, both evaluated in f64 by the reference interpreter.
// This file is option parsing, one-line diagnostics and a call into
// lib/GradCheck; docs/autodiff.md ("Gradient checks") describes both.
//
//===----------------------------------------------------------------------===//

#include "amp/GradCheck/GradCheck.h"
#include "amp/InitAll.h"
#include "amp/Parser/ParseNamingArguments.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("amp-grad-check options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<forward model .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    entry("entry", cl::init(""),
          cl::desc("The forward loss function to check (default: every "
                   "function whose single result is the loss)"),
          cl::cat(category));
static cl::opt<uint64_t>
    seed("seed", cl::init(0),
         cl::desc("Seed of the arguments and of the sampled elements"),
         cl::cat(category));
static cl::opt<double>
    relTolerance("rtol", cl::init(1e-6),
                 cl::desc("Relative tolerance: an element passes "
                          "when |g - fd| <= atol + rtol * |fd|"),
                 cl::cat(category));
static cl::opt<double> absTolerance("atol", cl::init(1e-9),
                                    cl::desc("Absolute tolerance"),
                                    cl::cat(category));
static cl::opt<double>
    stepSize("step", cl::init(1e-5),
             cl::desc("The step h of (loss(p + h) - loss(p - h)) / 2h"),
             cl::cat(category));
static cl::opt<int64_t> maxChecks(
    "max-checks-per-param", cl::init(32),
    cl::desc("Check every element of params with at most this many, a "
             "seeded sample of this many of larger ones"),
    cl::cat(category));
static cl::opt<bool> perturbGradient(
    "perturb-gradient", cl::init(false), cl::Hidden,
    cl::desc("Test hook: multiply the first param's autodiff gradient by "
             "1.01, which the check must catch"),
    cl::cat(category));

/// "file:line:col" of the first file location in `loc` ("file" for the
/// whole file), else the tool's name.
static std::string describe(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  if (!file)
    return "amp-grad-check";
  std::string text = file.getFilename().str();
  if (file.getLine() > 0)
    text += ":" + std::to_string(file.getLine()) + ":" +
            std::to_string(file.getColumn());
  return text;
}

static StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  llvm_unreachable("unknown severity");
}

/// One line per diagnostic and per note: where (the model's line, also for
/// backward ops, whose locations are fused with it), what.
static void printDiagnostic(Diagnostic &diag) {
  llvm::errs() << describe(diag.getLocation()) << ": "
               << severityName(diag.getSeverity()) << ": " << diag.str()
               << "\n";
  for (Diagnostic &note : diag.getNotes())
    printDiagnostic(note);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-grad-check: nn-autodiff gradients against central finite "
      "differences, in f64\n");

  DialectRegistry registry;
  amp::registerAllDialects(registry);
  MLIRContext context(registry);
  // The location says where; a dump of the op would break the one line.
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &diag) {
    printDiagnostic(diag);
    return success();
  });

  amp::gradcheck::GradCheckOptions options;
  options.entry = entry;
  options.seed = seed;
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.step = stepSize;
  options.maxChecksPerParam = maxChecks;
  options.perturbGradient = perturbGradient;
  if (std::optional<std::string> error = options.validate()) {
    llvm::errs() << "amp-grad-check: error: " << *error << "\n";
    return 1;
  }

  OwningOpRef<ModuleOp> module =
      amp::parseFileNamingArguments(inputFile, &context);
  if (!module)
    return 1;
  FailureOr<bool> passed =
      amp::gradcheck::checkModule(*module, options, llvm::outs());
  llvm::outs().flush();
  return succeeded(passed) && *passed ? 0 : 1;
}
