//===- AST.cpp - Spellings of the syntax tree's operators -----------------===//

#include "tilec/Frontend/AST.h"

#include "llvm/Support/ErrorHandling.h"

using namespace tilec::ast;

const char *tilec::ast::spelling(UnaryOp op) {
  return op == UnaryOp::Neg ? "-" : "~";
}

const char *tilec::ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::Div: return "/";
  case BinaryOp::Shl: return "<<";
  case BinaryOp::Shr: return ">>";
  case BinaryOp::Lt: return "<";
  case BinaryOp::Gt: return ">";
  case BinaryOp::Le: return "<=";
  case BinaryOp::Ge: return ">=";
  case BinaryOp::Eq: return "==";
  case BinaryOp::Ne: return "!=";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitXor: return "^";
  case BinaryOp::BitOr: return "|";
  }
  llvm_unreachable("unknown binary operator");
}

const char *tilec::ast::spelling(AggKind agg) {
  switch (agg) {
  case AggKind::Sum: return "+";
  case AggKind::Prod: return "*";
  case AggKind::Max: return ">";
  case AggKind::Min: return "<";
  case AggKind::Assign: return "=";
  }
  llvm_unreachable("unknown aggregation");
}
