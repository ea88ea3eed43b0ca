//===- Passes.h - The SPIR-V back end's passes ------------------*- C++ -*-===//
//
// The pass declarations generated from Passes.td, and what the device
// grants of float controls. Public for lib/Pipelines, which assembles them
// into tilec-pipeline-spirv.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES_H
#define TILEC_TARGET_SPIRV_PASSES_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "tilec/Target/SPIRV/Passes.h.inc"

/// Whether the device keeps f<width> infinities, NaNs and signed zeros
/// (`infNan`) or subnormals (otherwise) when an entry point asks it to;
/// false for a width it has no property for.
inline bool devicePreservesFloats(const schedule::DeviceProfile &target,
                                  bool infNan, unsigned width) {
  switch (width) {
  case 16:
    return infNan ? target.infNanPreserve16 : target.denormPreserve16;
  case 32:
    return infNan ? target.infNanPreserve32 : target.denormPreserve32;
  case 64:
    return infNan ? target.infNanPreserve64 : target.denormPreserve64;
  default:
    return false;
  }
}

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_PASSES_H
