//===- Parser.h - Lexer and parser entry points for .tile files -*- C++ -*-===//
//
// Phase 1 of docs/language.md 1.3: lexing, parsing, and every check that
// needs no sizes (checkModule). Errors go to the DiagnosticEngine; the parser
// recovers at the next ';' or '}' so one run reports several.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Support/Diagnostics.h"

namespace tilec {

/// Parses buffer `bufferId` of the engine's SourceMgr. The returned module
/// holds everything that parsed; it is only meaningful if no error was
/// reported (check diag.hadError()).
ast::Module parseModule(unsigned bufferId, DiagnosticEngine &diag);

/// The phase-1 semantic checks (docs/language.md 1.3): names defined once and
/// before use, index variables only inside contractions, known functions
/// called with a possible number of arguments, function-name rules, no
/// recursion, output-list rules. Returns true if no error was found.
bool checkModule(const ast::Module &module, DiagnosticEngine &diag);

/// The names of the builtin functions of docs/language.md section 8 (used by
/// checkModule, by the binder, and for "did you mean" suggestions).
bool isBuiltinFunction(llvm::StringRef name);
/// The closest name among `candidates` within a small edit distance, or "".
std::string suggestName(llvm::StringRef name,
                        const std::vector<std::string> &candidates);

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H
