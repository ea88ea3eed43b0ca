//===- GPUTargetBackend.cpp - What every GPU backend does alike -----------===//
//
// See GPUTargetBackend.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/GPUTargetBackend.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Target/GPU/GPUDialects.h"

using namespace tilec;

void GPUTargetBackend::registerDialects(mlir::DialectRegistry &registry) const {
  registerGPULevelDialects(registry);
}

void GPUTargetBackend::attachTarget(
    mlir::ModuleOp module, const schedule::DeviceProfile &device) const {
  kernel::setGPUTarget(module, device);
}
