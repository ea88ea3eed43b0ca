//===- EmitMemRef.cpp - Buffer accesses as OpenCL C -----------------------===//
//
// Part of the OpenCL target. Every memref is a flat C array (a `__global`
// pointer, a `__local` or private array), indexed by the row-major linear
// offset of its indices. i1 elements are stored as bytes.
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

/// `name[index]` for an access of `memref` at `indices`, or failure.
static FailureOr<std::string> element(KernelEmitter &emitter, Operation &op,
                                      Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  std::optional<std::string> index = linearIndex(emitter, type, indices);
  if (!index)
    return op.emitError("memrefs with a dynamic layout cannot be translated "
                        "to OpenCL C");
  return emitter.get(memref) + "[" + *index + "]";
}

static LogicalResult emitLoad(KernelEmitter &emitter, memref::LoadOp load) {
  auto access = element(emitter, *load, load.getMemRef(), load.getIndices());
  if (failed(access))
    return failure();
  std::string value = *access;
  if (isBool(load.getType()))
    value += " != 0";
  return emitter.define(load, load.getResult(), value);
}

static LogicalResult emitStore(KernelEmitter &emitter, memref::StoreOp store) {
  auto access =
      element(emitter, *store, store.getMemRef(), store.getIndices());
  if (failed(access))
    return failure();
  std::string value = emitter.get(store.getValueToStore());
  if (isBool(store.getValueToStore().getType()))
    value = "(uchar)" + value;
  emitter.line() << *access << " = " << value << ";\n";
  return success();
}

/// memref.alloca: a private array.
static LogicalResult emitAlloca(KernelEmitter &emitter,
                                memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  auto element = clStorageType(type.getElementType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() || !element ||
      failed(emitter.typeName(alloca, type.getElementType())))
    return alloca.emitError("only statically shaped, row-major memref.alloca "
                            "of OpenCL C element types can be translated");
  std::string name = emitter.freshName("priv");
  emitter.line() << *element << " " << name << "["
                 << std::max<int64_t>(1, type.getNumElements()) << "];\n";
  emitter.bind(alloca, name);
  return success();
}

LogicalResult opencl::emitMemRefOp(KernelEmitter &emitter, Operation &op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return emitLoad(emitter, load);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return emitStore(emitter, store);
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return emitAlloca(emitter, alloca);
  return op.emitError("operation '")
         << op.getName() << "' cannot be translated to OpenCL C";
}
