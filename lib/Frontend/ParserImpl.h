//===- ParserImpl.h - The recursive-descent parser's state ------*- C++ -*-===//
//
// Private to lib/Frontend: the Parser class behind parseModule, split over
// Parser.cpp (functions and statements), ParseContraction.cpp and
// ParseExpr.cpp (expressions and index polynomials).
//
// Error handling: a parse function that reports an error returns false (or
// null) and the statement loop skips to the next ';' or '}' (9.1). Errors
// that leave the structure intact (a lower-case value name, an unknown
// element type) are reported and parsing simply continues.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_PARSERIMPL_H
#define TILEC_LIB_FRONTEND_PARSERIMPL_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <deque>

namespace tilec {

class Parser {
public:
  Parser(unsigned bufferId, DiagnosticEngine &diag);
  ast::Module parseModule();

  /// The deepest expression or polynomial tree the parser builds. Deeper
  /// input is an error, so that every recursive walk over the AST (here, in
  /// the checks, in the binder) stays far from the stack limit.
  static constexpr unsigned kMaxDepth = 200;

private:
  //===--- Tokens ---------------------------------------------------------===//
  const Token &peek(unsigned ahead = 0);
  const Token &tok() { return peek(0); }
  Token consume();
  bool at(TokenKind kind) { return tok().is(kind); }
  bool consumeIf(TokenKind kind);
  /// Consumes `kind` or reports "expected WHAT" just past the previous token,
  /// with a note at the bracket `open` that `kind` would close.
  bool expect(TokenKind kind, const char *what, const Token *open = nullptr);
  /// Reports "expected WHAT" just past the previous token, with a note at
  /// the bracket `open` that the missing token would close.
  void errorMissing(const llvm::Twine &what, const Token *open = nullptr);
  /// True if a lexical error inside the current statement explains a syntax
  /// error there (`B = A % 2;` needs no "expected ';'" after the '%').
  bool echoesLexError() const;
  /// Reports "expected WHAT, found TOKEN" at the current token.
  void errorExpected(const llvm::Twine &what);
  /// Reports the 'a' is an index-variable name error for a lower-case name
  /// where a value is required.
  void errorLowerCaseValue(const Token &name);
  /// Consumes the current name token where a value is named, reporting a
  /// lower-case one (the parse goes on either way).
  Token consumeValueName();
  /// After a ',' in a list closed by `close`: reports a trailing comma.
  bool rejectTrailingComma(const Token &comma, TokenKind close);
  /// Parses `item {',' item}` with `parseItem`, stopping at the first token
  /// after an item that is not ','. A ',' right before one of `closers` is
  /// reported as a trailing comma. The caller checks the closing token.
  bool parseCommaList(llvm::function_ref<bool()> parseItem,
                      llvm::ArrayRef<TokenKind> closers);
  /// Appends a list item; false (and nothing appended) if its parse failed.
  template <typename Node>
  static bool appendParsed(std::vector<std::unique_ptr<Node>> &list,
                           std::unique_ptr<Node> item) {
    if (!item)
      return false;
    list.push_back(std::move(item));
    return true;
  }
  /// Skips to just after the next ';' or to the next '}' (not consumed).
  void recoverToStatementEnd();
  llvm::SMLoc prevEnd() const { return llvm::SMLoc::getFromPointer(lastEnd); }
  bool stop() const { return diag.reachedErrorLimit(); }

  //===--- Functions and statements (Parser.cpp) --------------------------===//
  bool parseFunction(ast::Module &module);
  bool parseHeader(ast::Function &fn);
  bool parseParam(ast::Function &fn);
  bool parseDims(ast::Param &param);
  bool parseDefault(ast::Param &param, const Token &equals);
  bool parseOutputs(ast::Function &fn);
  void parseBody(ast::Function &fn, const Token &openBrace);
  bool parseStatementSlot(ast::Function &fn);
  bool parseAttribute(std::vector<ast::Attribute> &attrs);
  bool parseAssignment(ast::Statement &stmt);
  bool parseMultiAssign(ast::Statement &stmt);

  //===--- Contractions (ParseContraction.cpp) ----------------------------===//
  bool parseContraction(ast::Statement &stmt);
  bool parseOutput(ast::Contraction &c);
  bool parseAggregation(ast::Contraction &c);
  bool parseOperands(ast::Contraction &c);
  bool parseAccess(ast::Access &access);
  bool parseConstraint(ast::Contraction &c);
  bool parseSuffixes(ast::Contraction &c);
  /// Reports that something other than an access is inside an aggregation.
  void errorNonAccess(llvm::SMLoc loc);

  //===--- Expressions and polynomials (ParseExpr.cpp) --------------------===//
  /// Where an expression appears; decides what an index variable means.
  enum class ExprContext { Elementwise, OutputSize, Bound };
  ast::ExprPtr parseExpr();
  ast::ExprPtr parseCond();
  ast::ExprPtr parseBinaryLevel(unsigned level);
  ast::ExprPtr parseComparison(unsigned level);
  ast::ExprPtr parseUnary();
  ast::ExprPtr parsePrimary();
  ast::ExprPtr parseCall(const Token &name);
  ast::ExprPtr makeBinary(ast::BinaryOp op, const Token &opTok,
                          ast::ExprPtr lhs, ast::ExprPtr rhs);
  void warnPrecedence(const ast::Expr &orExpr);
  /// Records the height of a node whose operands are all in place (one more
  /// than the tallest operand) and returns it, or null if it is too deep.
  ast::ExprPtr checkedExpr(ast::ExprPtr node);

  ast::PolyPtr parsePoly() { return parsePolyLevel(0); }
  /// Parses the binary operators of one level (0: '+' '-', 1: '*' '/').
  ast::PolyPtr parsePolyLevel(unsigned level);
  ast::PolyPtr parsePolyFactor();
  ast::PolyPtr makePoly(ast::Poly::Kind kind, llvm::SMLoc loc,
                        ast::PolyPtr lhs, ast::PolyPtr rhs);

  /// Records the height of a new node and reports a too-deep tree.
  bool checkDepth(const void *node, unsigned height, llvm::SMLoc loc);
  unsigned heightOf(const void *node) const;
  /// Guards the recursion of the descent itself (parentheses, unary chains).
  struct DepthGuard {
    Parser &parser;
    bool ok;
    explicit DepthGuard(Parser &parser);
    ~DepthGuard() { --parser.recursionDepth; }
  };

  DiagnosticEngine &diag;
  Lexer lexer;
  std::deque<Token> lookahead;
  const char *lastEnd;
  /// The first character of the statement (or header) being parsed.
  const char *stmtStart;

  ExprContext exprContext = ExprContext::Elementwise;
  /// The statement's target, for the "write 'B[] = =(A[0])'" hint.
  std::string assignTarget;
  /// The constraint being parsed, for the rewrite hint of rule 3.3.4.
  llvm::StringRef constraintPolyText;
  bool depthErrorReported = false;
  unsigned recursionDepth = 0;
  llvm::DenseMap<const void *, unsigned> heights;
};

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_PARSERIMPL_H
