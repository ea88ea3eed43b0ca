//===- Passes.h - Conversion passes of tilec --------------------*- C++ -*-===//
//
// Declares the conversion passes (convert-tile-to-loops) and their
// registration, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_H
#define TILEC_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Conversion/Passes.h.inc"

} // namespace tilec

#endif // TILEC_CONVERSION_PASSES_H
