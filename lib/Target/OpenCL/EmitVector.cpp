//===- EmitVector.cpp - vector ops as OpenCL C vector types ---------------===//
//
// Part of the OpenCL target. A schedule that vectorises gives 1-D vectors of
// 2, 3, 4, 8 or 16 elements: loads and stores become vloadN and vstoreN
// (which promise the element's alignment only), or, where the op says its
// address is aligned to the vector's size, an access through a vector
// pointer, which NVIDIA's compiler makes one wide load or store,
// element-wise arith and math ops work on OpenCL's vector types directly,
// vectors gathered element by element are vector literals, and reductions
// are written out element by element, in order.
//
//===----------------------------------------------------------------------===//

#include "CLTypes.h"
#include "KernelEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::opencl;

static LogicalResult unsupported(Operation &op) {
  return op.emitError("operation '")
         << op.getName() << "' cannot be translated to OpenCL C";
}

/// "&name[index]" for the first element of a vector access, or failure.
static FailureOr<std::string> address(KernelEmitter &e, Operation &op,
                                      Value memref, ValueRange indices) {
  auto index =
      linearIndex(e, cast<MemRefType>(memref.getType()), indices);
  if (!index)
    return op.emitError("memrefs with a dynamic layout cannot be translated "
                        "to OpenCL C");
  return "&" + e.get(memref) + "[" + *index + "]";
}

/// The OpenCL address space of `memref`'s memory.
static const char *addressSpace(Value memref) {
  Attribute space = cast<MemRefType>(memref.getType()).getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space)) {
    if (gpuSpace.getValue() == gpu::AddressSpace::Workgroup)
      return "__local";
    if (gpuSpace.getValue() == gpu::AddressSpace::Private)
      return "__private";
  }
  return "__global";
}

/// "*(__global const float4 *)(ADDRESS)" when `alignment` covers the whole
/// vector of `type`, else std::nullopt (vloadN/vstoreN then).
static std::optional<std::string>
alignedAccess(KernelEmitter &e, Operation &op, Value memref, VectorType type,
              std::optional<uint64_t> alignment, const std::string &address,
              bool isLoad) {
  int64_t bytes = type.getNumElements() *
                  (type.getElementType().getIntOrFloatBitWidth() / 8);
  if (!alignment || int64_t(*alignment) < bytes || storedFloat(type))
    return std::nullopt;
  return fmt::format("*({} {}{} *)({})", addressSpace(memref),
                     isLoad ? "const " : "", *e.typeName(&op, type), address);
}

/// Component `position` of a vector value: "v.s3", "v.sa".
static std::string component(const std::string &vector, int64_t position) {
  return fmt::format("{}.s{:x}", vector, position);
}

/// The single static position of a 1-D extract or insert, or -1.
static int64_t staticPosition(ArrayRef<int64_t> position) {
  if (position.size() != 1 || ShapedType::isDynamic(position[0]))
    return -1;
  return position[0];
}

static LogicalResult emitReduction(KernelEmitter &e,
                                   vector::ReductionOp reduction) {
  using Kind = vector::CombiningKind;
  Kind kind = reduction.getKind();
  auto type = reduction.getSourceVectorType();
  bool isFloat = isa<FloatType>(type.getElementType());
  const char *infix = nullptr, *function = nullptr;
  if (kind == Kind::ADD && isFloat)
    infix = "+";
  else if (kind == Kind::MUL && isFloat)
    infix = "*";
  else if (kind == Kind::AND && !isFloat)
    infix = "&";
  else if (kind == Kind::OR && !isFloat)
    infix = "|";
  else if (kind == Kind::XOR && !isFloat)
    infix = "^";
  else if (kind == Kind::MAXNUMF)
    function = "fmax";
  else if (kind == Kind::MINNUMF)
    function = "fmin";
  else
    return reduction.emitError("this vector.reduction kind cannot be "
                               "translated to OpenCL C");
  std::string source = e.get(reduction.getVector());
  std::string expr = reduction.getAcc() ? e.get(reduction.getAcc())
                                        : component(source, 0);
  for (int64_t i = reduction.getAcc() ? 0 : 1; i < type.getNumElements(); ++i)
    expr = infix ? fmt::format("{} {} {}", expr, infix, component(source, i))
                 : fmt::format("{}({}, {})", function, expr,
                               component(source, i));
  return e.define(reduction, reduction.getResult(), expr);
}

LogicalResult opencl::emitVectorOp(KernelEmitter &e, Operation &op) {
  if (op.getNumResults() == 1 &&
      failed(e.typeName(&op, op.getResult(0).getType())))
    return failure();
  if (auto load = dyn_cast<vector::LoadOp>(op)) {
    auto from = address(e, op, load.getBase(), load.getIndices());
    if (failed(from) || load.getVectorType().getRank() != 1)
      return failed(from) ? failure() : unsupported(op);
    if (std::optional<std::string> aligned =
            alignedAccess(e, op, load.getBase(), load.getVectorType(),
                          load.getAlignment(), *from, /*isLoad=*/true))
      return e.define(&op, load.getResult(), *aligned);
    return e.define(&op, load.getResult(),
                    fmt::format("vload{}(0, {})",
                                load.getVectorType().getNumElements(), *from));
  }
  if (auto store = dyn_cast<vector::StoreOp>(op)) {
    auto type = store.getVectorType();
    if (type.getRank() != 1 || failed(e.typeName(&op, type)))
      return unsupported(op);
    auto to = address(e, op, store.getBase(), store.getIndices());
    if (failed(to))
      return failure();
    if (std::optional<std::string> aligned =
            alignedAccess(e, op, store.getBase(), type, store.getAlignment(),
                          *to, /*isLoad=*/false)) {
      e.line() << *aligned << " = " << e.get(store.getValueToStore())
               << ";\n";
      return success();
    }
    e.line() << "vstore" << type.getNumElements() << "("
             << e.get(store.getValueToStore()) << ", 0, " << *to << ");\n";
    return success();
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSourceType()))
      return unsupported(op);
    return e.define(&op, broadcast.getResult(),
                    fmt::format("({})({})",
                                *e.typeName(&op, broadcast.getType()),
                                e.get(broadcast.getSource())));
  }
  if (auto fromElements = dyn_cast<vector::FromElementsOp>(op)) {
    // A vector literal: "(float4)(a, b, c, d)".
    std::string elements;
    for (Value element : fromElements.getElements())
      elements += (elements.empty() ? "" : ", ") + e.get(element);
    return e.define(&op, fromElements.getResult(),
                    fmt::format("({})({})",
                                *e.typeName(&op, fromElements.getType()),
                                elements));
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    int64_t position = staticPosition(extract.getStaticPosition());
    if (position < 0 || isa<VectorType>(extract.getResult().getType()))
      return unsupported(op);
    return e.define(&op, extract.getResult(),
                    component(e.get(extract.getSource()), position));
  }
  if (auto insert = dyn_cast<vector::InsertOp>(op)) {
    int64_t position = staticPosition(insert.getStaticPosition());
    if (position < 0 || isa<VectorType>(insert.getValueToStoreType()))
      return unsupported(op);
    if (failed(e.define(&op, insert.getResult(), e.get(insert.getDest()))))
      return failure();
    e.line() << component(e.get(insert.getResult()), position) << " = "
             << e.get(insert.getValueToStore()) << ";\n";
    return success();
  }
  if (auto fma = dyn_cast<vector::FMAOp>(op))
    return e.define(&op, fma.getResult(),
                    fmt::format("fma({}, {}, {})", e.get(fma.getLhs()),
                                e.get(fma.getRhs()), e.get(fma.getAcc())));
  if (auto reduction = dyn_cast<vector::ReductionOp>(op))
    return emitReduction(e, reduction);
  return unsupported(op);
}
