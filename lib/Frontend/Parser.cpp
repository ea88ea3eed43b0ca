//===- Parser.cpp - Functions and statements of a .tile file --------------===//
//
// The top of the recursive-descent parser of docs/language.md 3.1: the file,
// function headers, statement slots, attributes, assignments and multiple
// assignments. Contractions and expressions live in their own files.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "tilec/Frontend/Parser.h"

using namespace tilec;

ast::Module tilec::parseModule(unsigned bufferId, DiagnosticEngine &diag) {
  Parser parser(bufferId, diag);
  return parser.parseModule();
}

Parser::Parser(unsigned bufferId, DiagnosticEngine &diag)
    : diag(diag), lexer(bufferId, diag) {
  lastEnd = diag.getSourceMgr().getMemoryBuffer(bufferId)->getBufferStart();
  stmtStart = lastEnd;
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

const Token &Parser::peek(unsigned ahead) {
  while (lookahead.size() <= ahead)
    lookahead.push_back(lexer.next());
  return lookahead[ahead];
}

Token Parser::consume() {
  Token t = peek();
  if (!t.is(TokenKind::Eof)) {
    lookahead.pop_front();
    lastEnd = t.spelling.data() + t.spelling.size();
  }
  return t;
}

bool Parser::consumeIf(TokenKind kind) {
  if (!at(kind))
    return false;
  consume();
  return true;
}

bool Parser::expect(TokenKind kind, const char *what, const Token *open) {
  if (consumeIf(kind))
    return true;
  errorMissing(what, open);
  return false;
}

bool Parser::echoesLexError() const {
  const char *lexError = lexer.lastErrorPos();
  return lexError && lexError >= stmtStart;
}

void Parser::errorMissing(const llvm::Twine &what, const Token *open) {
  if (echoesLexError())
    return;
  diag.error(prevEnd(), "expected " + what);
  if (open)
    diag.note(open->loc(), "to match this '" + open->spelling + "'");
}

void Parser::errorExpected(const llvm::Twine &what) {
  if (echoesLexError())
    return;
  diag.error(tok().loc(),
             "expected " + what + ", found " + describeToken(tok()));
}

void Parser::errorLowerCaseValue(const Token &name) {
  diag.error(name.loc(), "'" + name.text +
                             "' is an index-variable name; values start with "
                             "an upper-case letter (or write #" +
                             name.text + ")");
}

Token Parser::consumeValueName() {
  Token name = consume();
  if (name.is(TokenKind::IndexId))
    errorLowerCaseValue(name);
  return name;
}

bool Parser::rejectTrailingComma(const Token &comma, TokenKind close) {
  if (!at(close))
    return false;
  diag.error(comma.loc(), "trailing ',' before " + describeToken(tok()));
  return true;
}

bool Parser::parseCommaList(llvm::function_ref<bool()> parseItem,
                            llvm::ArrayRef<TokenKind> closers) {
  while (true) {
    if (!parseItem())
      return false;
    if (!at(TokenKind::Comma))
      return true;
    Token comma = consume();
    for (TokenKind close : closers)
      if (rejectTrailingComma(comma, close))
        return false;
  }
}

void Parser::recoverToStatementEnd() {
  heights.clear();
  while (!at(TokenKind::Eof) && !at(TokenKind::RBrace) &&
         !at(TokenKind::KwFunction)) {
    if (consume().is(TokenKind::Semi))
      return;
  }
}

//===----------------------------------------------------------------------===//
// File and functions
//===----------------------------------------------------------------------===//

ast::Module Parser::parseModule() {
  ast::Module module;
  if (at(TokenKind::Eof)) {
    // The "end of file" of a file with only comments, or 1:1 of an empty one.
    diag.error(tok().loc(), "expected 'function'");
    return module;
  }
  while (!at(TokenKind::Eof) && !stop()) {
    if (!at(TokenKind::KwFunction)) {
      errorExpected("'function'");
      // Skip to the next function: nothing outside one can be parsed.
      while (!at(TokenKind::Eof) && !at(TokenKind::KwFunction))
        consume();
      continue;
    }
    parseFunction(module);
  }
  return module;
}

bool Parser::parseFunction(ast::Module &module) {
  ast::Function fn;
  stmtStart = tok().spelling.data();
  fn.loc = consume().loc();
  if (tok().isName()) {
    fn.name = tok().text;
    fn.nameLoc = consume().loc();
  }
  if (!parseHeader(fn)) {
    // Resume at the body if there is one, so its errors are still found.
    while (!at(TokenKind::Eof) && !at(TokenKind::KwFunction) &&
           !at(TokenKind::LBrace))
      consume();
    if (!at(TokenKind::LBrace)) {
      module.functions.push_back(std::move(fn));
      return false;
    }
  }
  Token openBrace = tok();
  if (!openBrace.is(TokenKind::LBrace)) {
    errorMissing("'{'");
    module.functions.push_back(std::move(fn));
    return false;
  }
  consume();
  parseBody(fn, openBrace);
  module.functions.push_back(std::move(fn));
  return true;
}

bool Parser::parseHeader(ast::Function &fn) {
  if (!at(TokenKind::LParen)) {
    errorExpected(fn.name.empty() ? "a function name or '('" : "'('");
    return false;
  }
  Token open = consume();
  if (!at(TokenKind::RParen) &&
      !parseCommaList([&] { return parseParam(fn); }, TokenKind::RParen))
    return false;
  if (!expect(TokenKind::RParen, "')'", &open) ||
      !expect(TokenKind::Arrow, "'->' and the outputs"))
    return false;
  return parseOutputs(fn);
}

bool Parser::parseParam(ast::Function &fn) {
  if (!tok().isName()) {
    errorExpected("a parameter name");
    return false;
  }
  Token name = consumeValueName();
  ast::Param param;
  param.name = name.text;
  param.loc = name.loc();
  if (consumeIf(TokenKind::Colon)) {
    if (!at(TokenKind::IndexId) && !at(TokenKind::ValueId)) {
      errorExpected("an element type");
      return false;
    }
    Token type = consume();
    param.dtypeLoc = type.loc();
    param.dtype = parseDType(type.text);
    if (!param.dtype)
      diag.error(type.loc(), "unknown element type '" + type.text +
                                 "'; expected bool, i8, i16, i32, i64, u8, "
                                 "u16, u32, u64, f16, bf16, f32 or f64");
  }
  if (at(TokenKind::LBracket) && !parseDims(param))
    return false;
  if (at(TokenKind::Assign)) {
    Token equals = consume();
    if (!parseDefault(param, equals))
      return false;
  }
  fn.params.push_back(std::move(param));
  return true;
}

bool Parser::parseDims(ast::Param &param) {
  Token open = consume();
  param.hasDims = true;
  auto parseDim = [&] {
    ast::Dim dim;
    dim.loc = tok().loc();
    if (at(TokenKind::Int)) {
      dim.isLiteral = true;
      dim.value = consume().intValue;
    } else if (tok().isName()) {
      dim.name = consumeValueName().text;
    } else {
      errorExpected("a size name or an integer");
      return false;
    }
    param.dims.push_back(std::move(dim));
    return true;
  };
  if (!at(TokenKind::RBracket) &&
      !parseCommaList(parseDim, TokenKind::RBracket))
    return false;
  return expect(TokenKind::RBracket, "']'", &open);
}

bool Parser::parseDefault(ast::Param &param, const Token &equals) {
  ast::Number number;
  number.loc = tok().loc();
  bool negative = consumeIf(TokenKind::Minus);
  if (at(TokenKind::Int)) {
    number.intValue = consume().intValue;
    if (negative)
      number.intValue = -number.intValue;
  } else if (at(TokenKind::Float)) {
    number.isFloat = true;
    number.floatValue = consume().floatValue;
    if (negative)
      number.floatValue = -number.floatValue;
  } else {
    errorExpected("a number");
    return false;
  }
  if (!param.dims.empty()) {
    diag.error(equals.loc(), "only scalar parameters ('" + param.name +
                                 "' or '" + param.name +
                                 "[]') can have a default value");
    return true;
  }
  param.defaultValue = number;
  return true;
}

bool Parser::parseOutputs(ast::Function &fn) {
  if (!at(TokenKind::LParen)) {
    errorExpected("'(' and the output names");
    return false;
  }
  Token open = consume();
  auto parseOutputName = [&] {
    if (!tok().isName()) {
      errorExpected(fn.outputs.empty() ? "an output name (a function has at "
                                         "least one output)"
                                       : "an output name");
      return false;
    }
    Token name = consumeValueName();
    fn.outputs.push_back({name.text, name.loc()});
    return true;
  };
  return parseCommaList(parseOutputName, TokenKind::RParen) &&
         expect(TokenKind::RParen, "')'", &open);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Parser::parseBody(ast::Function &fn, const Token &openBrace) {
  while (!at(TokenKind::RBrace) && !stop()) {
    if (at(TokenKind::Eof) || at(TokenKind::KwFunction)) {
      errorMissing("'}'", &openBrace);
      return;
    }
    if (!parseStatementSlot(fn))
      recoverToStatementEnd();
  }
  fn.closeBraceLoc = tok().loc();
  consumeIf(TokenKind::RBrace);
}

bool Parser::parseStatementSlot(ast::Function &fn) {
  heights.clear();
  stmtStart = tok().spelling.data();
  if (consumeIf(TokenKind::Semi))
    return true;
  ast::Statement stmt;
  while (at(TokenKind::LAttr))
    if (!parseAttribute(stmt.attributes))
      return false;
  stmt.loc = tok().loc();
  bool ok;
  const Token &first = tok();
  TokenKind second = peek(1).kind;
  if (first.isName() && second == TokenKind::LBracket) {
    ok = parseContraction(stmt);
  } else if (first.isName() && second == TokenKind::Assign) {
    ok = parseAssignment(stmt);
  } else if (first.is(TokenKind::LParen)) {
    ok = parseMultiAssign(stmt);
  } else if (first.is(TokenKind::ValueId)) {
    diag.error(peek(1).loc(), "expected '=' or '[' after '" + first.text +
                                  "', found " + describeToken(peek(1)));
    return false;
  } else {
    errorExpected("a statement");
    return false;
  }
  if (!ok)
    return false;
  if (!at(TokenKind::Semi)) {
    errorMissing("';' after the statement");
    return false;
  }
  consume();
  fn.statements.push_back(std::move(stmt));
  return true;
}

bool Parser::parseAttribute(std::vector<ast::Attribute> &attrs) {
  consume(); // [[
  if (!at(TokenKind::IndexId) && !at(TokenKind::ValueId)) {
    errorExpected("an attribute name");
    return false;
  }
  ast::Attribute attr;
  attr.name = tok().text;
  attr.loc = consume().loc();
  if (at(TokenKind::LParen)) {
    Token open = consume();
    auto parseArgument = [&] {
      if (!tok().isName()) {
        diag.error(tok().loc(), "attribute arguments must be identifiers");
        return false;
      }
      attr.args.push_back(consume().text);
      return true;
    };
    if (!parseCommaList(parseArgument, TokenKind::RParen) ||
        !expect(TokenKind::RParen, "')'", &open))
      return false;
  }
  if (!expect(TokenKind::RAttr, "']]' after the attribute"))
    return false;
  attrs.push_back(std::move(attr));
  return true;
}

bool Parser::parseAssignment(ast::Statement &stmt) {
  Token name = consumeValueName();
  consume(); // =
  auto assign = std::make_unique<ast::Assignment>();
  assign->name = name.text;
  assign->loc = name.loc();
  exprContext = ExprContext::Elementwise;
  assignTarget = name.text;
  assign->value = parseExpr();
  if (!assign->value)
    return false;
  stmt.kind = ast::Statement::Kind::Assignment;
  stmt.assignment = std::move(assign);
  return true;
}

bool Parser::parseMultiAssign(ast::Statement &stmt) {
  Token open = consume();
  auto multi = std::make_unique<ast::MultiAssign>();
  auto parseName = [&] {
    if (!tok().isName()) {
      errorExpected("a name");
      return false;
    }
    Token name = consumeValueName();
    multi->names.push_back(name.text);
    multi->nameLocs.push_back(name.loc());
    return true;
  };
  if (!parseCommaList(parseName, TokenKind::RParen) ||
      !expect(TokenKind::RParen, "')'", &open) ||
      !expect(TokenKind::Assign, "'='"))
    return false;
  llvm::SMLoc callLoc = tok().loc();
  exprContext = ExprContext::Elementwise;
  assignTarget.clear();
  ast::ExprPtr call = parseExpr();
  if (!call)
    return false;
  if (call->kind != ast::Expr::Kind::Call || call->parenthesized) {
    diag.error(callLoc, "the right side of '(…) =' must be a function call");
    return false;
  }
  multi->call = std::move(call);
  stmt.kind = ast::Statement::Kind::MultiAssign;
  stmt.multiAssign = std::move(multi);
  return true;
}
