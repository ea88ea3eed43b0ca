//===- DedupKernels.cpp - tilec-gpu-dedup-kernels -------------------------===//
//
// One gpu.func per distinct kernel: a model's repeated blocks become kernels
// that differ only in the buffers their launches pass, and compiling each
// of them again (OpenCL C, SPIR-V, the device's own compiler) is most of a
// whole network's compile time. The fingerprint only buckets candidates;
// the kernels are compared op for op, since a hash can collide.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace tilec {
#define GEN_PASS_DEF_TILECDEDUPGPUKERNELSPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// What a launch binds to each kernel argument that is no buffer: the
/// symbol of a memref.get_global (a constant tensor), the value of a
/// constant, or null for a buffer. The back ends compile such arguments
/// into the kernel, so they are part of what the kernel computes.
SmallVector<Attribute> boundConstants(gpu::LaunchFuncOp launch) {
  SmallVector<Attribute> bound;
  for (Value operand : launch.getKernelOperands()) {
    Attribute value;
    if (auto get = operand.getDefiningOp<memref::GetGlobalOp>())
      value = get.getNameAttr();
    else
      (void)matchPattern(operand, m_Constant(&value));
    bound.push_back(value);
  }
  return bound;
}

/// The attributes of `kernel` that make its code: all but its names.
DictionaryAttr codeAttributes(gpu::GPUFuncOp kernel) {
  NamedAttrList attributes(kernel->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  attributes.erase(tilec::kernel::KernelName::getNameStr());
  return attributes.getDictionary(kernel.getContext());
}

/// A kernel with everything its launches decide about its code.
struct KernelUse {
  gpu::GPUFuncOp kernel;
  SmallVector<gpu::LaunchFuncOp> launches;
  /// The constants its launches bind; null when they disagree (the kernel
  /// then stays alone).
  std::optional<SmallVector<Attribute>> bound;
};

bool sameCode(const KernelUse &a, const KernelUse &b) {
  gpu::GPUFuncOp x = a.kernel, y = b.kernel;
  return a.bound && b.bound && *a.bound == *b.bound &&
         x.getFunctionType() == y.getFunctionType() &&
         codeAttributes(x) == codeAttributes(y) &&
         OperationEquivalence::isRegionEquivalentTo(
             &x.getBody(), &y.getBody(),
             OperationEquivalence::IgnoreLocations);
}

/// Every distinct location in `kernel`: the Tile statements it computes.
Location statementsOf(gpu::GPUFuncOp kernel) {
  llvm::SetVector<Location> locations;
  kernel.walk([&](Operation *op) { locations.insert(op->getLoc()); });
  return FusedLoc::get(kernel.getContext(), locations.getArrayRef());
}

class KernelDeduplicator {
public:
  explicit KernelDeduplicator(gpu::GPUModuleOp kernels) : kernels(kernels) {}

  /// Notes a launch of one of the module's kernels.
  void addLaunch(gpu::GPUFuncOp kernel, gpu::LaunchFuncOp launch);
  /// Re-points the launches of each kernel equal to an earlier one at the
  /// earlier one, and erases it.
  void merge();

private:
  gpu::GPUModuleOp kernels;
  llvm::MapVector<Operation *, KernelUse> uses;

  void keepStatements(KernelUse &use);
};

void KernelDeduplicator::addLaunch(gpu::GPUFuncOp kernel,
                                   gpu::LaunchFuncOp launch) {
  KernelUse &use = uses[kernel];
  use.kernel = kernel;
  SmallVector<Attribute> bound = boundConstants(launch);
  if (use.launches.empty())
    use.bound = bound;
  else if (use.bound && *use.bound != bound)
    use.bound.reset();
  use.launches.push_back(launch);
}

/// Moves the statements of `use`'s kernel onto its launches: once the
/// kernel is shared, its body holds the locations of one of them only, and
/// the manifest lists each launch's own.
void KernelDeduplicator::keepStatements(KernelUse &use) {
  Location statements = statementsOf(use.kernel);
  for (gpu::LaunchFuncOp launch : use.launches)
    launch->setLoc(
        FusedLoc::get(launch.getContext(), {launch.getLoc(), statements}));
}

void KernelDeduplicator::merge() {
  llvm::StringMap<SmallVector<KernelUse *>> byFingerprint;
  llvm::SetVector<KernelUse *> shared;
  SmallVector<KernelUse *> duplicates;
  for (auto &entry : uses) {
    KernelUse &use = entry.second;
    auto fingerprint =
        use.kernel->getAttrOfType<StringAttr>(tilec::kernel::Fingerprint::getNameStr());
    SmallVector<KernelUse *> &bucket =
        byFingerprint[fingerprint ? fingerprint.getValue() : ""];
    auto equal = llvm::find_if(
        bucket, [&](KernelUse *kept) { return sameCode(*kept, use); });
    if (equal == bucket.end()) {
      bucket.push_back(&use);
      continue;
    }
    if (shared.insert(*equal))
      keepStatements(**equal);
    keepStatements(use);
    auto symbol = SymbolRefAttr::get(
        kernels.getNameAttr(),
        {FlatSymbolRefAttr::get((*equal)->kernel.getNameAttr())});
    for (gpu::LaunchFuncOp launch : use.launches)
      launch.setKernelAttr(symbol);
    duplicates.push_back(&use);
  }
  for (KernelUse *use : duplicates)
    use->kernel.erase();
}

struct DedupGPUKernelsPass
    : public tilec::impl::TilecDedupGPUKernelsPassBase<DedupGPUKernelsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    llvm::MapVector<Operation *, KernelDeduplicator> modules;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel)
        return;
      auto kernels = kernel->getParentOfType<gpu::GPUModuleOp>();
      modules.try_emplace(kernels, kernels)
          .first->second.addLaunch(kernel, launch);
    });
    for (auto &[op, deduplicator] : modules)
      deduplicator.merge();
  }
};

} // namespace
