//===- Serialize.h - Finding and serializing the spirv.module ---*- C++ -*-===//
//
// Shared by compileToSPIRV and the tilec-serialize-spirv translation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SERIALIZE_H
#define TILEC_LIB_TARGET_SPIRV_SERIALIZE_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <vector>

namespace tilec {

/// The one spirv.module directly inside `module`; an error on `module` if
/// there is none or more than one.
mlir::FailureOr<mlir::spirv::ModuleOp> findSPIRVModule(mlir::ModuleOp module);

/// The binary of `module` (errors emitted by the serializer on failure).
mlir::FailureOr<std::vector<uint32_t>>
serializeSPIRV(mlir::spirv::ModuleOp module);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SERIALIZE_H
