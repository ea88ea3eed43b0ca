//===- ParseContraction.cpp - Contraction statements ----------------------===//
//
// `O[p… : s…] = agg(operands), constraints… suffixes…` of docs/language.md
// 3.1, with the dedicated diagnostics of rules 1-4 and 7 of section 3.3.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

using namespace tilec;

namespace {
bool isAggregationToken(TokenKind kind) {
  return kind == TokenKind::Plus || kind == TokenKind::Star ||
         kind == TokenKind::Gt || kind == TokenKind::Lt ||
         kind == TokenKind::Assign;
}

ast::AggKind aggregationOf(TokenKind kind) {
  switch (kind) {
  case TokenKind::Plus: return ast::AggKind::Sum;
  case TokenKind::Star: return ast::AggKind::Prod;
  case TokenKind::Gt: return ast::AggKind::Max;
  case TokenKind::Lt: return ast::AggKind::Min;
  default: return ast::AggKind::Assign;
  }
}

bool isRelationToken(TokenKind kind) {
  return kind == TokenKind::Le || kind == TokenKind::Gt ||
         kind == TokenKind::Ge || kind == TokenKind::EqEq ||
         kind == TokenKind::Ne;
}
} // namespace

bool Parser::parseContraction(ast::Statement &stmt) {
  auto c = std::make_unique<ast::Contraction>();
  if (!parseOutput(*c) || !parseAggregation(*c) || !parseOperands(*c))
    return false;
  while (at(TokenKind::Comma)) {
    Token comma = consume();
    if (rejectTrailingComma(comma, TokenKind::Semi) || !parseConstraint(*c))
      return false;
  }
  if (!parseSuffixes(*c))
    return false;
  stmt.kind = ast::Statement::Kind::Contraction;
  stmt.contraction = std::move(c);
  return true;
}

bool Parser::parseOutput(ast::Contraction &c) {
  Token name = consumeValueName();
  c.output = name.text;
  c.outputLoc = name.loc();
  Token open = consume(); // [
  auto parseIndex = [&] { return appendParsed(c.outIndices, parsePoly()); };
  if (!at(TokenKind::RBracket) && !at(TokenKind::Colon) &&
      !parseCommaList(parseIndex, {TokenKind::RBracket, TokenKind::Colon}))
    return false;
  if (consumeIf(TokenKind::Colon)) {
    c.hasColon = true;
    exprContext = ExprContext::OutputSize;
    assignTarget.clear();
    auto parseSize = [&] { return appendParsed(c.outSizes, parseExpr()); };
    if (!at(TokenKind::RBracket) &&
        !parseCommaList(parseSize, TokenKind::RBracket))
      return false;
  }
  return expect(TokenKind::RBracket, "']'", &open);
}

bool Parser::parseAggregation(ast::Contraction &c) {
  // Rule 7: `O[i : N] ==(I[i])` is `= =(I[i])`.
  if (at(TokenKind::EqEq) && peek(1).is(TokenKind::LParen)) {
    c.agg = ast::AggKind::Assign;
    c.aggLoc = llvm::SMLoc::getFromPointer(tok().spelling.data() + 1);
    consume();
    return true;
  }
  if (!expect(TokenKind::Assign, "'=' after the output"))
    return false;
  if (isAggregationToken(tok().kind) && peek(1).is(TokenKind::LParen)) {
    c.agg = aggregationOf(tok().kind);
    c.aggLoc = consume().loc();
    return true;
  }
  // Rule 3: quote the operand as the user wrote it in the suggestion.
  const char *from = tok().spelling.data();
  const char *to = from;
  for (unsigned i = 0; !peek(i).is(TokenKind::Semi) &&
                       !peek(i).is(TokenKind::Eof) &&
                       !peek(i).is(TokenKind::RBrace) && i < 64;
       ++i)
    to = peek(i).spelling.data() + peek(i).spelling.size();
  std::string operand(from, to - from);
  if (operand.empty() || operand.size() > 40)
    operand = "…";
  diag.error(tok().loc(), "a contraction needs an aggregation operator: "
                          "write '=(" +
                              operand +
                              ")', '+(…)', '*(…)', '>(…)' or '<(…)'");
  return false;
}

void Parser::errorNonAccess(llvm::SMLoc loc) {
  diag.error(loc, "only tensor accesses may appear inside an aggregation; "
                  "compute this in an elementwise statement first");
}

bool Parser::parseOperands(ast::Contraction &c) {
  Token open = consume(); // (
  ast::Access first;
  if (!parseAccess(first))
    return false;
  c.operands.push_back(std::move(first));
  TokenKind combTok = tok().kind;
  if (combTok == TokenKind::Star || combTok == TokenKind::Plus ||
      combTok == TokenKind::EqEq) {
    c.comb = combTok == TokenKind::Star   ? ast::CombKind::Mul
             : combTok == TokenKind::Plus ? ast::CombKind::Add
                                          : ast::CombKind::Eq;
    c.combLoc = consume().loc();
    ast::Access second;
    if (!parseAccess(second))
      return false;
    c.operands.push_back(std::move(second));
    // Rule 2: only `A == B ? C` has three operands; any other '?' is
    // reported below.
    if (c.comb == ast::CombKind::Eq && consumeIf(TokenKind::Question)) {
      c.comb = ast::CombKind::Cond;
      ast::Access third;
      if (!parseAccess(third))
        return false;
      c.operands.push_back(std::move(third));
    }
  }
  if (consumeIf(TokenKind::RParen))
    return true;
  // Rule 1: any other operator, or a second combination, is not an access.
  if (!at(TokenKind::Eof) && !at(TokenKind::Semi) && !at(TokenKind::Comma) &&
      !at(TokenKind::RBrace) && !at(TokenKind::Question)) {
    errorNonAccess(tok().loc());
    return false;
  }
  if (at(TokenKind::Question)) { // Rule 2
    diag.error(tok().loc(), "'?' in a contraction must follow '=='");
    return false;
  }
  errorMissing("')'", &open);
  return false;
}

bool Parser::parseAccess(ast::Access &access) {
  if (!tok().isName() || !peek(1).is(TokenKind::LBracket)) {
    if (at(TokenKind::RParen) || at(TokenKind::Semi) || at(TokenKind::Eof)) {
      errorExpected("a tensor access");
      return false;
    }
    errorNonAccess(tok().loc());
    return false;
  }
  Token name = consumeValueName();
  access.tensor = name.text;
  access.loc = name.loc();
  Token open = consume();
  access.bracketLoc = open.loc();
  auto parseIndex = [&] { return appendParsed(access.indices, parsePoly()); };
  if (!at(TokenKind::RBracket) &&
      !parseCommaList(parseIndex, TokenKind::RBracket))
    return false;
  return expect(TokenKind::RBracket, "']'", &open);
}

bool Parser::parseConstraint(ast::Contraction &c) {
  const char *polyStart = tok().spelling.data();
  ast::PolyPtr poly = parsePoly();
  if (!poly)
    return false;
  constraintPolyText = llvm::StringRef(polyStart, lastEnd - polyStart);
  // Rule 4: the only relation is '<'.
  if (isRelationToken(tok().kind)) {
    diag.error(tok().loc(),
               "a constraint has the form 'polynomial < bound'");
    return false;
  }
  if (!at(TokenKind::Lt)) {
    errorExpected("'<' and a bound after the constraint's polynomial");
    return false;
  }
  ast::Constraint constraint;
  constraint.loc = consume().loc();
  exprContext = ExprContext::Bound;
  assignTarget.clear();
  constraint.bound = parseExpr();
  if (!constraint.bound)
    return false;
  constraint.poly = std::move(poly);
  c.constraints.push_back(std::move(constraint));
  return true;
}

bool Parser::parseSuffixes(ast::Contraction &c) {
  while (true) {
    if (at(TokenKind::KwNoDefract) || at(TokenKind::KwNoReduce)) {
      consume();
      c.noDefract = true;
      continue;
    }
    if (!at(TokenKind::KwDefault))
      return true;
    Token keyword = consume();
    if (!tok().isName() || tok().is(TokenKind::IndexId)) {
      llvm::SMLoc loc = at(TokenKind::Semi) || at(TokenKind::Eof)
                            ? keyword.endLoc()
                            : tok().loc();
      diag.error(loc, "'default' must be followed by a tensor name");
      return false;
    }
    if (c.defaultTensor) {
      diag.error(keyword.loc(), "'default' is given twice");
      diag.note(c.defaultLoc, "the first 'default' is here");
      return false;
    }
    c.defaultTensor = tok().text;
    c.defaultLoc = consume().loc();
  }
}
