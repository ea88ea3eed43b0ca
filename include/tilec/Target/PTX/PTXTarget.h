//===- PTXTarget.h - The gpu level as one PTX module -------------*- C++ -*-===//
//
// `tilec FILE --target=ptx -o model.ptx` lowers the gpu level (Pipelines.h,
// buildLoopsToGPUPipeline) through MLIR's NVVM dialect
// (buildGPUToNVVMPipeline) and LLVM's NVPTX back end to ONE PTX module
// holding every kernel as a `.entry`, named like its gpu.func, with its
// block size as `.maxntid`, for the compute capability of the module's
// #tilec.gpu_target (sm_80 when the device is not known). Every kernel
// argument is a bare pointer to its buffer, in manifest `args` order.
//
// No CUDA toolkit is needed: the module is translated and assembled in
// process (upstream's gpu-module-to-binary insists on the toolkit's
// libdevice), and no math function calls libdevice (NVVMPipeline.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_PTXTARGET_H
#define TILEC_TARGET_PTX_PTXTARGET_H

#include "tilec/Runtime/Manifest.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Target/GPU/ManifestBuilder.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class ModuleOp;
} // namespace mlir

namespace tilec {

/// What `tilec --target=ptx` writes: the PTX text and its manifest.
struct PTXArtefact {
  std::string ptx;
  rt::Manifest manifest; ///< target "ptx"
};

/// The compute capability tilec generates PTX for when the device is not
/// known: Ampere (sm_80), the oldest GPU with bf16 and asynchronous copies.
inline constexpr int64_t kDefaultComputeCapability = 80;

/// "sm_90" for a profile of compute capability 9.0.
std::string ptxChip(const schedule::DeviceProfile &device);

/// Adds what a compile to PTX holds beyond the gpu level: the LLVM and NVVM
/// dialects, the conversions to them of the dialects the gpu level uses,
/// and their translations to LLVM IR.
void registerNVVMLevelDialects(mlir::DialectRegistry &registry);

/// Compiles the gpu-level `module` (left unchanged: the lowering runs on a
/// clone) to one PTX module and fills its manifest (buildManifest with
/// `context.target` "ptx"). On failure the errors have been emitted on the
/// offending ops.
mlir::FailureOr<PTXArtefact> compileToPTX(mlir::ModuleOp module,
                                          const ManifestContext &context);

/// `--emit=nvvm`: the lowered gpu.module, in the LLVM and NVVM dialects.
mlir::LogicalResult printNVVM(mlir::ModuleOp module, llvm::raw_ostream &os);

/// `--emit=ptx`: the PTX that compileToPTX would write.
mlir::LogicalResult printPTX(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_TARGET_PTX_PTXTARGET_H
