//===- RunFlags.h - the command-line flags of a training run ----*- C++ -*-===//
//
// amp-run (JIT) and amp-exec (ahead of time) train a step with the same
// flags: the backend, the data, the steps, logs, params files, injection.
// They are declared once, in a table, and parsed without LLVM (amp-exec
// links no LLVM); amp-run takes them out of its argv before llvm::cl parses
// its compile options.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_RUNFLAGS_H
#define AMP_RUNNER_RUNFLAGS_H

#include "amp/Runner/FunctionCall.h"
#include "amp/Runner/Status.h"
#include "amp/Runner/Trainer.h"

#include <functional>
#include <string>
#include <vector>

namespace amp::runner {

struct RunFlags {
  TrainOptions train;
  /// cpu, reference or cuda: picks the runtime library ("": cpu where it
  /// was built, else reference).
  std::string backend;
  /// The runtime library's path (default: found by findRuntimeLibrary).
  std::string runtimeLib;
  /// The raw --inject-inf list, parsed into `train` by finish().
  std::string injectInf;
  /// --function and its tensors: call one function instead of training
  /// (amp-run only).
  FunctionCallOptions call;

  /// Parses what needs it and validates the options (TrainOptions).
  Status finish();
};

struct RunFlag {
  const char *name;  // without the leading "--"
  const char *value; // the value's placeholder; nullptr: a boolean flag
  const char *help;
  std::function<Status(RunFlags &, const std::string &)> set;
};

/// The table.
const std::vector<RunFlag> &runFlagTable();

/// Takes the table's flags out of argv (--name=value, --name value, --name
/// for booleans, --name=true/false), stores them in `flags`, and leaves the
/// other arguments, argv[0] first, in `rest` (in order). "--" ends the
/// flags: everything after it goes to `rest`.
Status parseRunFlags(int argc, char **argv, RunFlags &flags,
                     std::vector<char *> &rest);

/// The table as --help text, one flag per line group.
std::string runFlagsHelp();

} // namespace amp::runner

#endif // AMP_RUNNER_RUNFLAGS_H
