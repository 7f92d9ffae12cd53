//===- TempFiles.h - the runner tests' temporary files ----------*- C++ -*-===//
//
// Files the runner tests write (datasets, logs, params, compiled steps) go
// to one directory per test process, made on first use under gtest's
// TempDir() and removed with everything in it when the process exits.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UNITTESTS_RUNNER_TEMPFILES_H
#define AMP_UNITTESTS_RUNNER_TEMPFILES_H

#include <string>

namespace amp::runner::test {

/// A fresh path in this process's temporary directory, named after the
/// running test and `name`.
std::string tempPath(const std::string &name);

} // namespace amp::runner::test

#endif // AMP_UNITTESTS_RUNNER_TEMPFILES_H
