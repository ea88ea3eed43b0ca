//===- CompileToSPIRV.cpp - The driver's entry points ---------------------===//
//
// compileToSPIRV and printSPIRVAssembly: run buildGPUToSPIRVPipeline on a
// clone of the gpu level, then serialize or print its spirv.module. The
// manifest is every GPU target's (buildManifest, lib/Target/GPU), with the
// SPIR-V entry points and descriptor bindings added.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PipelineRun.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "tilec/Pipelines/Pipelines.h"

#include "Serialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tilec;

/// A clone of `module` with its spirv.module, or failure (errors emitted).
static FailureOr<OwningOpRef<ModuleOp>>
lowerClone(ModuleOp module) {
  OwningOpRef<ModuleOp> clone(module.clone());
  PassManager pm(module.getContext());
  tilec::buildGPUToSPIRVPipeline(pm);
  if (failed(tilec::runCompilePipeline(pm, *clone)))
    return failure();
  return clone;
}

/// Adds each kernel's entry point and bindings (set 0, binding i = argument
/// i, as tilec-convert-gpu-to-spirv binds them) to `manifest`, checking
/// that the entry point exists.
static LogicalResult addBindings(spirv::ModuleOp spirvModule,
                                 rt::Manifest &manifest) {
  llvm::StringSet<> entries;
  for (auto entry : spirvModule.getOps<spirv::EntryPointOp>())
    entries.insert(entry.getFn());
  for (rt::ManifestKernel &kernel : manifest.kernels) {
    if (!entries.contains(kernel.name))
      return spirvModule.emitError()
             << "no entry point for kernel '" << kernel.name << "'";
    kernel.spirvEntry = kernel.name;
    kernel.bindings.clear();
    for (auto [index, arg] : llvm::enumerate(kernel.args))
      kernel.bindings.push_back(
          {/*set=*/0, /*binding=*/static_cast<int>(index), arg.buffer});
  }
  return success();
}

FailureOr<tilec::SPIRVArtefact>
tilec::compileToSPIRV(ModuleOp module, const ManifestContext &context) {
  ManifestContext spirvContext = context;
  spirvContext.target = "spirv";
  FailureOr<rt::Manifest> manifest = buildManifest(module, spirvContext);
  if (failed(manifest))
    return failure();
  FailureOr<OwningOpRef<ModuleOp>> lowered = lowerClone(module);
  if (failed(lowered))
    return failure();
  FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(**lowered);
  if (failed(spirvModule) || failed(addBindings(*spirvModule, *manifest)))
    return failure();
  FailureOr<std::vector<uint32_t>> binary = serializeSPIRV(*spirvModule);
  if (failed(binary))
    return failure();
  return SPIRVArtefact{std::move(*binary), std::move(*manifest)};
}

LogicalResult tilec::printSPIRVAssembly(ModuleOp module,
                                        llvm::raw_ostream &os) {
  FailureOr<OwningOpRef<ModuleOp>> lowered = lowerClone(module);
  if (failed(lowered))
    return failure();
  FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(**lowered);
  if (failed(spirvModule))
    return failure();
  spirvModule->print(os);
  os << "\n";
  return success();
}
