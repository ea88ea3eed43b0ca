//===- Binder.h - The state of phase 2 (binding) ----------------*- C++ -*-===//
//
// The binder walks the entry function's statements in order, inlining calls,
// folding constants and emitting a flat typed::Program. Its implementation is
// split by responsibility: Sema.cpp (statements, outputs), SemaParams.cpp
// (entry parameters),
// SemaExpr.cpp (elementwise expressions), SemaBuiltins.cpp (section 8),
// SemaCall.cpp (user functions) and SemaContraction.cpp (section 7). Private
// to lib/Frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_BINDER_H
#define TILEC_LIB_FRONTEND_BINDER_H

#include "Constant.h"
#include "TypeRules.h"

#include "tilec/Frontend/Builtins.h"
#include "tilec/Frontend/Sema.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::sema {

using llvm::SMLoc;
using typed::ValueId;

/// What a name denotes in a function's scope.
struct Bound {
  enum class Kind { Const, Tensor, Tuple, Handle };
  Kind kind = Kind::Const;
  Const c;                  ///< Const
  ValueId id = 0;           ///< Tensor
  std::vector<Bound> elems; ///< Tuple
  unsigned handle = 0;      ///< Handle: index into Binder::handles

  static Bound constant(Const c) {
    Bound b;
    b.c = c;
    return b;
  }
  static Bound tensor(ValueId id) {
    Bound b;
    b.kind = Kind::Tensor;
    b.id = id;
    return b;
  }
};

/// The value of an expression while it is being bound. A tensor is an
/// elementwise expression tree (a Ref for a plain tensor name).
struct Operand {
  Bound::Kind kind = Bound::Kind::Const;
  Const c;
  typed::ExprPtr expr;
  std::vector<Bound> elems;
  unsigned handle = 0;
  std::string name; ///< the source name when the expression is just a name
  SMLoc loc;

  bool isConst() const { return kind == Bound::Kind::Const; }
  bool isTensor() const { return kind == Bound::Kind::Tensor; }
  const TensorType &type() const { return expr->type; }
};

/// A random-number handle of prng_step (8.6) and how often it was used.
struct PrngHandle {
  ValueId state;
  std::vector<int64_t> shape;
  SMLoc loc;
  std::string name;
  unsigned valueUses = 0, stateUses = 0;
  std::optional<std::pair<ValueId, ValueId>> results; ///< value, new state
};

/// A function being bound: the entry, or one inlined call of a callee.
struct Scope {
  const ast::Function *fn = nullptr;
  std::string prefix; ///< "" for the entry, "f.1." inside a call
  std::map<std::string, Bound> names;
  /// Values numbered from here on were created in this scope; only those
  /// may be renamed after the names they are given.
  ValueId firstValue = 0;
};

class Binder {
public:
  Binder(const ast::Module &module, DiagnosticEngine &diag)
      : module(module), diag(&diag) {}

  std::optional<typed::Program> run(const ast::Function &entry,
                                    const BindOptions &options);

  /// Binds the entry's sizes and parameters into the current scope
  /// (SemaParams.cpp).
  bool bindEntryParameters(const ast::Function &entry,
                           const BindOptions &options);
  /// Turns the entry's outputs into values named as in the header (4.5)
  /// and checks that every random-number handle was drawn once (8.6).
  bool bindOutputs(const ast::Function &entry);

  //===--------------------------------------------------------------------===//
  // Diagnostics (Sema.cpp)
  //===--------------------------------------------------------------------===//

  using Notes = std::vector<std::pair<SMLoc, std::string>>;
  /// Reports an error with its notes, then one "in call to 'f' here" note
  /// per call being inlined, innermost first. Always returns false.
  bool error(SMLoc loc, const llvm::Twine &message, const Notes &notes = {});

  //===--------------------------------------------------------------------===//
  // Values and statements (Sema.cpp)
  //===--------------------------------------------------------------------===//

  /// A new value; fails (with an error at `loc`) if it is too large.
  std::optional<ValueId> newValue(const std::string &name,
                                  const TensorType &type, SMLoc loc);
  /// A binder temporary name "_tN".
  std::string tempName();
  /// Appends a statement, with the attributes of the source statement
  /// being bound.
  typed::Statement &addStatement(typed::Statement::Kind kind, SMLoc loc,
                                 std::string label);
  bool bindBody(const ast::Function &fn);
  bool bindStatement(const ast::Statement &stmt);
  /// Stores an operand under `name` in the current scope: tensors that are
  /// not a plain reference become an elementwise statement.
  bool define(const std::string &name, SMLoc loc, Operand value);
  /// The value of `name` in the current scope, or nullptr.
  const Bound *lookup(const std::string &name) const;

  //===--------------------------------------------------------------------===//
  // Elementwise expressions (SemaExpr.cpp)
  //===--------------------------------------------------------------------===//

  std::optional<Operand> bindExpr(const ast::Expr &expr);
  /// Binds `expr` only to learn its type and shape, then undoes every
  /// effect (statements, values, handle uses) and reports nothing: the
  /// branch a constant condition does not take (6.1).
  std::optional<Operand> probeExpr(const ast::Expr &expr);
  std::optional<Operand> constantCondition(bool cond, const ast::Expr &expr);
  std::optional<Operand> fromBound(const Bound &b, const std::string &name,
                                   SMLoc loc);
  /// Fails with the 9.3 message for tuples and handles.
  bool requireData(const Operand &op);
  std::optional<Operand> binary(ast::BinaryOp op, Operand a, Operand b,
                                SMLoc loc);
  std::optional<Operand> unary(ast::UnaryOp op, Operand a, SMLoc loc);
  std::optional<Operand> select(Operand c, Operand t, Operand f, SMLoc loc);
  /// A math function of 8.1 (not pow).
  std::optional<Operand> math(llvm::StringRef name, Operand a, SMLoc loc);
  std::optional<Operand> power(Operand a, Operand b, SMLoc loc);
  /// Converts to `t` (a cast of a constant is a typed constant).
  Operand cast(Operand a, DType t, SMLoc loc);
  /// A tensor expression of `a` in type `t` (a Const node for constants).
  typed::ExprPtr exprOf(Operand a, DType t);
  /// Makes a tensor expression a Ref to a value (emitting a statement),
  /// so that it can be used several times without being copied.
  std::optional<Operand> materialize(Operand a);
  /// The value of a tensor operand, materialized; a constant becomes a
  /// rank-0 tensor of its default type.
  std::optional<ValueId> valueOf(Operand a);
  Operand refOperand(ValueId id, SMLoc loc);
  /// True when `op` is exactly a value (a Ref with the value's own type,
  /// not broadcast to a larger shape).
  bool isPlainRef(const Operand &op) const;
  Operand constOperand(Const c, SMLoc loc);
  /// A tensor operand computed by `expr`.
  Operand tensorOperand(typed::ExprPtr expr, SMLoc loc);
  /// The folded constant, or the fold's error reported at `loc`.
  std::optional<Operand> foldedOperand(const FoldResult &r, SMLoc loc);
  /// Broadcasts the shapes of the tensor operands, reporting the 6.2 error
  /// at `loc`.
  std::optional<std::vector<int64_t>>
  broadcastAll(llvm::ArrayRef<const Operand *> ops, SMLoc loc);
  /// "'P' [2, 3]" or "[2, 3]" for an unnamed operand.
  static std::string describe(const Operand &op);

  //===--------------------------------------------------------------------===//
  // Calls (SemaBuiltins.cpp, SemaCall.cpp)
  //===--------------------------------------------------------------------===//

  /// Binds a call in an expression (one result).
  std::optional<Operand> bindCall(const ast::Expr &call);
  /// Binds the arguments of a call, left to right.
  std::optional<std::vector<Operand>> bindArgs(const ast::Expr &call);
  std::optional<Operand> bindBuiltin(const BuiltinInfo &info,
                                     const ast::Expr &call,
                                     std::vector<Operand> args);
  /// Inlines user function `callee`, returning its outputs.
  std::optional<std::vector<Bound>> inlineCall(const ast::Function &callee,
                                               const ast::Expr &call,
                                               std::vector<Operand> args);
  const ast::Function *findFunction(llvm::StringRef name) const;
  /// grad(L, X1, ..., Xn) (8.8): a placeholder statement whose results,
  /// typed as the Xi, lib/Autodiff computes (SemaGrad.cpp).
  std::optional<std::vector<Operand>> bindGrad(const ast::Expr &call,
                                               std::vector<Operand> args);
  /// stop_grad(X) and reverse_grad(X, G): X, as a Ref marked for
  /// differentiation (SemaGrad.cpp).
  std::optional<Operand> gradientMarker(const ast::Expr &call,
                                        std::vector<Operand> args);
  /// The constant integer argument `index` (0-based) of a builtin call.
  std::optional<int64_t> constIntArg(const ast::Expr &call,
                                     const std::vector<Operand> &args,
                                     unsigned index);

  //===--------------------------------------------------------------------===//
  // Contractions (SemaContraction.cpp)
  //===--------------------------------------------------------------------===//

  bool bindContraction(const ast::Contraction &c, SMLoc stmtLoc);
  /// A reduction of the last axis of a rank-2 value to [R, 1], for the
  /// softmax builtins.
  std::optional<ValueId> reduceRows(ast::AggKind agg, ValueId input,
                                    SMLoc loc);
  /// simple_reduce (8.4): sums `input` down to `shape`, which must
  /// broadcast to the input's shape.
  std::optional<ValueId> simpleReduce(ValueId input,
                                      const std::vector<int64_t> &shape,
                                      const std::string &inputName, SMLoc loc);

  const ast::Module &module;
  /// Where diagnostics go; a silent engine while probing (probeExpr).
  DiagnosticEngine *diag;
  typed::Program program;
  Scope *scope = nullptr;
  /// Calls being inlined, outermost first: callee name and call location.
  std::vector<std::pair<std::string, SMLoc>> callStack;
  std::vector<PrngHandle> handles;
  std::vector<ast::Attribute> attributes; ///< of the statement being bound
  unsigned tempCounter = 0;
  std::map<std::string, unsigned> callCounter;
  unsigned exprDepth = 0;
};

/// The largest nesting of expressions (counted across inlined calls) and of
/// calls the binder follows; deeper input is an error, never a stack
/// overflow.
constexpr unsigned kMaxDepth = 256;
constexpr unsigned kMaxCallDepth = 64;

/// "a tuple" or "a random-number handle" for a name that is no data and so
/// cannot be an output (4.5); null for a tensor or constant.
inline const char *nonDataKind(const Bound &b) {
  if (b.kind == Bound::Kind::Tuple)
    return "a tuple";
  if (b.kind == Bound::Kind::Handle)
    return "a random-number handle";
  return nullptr;
}

/// "1 index", "2 indices": a count with its noun, for messages.
inline std::string plural(size_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace tilec::sema

#endif // TILEC_LIB_FRONTEND_BINDER_H
