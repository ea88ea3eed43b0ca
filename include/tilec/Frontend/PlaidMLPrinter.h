//===- PlaidMLPrinter.h - The bound program in PlaidML's Tile ---*- C++ -*-===//
//
// `tilec --emit=plaidml`: the bound program (phase 2, calls inlined,
// constants folded) printed as PlaidML 0.7's Tile, so that the same model
// can be handed to PlaidML: one unnamed function, inputs without element
// types or defaults, every size and constant written as a number, no
// comments. The text is also valid tilec Tile and, bound to inputs of the
// original's shapes and types (PlaidML takes both from the tensors it is
// given; tilec from `--input` files), computes the same outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PLAIDMLPRINTER_H
#define TILEC_FRONTEND_PLAIDMLPRINTER_H

#include "tilec/Frontend/TypedAST.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec::typed {

/// What tilec's own uses of the printer change (`tilec grad`): a named
/// function whose parameters carry their types, `X: f32[2, 3]`, so the text
/// binds on its own.
struct TilePrintOptions {
  std::string functionName; ///< empty: unnamed, as PlaidML wants
  bool typedHeader = false;
};

/// Prints `program` as one PlaidML Tile function.
///
/// Names that PlaidML's lexer would not read as tensor names (inlined
/// "callee.N.Name" values, "_tN" temporaries, escaped lower-case names) are
/// renamed to the last part of their name, capitalised and made unique;
/// inputs and outputs keep theirs when they are valid. A size in the header
/// is called `D<value>`. Constructs PlaidML lacks are written in tilec's
/// spelling: `as_bfloat` for bf16 and `as_bool` for a bool constant.
void printPlaidML(const Program &program, llvm::raw_ostream &os,
                  const TilePrintOptions &options = {});

} // namespace tilec::typed

#endif // TILEC_FRONTEND_PLAIDMLPRINTER_H
