//===- TargetEnv.h - A device profile as a spirv.target_env -----*- C++ -*-===//
//
// The one place that maps the device facts to SPIR-V capabilities and
// extensions, used by tilec-spirv-attach-target.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_TARGETENV_H
#define TILEC_LIB_TARGET_SPIRV_TARGETENV_H

#include "tilec/Schedule/DeviceProfile.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace tilec {

/// The Vulkan target environment of a device: the SPIR-V version and every
/// capability and extension the device allows (spirv-update-vce later
/// keeps only those a module uses). Fails on a version outside 1.0-1.6.
mlir::FailureOr<mlir::spirv::TargetEnvAttr>
buildTargetEnv(mlir::MLIRContext *context,
               const schedule::DeviceProfile &device);

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_TARGETENV_H
