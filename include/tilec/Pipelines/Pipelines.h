//===- Pipelines.h - The pass pipelines of tilec ----------------*- C++ -*-===//
//
// The pipelines that `tilec` runs and `tilec-opt` exposes, so both compile
// a program the same way (CIRCT's Firtool and IREE's Passes.cpp pattern):
// one builder per phase of Phase.h, each registered as
// `tilec-pipeline-<phase>`. CPUCodeGen.h compiles for one CPU with the
// LLVM pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINES_PIPELINES_H
#define TILEC_PIPELINES_PIPELINES_H

#include <cstdint>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tilec {

struct LoopsToLLVMOptions;
struct SPIRVTargetOptions;

/// What the GPU mapping needs to know about the device it targets: the
/// limits a schedule must respect and the facts the default schedule uses.
/// Filled from a device profile (tilec devices) or left at these defaults,
/// which every OpenCL 1.2 / Vulkan 1.1 device supports.
struct GPUTargetOptions {
  int64_t maxWorkGroupSize = 256;      ///< work-items per work-group
  int64_t maxWorkItemSizes[3] = {256, 256, 64};
  int64_t localMemBytes = 16384;       ///< per work-group
  int64_t computeUnits = 8;
  int64_t preferredVectorWidth = 1;    ///< floats
  int64_t subgroupSize = 32;
};

/// loop level -> gpu level: every kernel nest gets a schedule (its own
/// `tilec.schedule` if present, else the default for `target`), its parallel
/// loops are tiled and mapped to work-groups and work-items, and each becomes
/// a gpu.func in one gpu.module, launched in order by gpu.launch_func from
/// the entry function; equal kernels are one gpu.func, launched once per
/// nest. Kernel names come from the `tilec.kernel` attribute, and every op
/// keeps its source location.
void buildLoopsToGPUPipeline(mlir::OpPassManager &pm,
                             const GPUTargetOptions &target);

/// tile dialect -> loop level: canonicalize, tile-compute-bounds,
/// tile-fuse-elementwise, convert-tile-to-loops, tile-plan-buffers and
/// tile-fingerprint-kernels. Runs on a module.
void buildTileToLoopsPipeline(mlir::OpPassManager &pm);

/// gpu level -> the gpu level plus one Vulkan spirv.module, for the device
/// `options` describes (the pass order is in SPIRVTarget.h).
void buildGPUToSPIRVPipeline(mlir::OpPassManager &pm,
                             const SPIRVTargetOptions &options);

/// loop level -> LLVM dialect (the CPU back end; LoopsToLLVM.h). Kernels
/// are outlined, scheduled for `options.cpu` (the host when unset) and
/// vectorised, outer parallel loops run on OpenMP threads. Code for a named
/// CPU should come from CPUCodeGen (CPUCodeGen.h), which sets `cpu` from
/// the machine it generates code for.
void buildLoopsToLLVMPipeline(mlir::OpPassManager &pm,
                              const LoopsToLLVMOptions &options);

/// Registers every pipeline with the pass registry, each under its
/// pipelineName (Phase.h): tilec-pipeline-loops, tilec-pipeline-gpu and
/// tilec-pipeline-spirv (with the device facts as options) and
/// tilec-pipeline-llvm (options `parallel`, `schedule`).
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_PIPELINES_PIPELINES_H
