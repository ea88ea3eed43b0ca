//===- EmitPTX.h - An NVVM-dialect gpu.module as PTX text --------*- C++ -*-===//

#ifndef TILEC_LIB_TARGET_PTX_EMITPTX_H
#define TILEC_LIB_TARGET_PTX_EMITPTX_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace tilec::ptx {

/// The PTX of `modules` (already in the LLVM and NVVM dialects) for `chip`
/// ("sm_90"), as one PTX module holding every kernel; failure with an
/// error on the module that failed.
mlir::FailureOr<std::string>
emitPTX(llvm::ArrayRef<mlir::gpu::GPUModuleOp> modules, llvm::StringRef chip);

/// PTX modules for one chip joined into one: the first one's header, then
/// every module's declarations and entries in order, each declaration at
/// module scope once (the split modules' copies of a global are equal).
std::string joinPTX(llvm::ArrayRef<std::string> parts);

} // namespace tilec::ptx

#endif // TILEC_LIB_TARGET_PTX_EMITPTX_H
