//===- StatementGen.cpp - Statements and elementwise trees ------*- C++ -*-===//
//
// One tile op per typed-AST node: elementwise expression trees become
// trees of broadcasting tile ops, literals become tile.constant, and the
// data-movement builtins their tile ops.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenImpl.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::mlirgen;
using typed::ExprOp;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Attribute Generator::scalarAttr(const typed::Scalar &scalar, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return builder.getFloatAttr(floatType, scalar.f);
  auto intType = cast<IntegerType>(type);
  // Integers are held as their bit pattern in 64 bits; keep the low bits.
  APInt bits(64, static_cast<uint64_t>(scalar.i));
  return builder.getIntegerAttr(intType, bits.trunc(intType.getWidth()));
}

Value Generator::genScalarConstant(const typed::Scalar &scalar, Location loc) {
  auto type = RankedTensorType::get({}, elementType(scalar.dtype));
  auto value =
      DenseElementsAttr::get(type, scalarAttr(scalar, type.getElementType()));
  return tile::ConstantOp::create(builder, loc, value);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// The NumPy broadcast of two shapes, which the binder has checked.
static SmallVector<int64_t> broadcastShape(ArrayRef<int64_t> a,
                                           ArrayRef<int64_t> b) {
  if (a.size() < b.size())
    std::swap(a, b);
  SmallVector<int64_t> result(a);
  size_t offset = a.size() - b.size();
  for (auto [i, size] : llvm::enumerate(b))
    if (result[offset + i] == 1)
      result[offset + i] = size;
  return result;
}

Value Generator::broadcastTo(Value value, RankedTensorType type, Location loc) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from.getShape() == type.getShape())
    return value;
  // O[x...] = =(V[x...]) with V's dims aligned at the right and its size-1
  // dims read at 0: each cell is written once, with the broadcast element.
  MLIRContext *context = builder.getContext();
  unsigned rank = type.getRank();
  size_t offset = rank - from.getRank();
  SmallVector<AffineExpr> reads;
  for (auto [i, size] : llvm::enumerate(from.getShape()))
    reads.push_back(size == 1 && type.getDimSize(offset + i) != 1
                        ? getAffineConstantExpr(0, context)
                        : getAffineDimExpr(offset + i, context));
  SmallVector<int64_t> lower(rank, 0), upper;
  SmallVector<Attribute> names;
  for (unsigned d = 0; d < rank; ++d) {
    upper.push_back(type.getDimSize(d) - 1);
    names.push_back(builder.getStringAttr("x" + std::to_string(d)));
  }
  auto resultType =
      RankedTensorType::get(type.getShape(), from.getElementType());
  auto src = AffineMap::get(rank, 0, reads, context);
  return tile::ContractOp::create(
      builder, loc, resultType, ValueRange{value}, Value(),
      tile::AggregationKind::assign, tile::CombinationKind::none,
      from.getElementType(), AffineMap::getMultiDimIdentityMap(rank, context),
      builder.getAffineMapArrayAttr({src}),
      tile::getConstraintSet(context, rank, {}, {}), lower, upper,
      builder.getArrayAttr(names));
}

//===----------------------------------------------------------------------===//
// Elementwise expressions
//===----------------------------------------------------------------------===//

/// The result type of a broadcasting op over `operands`.
static RankedTensorType broadcastType(ValueRange operands, Type elementType) {
  SmallVector<int64_t> shape;
  for (Value operand : operands)
    shape = broadcastShape(
        shape, cast<RankedTensorType>(operand.getType()).getShape());
  return RankedTensorType::get(shape, elementType);
}

/// Creates the broadcasting op `OpTy` over `operands` with the given result
/// element type.
template <typename OpTy>
static Value createElementwise(OpBuilder &builder, Location loc,
                               Type elementType, ValueRange operands) {
  return OpTy::create(builder, loc, broadcastType(operands, elementType),
                      operands);
}

/// The tile.cmp predicate of a comparison node.
static tile::CmpPredicate predicateOf(ExprOp op) {
  switch (op) {
  case ExprOp::Lt:
    return tile::CmpPredicate::lt;
  case ExprOp::Gt:
    return tile::CmpPredicate::gt;
  case ExprOp::Le:
    return tile::CmpPredicate::le;
  case ExprOp::Ge:
    return tile::CmpPredicate::ge;
  case ExprOp::Eq:
    return tile::CmpPredicate::eq;
  default:
    return tile::CmpPredicate::ne;
  }
}

Value Generator::genExpr(const typed::Expr &expr) {
  Location loc = locationOf(expr.loc);
  Type element = elementType(expr.type.dtype);
  SmallVector<Value> args;
  for (const typed::ExprPtr &arg : expr.args) {
    Value value = genExpr(*arg);
    if (!value)
      return nullptr;
    args.push_back(value);
  }
  auto unary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(builder, loc, args[0]);
  };
  auto binary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return createElementwise<OpTy>(builder, loc, element, args);
  };
  switch (expr.op) {
  case ExprOp::Ref:
    return values[expr.ref];
  case ExprOp::Const:
    return genScalarConstant(expr.constant, loc);
  case ExprOp::Index:
    return tile::IndexOp::create(builder, loc, tensorType(expr.type),
                                 builder.getI64IntegerAttr(expr.axis));
  case ExprOp::Cast: {
    auto from = cast<RankedTensorType>(args[0].getType());
    return tile::CastOp::create(
        builder, loc, RankedTensorType::get(from.getShape(), element), args[0]);
  }
  case ExprOp::Neg:
    return unary(tile::NegOp());
  case ExprOp::BitNot:
    return unary(tile::BitNotOp());
  case ExprOp::Add:
    return binary(tile::AddOp());
  case ExprOp::Sub:
    return binary(tile::SubOp());
  case ExprOp::Mul:
    return binary(tile::MulOp());
  case ExprOp::Div:
    return binary(tile::DivOp());
  case ExprOp::Shl:
    return binary(tile::ShlOp());
  case ExprOp::Shr:
    return binary(tile::ShrOp());
  case ExprOp::BitAnd:
    return binary(tile::BitAndOp());
  case ExprOp::BitXor:
    return binary(tile::BitXorOp());
  case ExprOp::BitOr:
    return binary(tile::BitOrOp());
  case ExprOp::Lt:
  case ExprOp::Gt:
  case ExprOp::Le:
  case ExprOp::Ge:
  case ExprOp::Eq:
  case ExprOp::Ne:
    return tile::CmpOp::create(builder, loc,
                               broadcastType(args, builder.getI1Type()),
                               predicateOf(expr.op), args[0], args[1]);
  case ExprOp::Select:
    return binary(tile::SelectOp());
  case ExprOp::Pow:
    return binary(tile::PowOp());
  case ExprOp::Exp:
    return unary(tile::ExpOp());
  case ExprOp::Log:
    return unary(tile::LogOp());
  case ExprOp::Sqrt:
    return unary(tile::SqrtOp());
  case ExprOp::Sin:
    return unary(tile::SinOp());
  case ExprOp::Cos:
    return unary(tile::CosOp());
  case ExprOp::Tan:
    return unary(tile::TanOp());
  case ExprOp::Asin:
    return unary(tile::AsinOp());
  case ExprOp::Acos:
    return unary(tile::AcosOp());
  case ExprOp::Atan:
    return unary(tile::AtanOp());
  case ExprOp::Sinh:
    return unary(tile::SinhOp());
  case ExprOp::Cosh:
    return unary(tile::CoshOp());
  case ExprOp::Tanh:
    return unary(tile::TanhOp());
  case ExprOp::Asinh:
    return unary(tile::AsinhOp());
  case ExprOp::Acosh:
    return unary(tile::AcoshOp());
  case ExprOp::Atanh:
    return unary(tile::AtanhOp());
  case ExprOp::Floor:
    return unary(tile::FloorOp());
  case ExprOp::Ceil:
    return unary(tile::CeilOp());
  case ExprOp::Round:
    return unary(tile::RoundOp());
  }
  emitError(loc, "internal error: unknown elementwise operation");
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

Value Generator::genStatement(const typed::Statement &stmt, Location loc) {
  auto resultType = [&](unsigned k) {
    return tensorType(program.value(stmt.results[k]).type);
  };
  auto operand = [&](unsigned k) { return values[stmt.operands[k]]; };
  switch (stmt.kind) {
  case typed::Statement::Kind::Elementwise: {
    Value value = genExpr(*stmt.expr);
    return value ? broadcastTo(value, resultType(0), loc) : nullptr;
  }
  case typed::Statement::Kind::Contraction:
    return genContraction(stmt);
  case typed::Statement::Kind::Reshape:
    return tile::ReshapeOp::create(builder, loc, resultType(0), operand(0));
  case typed::Statement::Kind::Gather:
    return tile::GatherOp::create(builder, loc, resultType(0), operand(0),
                                  operand(1));
  case typed::Statement::Kind::Scatter:
    return tile::ScatterOp::create(builder, loc, resultType(0), operand(0),
                                   operand(1), operand(2));
  case typed::Statement::Kind::Prng: {
    auto prng = tile::PrngOp::create(builder, loc, resultType(0), resultType(1),
                                     operand(0));
    values[stmt.results[1]] = prng.getNewState();
    return prng.getResult();
  }
  case typed::Statement::Kind::Literal: {
    RankedTensorType type = resultType(0);
    SmallVector<Attribute> elements;
    for (const typed::Scalar &scalar : stmt.literal)
      elements.push_back(scalarAttr(scalar, type.getElementType()));
    if (static_cast<int64_t>(elements.size()) != type.getNumElements()) {
      emitError(loc, "internal error: literal has the wrong element count");
      return nullptr;
    }
    return tile::ConstantOp::create(builder, loc,
                                    DenseElementsAttr::get(type, elements));
  }
  case typed::Statement::Kind::Grad:
    emitError(loc, "internal error: 'grad' was not expanded before MLIRGen");
    return nullptr;
  }
  emitError(loc, "internal error: unknown statement kind");
  return nullptr;
}

bool Generator::genStatements() {
  for (const typed::Statement &stmt : program.statements) {
    if (stmt.results.empty())
      continue;
    const typed::Value &result = program.value(stmt.results[0]);
    Location loc = namedLocation(stmt.loc, result.name);
    Value value = genStatement(stmt, loc);
    if (!value)
      return false;
    values[stmt.results[0]] = value;
  }
  for (typed::ValueId id : program.outputs)
    if (!values[id]) {
      emitError(functionLoc, "internal error: output '")
          << program.value(id).name << "' is never defined";
      return false;
    }
  return true;
}
