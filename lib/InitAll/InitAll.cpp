//===- InitAll.cpp - Register tilec's dialects and passes ------*- C++ -*-===//
//
// The one place that knows every dialect and pass of tilec. Each library
// adds its registration here with one line.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/LLVM/LLVMBackend.h"
#include "tilec/Target/LLVM/LLVMTranslation.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Target/GLSL/GLSLBackend.h"
#include "tilec/Target/GLSL/GLSLTranslation.h"
#include "tilec/Target/OpenCL/OpenCLBackend.h"
#include "tilec/Target/OpenCL/OpenCLTranslation.h"
#include "tilec/Target/GPU/Passes.h"
#include "tilec/Target/PTX/PTXBackend.h"
#include "tilec/Target/PTX/Passes.h"
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/SPIRVBackend.h"
#include "tilec/Target/SPIRV/SPIRVTranslation.h"
#include "tilec/Target/TargetBackend.h"
#include "tilec/Dialect/Kernel/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void tilec::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, kernel::KernelDialect,
                  mlir::func::FuncDialect>();
  // The loop level (convert-tile-to-loops and the passes after it).
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect>();
  // The gpu level (tilec-pipeline-gpu).
  registry.insert<mlir::gpu::GPUDialect, mlir::vector::VectorDialect>();
  // Tensor cores at the gpu level, and the NVVM level (tilec-pipeline-nvvm).
  registry.insert<mlir::nvgpu::NVGPUDialect, mlir::NVVM::NVVMDialect>();
  // The SPIR-V level (tilec-pipeline-spirv), so that a hand-written
  // spirv.module parses (tests of the passes that run on one).
  registry.insert<mlir::spirv::SPIRVDialect>();
  // The CPU back end (tilec-pipeline-llvm): its conversion interfaces.
  registerLoopsToLLVMDialects(registry);
}

void tilec::registerAllPasses() {
  // The upstream passes of tilec's pipelines, so that tilec-opt runs a
  // pipeline piece by piece (canonicalize, cse, arith's range passes...).
  mlir::registerTransformsPasses();
  mlir::arith::registerArithPasses();
  tile::registerTilePasses();
  registerTilecConversionPasses();
  registerTilecPipelines();
  registerTilecGPUPasses();
  registerTilecPTXPasses();
  registerTilecSPIRVPasses();
  registerTilecKernelTransformsPasses();
  registerTilecCPUTransformsPasses();
}

void tilec::registerAllTranslations() {
  registerOpenCLTranslations();
  registerGLSLTranslations();
  registerSPIRVTranslations();
  registerLLVMTranslations();
}

void tilec::registerAllTargetBackends() {
  registerOpenCLBackend();
  registerSPIRVBackend();
  registerLLVMBackend();
  registerPTXBackend();
  registerGLSLBackend();
}
