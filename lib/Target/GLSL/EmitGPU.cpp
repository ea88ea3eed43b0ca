//===- EmitGPU.cpp - Invocation ids, barriers and shuffles as GLSL --------===//
//
// Part of the GLSL target. gpu.thread_id is gl_LocalInvocationID,
// gpu.block_id gl_WorkGroupID, and so on; they are uvec3s, and index is
// int here.
//
//===----------------------------------------------------------------------===//

#include "ShaderEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// Defines the result of an id op as `int(builtin.x)`.
static LogicalResult emitId(ShaderEmitter &e, Operation &op,
                            gpu::Dimension dim, llvm::StringRef builtin,
                            llvm::StringRef name) {
  const char *suffix[] = {"x", "y", "z"};
  const char *component = suffix[static_cast<int>(dim)];
  return e.define(&op, op.getResult(0),
                  "int(" + builtin.str() + "." + component + ")",
                  (name + "_" + component).str());
}

/// gpu.shuffle xor as subgroupShuffleXor: the row reductions' butterflies
/// (RowBody.cpp), planned only for devices whose subgroups are the
/// consecutive work-items (rt::DeviceInfo::subgroupShuffle). An offset
/// below the width stays within each aligned run of `width` lanes, so the
/// width needs no code; every lane takes part, so each result is valid.
static LogicalResult emitShuffle(ShaderEmitter &e, gpu::ShuffleOp shuffle) {
  if (shuffle.getMode() != gpu::ShuffleMode::XOR)
    return e.untranslatable(*shuffle);
  e.getPrelude().useSubgroupShuffle();
  e.bind(shuffle.getValid(), "true");
  return e.define(shuffle, shuffle.getShuffleResult(),
                  "subgroupShuffleXor(" + e.get(shuffle.getValue()) +
                      ", uint(" + e.get(shuffle.getOffset()) + "))");
}

LogicalResult glsl::emitGPUOp(ShaderEmitter &e, Operation &op) {
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return emitId(e, op, id.getDimension(), "gl_LocalInvocationID", "tid");
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return emitId(e, op, id.getDimension(), "gl_WorkGroupID", "bid");
  if (auto id = dyn_cast<gpu::GlobalIdOp>(op))
    return emitId(e, op, id.getDimension(), "gl_GlobalInvocationID", "gid");
  if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
    return emitId(e, op, dim.getDimension(), "gl_WorkGroupSize", "bdim");
  if (auto dim = dyn_cast<gpu::GridDimOp>(op))
    return emitId(e, op, dim.getDimension(), "gl_NumWorkGroups", "gdim");
  if (isa<gpu::BarrierOp>(op)) {
    // gpu.barrier orders every memory access of the work-group: shared
    // and buffer memory both, then the execution barrier.
    e.line() << "groupMemoryBarrier();\n";
    e.line() << "barrier();\n";
    return success();
  }
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
    return emitShuffle(e, shuffle);
  return e.untranslatable(op);
}
