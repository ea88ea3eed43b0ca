//===- AST.h - The syntax tree of a .tile file ------------------*- C++ -*-===//
//
// What the parser builds: the text of a file as functions, statements,
// expressions and index polynomials, with a source location on every node.
// Nothing here knows sizes or types; the binder (Sema.h) turns the entry
// function into a typed program (TypedAST.h).
//
// Locations follow docs/language.md 9.1: the first character of the token a
// diagnostic should point at (an operator for unary/binary nodes).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Support/DType.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::ast {

using llvm::SMLoc;

//===----------------------------------------------------------------------===//
// Expressions (elementwise statements, output sizes, constraint bounds)
//===----------------------------------------------------------------------===//

enum class UnaryOp { Neg, BitNot };
enum class BinaryOp {
  Add, Sub, Mul, Div, Shl, Shr,
  Lt, Gt, Le, Ge, Eq, Ne,
  BitAnd, BitXor, BitOr,
};

/// The operator's spelling: "+", "<<", "==".
const char *spelling(UnaryOp op);
const char *spelling(BinaryOp op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// One expression node. Which fields are meaningful depends on `kind`.
struct Expr {
  enum class Kind {
    IntLit,   ///< intValue
    FloatLit, ///< floatValue
    ValueRef, ///< name: a VALUE_ID (or #escaped) naming a value
    Unary,    ///< unaryOp, operands[0]
    Binary,   ///< binaryOp, operands[0..1]
    Cond,     ///< operands[0] ? operands[1] : operands[2]
    Call,     ///< name(operands...): builtin or user function
  };
  Kind kind;
  SMLoc loc; ///< the literal/name, the operator, or the '?' of a Cond
  int64_t intValue = 0;
  double floatValue = 0;
  std::string name;
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  std::vector<ExprPtr> operands;
  /// Written inside parentheses (used by the precedence warnings of 9.6).
  bool parenthesized = false;

  Expr(Kind kind, SMLoc loc) : kind(kind), loc(loc) {}
};

//===----------------------------------------------------------------------===//
// Index polynomials (inside contraction brackets and constraints)
//===----------------------------------------------------------------------===//

struct Poly;
using PolyPtr = std::unique_ptr<Poly>;

struct Poly {
  enum class Kind {
    IntLit,   ///< intValue
    IndexVar, ///< name: an INDEX_ID (or $escaped)
    ValueRef, ///< name: a VALUE_ID, which must fold to an integer constant
    Neg,      ///< -lhs
    Add,      ///< lhs + rhs
    Sub,      ///< lhs - rhs
    Mul,      ///< lhs * rhs (also `2i`, with implicitMul set)
    Div,      ///< lhs / rhs, exact rational division
  };
  Kind kind;
  SMLoc loc; ///< the literal/name, or the operator
  int64_t intValue = 0;
  std::string name;
  PolyPtr lhs, rhs;
  bool implicitMul = false; ///< written `2i`

  Poly(Kind kind, SMLoc loc) : kind(kind), loc(loc) {}
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// `[[name(arg, ...)]]` before a statement.
struct Attribute {
  std::string name;
  SMLoc loc;
  std::vector<std::string> args;
};

/// `X[p1, ..., pn]` inside an aggregation.
struct Access {
  std::string tensor;
  SMLoc loc;         ///< the tensor name
  SMLoc bracketLoc;  ///< the '['
  std::vector<PolyPtr> indices;
};

enum class AggKind { Sum, Prod, Max, Min, Assign }; ///< + * > < =
enum class CombKind {
  None, ///< a single access
  Mul,  ///< A * B
  Add,  ///< A + B
  Eq,   ///< A == B
  Cond, ///< A == B ? C
};
const char *spelling(AggKind agg);

/// `, poly < bound`
struct Constraint {
  PolyPtr poly;
  ExprPtr bound;
  SMLoc loc; ///< the '<'
};

/// `O[p... : s...] = agg(operands), constraints [no_defract] [default D];`
struct Contraction {
  std::string output;
  SMLoc outputLoc;
  std::vector<PolyPtr> outIndices;
  std::vector<ExprPtr> outSizes;
  bool hasColon = false; ///< sizes were written (possibly zero of them)
  AggKind agg = AggKind::Sum;
  SMLoc aggLoc;
  CombKind comb = CombKind::None;
  SMLoc combLoc; ///< the '*', '+' or '==' joining the operands
  std::vector<Access> operands; ///< 1, 2 or 3 accesses
  std::vector<Constraint> constraints;
  std::optional<std::string> defaultTensor;
  SMLoc defaultLoc; ///< the tensor name after 'default'
  bool noDefract = false; ///< no_defract or no_reduce seen
};

/// `NAME = expr;`
struct Assignment {
  std::string name;
  SMLoc loc;
  ExprPtr value;
};

/// `(A, B) = f(...);`
struct MultiAssign {
  std::vector<std::string> names;
  std::vector<SMLoc> nameLocs;
  ExprPtr call; ///< always Expr::Kind::Call
};

struct Statement {
  enum class Kind { Contraction, Assignment, MultiAssign };
  Kind kind;
  SMLoc loc; ///< first token of the statement (after attributes)
  std::vector<Attribute> attributes;
  std::unique_ptr<Contraction> contraction;
  std::unique_ptr<Assignment> assignment;
  std::unique_ptr<MultiAssign> multiAssign;
};

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// One entry of a parameter's dimension list: a size name or a literal.
struct Dim {
  bool isLiteral = false;
  std::string name;  ///< when !isLiteral
  int64_t value = 0; ///< when isLiteral
  SMLoc loc;
};

/// A number in a parameter default: `= -0.5`.
struct Number {
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;
  SMLoc loc;
};

/// `X`, `X[]`, `X[D0, 3]`, `X: f16[N]`, `X = 0.1`, `X: i32 = 2`
struct Param {
  std::string name;
  SMLoc loc;
  std::optional<DType> dtype;
  SMLoc dtypeLoc;
  bool hasDims = false; ///< brackets written (`X[]` has them, `X` not)
  std::vector<Dim> dims;
  std::optional<Number> defaultValue;
};

struct Output {
  std::string name;
  SMLoc loc;
};

struct Function {
  std::string name; ///< empty for an unnamed function
  SMLoc loc;        ///< the 'function' keyword
  SMLoc nameLoc;
  std::vector<Param> params;
  std::vector<Output> outputs;
  std::vector<Statement> statements;
  SMLoc closeBraceLoc;
};

struct Module {
  std::vector<Function> functions;
};

} // namespace tilec::ast

#endif // TILEC_FRONTEND_AST_H
