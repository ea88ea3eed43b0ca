//===- Identifiers.h - Kernel names valid in every GPU language -*- C++ -*-===//
//
// Part of lib/Target/GPU, shared by every GPU backend. Kernel and buffer
// names come from the Tile program, whose identifiers may be OpenCL C
// keywords (`half`, `global`). The kernel names of the manifest are the
// same for every GPU target, so the strictest language's rule (OpenCL C's)
// is the one rule.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_IDENTIFIERS_H
#define TILEC_TARGET_GPU_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec::gpuprogram {

/// `name` with every character outside [A-Za-z0-9_] replaced by '_', and
/// prefixed with "k_" when it would be empty, start with a digit, be an
/// OpenCL C keyword or type name, or start with "tilec_" (the prefix of the
/// emitted helper functions).
std::string clIdentifier(llvm::StringRef name);

} // namespace tilec::gpuprogram

#endif // TILEC_TARGET_GPU_IDENTIFIERS_H
