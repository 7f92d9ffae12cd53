//===- ReadFile.h - a whole file's bytes, or why not ------------*- C++ -*-===//

#ifndef AMP_RUNNER_READFILE_H
#define AMP_RUNNER_READFILE_H

#include "amp/Runner/Status.h"

#include <string>
#include <vector>

namespace amp::runner {

/// The bytes of the file at `path`; the error is "cannot read <what>'path':
/// <strerror>" (`what`: "dataset ", "params file ", or empty).
StatusOr<std::vector<char>> readFileBytes(const std::string &path,
                                          const std::string &what);

} // namespace amp::runner

#endif // AMP_RUNNER_READFILE_H
