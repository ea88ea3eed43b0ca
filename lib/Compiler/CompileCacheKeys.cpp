//===- CompileCacheKeys.cpp - What each target's compile depends on -------===//
//
// Part of lib/Compiler; see CompileCacheKeys.h. Every field is written
// out, even those that equal a default, so that a changed default (a new
// limit every device meets) changes the key.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileCacheKeys.h"

#include "tilec/Support/DType.h"

#include "mlir/IR/OperationSupport.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace tilec;
using namespace tilec::compiler;

/// Adds the module, printed with its locations (manifests name the
/// statements' lines, so a moved statement is another compile).
static void addModule(CacheKey &key, mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo(
                        /*enable=*/true, /*prettyForm=*/false));
  key.addDigestOf("loops", text);
}

/// "f32,i8": the dtypes a manifest records.
static std::string dtypeList(const std::vector<DType> &dtypes) {
  std::vector<std::string_view> names;
  for (DType dtype : dtypes)
    names.push_back(dtypeName(dtype));
  return fmt::format("{}", fmt::join(names, ","));
}

CacheKey tilec::compiler::cpuCacheKey(llvm::StringRef target,
                                      mlir::ModuleOp module,
                                      const llvm::TargetMachine &machine,
                                      unsigned optLevel,
                                      llvm::StringRef outputKind) {
  CacheKey key;
  key.add("target", target);
  key.add("output", outputKind);
  key.add("triple", machine.getTargetTriple().str());
  key.add("cpu", machine.getTargetCPU());
  key.add("features", machine.getTargetFeatureString());
  key.add("opt", std::to_string(optLevel));
  addModule(key, module);
  return key;
}

CacheKey tilec::compiler::gpuCacheKey(llvm::StringRef target,
                                      mlir::ModuleOp module,
                                      const ManifestContext &manifest) {
  CacheKey key;
  key.add("target", target);
  key.add("output", "kernels+manifest");
  key.add("device", manifest.device);
  key.add("manifest-program", manifest.program);
  key.add("manifest-artefact", manifest.artefact);
  key.add("manifest-entry", manifest.entry);
  key.add("input-dtypes", dtypeList(manifest.inputDTypes));
  key.add("output-dtypes", dtypeList(manifest.outputDTypes));
  addModule(key, module);
  return key;
}
