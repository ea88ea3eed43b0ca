//===- SourceEmitter.cpp - Kernels as C-family source text ----------------===//
//
// See SourceEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/SourceEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::source;

SourceEmitter::~SourceEmitter() = default;

InFlightDiagnostic SourceEmitter::untranslatable(Operation &op) {
  return op.emitError("operation '")
         << op.getName() << "' cannot be translated to " << language_;
}

std::string SourceEmitter::get(Value value) const {
  auto found = names.find(value);
  assert(found != names.end() && "value used before it was emitted");
  return found->second;
}

std::string SourceEmitter::freshName(llvm::StringRef base) {
  bool numbered = !base.contains('_');
  std::string name = base.str();
  unsigned &count = nameCounts[base];
  if (numbered || usedNames.contains(name)) {
    do
      name = base.str() + (numbered ? "" : "_") + std::to_string(count++);
    while (usedNames.contains(name));
  }
  usedNames.insert(name);
  return name;
}

llvm::raw_ostream &SourceEmitter::line() { return os.indent(2 * (depth + 1)); }

LogicalResult SourceEmitter::declare(Operation *op, Value value,
                                     llvm::StringRef prefix) {
  auto type = typeName(op, value.getType());
  if (failed(type))
    return failure();
  std::string name = freshName(prefix);
  line() << qualifier(*type) << *type << " " << name << ";\n";
  bind(value, name);
  return success();
}

LogicalResult SourceEmitter::define(Operation *op, Value result,
                                    const std::string &expr,
                                    llvm::StringRef prefix) {
  auto type = typeName(op, result.getType());
  if (failed(type))
    return failure();
  std::string name = freshName(prefix);
  line() << qualifier(*type) << *type << " " << name << " = " << expr << ";\n";
  bind(result, name);
  return success();
}

LogicalResult SourceEmitter::emitBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(emitOp(op)))
      return failure();
  return success();
}

std::optional<std::string> source::linearIndex(SourceEmitter &emitter,
                                               MemRefType memref,
                                               ValueRange indices,
                                               llvm::StringRef smallCast) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  // Local and private arrays are small: their offsets fit 32 bits, and
  // 32-bit arithmetic spares the device compiler 64-bit multiplies.
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  bool small = !smallCast.empty() && space &&
               space.getValue() != gpu::AddressSpace::Global;
  // The constant part last, summed: a run of accesses then shares the
  // variable part and differs by a constant offset.
  std::string expr;
  int64_t constant = offset;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    std::string term = emitter.get(index);
    if (term == "0" || stride == 0)
      continue;
    if (llvm::all_of(term, llvm::isDigit) && term.size() < 10) {
      constant += std::stoll(term) * stride;
      continue;
    }
    if (small)
      term = smallCast.str() + term;
    if (stride != 1)
      term += " * " + std::to_string(stride);
    expr += expr.empty() ? term : " + " + term;
  }
  if (constant != 0)
    expr += expr.empty() ? std::to_string(constant)
                         : " + " + std::to_string(constant);
  return expr.empty() ? "0" : expr;
}
