//===- SplitKernelModules.cpp - tilec-ptx-split-kernel-modules -----------===//
//
// One gpu.module per kernel (Passes.td says why). A kernel takes copies of
// the module's globals it names (constant tensors, shared memory); the
// copies keep their names, and EmitPTX.cpp keeps one of each declaration
// when it joins the kernels' PTX.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILECPTXSPLITKERNELMODULESPASS
#include "tilec/Target/PTX/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The kernels of `module` when it holds nothing else that is a function
/// (a device function would be needed by several kernels' modules); empty
/// otherwise, or when there is at most one.
SmallVector<gpu::GPUFuncOp> splittableKernels(gpu::GPUModuleOp module) {
  SmallVector<gpu::GPUFuncOp> kernels;
  for (Operation &op : module.getBody()->getOperations()) {
    if (isa<FunctionOpInterface>(op) && !isa<gpu::GPUFuncOp>(op))
      return {};
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (!func.isKernel())
        return {};
      kernels.push_back(func);
    }
  }
  if (kernels.size() < 2)
    return {};
  return kernels;
}

void splitModule(ModuleOp top, gpu::GPUModuleOp module,
                 ArrayRef<gpu::GPUFuncOp> kernels) {
  SymbolTable topSymbols(top);
  SymbolTable moduleSymbols(module);
  OpBuilder builder(module);
  // Each kernel's name -> the kernel in its new module.
  llvm::DenseMap<StringAttr, SymbolRefAttr> newNames;
  for (gpu::GPUFuncOp kernel : kernels) {
    auto part = cast<gpu::GPUModuleOp>(builder.cloneWithoutRegions(*module));
    part.getBodyRegion().emplaceBlock();
    // A unique name beside the others (the PTX does not show it).
    part.setName((module.getName() + "_" + kernel.getName()).str());
    topSymbols.insert(part);
    OpBuilder inside = OpBuilder::atBlockEnd(part.getBody());
    // The globals the kernel names, in the module's order.
    llvm::SetVector<Operation *> used;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(kernel))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (Operation *symbol =
                moduleSymbols.lookup(use.getSymbolRef().getRootReference()))
          if (symbol != kernel.getOperation())
            used.insert(symbol);
    for (Operation &op : module.getBody()->getOperations())
      if (used.contains(&op))
        inside.clone(op);
    kernel->moveBefore(part.getBody(), part.getBody()->end());
    newNames[kernel.getNameAttr()] = SymbolRefAttr::get(
        part.getNameAttr(), {FlatSymbolRefAttr::get(kernel.getNameAttr())});
  }
  top.walk([&](gpu::LaunchFuncOp launch) {
    if (launch.getKernelModuleName() == module.getNameAttr())
      launch.setKernelAttr(newNames.lookup(launch.getKernelName()));
  });
  module.erase();
}

struct SplitKernelModules
    : tilec::impl::TilecPTXSplitKernelModulesPassBase<SplitKernelModules> {
  void runOnOperation() override {
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      SmallVector<gpu::GPUFuncOp> kernels = splittableKernels(module);
      if (!kernels.empty())
        splitModule(getOperation(), module, kernels);
    }
  }
};

} // namespace
