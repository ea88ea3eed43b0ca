//===- GPUDialects.cpp - The dialects of the gpu level --------------------===//
//
// Part of lib/Target/GPU; see GPUDialects.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/GPUDialects.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

void tilec::registerGPULevelDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  vector::VectorDialect>();
  // Kernels keep their #tilec.schedule and names at the gpu level.
  registry.insert<kernel::KernelDialect>();
}
