//===- EmitMemory.cpp - Loads and stores as GLSL ---------------------------===//
//
// Part of the GLSL target. Every memref is a flat GLSL array (a storage
// block's, a shared or a private one), indexed by the row-major linear
// offset of its indices. In a storage buffer, 8- and 16-bit elements are
// packed into uints (GLSLTypes.h): a load extracts its bits, and a store
// replaces them with two atomic operations on the word (clear, then set),
// so that invocations writing neighbouring elements of one word never undo
// each other's stores. Vector loads and stores are their lanes' accesses.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"
#include "ShaderEmitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// `index` as a name or a number, defining an int variable for an
/// expression, so that the packed accesses below may use it twice.
static std::string named(ShaderEmitter &e, const std::string &index) {
  if (llvm::all_of(index, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return index;
  std::string name = e.freshName("a");
  e.line() << "int " << name << " = " << index << ";\n";
  return name;
}

/// Where element `index` of a packed buffer lies: its word and the bit
/// offset in the word.
static std::pair<std::string, std::string>
packedWord(ShaderEmitter &e, Value memref, Packing packing,
           const std::string &index) {
  std::string at = named(e, index);
  if (packing == Packing::Halves)
    return {fmt::format("{}[{} >> 1]", e.get(memref), at),
            fmt::format("(({} & 1) << 4)", at)};
  return {fmt::format("{}[{} >> 2]", e.get(memref), at),
          fmt::format("(({} & 3) << 3)", at)};
}

FailureOr<std::string> glsl::loadElement(ShaderEmitter &e, Operation &op,
                                         Value memref,
                                         const std::string &index) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Packing packing = bufferPacking(element);
  if (!e.isStorageBuffer(memref) || packing == Packing::None)
    return e.get(memref) + "[" + index + "]";
  auto [word, offset] = packedWord(e, memref, packing, index);
  unsigned width = packing == Packing::Halves ? 16 : 8;
  if (element.isInteger(1))
    return fmt::format("bitfieldExtract({}, {}, 8) != 0u", word, offset);
  if (storedFloat(element))
    return fmt::format("bitfieldExtract({}, {}, 16)", word, offset);
  return fmt::format("bitfieldExtract(int({}), {}, {})", word, offset, width);
}

LogicalResult glsl::storeElement(ShaderEmitter &e, Operation &op,
                                 Value memref, const std::string &index,
                                 const std::string &value) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Packing packing = bufferPacking(element);
  if (!e.isStorageBuffer(memref) || packing == Packing::None) {
    e.line() << e.get(memref) << "[" << index << "] = " << value << ";\n";
    return success();
  }
  auto [word, offset] = packedWord(e, memref, packing, index);
  std::string mask = packing == Packing::Halves ? "0xFFFFu" : "0xFFu";
  std::string bits = element.isInteger(1)
                         ? fmt::format("({} ? 1u : 0u)", value)
                         : fmt::format("(uint({}) & {})", value, mask);
  e.line() << fmt::format("atomicAnd({}, ~({} << {}));\n", word, mask, offset);
  e.line() << fmt::format("atomicOr({}, {} << {});\n", word, bits, offset);
  return success();
}

/// The linear offset of an access, or an error on `op`.
static FailureOr<std::string> offset(ShaderEmitter &e, Operation &op,
                                     Value memref, ValueRange indices) {
  auto index = linearIndex(e, cast<MemRefType>(memref.getType()), indices);
  if (!index)
    return op.emitError("memrefs with a dynamic layout cannot be translated "
                        "to GLSL");
  return *index;
}

/// memref.alloca: a private array of values.
static LogicalResult emitAlloca(ShaderEmitter &e, memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return alloca.emitError("only statically shaped, row-major memref.alloca "
                            "can be translated to GLSL");
  auto element = e.typeName(alloca, type.getElementType());
  if (failed(element))
    return failure();
  std::string name = e.freshName("priv");
  e.line() << *element << " " << name << "["
           << std::max<int64_t>(1, type.getNumElements()) << "];\n";
  e.bind(alloca, name);
  return success();
}

LogicalResult glsl::emitMemRefOp(ShaderEmitter &e, Operation &op) {
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    auto at = offset(e, op, load.getMemRef(), load.getIndices());
    if (failed(at))
      return failure();
    auto value = loadElement(e, op, load.getMemRef(), *at);
    if (failed(value))
      return failure();
    return e.define(&op, load.getResult(), *value);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    auto at = offset(e, op, store.getMemRef(), store.getIndices());
    if (failed(at))
      return failure();
    return storeElement(e, op, store.getMemRef(), *at,
                        e.get(store.getValueToStore()));
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return emitAlloca(e, alloca);
  return e.untranslatable(op);
}

/// vector.load: a vector of its lanes' loads.
static LogicalResult emitVectorLoad(ShaderEmitter &e, vector::LoadOp load) {
  VectorType type = load.getVectorType();
  auto vectorType = e.typeName(load, type);
  auto at = offset(e, *load, load.getBase(), load.getIndices());
  if (failed(vectorType) || failed(at))
    return failure();
  // Where the load is aligned to the vector's size, one element of a
  // vector view of the buffer.
  int64_t bytes = type.getNumElements() * 4;
  std::optional<uint64_t> alignment = load.getAlignment();
  if (alignment && int64_t(*alignment) >= bytes) {
    std::string view = e.vectorView(load.getBase(), type);
    if (!view.empty())
      return e.define(load, load.getResult(),
                      fmt::format("{}[({}) >> {}]", view, *at,
                                  type.getNumElements() == 4 ? 2 : 1));
  }
  std::string base = named(e, *at);
  std::vector<std::string> lanes;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    auto lane = loadElement(e, *load, load.getBase(),
                            i ? fmt::format("{} + {}", base, i) : base);
    if (failed(lane))
      return failure();
    lanes.push_back(*lane);
  }
  return e.define(load, load.getResult(),
                  *vectorType + "(" + llvm::join(lanes, ", ") + ")");
}

/// vector.store: its lanes' stores.
static LogicalResult emitVectorStore(ShaderEmitter &e, vector::StoreOp store) {
  VectorType type = store.getVectorType();
  auto at = offset(e, *store, store.getBase(), store.getIndices());
  if (failed(e.typeName(store, type)) || failed(at))
    return failure();
  std::string base = named(e, *at), value = e.get(store.getValueToStore());
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    if (failed(storeElement(e, *store, store.getBase(),
                            i ? fmt::format("{} + {}", base, i) : base,
                            fmt::format("{}[{}]", value, i))))
      return failure();
  return success();
}

LogicalResult glsl::emitVectorMemoryOp(ShaderEmitter &e, Operation &op) {
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return emitVectorLoad(e, load);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return emitVectorStore(e, store);
  return e.untranslatable(op);
}
