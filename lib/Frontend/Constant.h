//===- Constant.h - Bind-time constants and their folding -------*- C++ -*-===//
//
// Constants of docs/language.md 5.2 and 5.4: weak constants (a kind, integer
// or float, but no element type) fold exactly on 64 bits or in f64; typed
// constants (from casts and typed parameters) wrap in their type like a
// tensor element would. Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_CONSTANT_H
#define TILEC_LIB_FRONTEND_CONSTANT_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/DType.h"

#include <optional>
#include <string>

namespace tilec {

/// A constant known at bind time.
struct Const {
  /// Set for a typed constant; unset for a weak one.
  std::optional<DType> type;
  /// For a weak constant: whether it is a float (f64 in `f`) or an integer
  /// (exact in `i`). For a typed one this mirrors isFloat(*type).
  bool isFloat = false;
  int64_t i = 0; ///< integers and bools; unsigned types as their bit pattern
  double f = 0;

  static Const weakInt(int64_t v) { return Const{std::nullopt, false, v, 0}; }
  static Const weakFloat(double v) { return Const{std::nullopt, true, 0, v}; }

  bool isWeak() const { return !type; }
  /// The value as a double (unsigned 64-bit patterns read as unsigned).
  double asDouble() const;
  /// The type a weak constant takes when it must become data (5.2): i32,
  /// i64 if the value does not fit, f32 for floats; a typed one's own type.
  DType defaultType() const;
  /// "300", "0.5", "-3" (typed constants print their value only).
  std::string str() const;
};

/// Whether the integer `v` is representable in integer or bool type `t`.
bool fitsIn(int64_t v, DType t);

/// The conversion of 5.4 of `c` to type `t`, as a typed constant.
Const convertConst(const Const &c, DType t);

/// The typed scalar of a constant converted to `t`.
typed::Scalar toScalar(const Const &c, DType t);

/// The shortest decimal text that reads back as `v` in float type `t`,
/// always with a '.' or an exponent: "0.1", "20.0", "1e-05", "inf".
std::string floatText(double v, DType t = DType::F64);

/// Rounds `v` to the nearest value of float type `t` (f16, bf16, f32, f64).
double roundToFloat(double v, DType t);

/// The result of folding: a constant, or the substance of an error.
struct FoldResult {
  std::optional<Const> value;
  std::string error;
  static FoldResult ok(Const c) { return FoldResult{c, ""}; }
  static FoldResult fail(std::string msg) {
    return FoldResult{std::nullopt, std::move(msg)};
  }
};

/// Folds `a op b`. Both weak: exact 64-bit integers (overflow, division by
/// zero are errors) or f64. Otherwise both must already be typed with the
/// same computation type, which the result wraps in (comparisons give bool).
FoldResult foldBinary(ast::BinaryOp op, const Const &a, const Const &b);
FoldResult foldUnary(ast::UnaryOp op, const Const &a);

/// A float function of one argument by name ("exp", "floor"...), folded in
/// f64 and rounded to `resultType` when typed.
FoldResult foldMath(llvm::StringRef name, const Const &a);
/// pow(a, b) for constants.
FoldResult foldPow(const Const &a, const Const &b);

/// Wraps an integer to the width and signedness of `t` (bool: != 0).
int64_t wrapInt(int64_t v, DType t);

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_CONSTANT_H
