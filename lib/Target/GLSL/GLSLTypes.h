//===- GLSLTypes.h - MLIR types as GLSL types --------------------*- C++ -*-===//
//
// Part of the GLSL target. GLSL has 32-bit int, uint, float and bool, and
// double; int64_t needs GL_ARB_gpu_shader_int64. So index is `int` (a
// buffer GL can bind has fewer than 2^31 elements), i8 and i16 values are
// ints holding the sign-extended value, bf16 and f16 values are uints
// holding their 16 bits (computed in float), and i1 is bool. Vectors of 2,
// 3 or 4 elements are the GLSL vector types (vec4, ivec4, ...), except
// those of 64-bit elements, which are arrays (`int64_t[2]`): Mesa 22's
// llvmpipe loses every lane but the first of an i64vec2. GLSL builds and
// indexes arrays as it does vectors, so only whole-vector operators differ:
// those are written lane by lane for arrays.
//
// In a storage buffer, 8- and 16-bit elements are packed four or two to a
// uint (core GL has no 8- or 16-bit storage); shared and private arrays hold
// one element per value.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GLSL_GLSLTYPES_H
#define TILEC_LIB_TARGET_GLSL_GLSLTYPES_H

#include "tilec/Target/GPU/SourceEmitter.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace tilec::glsl {

using source::isBool;
using source::scalarType;
using source::StoredFloat;
using source::storedFloat;

/// The GLSL type of a value of `type`, or std::nullopt if unsupported.
std::optional<std::string> valueType(mlir::Type type);
/// Whether a vector of `type` is a GLSL array (64-bit elements).
bool isLaneArray(mlir::Type type);

/// The unsigned GLSL type of integer (vector) type `type`'s width: "uint"
/// (i8 to i32 and index), "uint64_t", "uvec4".
std::string unsignedType(mlir::Type type);
/// The width of integer type `type` as the kernel computes it: index 32.
unsigned intWidth(mlir::Type type);
/// Whether `type` (or its elements) is i64, which needs int64_t.
bool isInt64(mlir::Type type);

/// How a storage buffer holds elements of a type: as they are, or packed
/// into uints.
enum class Packing { None, Bytes, Halves };
Packing bufferPacking(mlir::Type element);
/// The GLSL element type of a storage buffer of `element` ("uint" when
/// packed), or std::nullopt.
std::optional<std::string> bufferElementType(mlir::Type element);

} // namespace tilec::glsl

#endif // TILEC_LIB_TARGET_GLSL_GLSLTYPES_H
