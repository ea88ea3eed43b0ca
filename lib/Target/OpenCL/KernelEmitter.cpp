//===- KernelEmitter.cpp - One gpu.func as an OpenCL C kernel -------------===//
//
// Part of the OpenCL target; see KernelEmitter.h. The kernel's arguments
// are its buffers, in the order of the gpu.func (the manifest passes them
// in that order); arguments bound to constants at the launch are written
// inline instead, since the manifest only passes buffers. A kernel that
// several launches share names an argument after the buffer only when they
// all pass the same one.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "CLTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"



using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;
using namespace tilec::gpuprogram;

FailureOr<std::string> KernelEmitter::typeName(Operation *op, Type type) {
  std::optional<std::string> name = clValueType(type);
  if (!name)
    return op->emitError("type ") << type << " has no OpenCL C equivalent";
  if (scalarType(type).isF64())
    prelude.useDouble();
  return *name;
}

std::string KernelEmitter::getAsFloat(Value value) {
  std::optional<StoredFloat> format = storedFloat(value.getType());
  if (!format)
    return get(value);
  return prelude.toFloat(*format) + "(" + get(value) + ")";
}

std::string KernelEmitter::fromFloat(Type type, const std::string &expr) {
  std::optional<StoredFloat> format = storedFloat(type);
  if (!format)
    return expr;
  return prelude.fromFloat(*format) + "(" + expr + ")";
}

void KernelEmitter::emitComment() {
  bool sameGrid = true;
  for (size_t index : function.launches)
    sameGrid = sameGrid && program.launches[index].grid == launch.grid;
  os << "// " << function.name << ": computes "
     << functionStatements(program, function) << "\n// launched ";
  if (function.launches.size() > 1)
    os << function.launches.size() << " times ";
  if (sameGrid)
    os << "as " << launch.grid[0] << "x" << launch.grid[1] << "x"
       << launch.grid[2] << " work-groups";
  else
    os << "in work-groups";
  os << " of " << launch.block[0] << "x" << launch.block[1] << "x"
     << launch.block[2] << " work-items\n";
}

LogicalResult KernelEmitter::emitSignature() {
  gpu::GPUFuncOp kernel = launch.kernel;
  os << "__kernel __attribute__((reqd_work_group_size(" << launch.block[0]
     << ", " << launch.block[1] << ", " << launch.block[2] << ")))\nvoid "
     << function.name << "(";
  bool first = true;
  for (auto [index, launchArg] : llvm::enumerate(launch.args)) {
    BlockArgument arg = kernel.getArgument(index);
    if (launchArg.constantArray >= 0) {
      bind(arg, program.constants[launchArg.constantArray].name);
      continue;
    }
    if (launchArg.buffer < 0) {
      auto literal = constantLiteral(*this, kernel, launchArg.constant);
      if (!literal)
        return kernel.emitError("unsupported constant kernel argument ")
               << launchArg.constant;
      bind(arg, *literal);
      continue;
    }
    auto memref = cast<MemRefType>(arg.getType());
    auto element = clStorageType(memref.getElementType());
    if (!element)
      return kernel.emitError("buffer element type ")
             << memref.getElementType() << " has no OpenCL C equivalent";
    (void)typeName(kernel, memref.getElementType()); // notes double
    std::string name =
        freshName(kernelArgumentName(program, function, index));
    os << (first ? "" : ",\n    ") << "__global "
       << (launchArg.access == rt::Access::Read ? "const " : "") << *element
       << " *" << (launchArg.aliased ? "" : "restrict ") << name;
    first = false;
    bind(arg, name);
  }
  os << (first ? "void" : "") << ") {\n";
  return success();
}

/// Writes `__local T name[N];` (or a private array) for an attribution.
static LogicalResult emitAttribution(KernelEmitter &emitter,
                                     gpu::GPUFuncOp kernel, Value value,
                                     llvm::StringRef qualifier,
                                     llvm::StringRef prefix) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
    return kernel.emitError("memory attributions must be statically shaped "
                            "row-major memrefs, found ")
           << value.getType();
  auto element = clStorageType(memref.getElementType());
  if (!element || failed(emitter.typeName(kernel, memref.getElementType())))
    return kernel.emitError("unsupported element type ")
           << memref.getElementType();
  std::string name = emitter.freshName(prefix);
  emitter.line() << qualifier << *element << " " << name << "["
                 << std::max<int64_t>(1, memref.getNumElements()) << "];\n";
  emitter.bind(value, name);
  return success();
}

LogicalResult KernelEmitter::emit() {
  gpu::GPUFuncOp kernel = launch.kernel;
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError("kernels with more than one block (unstructured "
                            "control flow) are not supported");
  emitComment();
  if (failed(emitSignature()))
    return failure();
  for (Value value : kernel.getWorkgroupAttributions())
    if (failed(emitAttribution(*this, kernel, value, "__local ", "local")))
      return failure();
  for (Value value : kernel.getPrivateAttributions())
    if (failed(emitAttribution(*this, kernel, value, "", "priv")))
      return failure();
  if (failed(emitBlock(kernel.getBody().front())))
    return failure();
  os << "}\n";
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation &op) {
  llvm::StringRef dialect = op.getName().getDialectNamespace();
  if (dialect == "arith")
    return emitArithOp(*this, op);
  if (dialect == "math")
    return emitMathOp(*this, op);
  if (dialect == "memref")
    return emitMemRefOp(*this, op);
  if (dialect == "scf")
    return source::emitSCFOp(*this, op);
  if (dialect == "gpu")
    return emitGPUOp(*this, op);
  if (dialect == "vector")
    return emitVectorOp(*this, op);
  return untranslatable(op);
}
