//===- EmitPTX.h - An NVVM-dialect gpu.module as PTX text --------*- C++ -*-===//

#ifndef TILEC_LIB_TARGET_PTX_EMITPTX_H
#define TILEC_LIB_TARGET_PTX_EMITPTX_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace tilec::ptx {

/// The PTX of `kernels` (already in the LLVM and NVVM dialects) for `chip`
/// ("sm_90"); failure with an error on `kernels`.
mlir::FailureOr<std::string> emitPTX(mlir::gpu::GPUModuleOp kernels,
                                     llvm::StringRef chip);

} // namespace tilec::ptx

#endif // TILEC_LIB_TARGET_PTX_EMITPTX_H
