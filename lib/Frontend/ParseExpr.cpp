//===- ParseExpr.cpp - Expressions and index polynomials ------------------===//
//
// Expressions follow the C-like precedence of docs/language.md 3.2, with
// non-chaining comparisons and the two PlaidML-compatibility warnings of 9.6.
// Index polynomials (3.1 `poly`) have their own small grammar with the
// juxtaposition rule `2i`. Both enforce rules 5 and 6 of section 3.3 and a
// depth limit, so hostile input cannot exhaust the stack here or in any later
// walk over the tree.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include <iterator>
#include <optional>

using namespace tilec;
using ast::BinaryOp;
using ast::Expr;
using ast::ExprPtr;
using ast::Poly;
using ast::PolyPtr;

//===----------------------------------------------------------------------===//
// Depth limits
//===----------------------------------------------------------------------===//

Parser::DepthGuard::DepthGuard(Parser &parser) : parser(parser) {
  ok = ++parser.recursionDepth <= kMaxDepth;
  if (!ok)
    parser.diag.error(parser.tok().loc(),
                      "expression is nested too deeply (more than " +
                          llvm::Twine(kMaxDepth) + " levels)");
}

unsigned Parser::heightOf(const void *node) const {
  auto it = heights.find(node);
  return it == heights.end() ? 1 : it->second;
}

bool Parser::checkDepth(const void *node, unsigned height, llvm::SMLoc loc) {
  heights[node] = height;
  if (height <= kMaxDepth)
    return true;
  diag.error(loc, "expression is nested too deeply (more than " +
                      llvm::Twine(kMaxDepth) + " levels)");
  return false;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {
/// The binary operators by level, loosest first; levels 3 and 4 (equality,
/// relation) do not chain.
constexpr unsigned kNumLevels = 8;

std::optional<BinaryOp> binaryOpAt(unsigned level, TokenKind kind) {
  switch (level) {
  case 0: if (kind == TokenKind::Pipe) return BinaryOp::BitOr; break;
  case 1: if (kind == TokenKind::Caret) return BinaryOp::BitXor; break;
  case 2: if (kind == TokenKind::Amp) return BinaryOp::BitAnd; break;
  case 3:
    if (kind == TokenKind::EqEq) return BinaryOp::Eq;
    if (kind == TokenKind::Ne) return BinaryOp::Ne;
    break;
  case 4:
    if (kind == TokenKind::Lt) return BinaryOp::Lt;
    if (kind == TokenKind::Gt) return BinaryOp::Gt;
    if (kind == TokenKind::Le) return BinaryOp::Le;
    if (kind == TokenKind::Ge) return BinaryOp::Ge;
    break;
  case 5:
    if (kind == TokenKind::Shl) return BinaryOp::Shl;
    if (kind == TokenKind::Shr) return BinaryOp::Shr;
    break;
  case 6:
    if (kind == TokenKind::Plus) return BinaryOp::Add;
    if (kind == TokenKind::Minus) return BinaryOp::Sub;
    break;
  case 7:
    if (kind == TokenKind::Star) return BinaryOp::Mul;
    if (kind == TokenKind::Slash) return BinaryOp::Div;
    break;
  }
  return std::nullopt;
}

bool isUnparenthesized(const Expr &e, Expr::Kind kind) {
  return e.kind == kind && !e.parenthesized;
}
} // namespace

ExprPtr Parser::parseExpr() {
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  return parseCond();
}

ExprPtr Parser::parseCond() {
  ExprPtr cond = parseBinaryLevel(0);
  if (!cond || !at(TokenKind::Question))
    return cond;
  Token question = consume();
  ExprPtr whenTrue = parseExpr();
  if (!whenTrue || !expect(TokenKind::Colon, "':'", &question))
    return nullptr;
  ExprPtr whenFalse;
  {
    // A chain `P ? X : Q ? Y : Z` recurses here once per '?'.
    DepthGuard guard(*this);
    if (!guard.ok)
      return nullptr;
    whenFalse = parseCond();
  }
  if (!whenFalse)
    return nullptr;
  if (isUnparenthesized(*whenFalse, Expr::Kind::Cond))
    diag.warning(whenFalse->loc,
                 "nested '?:' in a false branch without parentheses (PlaidML "
                 "grouped it the other way)");
  auto node = std::make_unique<Expr>(Expr::Kind::Cond, question.loc());
  node->operands.push_back(std::move(cond));
  node->operands.push_back(std::move(whenTrue));
  node->operands.push_back(std::move(whenFalse));
  return checkedExpr(std::move(node));
}

ExprPtr Parser::parseBinaryLevel(unsigned level) {
  if (level == 3 || level == 4)
    return parseComparison(level);
  auto operand = [&] {
    return level + 1 < kNumLevels ? parseBinaryLevel(level + 1) : parseUnary();
  };
  ExprPtr lhs = operand();
  while (lhs) {
    std::optional<BinaryOp> op = binaryOpAt(level, tok().kind);
    if (!op)
      break;
    Token opTok = consume();
    ExprPtr rhs = operand();
    if (!rhs)
      return nullptr;
    lhs = makeBinary(*op, opTok, std::move(lhs), std::move(rhs));
    if (lhs && *op == BinaryOp::BitOr)
      warnPrecedence(*lhs);
  }
  return lhs;
}

ExprPtr Parser::parseComparison(unsigned level) {
  ExprPtr lhs = parseBinaryLevel(level + 1);
  if (!lhs)
    return nullptr;
  std::optional<BinaryOp> op = binaryOpAt(level, tok().kind);
  if (!op)
    return lhs;
  Token opTok = consume();
  ExprPtr rhs = parseBinaryLevel(level + 1);
  if (!rhs)
    return nullptr;
  if (binaryOpAt(level, tok().kind)) {
    diag.error(tok().loc(), "comparisons do not chain; add parentheses");
    return nullptr;
  }
  return makeBinary(*op, opTok, std::move(lhs), std::move(rhs));
}

void Parser::warnPrecedence(const Expr &orExpr) {
  // PlaidML bound '|' tighter than '^' (3.2).
  const Expr &lhs = *orExpr.operands[0];
  const Expr &rhs = *orExpr.operands[1];
  if (isUnparenthesized(lhs, Expr::Kind::Binary) &&
      lhs.binaryOp == BinaryOp::BitXor)
    diag.warning(lhs.loc, "'^' inside '|' without parentheses (PlaidML read "
                          "this as 'A ^ (B | C)')");
  if (isUnparenthesized(rhs, Expr::Kind::Binary) &&
      rhs.binaryOp == BinaryOp::BitXor)
    diag.warning(rhs.loc, "'^' inside '|' without parentheses (PlaidML read "
                          "this as '(A | B) ^ C')");
}

ExprPtr Parser::makeBinary(BinaryOp op, const Token &opTok, ExprPtr lhs,
                           ExprPtr rhs) {
  auto node = std::make_unique<Expr>(Expr::Kind::Binary, opTok.loc());
  node->binaryOp = op;
  node->operands.push_back(std::move(lhs));
  node->operands.push_back(std::move(rhs));
  return checkedExpr(std::move(node));
}

ExprPtr Parser::checkedExpr(ExprPtr node) {
  unsigned tallest = 0;
  for (const ExprPtr &operand : node->operands)
    tallest = std::max(tallest, heightOf(operand.get()));
  if (!checkDepth(node.get(), 1 + tallest, node->loc))
    return nullptr;
  return node;
}

ExprPtr Parser::parseUnary() {
  if (!at(TokenKind::Minus) && !at(TokenKind::Tilde))
    return parsePrimary();
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  Token opTok = consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  auto node = std::make_unique<Expr>(Expr::Kind::Unary, opTok.loc());
  node->unaryOp =
      opTok.is(TokenKind::Minus) ? ast::UnaryOp::Neg : ast::UnaryOp::BitNot;
  node->operands.push_back(std::move(operand));
  return checkedExpr(std::move(node));
}

ExprPtr Parser::parsePrimary() {
  Token t = tok();
  switch (t.kind) {
  case TokenKind::Int: {
    auto node = std::make_unique<Expr>(Expr::Kind::IntLit, t.loc());
    node->intValue = consume().intValue;
    return node;
  }
  case TokenKind::Float: {
    auto node = std::make_unique<Expr>(Expr::Kind::FloatLit, t.loc());
    node->floatValue = consume().floatValue;
    return node;
  }
  case TokenKind::LParen: {
    Token open = consume();
    ExprPtr inner = parseExpr();
    if (!inner || !expect(TokenKind::RParen, "')'", &open))
      return nullptr;
    inner->parenthesized = true;
    return inner;
  }
  case TokenKind::ValueId:
  case TokenKind::IndexId: {
    if (peek(1).is(TokenKind::LParen)) {
      Token name = consume();
      return parseCall(name);
    }
    if (t.is(TokenKind::IndexId)) {
      // Rule 5: index variables live only in contraction brackets.
      if (exprContext == ExprContext::Bound) {
        // `j < i` means j <= i - 1, that is 0 <= i - j - 1 (7.8).
        std::string poly = constraintPolyText.str();
        if (poly.find_first_of("+- ") != std::string::npos)
          poly = "(" + poly + ")";
        diag.error(t.loc(), "the bound of a constraint cannot use index "
                            "variable '" +
                                t.text + "'; rewrite as '" + t.text + " - " +
                                poly + " - 1 < N'");
      } else
        diag.error(t.loc(), "index variable '" + t.text +
                                "' can only appear in a contraction's "
                                "brackets");
      return nullptr;
    }
    if (peek(1).is(TokenKind::LBracket)) {
      // Rule 5: a tensor access in an expression.
      const char *start = t.spelling.data();
      llvm::SMLoc bracket = peek(1).loc();
      ast::Access ignored;
      if (!parseAccess(ignored))
        return nullptr;
      std::string text(start, lastEnd - start);
      std::string hint = assignTarget.empty()
                             ? std::string()
                             : "; write '" + assignTarget + "[] = =(" +
                                   text + ")'";
      diag.error(bracket, "tensors are indexed only in contractions" + hint);
      return nullptr;
    }
    auto node = std::make_unique<Expr>(Expr::Kind::ValueRef, t.loc());
    node->name = consume().text;
    return node;
  }
  default:
    break;
  }
  errorExpected("an expression");
  // `&&` and `||` lex as two operators; say what to write instead.
  if (!echoesLexError() && (t.is(TokenKind::Amp) || t.is(TokenKind::Pipe)) &&
      lastEnd == t.spelling.data() && lastEnd[-1] == t.spelling[0])
    diag.note(t.loc(), llvm::Twine("Tile has no '") + t.spelling + t.spelling +
                           "': use '" + t.spelling + "' on bools");
  return nullptr;
}

ExprPtr Parser::parseCall(const Token &name) {
  auto call = std::make_unique<Expr>(Expr::Kind::Call, name.loc());
  call->name = name.text;
  Token open = consume(); // (
  auto parseArg = [&] { return appendParsed(call->operands, parseExpr()); };
  if (!at(TokenKind::RParen) && !parseCommaList(parseArg, TokenKind::RParen))
    return nullptr;
  if (!expect(TokenKind::RParen, "')'", &open))
    return nullptr;
  return checkedExpr(std::move(call));
}

//===----------------------------------------------------------------------===//
// Index polynomials
//===----------------------------------------------------------------------===//

PolyPtr Parser::makePoly(Poly::Kind kind, llvm::SMLoc loc, PolyPtr lhs,
                         PolyPtr rhs) {
  auto node = std::make_unique<Poly>(kind, loc);
  unsigned height = 1 + std::max(heightOf(lhs.get()),
                                 rhs ? heightOf(rhs.get()) : 0u);
  node->lhs = std::move(lhs);
  node->rhs = std::move(rhs);
  if (!checkDepth(node.get(), height, loc))
    return nullptr;
  return node;
}

namespace {
/// The binary operators of index polynomials by level, loosest first.
struct PolyOperator {
  TokenKind token;
  Poly::Kind kind;
};
constexpr PolyOperator kPolyLevels[][2] = {
    {{TokenKind::Plus, Poly::Kind::Add}, {TokenKind::Minus, Poly::Kind::Sub}},
    {{TokenKind::Star, Poly::Kind::Mul}, {TokenKind::Slash, Poly::Kind::Div}},
};
constexpr unsigned kNumPolyLevels = std::size(kPolyLevels);

std::optional<Poly::Kind> polyOpAt(unsigned level, TokenKind kind) {
  for (const PolyOperator &op : kPolyLevels[level])
    if (op.token == kind)
      return op.kind;
  return std::nullopt;
}
} // namespace

PolyPtr Parser::parsePolyLevel(unsigned level) {
  auto operand = [&] {
    return level + 1 < kNumPolyLevels ? parsePolyLevel(level + 1)
                                      : parsePolyFactor();
  };
  PolyPtr lhs = operand();
  while (lhs) {
    std::optional<Poly::Kind> kind = polyOpAt(level, tok().kind);
    if (!kind)
      break;
    Token op = consume();
    PolyPtr rhs = operand();
    if (!rhs)
      return nullptr;
    lhs = makePoly(*kind, op.loc(), std::move(lhs), std::move(rhs));
  }
  return lhs;
}

PolyPtr Parser::parsePolyFactor() {
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  Token t = tok();
  switch (t.kind) {
  case TokenKind::Minus: {
    Token op = consume();
    PolyPtr operand = parsePolyFactor();
    if (!operand)
      return nullptr;
    return makePoly(Poly::Kind::Neg, op.loc(), std::move(operand), nullptr);
  }
  case TokenKind::Int: {
    auto lit = std::make_unique<Poly>(Poly::Kind::IntLit, t.loc());
    lit->intValue = consume().intValue;
    // Rule 6: `2i` is `2*i`; `2N` is an error.
    if (at(TokenKind::IndexId)) {
      auto var = std::make_unique<Poly>(Poly::Kind::IndexVar, tok().loc());
      var->name = consume().text;
      PolyPtr mul = makePoly(Poly::Kind::Mul, lit->loc, std::move(lit),
                             std::move(var));
      if (mul)
        mul->implicitMul = true;
      return mul;
    }
    if (at(TokenKind::ValueId)) {
      diag.error(tok().loc(),
                 "only an index variable may follow a number directly; "
                 "write '" +
                     t.spelling + "*" + tok().spelling + "'");
      return nullptr;
    }
    return lit;
  }
  case TokenKind::IndexId:
  case TokenKind::ValueId: {
    if (peek(1).is(TokenKind::LParen) || peek(1).is(TokenKind::LBracket)) {
      diag.error(t.loc(), "an index polynomial cannot contain calls or "
                          "tensor accesses; compute the value in an "
                          "elementwise statement first");
      return nullptr;
    }
    auto node = std::make_unique<Poly>(t.is(TokenKind::IndexId)
                                           ? Poly::Kind::IndexVar
                                           : Poly::Kind::ValueRef,
                                       t.loc());
    node->name = consume().text;
    return node;
  }
  case TokenKind::LParen: {
    Token open = consume();
    PolyPtr inner = parsePoly();
    if (!inner || !expect(TokenKind::RParen, "')'", &open))
      return nullptr;
    return inner;
  }
  default:
    errorExpected("an index polynomial");
    return nullptr;
  }
}
