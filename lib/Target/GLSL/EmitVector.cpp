//===- EmitVector.cpp - vector ops as GLSL vector types -------------------===//
//
// Part of the GLSL target. A schedule that vectorises gives 1-D vectors of
// 2 to 4 elements, GLSL's vec2 to vec4 (and their int, double and bool
// kinds): broadcasts and gathered elements are constructors, extracts and
// inserts index a lane, reductions are written out lane by lane, in order.
// Loads and stores are in EmitMemory.cpp.
//
//===----------------------------------------------------------------------===//

#include "GLSLTypes.h"
#include "ShaderEmitter.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

using namespace mlir;
using namespace tilec;
using namespace tilec::glsl;

/// The single static position of a 1-D extract or insert, or -1.
static int64_t staticPosition(ArrayRef<int64_t> position) {
  if (position.size() != 1 || ShapedType::isDynamic(position[0]))
    return -1;
  return position[0];
}

static LogicalResult emitReduction(ShaderEmitter &e,
                                   vector::ReductionOp reduction) {
  using Kind = vector::CombiningKind;
  Kind kind = reduction.getKind();
  auto type = reduction.getSourceVectorType();
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  if (storedFloat(element) || isBool(element))
    return reduction.emitError("vector.reduction of bf16, f16 or i1 cannot "
                               "be translated to GLSL");
  std::string computeType = element.isF64() ? "double" : "float";
  std::function<std::string(const std::string &, const std::string &)> combine;
  auto infix = [&](const char *op) {
    return [op](const std::string &a, const std::string &b) {
      return fmt::format("{} {} {}", a, op, b);
    };
  };
  if (kind == Kind::ADD && isFloat)
    combine = infix("+");
  else if (kind == Kind::MUL && isFloat)
    combine = infix("*");
  else if (kind == Kind::AND && !isFloat)
    combine = infix("&");
  else if (kind == Kind::OR && !isFloat)
    combine = infix("|");
  else if (kind == Kind::XOR && !isFloat)
    combine = infix("^");
  else if (kind == Kind::MAXNUMF || kind == Kind::MINNUMF) {
    std::string helper =
        e.getPrelude().maxNum(computeType, kind == Kind::MAXNUMF);
    combine = [helper](const std::string &a, const std::string &b) {
      return fmt::format("{}({}, {})", helper, a, b);
    };
  } else {
    return reduction.emitError("this vector.reduction kind cannot be "
                               "translated to GLSL");
  }
  std::string source = e.get(reduction.getVector());
  auto lane = [&](int64_t i) { return fmt::format("{}[{}]", source, i); };
  std::string expr = reduction.getAcc() ? e.get(reduction.getAcc()) : lane(0);
  for (int64_t i = reduction.getAcc() ? 0 : 1; i < type.getNumElements(); ++i)
    expr = combine(expr, lane(i));
  return e.define(reduction, reduction.getResult(), expr);
}

LogicalResult glsl::emitVectorOp(ShaderEmitter &e, Operation &op) {
  if (isa<vector::LoadOp, vector::StoreOp>(op))
    return emitVectorMemoryOp(e, op);
  if (op.getNumResults() != 1)
    return e.untranslatable(op);
  auto type = e.typeName(&op, op.getResult(0).getType());
  if (failed(type))
    return failure();
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSourceType()))
      return e.untranslatable(op);
    std::vector<std::string> lanes(
        broadcast.getResultVectorType().getNumElements(),
        e.get(broadcast.getSource()));
    return e.define(&op, broadcast.getResult(),
                    *type + "(" + llvm::join(lanes, ", ") + ")");
  }
  if (auto fromElements = dyn_cast<vector::FromElementsOp>(op)) {
    std::vector<std::string> elements;
    for (Value element : fromElements.getElements())
      elements.push_back(e.get(element));
    return e.define(&op, fromElements.getResult(),
                    *type + "(" + llvm::join(elements, ", ") + ")");
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    int64_t position = staticPosition(extract.getStaticPosition());
    if (position < 0 || isa<VectorType>(extract.getResult().getType()))
      return e.untranslatable(op);
    return e.define(&op, extract.getResult(),
                    fmt::format("{}[{}]", e.get(extract.getSource()),
                                position));
  }
  if (auto insert = dyn_cast<vector::InsertOp>(op)) {
    int64_t position = staticPosition(insert.getStaticPosition());
    if (position < 0 || isa<VectorType>(insert.getValueToStoreType()))
      return e.untranslatable(op);
    if (failed(e.define(&op, insert.getResult(), e.get(insert.getDest()))))
      return failure();
    e.line() << e.get(insert.getResult()) << "[" << position
             << "] = " << e.get(insert.getValueToStore()) << ";\n";
    return success();
  }
  if (auto fma = dyn_cast<vector::FMAOp>(op)) {
    std::string a = e.get(fma.getLhs()), b = e.get(fma.getRhs()),
                c = e.get(fma.getAcc());
    if (!isLaneArray(fma.getType()))
      return e.define(&op, fma.getResult(),
                      fmt::format("fma({}, {}, {})", a, b, c));
    std::vector<std::string> lanes;
    for (int64_t i = 0; i < fma.getVectorType().getNumElements(); ++i)
      lanes.push_back(fmt::format("fma({0}[{3}], {1}[{3}], {2}[{3}])", a, b,
                                  c, i));
    return e.define(&op, fma.getResult(),
                    *type + "(" + llvm::join(lanes, ", ") + ")");
  }
  if (auto reduction = dyn_cast<vector::ReductionOp>(op))
    return emitReduction(e, reduction);
  return e.untranslatable(op);
}
