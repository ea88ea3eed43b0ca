//===- SPIRVTranslation.cpp - The SPIR-V back end as translations ---------===//
//
// See SPIRVTranslation.h. tilec-to-spirv and tilec-to-spirv-manifest are the
// two halves of compileToSPIRV, the driver's entry point;
// tilec-serialize-spirv serializes what tilec-opt's SPIR-V passes left, so a
// test can choose the device options there and still get the driver's bytes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/SPIRVTranslation.h"
#include "Serialize.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Target/GPU/GPUDialects.h"
#include "tilec/Target/GPU/ManifestTranslation.h"
#include "tilec/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The gpu level, and the spirv dialect for a module already (partly)
/// lowered to it.
static void registerDialects(DialectRegistry &registry) {
  tilec::registerGPULevelDialects(registry);
  registry.insert<spirv::SPIRVDialect>();
}

static void writeWords(llvm::ArrayRef<uint32_t> words, llvm::raw_ostream &os) {
  os.write(reinterpret_cast<const char *>(words.data()),
           words.size() * sizeof(uint32_t));
}

void tilec::registerSPIRVTranslations() {
  registerManifestTranslationOptions();
  TranslateFromMLIRRegistration binary(
      "tilec-to-spirv",
      "the gpu level as a Vulkan SPIR-V binary for the device of its "
      "#tilec.gpu_target (the default one without)",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        FailureOr<SPIRVArtefact> artefact = compileToSPIRV(module,
                                                           translationManifestContext(module));
        if (failed(artefact))
          return failure();
        writeWords(artefact->binary, os);
        return success();
      },
      registerDialects);
  TranslateFromMLIRRegistration manifest(
      "tilec-to-spirv-manifest",
      "the launch manifest of the gpu level's SPIR-V module (M.spv.json)",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        FailureOr<SPIRVArtefact> artefact = compileToSPIRV(module,
                                                           translationManifestContext(module));
        if (failed(artefact))
          return failure();
        os << rt::printManifest(artefact->manifest);
        return success();
      },
      registerDialects);
  TranslateFromMLIRRegistration serialized(
      "tilec-serialize-spirv",
      "the one spirv.module (after --tilec-pipeline-spirv) as a SPIR-V binary",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(module);
        if (failed(spirvModule))
          return failure();
        FailureOr<std::vector<uint32_t>> words = serializeSPIRV(*spirvModule);
        if (failed(words))
          return failure();
        writeWords(*words, os);
        return success();
      },
      registerDialects);
}
