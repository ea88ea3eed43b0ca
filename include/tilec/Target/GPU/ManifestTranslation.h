//===- ManifestTranslation.h - What manifest translations share -*- C++ -*-===//
//
// Part of lib/Target/GPU: the option and the context of every GPU
// backend's manifest translation (tilec-translate --tilec-to-opencl-manifest,
// --tilec-to-spirv-manifest), so that each backend's manifest is the driver's,
// field for field.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_MANIFESTTRANSLATION_H
#define TILEC_TARGET_GPU_MANIFESTTRANSLATION_H

#include "tilec/Target/GPU/ManifestBuilder.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// Registers --manifest-artefact (the kernel file a manifest records);
/// idempotent. Call before the command line is parsed.
void registerManifestTranslationOptions();

/// What the driver records for a compile, without a device, of the file
/// `module` was parsed from, with --manifest-artefact as the kernel file.
ManifestContext translationManifestContext(mlir::ModuleOp module);

} // namespace tilec

#endif // TILEC_TARGET_GPU_MANIFESTTRANSLATION_H
