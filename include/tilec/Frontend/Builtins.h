//===- Builtins.h - The builtin functions of Tile ---------------*- C++ -*-===//
//
// The table of docs/language.md section 8: every builtin's name, how many
// arguments it takes, and which of them must be bind-time constants. The
// phase-1 checks use it for "unknown function" and argument counts; the binder
// uses it to dispatch and to check constant arguments.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_BUILTINS_H
#define TILEC_FRONTEND_BUILTINS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tilec {

/// The section of docs/language.md 8 a builtin belongs to.
enum class BuiltinKind {
  Math,     ///< 8.1: exp, log, ..., pow, floor, ceil, round
  Inline,   ///< 8.2: abs, max, min, relu, sigmoid, builtin_softmax, ...
  Cast,     ///< 8.3: as_float, as_int, as_uint, as_bool, as_bfloat
  Shape,    ///< 8.4: reshape, shape, index, ident, simple_reduce
  Gather,   ///< 8.5: gather, scatter
  Prng,     ///< 8.6: prng_step, prng_value, prng_state
  BindTime, ///< 8.7: mod, broadcast, match, assert_*, tuple, element
  Gradient, ///< 8.8: grad, stop_grad
};

/// How many results a call of builtin `name` with `argCount` arguments has:
/// one, except grad(L, X1, ..., Xn), which has n.
inline size_t builtinResultCount(llvm::StringRef name, size_t argCount) {
  return name == "grad" && argCount >= 2 ? argCount - 1 : 1;
}

/// One builtin function.
struct BuiltinInfo {
  /// Marks a builtin without an upper argument count (reshape, tuple, ...).
  static constexpr unsigned kVariadic = ~0u;
  /// `firstConstArg` of a builtin none of whose arguments must be constant.
  static constexpr unsigned kNoConstArgs = ~0u;

  /// The name as written in a call; "assert_" stands for every name with
  /// that prefix (see lookupBuiltin).
  llvm::StringRef name;
  BuiltinKind kind;
  unsigned minArgs;
  unsigned maxArgs; ///< kVariadic if unbounded
  /// Arguments at 0-based positions >= firstConstArg must be bind-time
  /// constants (an integer unless the builtin says otherwise, section 8).
  /// In every builtin the constant arguments form such a tail.
  unsigned firstConstArg;

  /// Whether `count` arguments are accepted.
  bool acceptsArgCount(unsigned count) const {
    return count >= minArgs && (maxArgs == kVariadic || count <= maxArgs);
  }
  /// Whether argument `index` (0-based) must be a constant.
  bool isConstArg(unsigned index) const {
    return firstConstArg != kNoConstArgs && index >= firstConstArg;
  }
  /// True for the assert_NAME family.
  bool isAssert() const { return name == "assert_"; }
};

/// The builtin called `name`, or nullptr. Any name beginning with "assert_"
/// (with at least one character after it) returns the assert_ entry.
const BuiltinInfo *lookupBuiltin(llvm::StringRef name);

/// Every builtin name of the table (with "assert_" for the assert family), for
/// "did you mean" suggestions.
const std::vector<std::string> &builtinNames();

/// "'pow' takes 2 arguments", "'f' takes 2 to 3 arguments", "'reshape' takes
/// at least 1 argument": the first half of a wrong-argument-count message.
std::string describeArgCount(llvm::StringRef name, unsigned minArgs,
                             unsigned maxArgs);

} // namespace tilec

#endif // TILEC_FRONTEND_BUILTINS_H
