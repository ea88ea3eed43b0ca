//===- Identifiers.h - Names that are valid in OpenCL C ---------*- C++ -*-===//
//
// Part of the OpenCL target. Kernel and buffer names come from the Tile
// program, whose identifiers may be OpenCL C keywords (`half`, `global`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_IDENTIFIERS_H
#define TILEC_LIB_TARGET_OPENCL_IDENTIFIERS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec::opencl {

/// `name` with every character outside [A-Za-z0-9_] replaced by '_', and
/// prefixed with "k_" when it would be empty, start with a digit, be an
/// OpenCL C keyword or type name, or start with "tilec_" (the prefix of the
/// emitted helper functions).
std::string clIdentifier(llvm::StringRef name);

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_IDENTIFIERS_H
