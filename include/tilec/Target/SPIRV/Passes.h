//===- Passes.h - The SPIR-V back end's passes ------------------*- C++ -*-===//
//
// The pass declarations generated from Passes.td, and the conversion between
// their device options and SPIRVTargetOptions. Public for lib/Pipelines,
// which assembles them into tilec-pipeline-spirv.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES_H
#define TILEC_TARGET_SPIRV_PASSES_H

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

/// Reads the device facts from a pass (or generated options struct).
template <typename Options>
SPIRVTargetOptions spirvTargetFromOptions(const Options &options) {
  SPIRVTargetOptions target;
  target.versionMinor = options.versionMinor;
  target.fp16 = options.fp16;
  target.fp64 = options.fp64;
  target.int8 = options.int8;
  target.int16 = options.int16;
  target.int64 = options.int64;
  target.storage8Bit = options.storage8Bit;
  target.storage16Bit = options.storage16Bit;
  target.subgroups = options.subgroups;
  target.subgroupSize = options.subgroupSize;
  target.infNanPreserve16 = options.infNanPreserve16;
  target.infNanPreserve32 = options.infNanPreserve32;
  target.infNanPreserve64 = options.infNanPreserve64;
  target.denormPreserve16 = options.denormPreserve16;
  target.denormPreserve32 = options.denormPreserve32;
  target.denormPreserve64 = options.denormPreserve64;
  target.maxLoopIterations = options.maxLoopIterations;
  return target;
}

/// Whether the device keeps f<width> infinities, NaNs and signed zeros
/// (`infNan`) or subnormals (otherwise) when an entry point asks it to;
/// false for a width it has no property for.
inline bool devicePreservesFloats(const SPIRVTargetOptions &target,
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

/// Writes the device facts into a generated options struct.
template <typename Options>
Options optionsFromSPIRVTarget(const SPIRVTargetOptions &target) {
  Options options;
  options.versionMinor = target.versionMinor;
  options.fp16 = target.fp16;
  options.fp64 = target.fp64;
  options.int8 = target.int8;
  options.int16 = target.int16;
  options.int64 = target.int64;
  options.storage8Bit = target.storage8Bit;
  options.storage16Bit = target.storage16Bit;
  options.subgroups = target.subgroups;
  options.subgroupSize = target.subgroupSize;
  options.infNanPreserve16 = target.infNanPreserve16;
  options.infNanPreserve32 = target.infNanPreserve32;
  options.infNanPreserve64 = target.infNanPreserve64;
  options.denormPreserve16 = target.denormPreserve16;
  options.denormPreserve32 = target.denormPreserve32;
  options.denormPreserve64 = target.denormPreserve64;
  options.maxLoopIterations = target.maxLoopIterations;
  return options;
}

} // namespace tilec

/// Inside a pass class: makes the device options of its generated base
/// (protected there) readable by spirvTargetFromOptions.
#define TILEC_SPIRV_DEVICE_OPTIONS_PUBLIC(Base)                                \
  using Base::versionMinor;                                                    \
  using Base::fp16;                                                            \
  using Base::fp64;                                                            \
  using Base::int8;                                                            \
  using Base::int16;                                                           \
  using Base::int64;                                                           \
  using Base::storage8Bit;                                                     \
  using Base::storage16Bit;                                                    \
  using Base::subgroups;                                                       \
  using Base::subgroupSize;                                                    \
  using Base::infNanPreserve16;                                                \
  using Base::infNanPreserve32;                                                \
  using Base::infNanPreserve64;                                                \
  using Base::denormPreserve16;                                                \
  using Base::denormPreserve32;                                                \
  using Base::denormPreserve64;                                                \
  using Base::maxLoopIterations

#endif // TILEC_TARGET_SPIRV_PASSES_H
