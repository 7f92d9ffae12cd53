//===- Status.h - success or one line of error, without LLVM ----*- C++ -*-===//
//
// The execution half of the runner links neither LLVM nor MLIR, so it cannot
// use llvm::Error. Its calls return a Status (or a StatusOr<T>): success, or
// one line that says what is wrong. The tool prints it and exits 1; the
// library never exits or aborts on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNNER_STATUS_H
#define AMP_RUNNER_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace amp::runner {

class [[nodiscard]] Status {
public:
  /// Success.
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.isError = true;
    s.text = std::move(message);
    return s;
  }

  bool failed() const { return isError; }
  bool succeeded() const { return !isError; }
  /// The error's message ("" on success).
  const std::string &message() const { return text; }

private:
  bool isError = false;
  std::string text;
};

/// A T, or the Status saying why there is none.
template <typename T> class [[nodiscard]] StatusOr {
public:
  StatusOr(T value) : value(std::move(value)) {}
  StatusOr(Status error) : status(std::move(error)) {
    assert(status.failed() && "a StatusOr without a value needs an error");
  }

  bool failed() const { return !value.has_value(); }
  const Status &getStatus() const { return status; }
  /// Moves the error out (only when failed()).
  Status takeStatus() { return std::move(status); }

  T &operator*() { return *value; }
  const T &operator*() const { return *value; }
  T *operator->() { return &*value; }
  const T *operator->() const { return &*value; }

private:
  std::optional<T> value;
  Status status;
};

} // namespace amp::runner

#endif // AMP_RUNNER_STATUS_H
