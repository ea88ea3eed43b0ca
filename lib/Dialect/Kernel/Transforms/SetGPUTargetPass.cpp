//===- SetGPUTargetPass.cpp - tilec-kernel-set-gpu-target -----------------===//
//
// Puts the device a module is compiled for on it as its #tilec.gpu_target,
// parsed from the pass's `target` option: how a tilec-opt pipeline (and so
// a lit test) compiles for a device other than the default one without a
// pass option per device fact.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"

namespace tilec {
#define GEN_PASS_DEF_SETGPUTARGETPASS
#include "tilec/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

struct SetGPUTargetPass
    : tilec::impl::SetGPUTargetPassBase<SetGPUTargetPass> {
  using SetGPUTargetPassBase::SetGPUTargetPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A parse error (and a field out of range, which the attribute's
    // verifier reports) has been reported by the parser.
    Attribute parsed = parseAttribute(target, &getContext());
    if (!parsed)
      return signalPassFailure();
    auto device = dyn_cast<kernel::GPUTargetAttr>(parsed);
    if (!device) {
      module.emitError() << "tilec-kernel-set-gpu-target: '" << target
                         << "' is not a #tilec.gpu_target";
      return signalPassFailure();
    }
    kernel::GPUTarget(&getContext()).setAttr(module, device);
  }
};

} // namespace
