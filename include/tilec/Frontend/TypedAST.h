//===- TypedAST.h - The bound, typed program --------------------*- C++ -*-===//
//
// The result of phase 2 (binding, docs/language.md 1.3) for one entry
// function: calls inlined, constants folded, every value with an exact shape
// and element type, every contraction with its index variables' exact ranges.
// It is flat: a list of statements over numbered values, in execution order.
// The reference interpreter executes it and MLIRGen lowers it, so it states
// the language's meaning with nothing left to infer:
//
//  * Elementwise expressions carry explicit casts: the operands of every
//    arithmetic, bitwise and comparison node have one element type (the
//    computation type); only Pow's exponent, Select's condition and Cast's
//    operand may differ from their node's type.
//  * Shapes broadcast with NumPy's rule: a node's shape is the broadcast of
//    its operands' shapes; an operand of lower rank or with size-1 dims is
//    read at the broadcast coordinates.
//  * Constants are typed scalars (weak constants were given their type by
//    the binder).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TYPEDAST_H
#define TILEC_FRONTEND_TYPEDAST_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Affine.h"
#include "tilec/Support/Tensor.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::typed {

using llvm::SMLoc;
using ValueId = unsigned;

/// A tensor value of the program: an input, or the result of one statement.
struct Value {
  std::string name; ///< source name; inlined names are "callee.N.Name",
                    ///< binder temporaries "_tN"
  TensorType type;
  SMLoc loc; ///< where it is defined
};

/// A scalar of a known element type. Integers and bool are held in `i`
/// (unsigned values as their bit pattern, bool as 0/1); floats in `f`,
/// already rounded to the type.
struct Scalar {
  DType dtype = DType::F32;
  int64_t i = 0;
  double f = 0;
  std::string str() const;
};

//===----------------------------------------------------------------------===//
// Elementwise expressions
//===----------------------------------------------------------------------===//

enum class ExprOp {
  Ref,   ///< the tensor `ref`, broadcast to `type.shape`
  Const, ///< the scalar `constant`, broadcast to `type.shape`
  Index, ///< i32 coordinate along `axis` of a tensor of shape `type.shape`
  Cast,  ///< args[0] converted to `type.dtype` (section 5.4 rules)
  // Unary, same type as the operand.
  Neg, BitNot,
  // Binary, operands of the node's type.
  Add, Sub, Mul, Div, Shl, Shr, BitAnd, BitXor, BitOr,
  // Comparisons: operands of one type, result bool.
  Lt, Gt, Le, Ge, Eq, Ne,
  /// args[0] (any type, true when != 0; NaN is true) ? args[1] : args[2]
  Select,
  // Math, on floats of the node's type.
  Exp, Log, Sqrt, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh,
  Asinh, Acosh, Atanh, Floor, Ceil, Round,
  /// args[0] of the node's type to the power args[1] (any numeric type).
  Pow,
};
const char *exprOpName(ExprOp op); ///< "add", "select", "exp", ...

/// Which builtin a node came from, where differentiation needs to know
/// (design/AUTODIFF.md 7.3, 7.5). Evaluation ignores it: a tagged node
/// computes exactly what its op says.
enum class ExprOrigin {
  None,
  Relu,        ///< the Select of relu's expansion: relu'(0) = 0
  Abs,         ///< the Select of abs's expansion: abs'(0) = 0
  Sigmoid,     ///< the Div of sigmoid's expansion: Y * (1 - Y)
  StopGrad,    ///< a Ref: its value passes, its derivative is zero
  ReverseGrad, ///< a Ref whose args[0] is G: the derivative is -G * DY
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprOp op;
  TensorType type;
  SMLoc loc;
  std::vector<ExprPtr> args;
  ValueId ref = 0;   ///< Ref
  Scalar constant;   ///< Const
  unsigned axis = 0; ///< Index
  ExprOrigin origin = ExprOrigin::None;
};

/// A deep copy of `e`.
ExprPtr cloneExpr(const Expr &e);

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

struct IndexVar {
  std::string name;
  SMLoc loc; ///< its first occurrence
  int64_t lo = 0, hi = 0; ///< exact inclusive range over valid assignments
};

struct Access {
  ValueId value;
  std::vector<Affine> indices; ///< one per dimension of the value
  SMLoc loc;
};

struct ContractionConstraint {
  Affine poly; ///< 0 <= poly < bound, poly integral
  int64_t bound;
  SMLoc loc;
};

/// O[out...] = agg(combine(operands...)), constraints, default.
/// Valid assignments are those of docs/language.md 7.3; the cell of an
/// assignment is `outIndices` evaluated there.
struct Contraction {
  ast::AggKind agg;
  ast::CombKind comb;
  std::vector<IndexVar> vars;
  std::vector<Affine> outIndices;   ///< one per output dimension
  std::vector<Access> operands;     ///< 1, 2 or 3 (Cond: A == B ? C)
  std::vector<ContractionConstraint> constraints;
  /// The type `*`, `+` and `==` combine in (join of the operands; for Cond,
  /// the join of A and B, the compared pair). The result is converted to the
  /// output's type, which is the combination's (7.4, 7.5).
  DType combineType;
  std::optional<ValueId> defaultValue; ///< same shape as the output
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Statement {
  enum class Kind {
    Elementwise, ///< results[0] = expr
    Contraction, ///< results[0] = contraction
    Reshape,     ///< results[0] = operands[0]'s elements, new shape
    Gather,      ///< results[0] = gather(operands[0] = V, operands[1] = I)
    Scatter,     ///< results[0] = scatter(E, I, V) (operands in that order)
    Prng,        ///< (results[0] = value f32[shape], results[1] = u32[3,2048]
                 ///<  state) = draw from operands[0] (section 8.6)
    Literal,     ///< results[0] = literal (a bind-time tensor, e.g. shape())
    /// (results...) = grad(operands[0] = L, operands[1...] = X...): the
    /// placeholder the binder leaves for lib/Autodiff, which replaces every
    /// one before the program is run or lowered (design/AUTODIFF.md 7.3).
    Grad,
  };
  Kind kind;
  SMLoc loc;
  std::vector<ValueId> results;
  std::vector<ValueId> operands;
  ExprPtr expr;                             ///< Elementwise
  std::unique_ptr<Contraction> contraction; ///< Contraction
  std::vector<Scalar> literal;              ///< Literal, row-major
  std::vector<ast::Attribute> attributes;
  /// The source text's names, for printing: "O", "softmax.1.E".
  std::string label;
};

/// A bound entry function.
struct Program {
  std::string entryName; ///< "main", or "" for an unnamed entry
  std::vector<Value> values;
  std::vector<ValueId> inputs;  ///< tensor parameters, header order
  std::vector<ValueId> outputs; ///< header order
  std::vector<Statement> statements;
  /// Constant parameters and their bound values (for printing/manifests).
  std::vector<std::pair<std::string, Scalar>> constants;

  const Value &value(ValueId id) const { return values[id]; }
};

/// A deep copy of `program`.
Program cloneProgram(const Program &program);

/// Prints the program in the stable, readable form of `--emit=ast`.
void printProgram(const Program &program, llvm::raw_ostream &os);

} // namespace tilec::typed

#endif // TILEC_FRONTEND_TYPEDAST_H
