//===- ReadFile.h - a whole file's bytes, read or written -------*- C++ -*-===//

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

/// Writes `bytes` as the file at `path`; the error is "cannot write 'path':
/// <strerror>".
Status writeFileBytes(const std::string &path, const std::vector<char> &bytes);

/// The same, atomically: the bytes go to a temporary file beside `path`,
/// which then replaces it, so that a reader (or a crash mid-write) never
/// sees a partial file.
Status replaceFileBytes(const std::string &path,
                        const std::vector<char> &bytes);

} // namespace amp::runner

#endif // AMP_RUNNER_READFILE_H
