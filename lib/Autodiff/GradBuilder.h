//===- GradBuilder.h - Building typed statements for gradients --*- C++ -*-===//
//
// The rules of lib/Autodiff build ordinary typed statements; this class
// keeps them well typed (TypedAST.h: one computation type per node, NumPy
// broadcasting of shapes) and appends them to the list that replaces a Grad
// placeholder. Private to lib/Autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_AUTODIFF_GRADBUILDER_H
#define TILEC_LIB_AUTODIFF_GRADBUILDER_H

#include "tilec/Frontend/TypedAST.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilec::autodiff {

using typed::Expr;
using typed::ExprOp;
using typed::ExprPtr;
using typed::Statement;
using typed::ValueId;

class GradBuilder {
public:
  GradBuilder(typed::Program &program, std::vector<Statement> &out,
              llvm::SMLoc loc)
      : program(program), out(out), loc(loc) {}

  const TensorType &typeOf(ValueId v) const {
    return program.values[v].type;
  }
  const std::string &nameOf(ValueId v) const {
    return program.values[v].name;
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  ValueId newValue(const std::string &name, const TensorType &type);
  /// `name = e`; a Ref to a whole value returns that value instead.
  ValueId emit(ExprPtr e, const std::string &name);
  /// `result = e` into an existing value (the results of a placeholder).
  void emitInto(ValueId result, ExprPtr e);
  /// A contraction statement; its operand list is taken from `c`.
  ValueId emitContraction(std::unique_ptr<typed::Contraction> c,
                          const TensorType &type, const std::string &name);
  /// Reshape, Gather or Scatter.
  ValueId emitStatement(Statement::Kind kind, std::vector<ValueId> operands,
                        const TensorType &type, const std::string &name);
  /// Sums `v` down to `shape` (simple_reduce, 8.4); `v` itself if equal.
  ValueId reduceTo(ValueId v, const std::vector<int64_t> &shape);
  /// A tensor of ones of `type`, made once per type.
  ValueId ones(const TensorType &type);
  /// A fresh name for a temporary: "_d3".
  std::string tempName() { return "_d" + std::to_string(temps++); }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  ExprPtr ref(ValueId v);
  /// The scalar `value` of type `t`, broadcast to `shape`.
  ExprPtr scalar(double value, DType t, std::vector<int64_t> shape = {});
  /// A node whose type follows from its operands: the first operand's (the
  /// branches' for a select, bool for comparisons), shapes broadcast.
  ExprPtr node(ExprOp op, std::vector<ExprPtr> args);
  ExprPtr cast(ExprPtr a, DType t);
  ExprPtr neg(ExprPtr a) { return node(ExprOp::Neg, vec(std::move(a))); }
  ExprPtr add(ExprPtr a, ExprPtr b) { return binary(ExprOp::Add, a, b); }
  ExprPtr sub(ExprPtr a, ExprPtr b) { return binary(ExprOp::Sub, a, b); }
  ExprPtr mul(ExprPtr a, ExprPtr b) { return binary(ExprOp::Mul, a, b); }
  ExprPtr div(ExprPtr a, ExprPtr b) { return binary(ExprOp::Div, a, b); }
  ExprPtr math(ExprOp op, ExprPtr a) { return node(op, vec(std::move(a))); }
  ExprPtr select(ExprPtr c, ExprPtr t, ExprPtr f);
  /// `adj op g` (op Mul or Div) where `adj` is an adjoint: pushed into a
  /// select whose other branch is zero (`C ? DY * g : 0`), so a zero branch
  /// never meets an infinite factor (design/AUTODIFF.md 7.5).
  ExprPtr scale(ExprPtr adj, ExprPtr g, ExprOp op = ExprOp::Mul);
  /// Makes `e` a Ref to a value unless it is one already.
  ExprPtr materialize(ExprPtr e, const std::string &name);

  typed::Program &program;

private:
  static std::vector<ExprPtr> vec(ExprPtr a) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    return v;
  }
  ExprPtr binary(ExprOp op, ExprPtr &a, ExprPtr &b) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return node(op, std::move(v));
  }
  Statement &addStatement(Statement::Kind kind, ValueId result);

  std::vector<Statement> &out;
  llvm::SMLoc loc;
  unsigned temps = 0;
  std::map<std::pair<DType, std::vector<int64_t>>, ValueId> onesByType;
};

/// True when `e` is the constant `value` (any type and shape).
bool isScalar(const Expr &e, double value);

} // namespace tilec::autodiff

#endif // TILEC_LIB_AUTODIFF_GRADBUILDER_H
