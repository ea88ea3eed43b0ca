//===- EntryPointInterfaces.cpp - tilec-spirv-entry-point-interfaces -----===//
//
// From SPIR-V 1.4 on, an entry point's interface names every global
// variable the entry point statically uses, Workgroup and StorageBuffer
// ones included, which tells the driver each kernel's shared memory
// exactly. MLIR's lower-abi-attrs lists the storage buffers only when the
// environment says 1.4, and spirv-update-vce then lowers the version to
// what the ops need (1.3 at most for tilec's kernels), so the environment
// stays at 1.3 (TargetEnv.cpp) and this pass, run after spirv-update-vce,
// makes the module a 1.4 one where the device takes it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVENTRYPOINTINTERFACESPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The global variables `entry`'s function and the functions it calls
/// take the address of, in the order they are first met.
llvm::SetVector<StringAttr> usedVariables(spirv::ModuleOp module,
                                          spirv::FuncOp entry) {
  llvm::SetVector<StringAttr> variables;
  llvm::SetVector<spirv::FuncOp> functions;
  functions.insert(entry);
  for (size_t i = 0; i < functions.size(); ++i)
    spirv::FuncOp(functions[i]).walk([&](Operation *op) {
      if (auto address = dyn_cast<spirv::AddressOfOp>(op))
        variables.insert(address.getVariableAttr().getAttr());
      else if (auto call = dyn_cast<spirv::FunctionCallOp>(op))
        if (auto callee =
                module.lookupSymbol<spirv::FuncOp>(call.getCalleeAttr()))
          functions.insert(callee);
    });
  return variables;
}

struct EntryPointInterfacesPass
    : tilec::impl::TilecSPIRVEntryPointInterfacesPassBase<
          EntryPointInterfacesPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    if (tilec::kernel::getGPUTarget(module).spirvVersionMinor < 4)
      return;
    MLIRContext *context = module.getContext();
    for (spirv::EntryPointOp entry : module.getOps<spirv::EntryPointOp>()) {
      auto func = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
      if (!func)
        continue;
      SmallVector<Attribute> interface;
      for (StringAttr name : usedVariables(module, func))
        interface.push_back(FlatSymbolRefAttr::get(name));
      entry.setInterfaceAttr(ArrayAttr::get(context, interface));
    }
    std::optional<spirv::VerCapExtAttr> triple = module.getVceTriple();
    if (triple && triple->getVersion() < spirv::Version::V_1_4)
      module.setVceTripleAttr(spirv::VerCapExtAttr::get(
          IntegerAttr::get(IntegerType::get(context, 32),
                           static_cast<int64_t>(spirv::Version::V_1_4)),
          triple->getCapabilitiesAttr(), triple->getExtensionsAttr()));
  }
};

} // namespace
