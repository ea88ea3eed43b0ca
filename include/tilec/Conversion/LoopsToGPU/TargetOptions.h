//===- TargetOptions.h - GPUTargetOptions <-> pass options ------*- C++ -*-===//
//
// The GPU passes take the device facts as pass options (so tilec-opt and the
// lit tests can set them), declared once in Passes.td and mirrored by the
// options of tilec-pipeline-gpu; these two templates convert between any
// of them and tilec::GPUTargetOptions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_LOOPSTOGPU_TARGETOPTIONS_H
#define TILEC_CONVERSION_LOOPSTOGPU_TARGETOPTIONS_H

#include "tilec/Pipelines/Pipelines.h"

namespace tilec {

/// Reads the device facts from a pass (or generated options struct).
template <typename Options>
GPUTargetOptions targetFromOptions(const Options &options) {
  GPUTargetOptions target;
  target.maxWorkGroupSize = options.maxWorkGroupSize;
  target.maxWorkItemSizes[0] = options.maxWorkItemSizeX;
  target.maxWorkItemSizes[1] = options.maxWorkItemSizeY;
  target.maxWorkItemSizes[2] = options.maxWorkItemSizeZ;
  target.localMemBytes = options.localMemBytes;
  target.computeUnits = options.computeUnits;
  target.preferredVectorWidth = options.preferredVectorWidth;
  target.subgroupSize = options.subgroupSize;
  return target;
}

/// Writes the device facts into a generated options struct.
template <typename Options>
Options optionsFromTarget(const GPUTargetOptions &target) {
  Options options;
  options.maxWorkGroupSize = target.maxWorkGroupSize;
  options.maxWorkItemSizeX = target.maxWorkItemSizes[0];
  options.maxWorkItemSizeY = target.maxWorkItemSizes[1];
  options.maxWorkItemSizeZ = target.maxWorkItemSizes[2];
  options.localMemBytes = target.localMemBytes;
  options.computeUnits = target.computeUnits;
  options.preferredVectorWidth = target.preferredVectorWidth;
  options.subgroupSize = target.subgroupSize;
  return options;
}

} // namespace tilec

/// Inside a pass class: makes the device-fact options of its generated base
/// (protected there) readable by targetFromOptions.
#define TILEC_GPU_TARGET_OPTIONS_PUBLIC(Base)                                  \
  using Base::maxWorkGroupSize;                                                \
  using Base::maxWorkItemSizeX;                                                \
  using Base::maxWorkItemSizeY;                                                \
  using Base::maxWorkItemSizeZ;                                                \
  using Base::localMemBytes;                                                   \
  using Base::computeUnits;                                                    \
  using Base::preferredVectorWidth;                                            \
  using Base::subgroupSize

#endif // TILEC_CONVERSION_LOOPSTOGPU_TARGETOPTIONS_H
