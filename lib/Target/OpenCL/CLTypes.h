//===- CLTypes.h - MLIR types as OpenCL C types -----------------*- C++ -*-===//
//
// Part of the OpenCL target. Signless integers map to the signed C types
// (an unsigned operation casts), index to `long`, i1 to `bool` (a byte in
// memory), bf16 and f16 to `ushort` bits (computed in float: `half` values
// would need cl_khr_fp16, which many devices lack). Vectors of 2, 3, 4, 8
// or 16 elements map to the OpenCL vector types (`float4`); bool, bf16 and
// f16 vectors are not supported.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_CLTYPES_H
#define TILEC_LIB_TARGET_OPENCL_CLTYPES_H

#include "tilec/Target/GPU/SourceEmitter.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace tilec::opencl {

/// The C type of a value of `type`, or std::nullopt if unsupported.
std::optional<std::string> clValueType(mlir::Type type);
/// The C type of an element of a buffer of `elementType` (i1: `uchar`).
std::optional<std::string> clStorageType(mlir::Type elementType);
/// The unsigned C type of the same width as integer (vector) type `type`:
/// "uint" for i32, "ulong" for index, "uint4" for vector<4xi32>.
std::string clUnsignedType(mlir::Type type);

// The type helpers every source target shares (SourceEmitter.h).
using source::intWidth;
using source::isBool;
using source::scalarType;
using source::StoredFloat;
using source::storedFloat;

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_CLTYPES_H
