//===- CompileCacheKeys.cpp - What a compile depends on -------------------===//
//
// Part of lib/Compiler; see CompileCacheKeys.h. Every field is written
// out, even those that equal a default, so that a changed default (a new
// limit every device meets) changes the key.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileCacheKeys.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Support/DType.h"

#include "mlir/IR/OperationSupport.h"

#include "llvm/Support/raw_ostream.h"

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

CacheKey tilec::compiler::compileCacheKey(
    const TargetBackend &backend, mlir::ModuleOp module,
    const ArtefactRequest &request, llvm::StringRef output,
    llvm::ArrayRef<CacheKeyField> backendFields) {
  CacheKey key;
  key.add("target", backend.name());
  key.add("output", output);
  key.add("path", request.outputPath);
  const ManifestContext &manifest = request.context;
  key.add("manifest-program", manifest.program);
  key.add("manifest-artefact", manifest.artefact);
  key.add("manifest-entry", manifest.entry);
  key.add("manifest-device", manifest.device);
  key.add("input-dtypes", dtypeList(manifest.inputDTypes));
  key.add("output-dtypes", dtypeList(manifest.outputDTypes));
  // The module prints only the device facts that differ from the default
  // profile; all of them go in, so that a changed default changes the key.
  if (kernel::GPUTarget(module->getContext()).isAttrPresent(module))
    key.add("device", kernel::getGPUTarget(module).str());
  for (const CacheKeyField &field : backendFields)
    key.add(field.first, field.second);
  addModule(key, module);
  return key;
}
