//===- SPIRVTarget.h - The gpu level as a Vulkan SPIR-V module --*- C++ -*-===//
//
// `tilec FILE --target=spirv -o model.spv` lowers the gpu level (Pipelines.h,
// buildLoopsToGPUPipeline) through MLIR's spirv dialect to ONE SPIR-V module
// of the Vulkan compute flavour (Shader capability, storage buffers) holding
// every kernel as its own entry point, named like its gpu.func, with the
// work-group size of its schedule baked in (LocalSize). Every kernel
// argument is a storage buffer at descriptor set 0, binding i = argument i
// (numbered per kernel, like OpenCL's argument indices); there are no
// scalar arguments (the gpu level clones constants into the kernels), so no
// push constants.
//
// The passes, in order (buildGPUToSPIRVPipeline in tilec/Pipelines/
// Pipelines.h, registered as tilec-pipeline-spirv): tilec-spirv-check-device,
// tilec-spirv-inline-constant-tensors (constant tensors the manifest gives
// no buffer live in the kernel), tilec-spirv-legalize-bool-arith (min/max
// of i1 as and/or), arith-emulate-unsupported-floats and
// math-extend-to-supported-types (bf16 computes in f32; math on f16/bf16 in
// f32), tilec-spirv-expand-powf (C's pow),
// tilec-spirv-expand-division-by-zero (x / +-0 as x * +-inf),
// tilec-spirv-expand-f64-math (the math functions of f64 in software),
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

#include <cstdint>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// The device the SPIR-V is for. The defaults are what both lavapipe and an
/// NVIDIA GPU (Vulkan 1.1 or later) support: SPIR-V 1.3, shaderFloat16 and
/// shaderInt8 (VK_KHR_shader_float16_int8), shaderInt16, shaderInt64,
/// shaderFloat64, 8- and 16-bit storage-buffer access and subgroup
/// operations. Fill it from the device's Vulkan properties and features to
/// target anything smaller; a kernel needing what the device lacks is then
/// an error naming the capability.
struct SPIRVTargetOptions {
  int versionMinor = 3;     ///< SPIR-V 1.<versionMinor>, 0 to 6
  bool fp16 = true;         ///< Float16 (shaderFloat16)
  bool fp64 = true;         ///< Float64 (shaderFloat64)
  bool int8 = true;         ///< Int8 (shaderInt8)
  bool int16 = true;        ///< Int16 (shaderInt16)
  bool int64 = true;        ///< Int64 (shaderInt64)
  bool storage8Bit = true;  ///< StorageBuffer8BitAccess
  bool storage16Bit = true; ///< StorageBuffer16BitAccess
  bool subgroups = true;    ///< GroupNonUniform (subgroup operations)
  int subgroupSize = 32;    ///< work-items per subgroup
  /// Float controls, per width: whether the device keeps infinities, NaNs
  /// and signed zeros (shaderSignedZeroInfNanPreserveFloat*) and subnormals
  /// (shaderDenormPreserveFloat*) when an entry point asks it to
  /// (tilec-spirv-float-controls).
  bool infNanPreserve16 = true, infNanPreserve32 = true,
       infNanPreserve64 = true;
  bool denormPreserve16 = false, denormPreserve32 = false,
       denormPreserve64 = false;
  /// The device's budget of loop iterations per invocation
  /// (DeviceInfo::maxLoopIterations; 0: none): tilec-spirv-check-device
  /// refuses a kernel that may run more, which would give wrong results.
  uint64_t maxLoopIterations = 0;
};

/// What `tilec --target=spirv` writes: the module and its manifest.
struct SPIRVArtefact {
  std::vector<uint32_t> binary; ///< the SPIR-V words, header included
  rt::Manifest manifest;        ///< target "spirv", entries and bindings set
};

/// The driver's entry point: compiles the gpu-level `module` (left
/// unchanged: the lowering runs on a clone) to one SPIR-V module and fills
/// its manifest: buildManifest (GPU/ManifestBuilder.h) with
/// `context.target` set to "spirv", plus each kernel's `spirv_entry` and
/// `bindings` (set 0, binding i = args[i]). On failure the errors have been
/// emitted on the offending ops.
mlir::FailureOr<SPIRVArtefact> compileToSPIRV(mlir::ModuleOp module,
                                              const SPIRVTargetOptions &options,
                                              const ManifestContext &context);

/// `--emit=spirv-asm`: prints the spirv.module that compileToSPIRV would
/// serialize, in MLIR's textual form of the spirv dialect (in-process; MLIR
/// has no SPIR-V disassembler, `spirv-dis model.spv` gives Khronos' form).
mlir::LogicalResult printSPIRVAssembly(mlir::ModuleOp module,
                                       const SPIRVTargetOptions &options,
                                       llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRVTARGET_H
