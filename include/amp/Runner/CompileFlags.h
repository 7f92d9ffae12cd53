//===- CompileFlags.h - the compile options of amp-run and amp-compile ----===//
//
// amp-run (JIT) and amp-compile (ahead of time) compile a step from the same
// command-line options: the input file, --precision, --pipeline-options,
// --autodiff-options, --entry, --eval-entry, --underflow-report,
// --fuse-attention, --recompute, --buffer-arena, --donate-state, --in-place and
// --codegen-function-size. They are declared once, here, as llvm::cl options in
// the tool's category:
//
//   static cl::OptionCategory category("amp-compile options");
//   static amp::runner::CompileFlags flags(category);
//   ...
//   CompileRequest request = flags.request();
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_COMPILEFLAGS_H
#define AMP_RUNNER_COMPILEFLAGS_H

#include "amp/Runner/Compile.h"

#include "llvm/Support/CommandLine.h"

namespace amp::runner {

class CompileFlags {
public:
  explicit CompileFlags(llvm::cl::OptionCategory &category);

  /// The options as parsed (ParseCommandLineOptions must have run).
  CompileRequest request() const;

  llvm::cl::opt<std::string> inputFile;
  llvm::cl::opt<std::string> precision;
  llvm::cl::opt<std::string> pipelineOptions;
  llvm::cl::opt<std::string> autodiffOptions;
  llvm::cl::opt<std::string> entry;
  llvm::cl::opt<std::string> evalEntry;
  llvm::cl::opt<std::string> underflowReport;
  llvm::cl::opt<bool> fuseAttention;
  llvm::cl::opt<bool> recompute;
  llvm::cl::opt<bool> bufferArena;
  llvm::cl::opt<bool> donateState;
  llvm::cl::opt<bool> inPlace;
  llvm::cl::opt<size_t> codegenFunctionSize;
};

} // namespace amp::runner

#endif // AMP_RUNNER_COMPILEFLAGS_H
