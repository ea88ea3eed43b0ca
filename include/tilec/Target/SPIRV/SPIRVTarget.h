//===- SPIRVTarget.h - The gpu level as a Vulkan SPIR-V module --*- C++ -*-===//
//
// `tilec FILE --target=spirv -o model.spv` lowers the gpu level (Pipelines.h,
// buildLoopsToGPUPipeline) through MLIR's spirv dialect to ONE SPIR-V module
// of the Vulkan compute flavour (Shader capability, storage buffers) holding
// every kernel as its own entry point, named like its gpu.func, with the
// work-group size of its schedule baked in (LocalSize), for the device the
// module's #tilec.gpu_target describes: a kernel needing what the device
// lacks is an error naming the capability. Every kernel
// argument is a storage buffer at descriptor set 0, binding i = argument i
// (numbered per kernel, like OpenCL's argument indices); there are no
// scalar arguments (the gpu level clones constants into the kernels), so no
// push constants.
//
// The passes, in order (buildGPUToSPIRVPipeline in tilec/Pipelines/
// Pipelines.h, registered as tilec-pipeline-spirv): tilec-spirv-check-device,
// tilec-gpu-inline-constant-tensors (constant tensors the manifest gives
// no buffer live in the kernel), tilec-spirv-legalize-bool-arith (min/max
// of i1 as and/or), arith-emulate-unsupported-floats and
// math-extend-to-supported-types (bf16 computes in f32; math on f16/bf16 in
// f32), tilec-gpu-expand-powf (C's pow),
// tilec-gpu-expand-division-by-zero (x / +-0 as x * +-inf),
// tilec-gpu-expand-software-math (the math functions of f64 in software),
// tilec-spirv-emulate-bf16, tilec-spirv-attach-target,
// tilec-convert-gpu-to-spirv, then on the spirv.module
// spirv-lower-abi-attrs, tilec-spirv-float-controls (IEEE infinities, NaNs
// and signed zeros where the device grants them) and spirv-update-vce
// (which keeps only the capabilities and extensions the module uses).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_SPIRVTARGET_H
#define TILEC_TARGET_SPIRV_SPIRVTARGET_H

#include "tilec/Runtime/Manifest.h"
#include "tilec/Target/GPU/ManifestBuilder.h"

#include "mlir/Support/LLVM.h"

#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// What `tilec --target=spirv` writes: the module and its manifest.
struct SPIRVArtefact {
  std::vector<uint32_t> binary; ///< the SPIR-V words, header included
  rt::Manifest manifest;        ///< target "spirv", entries and bindings set
};

/// The driver's entry point: compiles the gpu-level `module` (left
/// unchanged: the lowering runs on a clone) for the device of its
/// #tilec.gpu_target (the default one without) to one SPIR-V module and fills
/// its manifest: buildManifest (GPU/ManifestBuilder.h) with
/// `context.target` set to "spirv", plus each kernel's `spirv_entry` and
/// `bindings` (set 0, binding i = args[i]). On failure the errors have been
/// emitted on the offending ops.
mlir::FailureOr<SPIRVArtefact> compileToSPIRV(mlir::ModuleOp module,
                                              const ManifestContext &context);

/// `--emit=spirv-asm`: prints the spirv.module that compileToSPIRV would
/// serialize, in MLIR's textual form of the spirv dialect (in-process; MLIR
/// has no SPIR-V disassembler, `spirv-dis model.spv` gives Khronos' form).
mlir::LogicalResult printSPIRVAssembly(mlir::ModuleOp module,
                                       llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRVTARGET_H
