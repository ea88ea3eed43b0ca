//===- CHeader.h - The C header of a compiled model -------------*- C++ -*-===//
//
// `tilec FILE --target=llvm-x86 -o model.o` writes model.o and model.h. The
// header declares the one entry function: its parameters are the program's
// inputs then its outputs, in the order of the Tile function header, as plain
// pointers to row-major buffers (const for inputs), each with a comment that
// gives its shape and element type.
//
// The C symbol is derived from the output file's stem ("model.o" gives
// `model`), because the Tile entry is often `main` or unnamed, and `main`
// cannot be an ordinary function in C. See cSymbolForOutput.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_CHEADER_H
#define TILEC_TARGET_LLVM_CHEADER_H

#include "tilec/Support/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// One parameter of the entry function.
struct CHeaderParam {
  std::string name; ///< the Tile name; made a valid C identifier on output
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  bool isOutput = false;
};

/// The C scalar type that stores one element of `dtype`: "float", "int32_t",
/// "uint16_t" (raw bits of f16 and bf16), "uint8_t" (bool as 0/1).
llvm::StringRef cElementType(DType dtype);

/// The C symbol for an object written to `outputPath`: the file's stem with
/// every character outside [A-Za-z0-9_] replaced by '_', prefixed with
/// "tile_" when it would start with a digit, be empty, or be `main` (a
/// reserved name for a C function). "model.o" gives "model", "-" (stdout)
/// gives "tile_model".
std::string cSymbolForOutput(llvm::StringRef outputPath);

/// Writes the header declaring `void symbol(params...)` to `os`. `source`
/// names the Tile file in the banner comment. With `changedInputs` > 0 it
/// also declares `uint8_t symbol_changed_inputs[changedInputs]`
/// (keptPanelFlagCount in LoopsToLLVM.h).
void writeCHeader(llvm::raw_ostream &os, llvm::StringRef symbol,
                  llvm::StringRef source, llvm::ArrayRef<CHeaderParam> params,
                  size_t changedInputs = 0);

} // namespace tilec

#endif // TILEC_TARGET_LLVM_CHEADER_H
