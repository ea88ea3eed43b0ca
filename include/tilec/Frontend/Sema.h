//===- Sema.h - Binding: from the syntax tree to a typed program -*- C++ -*-===//
//
// Phase 2 of docs/language.md 1.3 for the entry function: give every size
// and input a value and a type (section 4.4), inline calls (4.6), fold
// constants (6.1), compute shapes and element types (5, 6), and check every
// contraction on the exact sizes (7). Runs only on a module that passed
// checkModule.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_SEMA_H
#define TILEC_FRONTEND_SEMA_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Diagnostics.h"
#include "tilec/Support/Tensor.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One `-D NAME=VALUE` from the command line.
struct Define {
  std::string name;
  std::string text; ///< the flag as written, "-D N=32", for messages
  enum class Kind { Int, Float, TypeShape } kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0;
  std::optional<DType> dtype;  ///< TypeShape: "f16[2,3]" (optional type)
  std::vector<int64_t> shape;  ///< TypeShape
};

/// Parses the text after `-D`: "N=64", "Alpha=-0.5", "X=f16[2,3]", "X=[]".
/// A malformed value is a command-line error (the caller exits with 2).
llvm::Expected<Define> parseDefine(llvm::StringRef text);

/// An input given as a file (`tilec run --input NAME=file.npy`).
struct InputFile {
  std::string path; ///< as given, for messages: "'a.npy'"
  Tensor tensor;    ///< its contents (rank-0 files of bare params give constants)
};

/// Everything the binder is told from outside the source text.
struct BindOptions {
  std::vector<Define> defines;
  std::map<std::string, InputFile> inputFiles;
  /// The element type of an entry tensor input that declares none and that
  /// no file or -D types (`--default-type`; section 4.3's f32).
  DType defaultType = DType::F32;
};

/// Picks the entry function (4.6): `entryName` if given, else `main`, else
/// the last function. Returns nullptr if `entryName` names no function; the
/// caller reports that as a command-line error (exit 2) listing
/// `functionNames(module)`.
const ast::Function *findEntry(const ast::Module &module,
                               llvm::StringRef entryName);
std::vector<std::string> functionNames(const ast::Module &module);

/// Binds `entry` of `module`. Errors (and warnings) go to `diag`; returns
/// nullopt if any error was reported.
std::optional<typed::Program> bindProgram(const ast::Module &module,
                                          const ast::Function &entry,
                                          const BindOptions &options,
                                          DiagnosticEngine &diag);

} // namespace tilec

#endif // TILEC_FRONTEND_SEMA_H
