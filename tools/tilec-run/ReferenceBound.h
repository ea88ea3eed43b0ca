//===- ReferenceBound.h - A reference output's bound file -------*- C++ -*-===//
//
// `tilec run --target=interp --output-dir DIR` and `tilec autotune
// --export-candidates` write, beside every float output DIR/NAME.npy, its
// per-element error bound DIR/NAME.bound.npy (f64). `--expect DIR` and
// `--tune DIR` compare with it where it exists; a reference written
// elsewhere has none, and Support/Compare then allows 2 ulps only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_REFERENCEBOUND_H
#define TILEC_TOOLS_TILEC_RUN_REFERENCEBOUND_H

#include "tilec/Support/Result.h"
#include "tilec/Support/Tensor.h"

#include <optional>
#include <string>

namespace tilec::run {

/// The bound of the reference file `npyPath`, or nullopt when it has none.
Result<std::optional<Tensor>> readReferenceBound(const std::string &npyPath);

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_REFERENCEBOUND_H
