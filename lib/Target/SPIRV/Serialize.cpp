//===- Serialize.cpp - Finding and serializing the spirv.module -----------===//
//
// The last step of compileToSPIRV and printSPIRVAssembly.
//
//===----------------------------------------------------------------------===//

#include "Serialize.h"

#include "mlir/Target/SPIRV/Serialization.h"

using namespace mlir;

FailureOr<spirv::ModuleOp> tilec::findSPIRVModule(ModuleOp module) {
  auto modules = module.getOps<spirv::ModuleOp>();
  auto count = std::distance(modules.begin(), modules.end());
  if (count != 1) {
    module.emitError() << "expected one spirv.module, found " << count;
    return failure();
  }
  return *modules.begin();
}

FailureOr<std::vector<uint32_t>>
tilec::serializeSPIRV(spirv::ModuleOp module) {
  SmallVector<uint32_t, 0> words;
  if (failed(spirv::serialize(module, words)))
    return failure();
  return std::vector<uint32_t>(words.begin(), words.end());
}
