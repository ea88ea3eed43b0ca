//===- EmitGPU.cpp - Work-item ids and barriers as OpenCL C ---------------===//
//
// Part of the OpenCL target. gpu.thread_id is the work-item's id in its
// work-group (get_local_id), gpu.block_id the work-group's id
// (get_group_id); both are index values, so `long`.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

/// Defines the result of an id op as `(long)builtin(dim)`.
static LogicalResult emitId(KernelEmitter &e, Operation &op,
                            gpu::Dimension dim, llvm::StringRef builtin,
                            llvm::StringRef name) {
  int index = static_cast<int>(dim);
  const char *suffix[] = {"x", "y", "z"};
  return e.define(&op, op.getResult(0),
                  "(long)" + builtin.str() + "(" + std::to_string(index) + ")",
                  (name + "_" + suffix[index]).str());
}

LogicalResult opencl::emitGPUOp(KernelEmitter &e, Operation &op) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return emitId(e, op, id.getDimension(), "get_local_id", "tid");
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return emitId(e, op, id.getDimension(), "get_group_id", "bid");
  if (auto id = dyn_cast<gpu::GlobalIdOp>(op))
    return emitId(e, op, id.getDimension(), "get_global_id", "gid");
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return emitId(e, op, dim.getDimension(), "get_local_size", "bdim");
  if (auto dim = dyn_cast<gpu::GridDimOp>(op))
    return emitId(e, op, dim.getDimension(), "get_num_groups", "gdim");
  if (isa<gpu::BarrierOp>(op)) {
    // gpu.barrier orders every memory access of the work-group.
    e.line() << "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n";
    return success();
  }
  return op.emitError("operation '")
         << op.getName() << "' cannot be translated to OpenCL C";
}
