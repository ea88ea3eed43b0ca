//===- Result.h - Errors as values, without LLVM ------------------*- C++ -*-===//
//
// The device runtimes and tilec-run link no LLVM (docs/architecture.md), so they
// cannot use llvm::Error. Status and Result<T> are the small equivalents they
// use instead: an error is a message meant for the user, already complete
// (what failed, on which kernel or file, and why).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_RESULT_H
#define TILEC_SUPPORT_RESULT_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tilec {

/// Success, or an error message.
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.message_ = std::move(message);
    return s;
  }
  bool ok() const { return !message_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// The error message; only for a failed status.
  const std::string &message() const {
    assert(!ok() && "message() of a successful status");
    return *message_;
  }

private:
  std::optional<std::string> message_;
};

/// A value of type T, or an error message.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Result(Status error) : storage_(std::in_place_index<1>, error.message()) {
    assert(!error.ok() && "a Result built from a successful Status");
  }
  static Result error(std::string message) {
    return Result(Status::error(std::move(message)));
  }
  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T &value() { return std::get<0>(storage_); }
  const T &value() const { return std::get<0>(storage_); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  const std::string &message() const { return std::get<1>(storage_); }
  /// The error as a Status (for passing it on).
  Status status() const {
    return ok() ? Status::success() : Status::error(message());
  }

private:
  std::variant<T, std::string> storage_;
};

} // namespace tilec

#endif // TILEC_SUPPORT_RESULT_H
