//===- ShaderEmitter.cpp - One gpu.func as a GLSL compute shader ----------===//
//
// Part of the GLSL target; see ShaderEmitter.h. Arguments bound to
// constants at the launch are written inline, constant tensors become
// `const` arrays; the buffers are storage blocks, named after the buffer
// when every launch of the shader passes the same one.
//
//===----------------------------------------------------------------------===//

#include "ShaderEmitter.h"
#include "GLSLTypes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;
using gpuprogram::LaunchArg;

llvm::StringRef ShaderEmitter::qualifier(llvm::StringRef typeName) {
  // f16 and bf16 values are their bits in a uint; float computes them.
  bool floating = typeName.starts_with("float") ||
                  typeName.starts_with("double") ||
                  typeName.starts_with("vec") || typeName.starts_with("dvec");
  if (!floating)
    return "";
  prelude.usePrecise();
  return "precise ";
}

FailureOr<std::string> ShaderEmitter::typeName(Operation *op, Type type) {
  std::optional<std::string> name = valueType(type);
  if (!name)
    return op->emitError("type ") << type << " has no GLSL equivalent";
  if (isInt64(type)) {
    if (!deviceHasInt64)
      return op->emitError("kernel '")
             << function.name
             << "' computes in i64, which GLSL has only with "
                "GL_ARB_gpu_shader_int64; the target device lacks it";
    prelude.useInt64();
  }
  return *name;
}

std::string ShaderEmitter::getAsFloat(Value value) {
  std::optional<StoredFloat> format = storedFloat(value.getType());
  if (!format)
    return get(value);
  return prelude.toFloat(*format) + "(" + get(value) + ")";
}

std::string ShaderEmitter::fromFloat(Type type, const std::string &expr) {
  std::optional<StoredFloat> format = storedFloat(type);
  if (!format)
    return expr;
  return prelude.fromFloat(*format) + "(" + expr + ")";
}

void ShaderEmitter::emitComment(llvm::raw_ostream &out) {
  out << "// " << function.name << ": computes "
      << functionStatements(program, function) << "\n// launched ";
  if (function.launches.size() > 1)
    out << function.launches.size() << " times ";
  out << "in work-groups of " << launch.block[0] << "x" << launch.block[1]
      << "x" << launch.block[2] << " invocations\n";
}

LogicalResult ShaderEmitter::emitConstantArray(int index) {
  const gpuprogram::ProgramConstant &constant = program.constants[index];
  memref::GlobalOp global = constant.global;
  auto values = cast<DenseElementsAttr>(*global.getInitialValue());
  auto type = typeName(global, values.getElementType());
  if (failed(type))
    return failure();
  std::vector<std::string> elements;
  for (Attribute value : values.getValues<Attribute>()) {
    auto literal = scalarLiteral(value);
    if (!literal)
      return global.emitError("unsupported constant ") << value;
    elements.push_back(*literal);
  }
  if (elements.empty())
    elements.push_back(*type + "(0)");
  globalStream << "const " << *type << " " << constant.name << "["
               << elements.size() << "] = " << *type << "["
               << elements.size() << "](" << llvm::join(elements, ", ")
               << ");\n";
  return success();
}

LogicalResult ShaderEmitter::bindArguments() {
  gpu::GPUFuncOp kernel = launch.kernel;
  int binding = 0;
  for (auto [index, launchArg] : llvm::enumerate(launch.args)) {
    BlockArgument arg = kernel.getArgument(index);
    if (launchArg.constantArray >= 0) {
      if (failed(emitConstantArray(launchArg.constantArray)))
        return failure();
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
    Type elementType = memref.getElementType();
    auto element = bufferElementType(elementType);
    if (!element || failed(typeName(kernel, elementType)))
      return kernel.emitError("buffer element type ")
             << elementType << " has no GLSL equivalent";
    // GL addresses a buffer with int: every element offset must fit.
    if (memref.hasStaticShape() && memref.getNumElements() >= (int64_t(1) << 31))
      return kernel.emitError("a buffer of ")
             << memref.getNumElements()
             << " elements is beyond what GLSL can index (2^31 - 1)";
    std::string name =
        freshName(kernelArgumentName(program, function, index));
    if (launchArg.access == rt::Access::Read)
      readOnlyBuffers[arg] = {binding, name};
    blockStream << "layout(std430, binding = " << binding++ << ") "
                << (launchArg.access == rt::Access::Read ? "readonly " : "")
                << (launchArg.aliased ? "" : "restrict ") << "buffer "
                << name << "_block { " << *element << " " << name
                << "[]; };\n";
    bind(arg, name);
    storageBuffers.insert(arg);
  }
  return success();
}

std::string ShaderEmitter::vectorView(Value memref, VectorType type) {
  auto found = readOnlyBuffers.find(memref);
  // std430 pads a vec3 array's elements to 16 bytes: only vec2 and vec4
  // views have the buffer's layout.
  int64_t width = type.getNumElements();
  if (found == readOnlyBuffers.end() || (width != 2 && width != 4) ||
      type.getElementType().getIntOrFloatBitWidth() != 32 ||
      bufferPacking(type.getElementType()) != Packing::None)
    return "";
  std::optional<std::string> vectorType = valueType(type);
  if (!vectorType)
    return "";
  const ReadOnlyBuffer &buffer = found->second;
  std::string block = buffer.name + "_" + *vectorType;
  std::string &view = vectorViews[block];
  if (view.empty()) {
    view = freshName(block);
    // Read-only, so the two blocks may alias and both stay restrict.
    blockStream << "layout(std430, binding = " << buffer.binding
                << ") readonly restrict buffer " << view << "_block { "
                << *vectorType << " " << view << "[]; };\n";
  }
  return view;
}

/// `T name[N];` for an attribution, written by `out`; its element is the
/// value type (8- and 16-bit elements unpacked).
static LogicalResult emitAttribution(ShaderEmitter &emitter,
                                     gpu::GPUFuncOp kernel, Value value,
                                     llvm::raw_ostream &out,
                                     llvm::StringRef qualifier,
                                     llvm::StringRef prefix) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
    return kernel.emitError("memory attributions must be statically shaped "
                            "row-major memrefs, found ")
           << value.getType();
  auto element = emitter.typeName(kernel, memref.getElementType());
  if (failed(element))
    return failure();
  std::string name = emitter.freshName(prefix);
  out << qualifier << *element << " " << name << "["
      << std::max<int64_t>(1, memref.getNumElements()) << "];\n";
  emitter.bind(value, name);
  return success();
}

LogicalResult ShaderEmitter::emitAttributions() {
  gpu::GPUFuncOp kernel = launch.kernel;
  for (Value value : kernel.getWorkgroupAttributions())
    if (failed(emitAttribution(*this, kernel, value, globalStream, "shared ",
                               "local")))
      return failure();
  for (Value value : kernel.getPrivateAttributions())
    if (failed(emitAttribution(*this, kernel, value, line(), "", "priv")))
      return failure();
  return success();
}

LogicalResult ShaderEmitter::emit(llvm::raw_ostream &out) {
  gpu::GPUFuncOp kernel = launch.kernel;
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError("kernels with more than one block (unstructured "
                            "control flow) are not supported");
  if (failed(bindArguments()) || failed(emitAttributions()) ||
      failed(emitBlock(kernel.getBody().front())))
    return failure();
  emitComment(out);
  out << "#version 430\n";
  prelude.printExtensions(out);
  // Meaningless in desktop GLSL, required in ES (which has no default
  // float precision in compute shaders): the same text serves both.
  out << "precision highp float;\nprecision highp int;\n";
  out << "layout(local_size_x = " << launch.block[0]
      << ", local_size_y = " << launch.block[1]
      << ", local_size_z = " << launch.block[2] << ") in;\n";
  out << blocks << globalDecls;
  prelude.printHelpers(out);
  out << "\nvoid main() {\n" << body << "}\n";
  return success();
}

LogicalResult ShaderEmitter::emitOp(Operation &op) {
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
