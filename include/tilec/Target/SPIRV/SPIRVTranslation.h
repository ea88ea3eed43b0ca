//===- SPIRVTranslation.h - The SPIR-V back end as translations -*- C++ -*-===//
//
// The SPIR-V back end as tilec-translate translations:
//
//   --tilec-to-spirv           a gpu-level module to the SPIR-V binary that
//                              `tilec --target=spirv -o M.spv` writes, for
//                              the default device (SPIRVTarget.h)
//   --tilec-to-spirv-manifest  its launch manifest (M.spv.json);
//                              --manifest-artefact names the binary it
//                              records
//   --tilec-serialize-spirv    the one spirv.module of a module that has
//                              been through tilec-opt --tilec-pipeline-spirv
//                              (with any device options), serialized as the
//                              driver serializes it
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_SPIRVTRANSLATION_H
#define TILEC_TARGET_SPIRV_SPIRVTRANSLATION_H

namespace tilec {

/// Registers the translations above and --manifest-artefact. Call once,
/// before the command line is parsed.
void registerSPIRVTranslations();

} // namespace tilec

#endif // TILEC_TARGET_SPIRV_SPIRVTRANSLATION_H
