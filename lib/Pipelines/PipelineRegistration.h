//===- PipelineRegistration.h - One registration per pipeline ---*- C++ -*-===//
//
// Each pipeline's file registers it with its own options struct;
// registerTilecPipelines (Pipelines.cpp) calls them all.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_PIPELINES_PIPELINEREGISTRATION_H
#define TILEC_LIB_PIPELINES_PIPELINEREGISTRATION_H

namespace tilec::pipelines {

/// tilec-pipeline-gpu (GPUPipeline.cpp).
void registerGPUPipeline();
/// tilec-pipeline-spirv (SPIRVPipeline.cpp).
void registerSPIRVPipeline();
void registerGLSLPipeline();
/// tilec-pipeline-llvm (LLVMPipeline.cpp).
void registerLLVMPipeline();
/// tilec-pipeline-nvvm (NVVMPipeline.cpp).
void registerNVVMPipeline();

} // namespace tilec::pipelines

#endif // TILEC_LIB_PIPELINES_PIPELINEREGISTRATION_H
