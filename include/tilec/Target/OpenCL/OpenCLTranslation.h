//===- OpenCLTranslation.h - The OpenCL emitter as translations -*- C++ -*-===//
//
// The OpenCL back end as tilec-translate translations on a gpu-level module
// (docs/architecture.md, "The gpu level"):
//
//   --tilec-to-opencl           the OpenCL C source (`tilec --emit=cl`)
//   --tilec-to-opencl-manifest  the launch manifest `tilec -o K.cl` writes
//                               beside it as K.cl.json; --manifest-artefact
//                               names the kernel file it records
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_OPENCL_OPENCLTRANSLATION_H
#define TILEC_TARGET_OPENCL_OPENCLTRANSLATION_H

namespace tilec {

/// Registers the translations above and their options. Call once, before
/// the command line is parsed.
void registerOpenCLTranslations();

} // namespace tilec

#endif // TILEC_TARGET_OPENCL_OPENCLTRANSLATION_H
