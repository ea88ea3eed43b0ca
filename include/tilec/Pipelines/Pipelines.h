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

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tilec {

struct LoopsToLLVMOptions;

/// loop level -> gpu level, for the device of the module's
/// #tilec.gpu_target (the default one without: limits every OpenCL 1.2 and
/// Vulkan 1.1 device supports): every kernel nest gets a schedule (its own
/// `tilec.schedule` if present, else the default for the device), its parallel
/// loops are tiled and mapped to work-groups and work-items, and each becomes
/// a gpu.func in one gpu.module, launched in order by gpu.launch_func from
/// the entry function; equal kernels are one gpu.func, launched once per
/// nest. Kernel names come from the `tilec.kernel` attribute, and every op
/// keeps its source location. Integer arithmetic is narrowed to 32 bits
/// where the ranges allow; with `indexIs32Bit` (a target that computes
/// every index in 32 bits anyway: TargetBackend::indexIs32Bit) only in
/// kernels that compute in wider integers (tilec-gpu-narrow-integers).
void buildLoopsToGPUPipeline(mlir::OpPassManager &pm,
                             bool indexIs32Bit = false);

/// tile dialect -> loop level: canonicalize, tile-compute-bounds,
/// tile-reindex-sink, tile-fuse-elementwise, convert-tile-to-loops,
/// tilec-kernel-reuse-temporary-buffers and
/// tilec-kernel-fingerprint-kernels. Runs on a module.
void buildTileToLoopsPipeline(mlir::OpPassManager &pm);

/// gpu level -> the gpu level plus one Vulkan spirv.module, for the device
/// of the module's #tilec.gpu_target (the pass order is in SPIRVTarget.h).
void buildGPUToSPIRVPipeline(mlir::OpPassManager &pm);

/// gpu level -> the gpu level that lib/Target/GLSL writes as compute
/// shaders: f16 and bf16 math and bf16 arithmetic in f32
/// (NarrowFloats.h), tilec-gpu-expand-powf,
/// tilec-gpu-expand-division-by-zero and tilec-gpu-expand-software-math
/// (GLSL has no f64 math and loose f32 math, as GLSL.std.450).
void buildGPUToGLSLPipeline(mlir::OpPassManager &pm);

/// gpu level -> the gpu level with its gpu.module in the LLVM and NVVM
/// dialects, ready for NVPTX (lib/Target/PTX serializes it).
void buildGPUToNVVMPipeline(mlir::OpPassManager &pm);

/// The first passes of buildLoopsToLLVMPipeline, those that change which
/// kernels there are (operands copied transposed, row chains fused): a
/// caller that instruments each kernel runs them first, then the pipeline
/// with `kernelsFormed`.
void buildCPUKernelFormation(mlir::OpPassManager &pm,
                             const LoopsToLLVMOptions &options);

/// loop level -> LLVM dialect (the CPU back end; LoopsToLLVM.h). Kernels
/// are outlined, scheduled for `options.cpu` (the host when unset) and
/// vectorised, outer parallel loops run on OpenMP threads. Code for a named
/// CPU should come from CPUCodeGen (CPUCodeGen.h), which sets `cpu` from
/// the machine it generates code for.
void buildLoopsToLLVMPipeline(mlir::OpPassManager &pm,
                              const LoopsToLLVMOptions &options);

/// Registers every pipeline with the pass registry, each under its
/// pipelineName (Phase.h): tilec-pipeline-loops, tilec-pipeline-gpu and
/// tilec-pipeline-spirv (for the module's #tilec.gpu_target) and
/// tilec-pipeline-llvm (options `parallel`, `schedule`).
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_PIPELINES_PIPELINES_H
