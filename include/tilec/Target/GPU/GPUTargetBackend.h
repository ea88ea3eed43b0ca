//===- GPUTargetBackend.h - What every GPU backend does alike ---*- C++ -*-===//
//
// The part of the backend interface (Target/TargetBackend.h) that every GPU
// backend shares: its compile holds the gpu level's dialects, and the device
// it compiles for becomes the module's #tilec.gpu_target, which the GPU
// mapping and the backend's own passes read. A GPU backend derives from this
// and adds its name, runtime, serializer and --emit stages.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_GPUTARGETBACKEND_H
#define TILEC_TARGET_GPU_GPUTARGETBACKEND_H

#include "tilec/Target/TargetBackend.h"

namespace tilec {

class GPUTargetBackend : public TargetBackend {
public:
  BackendKind kind() const override { return BackendKind::GPU; }
  /// The gpu level's dialects (GPUDialects.h).
  void registerDialects(mlir::DialectRegistry &registry) const override;
  /// `device` as the module's #tilec.gpu_target.
  void attachTarget(mlir::ModuleOp module,
                    const schedule::DeviceProfile &device) const override;
};

} // namespace tilec

#endif // TILEC_TARGET_GPU_GPUTARGETBACKEND_H
