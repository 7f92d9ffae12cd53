//===- Text.h - formatting and splitting text, without LLVM -----*- C++ -*-===//
//
// The execution half formats with snprintf, not fmt: it and the runtime must
// build on machines that have only a C++ compiler, CMake, ninja and CUDA
// (issue #14), so fmt is no dependency (and no longer installed).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_TEXT_H
#define AMP_RUNNER_TEXT_H

#include <string>
#include <string_view>
#include <vector>

namespace amp::runner {

/// printf-style formatting into a std::string.
std::string formatString(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// The pieces of `text` between `separator`s, empty ones included ("a,,b"
/// gives "a", "", "b"; "" gives one empty piece).
std::vector<std::string_view> splitString(std::string_view text,
                                          char separator);

} // namespace amp::runner

#endif // AMP_RUNNER_TEXT_H
