//===- TypedAST.cpp - Printing the bound program (--emit=ast) -------------===//
//
// A stable, line-oriented form of typed::Program: one line per input,
// constant and statement, contractions followed by indented lines for their
// index variables (with exact ranges), constraints and attributes. Every
// expression node shows its type, so promotions and casts are visible.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/TypedAST.h"

#include "Constant.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tilec;
using namespace tilec::typed;

const char *tilec::typed::exprOpName(ExprOp op) {
  switch (op) {
  case ExprOp::Ref: return "ref";
  case ExprOp::Const: return "const";
  case ExprOp::Index: return "index";
  case ExprOp::Cast: return "cast";
  case ExprOp::Neg: return "neg";
  case ExprOp::BitNot: return "not";
  case ExprOp::Add: return "add";
  case ExprOp::Sub: return "sub";
  case ExprOp::Mul: return "mul";
  case ExprOp::Div: return "div";
  case ExprOp::Shl: return "shl";
  case ExprOp::Shr: return "shr";
  case ExprOp::BitAnd: return "and";
  case ExprOp::BitXor: return "xor";
  case ExprOp::BitOr: return "or";
  case ExprOp::Lt: return "lt";
  case ExprOp::Gt: return "gt";
  case ExprOp::Le: return "le";
  case ExprOp::Ge: return "ge";
  case ExprOp::Eq: return "eq";
  case ExprOp::Ne: return "ne";
  case ExprOp::Select: return "select";
  case ExprOp::Exp: return "exp";
  case ExprOp::Log: return "log";
  case ExprOp::Sqrt: return "sqrt";
  case ExprOp::Sin: return "sin";
  case ExprOp::Cos: return "cos";
  case ExprOp::Tan: return "tan";
  case ExprOp::Asin: return "asin";
  case ExprOp::Acos: return "acos";
  case ExprOp::Atan: return "atan";
  case ExprOp::Sinh: return "sinh";
  case ExprOp::Cosh: return "cosh";
  case ExprOp::Tanh: return "tanh";
  case ExprOp::Asinh: return "asinh";
  case ExprOp::Acosh: return "acosh";
  case ExprOp::Atanh: return "atanh";
  case ExprOp::Floor: return "floor";
  case ExprOp::Ceil: return "ceil";
  case ExprOp::Round: return "round";
  case ExprOp::Pow: return "pow";
  }
  return "?";
}

ExprPtr tilec::typed::cloneExpr(const Expr &e) {
  auto copy = std::make_unique<Expr>();
  copy->op = e.op;
  copy->type = e.type;
  copy->loc = e.loc;
  copy->ref = e.ref;
  copy->constant = e.constant;
  copy->axis = e.axis;
  copy->origin = e.origin;
  for (const ExprPtr &arg : e.args)
    copy->args.push_back(cloneExpr(*arg));
  return copy;
}

Program tilec::typed::cloneProgram(const Program &program) {
  Program copy;
  copy.entryName = program.entryName;
  copy.values = program.values;
  copy.inputs = program.inputs;
  copy.outputs = program.outputs;
  copy.constants = program.constants;
  for (const Statement &st : program.statements) {
    Statement s;
    s.kind = st.kind;
    s.loc = st.loc;
    s.results = st.results;
    s.operands = st.operands;
    if (st.expr)
      s.expr = cloneExpr(*st.expr);
    if (st.contraction)
      s.contraction = std::make_unique<Contraction>(*st.contraction);
    s.literal = st.literal;
    s.attributes = st.attributes;
    s.label = st.label;
    copy.statements.push_back(std::move(s));
  }
  return copy;
}

/// The marker a tagged Ref prints with in `--emit=ast`.
static const char *markerName(ExprOrigin origin) {
  switch (origin) {
  case ExprOrigin::StopGrad:
    return "stop_grad";
  case ExprOrigin::ReverseGrad:
    return "reverse_grad";
  default:
    return nullptr;
  }
}

std::string Scalar::str() const {
  if (isFloat(dtype))
    return floatText(f, dtype);
  if (dtype == DType::Bool)
    return i ? "true" : "false";
  if (dtype == DType::U64)
    return std::to_string(static_cast<uint64_t>(i));
  return std::to_string(i);
}

namespace {

class Printer {
public:
  Printer(const Program &p, llvm::raw_ostream &os) : p(p), os(os) {}

  void print() {
    os << "entry " << (p.entryName.empty() ? "<unnamed>" : p.entryName)
       << "\n";
    for (ValueId id : p.inputs)
      os << "input " << p.value(id).name << ": " << type(p.value(id).type)
         << "\n";
    for (const auto &[name, value] : p.constants)
      os << "constant " << name << ": " << dtypeName(value.dtype) << " = "
         << value.str() << "\n";
    for (const Statement &st : p.statements)
      statement(st);
    for (ValueId id : p.outputs)
      os << "output " << p.value(id).name << ": " << type(p.value(id).type)
         << "\n";
  }

private:
  static std::string type(const TensorType &t) {
    std::string s = std::string(dtypeName(t.dtype)) + "[";
    for (size_t k = 0; k < t.shape.size(); ++k)
      s += (k ? ", " : "") + std::to_string(t.shape[k]);
    return s + "]";
  }

  std::string result(ValueId id) {
    return p.value(id).name + ": " + type(p.value(id).type);
  }

  std::string name(ValueId id) { return p.value(id).name; }

  void expr(const Expr &e) {
    switch (e.op) {
    case ExprOp::Ref:
      if (const char *marker = markerName(e.origin)) {
        os << marker << "(" << name(e.ref);
        for (const ExprPtr &arg : e.args) {
          os << ", ";
          expr(*arg);
        }
        os << ")";
        return;
      }
      os << name(e.ref);
      return;
    case ExprOp::Const:
      os << e.constant.str() << ":" << dtypeName(e.type.dtype);
      return;
    case ExprOp::Index:
      os << "index<" << e.axis << ">:" << type(e.type);
      return;
    case ExprOp::Cast:
      os << "cast<" << dtypeName(e.type.dtype) << ">(";
      expr(*e.args[0]);
      os << ")";
      return;
    default:
      break;
    }
    os << exprOpName(e.op) << ":" << type(e.type) << "(";
    for (size_t k = 0; k < e.args.size(); ++k) {
      if (k)
        os << ", ";
      expr(*e.args[k]);
    }
    os << ")";
  }

  std::string indices(const std::vector<Affine> &idx,
                      const std::vector<std::string> &vars) {
    std::string s = "[";
    for (size_t k = 0; k < idx.size(); ++k)
      s += (k ? ", " : "") + idx[k].str(vars);
    return s + "]";
  }

  void contraction(const Statement &st) {
    const Contraction &c = *st.contraction;
    std::vector<std::string> vars;
    for (const IndexVar &v : c.vars)
      vars.push_back(v.name);
    auto access = [&](const Access &a) {
      return name(a.value) + indices(a.indices, vars);
    };
    os << result(st.results[0]) << " = contraction "
       << indices(c.outIndices, vars) << " " << ast::spelling(c.agg) << "(";
    switch (c.comb) {
    case ast::CombKind::None:
      os << access(c.operands[0]);
      break;
    case ast::CombKind::Mul:
      os << access(c.operands[0]) << " * " << access(c.operands[1]);
      break;
    case ast::CombKind::Add:
      os << access(c.operands[0]) << " + " << access(c.operands[1]);
      break;
    case ast::CombKind::Eq:
      os << access(c.operands[0]) << " == " << access(c.operands[1]);
      break;
    case ast::CombKind::Cond:
      os << access(c.operands[0]) << " == " << access(c.operands[1]) << " ? "
         << access(c.operands[2]);
      break;
    }
    os << ")\n";
    for (const IndexVar &v : c.vars)
      os << "  index " << v.name << " in [" << v.lo << ", " << v.hi << "]\n";
    for (const ContractionConstraint &k : c.constraints)
      os << "  constraint " << k.poly.str(vars) << " < " << k.bound << "\n";
    os << "  combine " << dtypeName(c.combineType) << "\n";
    if (c.defaultValue)
      os << "  default " << name(*c.defaultValue) << "\n";
  }

  void statement(const Statement &st) {
    for (const ast::Attribute &a : st.attributes) {
      os << "[[" << a.name;
      if (!a.args.empty()) {
        os << "(";
        for (size_t k = 0; k < a.args.size(); ++k)
          os << (k ? ", " : "") << a.args[k];
        os << ")";
      }
      os << "]] ";
    }
    switch (st.kind) {
    case Statement::Kind::Elementwise:
      os << result(st.results[0]) << " = ";
      expr(*st.expr);
      os << "\n";
      return;
    case Statement::Kind::Contraction:
      contraction(st);
      return;
    case Statement::Kind::Reshape:
      os << result(st.results[0]) << " = reshape(" << name(st.operands[0])
         << ")\n";
      return;
    case Statement::Kind::Gather:
    case Statement::Kind::Scatter:
      os << result(st.results[0])
         << (st.kind == Statement::Kind::Gather ? " = gather(" : " = scatter(");
      for (size_t k = 0; k < st.operands.size(); ++k)
        os << (k ? ", " : "") << name(st.operands[k]);
      os << ")\n";
      return;
    case Statement::Kind::Prng:
      os << "(" << result(st.results[0]) << ", " << result(st.results[1])
         << ") = prng(" << name(st.operands[0]) << ")\n";
      return;
    case Statement::Kind::Literal:
      os << result(st.results[0]) << " = literal [";
      for (size_t k = 0; k < st.literal.size(); ++k)
        os << (k ? ", " : "") << st.literal[k].str();
      os << "]\n";
      return;
    case Statement::Kind::Grad: {
      os << "(";
      for (size_t k = 0; k < st.results.size(); ++k)
        os << (k ? ", " : "") << result(st.results[k]);
      os << ") = grad(";
      for (size_t k = 0; k < st.operands.size(); ++k)
        os << (k ? ", " : "") << name(st.operands[k]);
      os << ")\n";
      return;
    }
    }
  }

  const Program &p;
  llvm::raw_ostream &os;
};

} // namespace

void tilec::typed::printProgram(const Program &program,
                                llvm::raw_ostream &os) {
  Printer(program, os).print();
}
