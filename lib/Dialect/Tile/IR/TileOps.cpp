//===- TileOps.cpp - Verifiers of the tile ops -----------------*- C++ -*-===//
//
// The generated op definitions and the checks ODS cannot express: NumPy
// broadcasting of elementwise shapes, the shape rules of reshape, gather,
// scatter and prng, and the consistency of a contraction's maps, bounds and
// operands. Folders live in TileFolds.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilec::tile;

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// The NumPy broadcast of `shapes` (aligned at the right; a size 1 stretches),
/// or failure if two sizes of one axis are different and neither is 1.
static FailureOr<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  size_t rank = 0;
  for (ArrayRef<int64_t> shape : shapes)
    rank = std::max(rank, shape.size());
  SmallVector<int64_t> result(rank, 1);
  for (ArrayRef<int64_t> shape : shapes) {
    size_t offset = rank - shape.size();
    for (auto [i, size] : llvm::enumerate(shape)) {
      int64_t &out = result[offset + i];
      if (size == out || size == 1)
        continue;
      if (out != 1)
        return failure();
      out = size;
    }
  }
  return result;
}

/// Checks that the result's shape is the broadcast of the operands' shapes.
static LogicalResult verifyBroadcastShape(Operation *op) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Type type : op->getOperandTypes())
    shapes.push_back(cast<RankedTensorType>(type).getShape());
  FailureOr<SmallVector<int64_t>> expected = broadcastShapes(shapes);
  if (failed(expected))
    return op->emitOpError("operand shapes do not broadcast");
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (resultType.getShape() != ArrayRef<int64_t>(*expected))
    return op->emitOpError("result shape must be the broadcast of the "
                           "operand shapes");
  return success();
}

/// The element type of a value of tensor type.
static Type elementTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

LogicalResult tilec::tile::verifySameElementTypeBroadcast(Operation *op) {
  Type resultElement = elementTypeOf(op->getResult(0));
  for (Value operand : op->getOperands())
    if (elementTypeOf(operand) != resultElement)
      return op->emitOpError("operands must have the result's element type");
  return verifyBroadcastShape(op);
}

//===----------------------------------------------------------------------===//
// Elementwise ops with mixed types
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::verify() {
  int64_t rank = getType().getRank();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is out of range for rank " << rank;
  return success();
}

LogicalResult PowOp::verify() {
  if (elementTypeOf(getBase()) != elementTypeOf(getResult()))
    return emitOpError("base must have the result's element type");
  return verifyBroadcastShape(getOperation());
}

LogicalResult CmpOp::verify() {
  if (elementTypeOf(getLhs()) != elementTypeOf(getRhs()))
    return emitOpError("operands must have one element type");
  return verifyBroadcastShape(getOperation());
}

LogicalResult SelectOp::verify() {
  Type resultElement = elementTypeOf(getResult());
  if (elementTypeOf(getTrueValue()) != resultElement ||
      elementTypeOf(getFalseValue()) != resultElement)
    return emitOpError("branches must have the result's element type");
  return verifyBroadcastShape(getOperation());
}

LogicalResult CastOp::verify() {
  if (getOperand().getType().getShape() != getType().getShape())
    return emitOpError("operand and result must have one shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

IntegerSet tilec::tile::getConstraintSet(MLIRContext *context, unsigned numDims,
                                         ArrayRef<AffineExpr> constraints,
                                         ArrayRef<bool> isEquality) {
  if (constraints.empty())
    return IntegerSet::get(numDims, 0, getAffineConstantExpr(0, context),
                           /*eqFlags=*/true);
  return IntegerSet::get(numDims, 0, constraints, isEquality);
}

/// How many inputs each combination takes.
static unsigned inputCountOf(CombinationKind combo) {
  switch (combo) {
  case CombinationKind::none:
    return 1;
  case CombinationKind::cond:
    return 3;
  case CombinationKind::mul:
  case CombinationKind::add:
  case CombinationKind::eq:
    break;
  }
  return 2;
}

/// Checks that `map` has `numVars` dimensions, no symbols and one result per
/// dimension of a tensor of rank `rank`.
static LogicalResult verifyAccessMap(ContractOp op, AffineMap map,
                                     unsigned numVars, int64_t rank,
                                     StringRef what) {
  if (map.getNumDims() != numVars || map.getNumSymbols() != 0)
    return op.emitOpError()
           << what << " must have " << numVars << " dimensions and no symbols";
  if (static_cast<int64_t>(map.getNumResults()) != rank)
    return op.emitOpError()
           << what << " must have " << rank << " results, one per dimension";
  return success();
}

LogicalResult ContractOp::verify() {
  unsigned numInputs = getInputs().size();
  unsigned expectedInputs = inputCountOf(getCombo());
  if (numInputs != expectedInputs)
    return emitOpError("combination '")
           << stringifyCombinationKind(getCombo()) << "' takes "
           << expectedInputs << " inputs, got " << numInputs;

  unsigned numVars = getSink().getNumDims();
  if (failed(verifyAccessMap(*this, getSink(), numVars, getType().getRank(),
                             "sink")))
    return failure();
  if (getSrcs().size() != numInputs)
    return emitOpError("expects one source map per input, got ")
           << getSrcs().size() << " for " << numInputs;
  for (auto [k, input, map] :
       llvm::enumerate(getInputs(), getSrcs().getAsValueRange<AffineMapAttr>()))
    if (failed(
            verifyAccessMap(*this, map, numVars,
                            cast<RankedTensorType>(input.getType()).getRank(),
                            "source map #" + std::to_string(k))))
      return failure();

  IntegerSet cons = getCons();
  if (cons.getNumDims() != numVars || cons.getNumSymbols() != 0)
    return emitOpError("constraint set must have ")
           << numVars << " dimensions and no symbols";

  if (getLowerBounds().size() != numVars || getUpperBounds().size() != numVars)
    return emitOpError("expects ") << numVars << " lower and upper bounds";
  for (unsigned v = 0; v < numVars; ++v)
    if (getLowerBounds()[v] > getUpperBounds()[v])
      return emitOpError("index variable #")
             << v << " has an empty range [" << getLowerBounds()[v] << ", "
             << getUpperBounds()[v] << "]";
  if (getVarNames().size() != numVars)
    return emitOpError("expects ") << numVars << " variable names";

  if (Value init = getInit())
    if (cast<RankedTensorType>(init.getType()).getShape() !=
        getType().getShape())
      return emitOpError("init must have the result's shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType from = getOperand().getType(), to = getType();
  if (from.getElementType() != to.getElementType())
    return emitOpError("operand and result must have one element type");
  if (from.getNumElements() != to.getNumElements())
    return emitOpError("element count changes from ")
           << from.getNumElements() << " to " << to.getNumElements();
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType values = getValues().getType();
  if (values.getRank() < 1)
    return emitOpError("values must have rank 1 or more");
  SmallVector<int64_t> shape(getIndices().getType().getShape());
  llvm::append_range(shape, values.getShape().drop_front());
  if (getType().getShape() != ArrayRef<int64_t>(shape) ||
      getType().getElementType() != values.getElementType())
    return emitOpError("result must be of type ")
           << RankedTensorType::get(shape, values.getElementType());
  return success();
}

LogicalResult ScatterOp::verify() {
  RankedTensorType updates = getUpdates().getType();
  ArrayRef<int64_t> indexShape = getIndices().getType().getShape();
  if (updates.getShape().take_front(indexShape.size()) != indexShape ||
      updates.getRank() < static_cast<int64_t>(indexShape.size()))
    return emitOpError("updates' shape must begin with the indices' shape");
  RankedTensorType values = getValues().getType();
  if (values.getRank() < 1)
    return emitOpError("values must have rank 1 or more");
  SmallVector<int64_t> shape{values.getDimSize(0)};
  llvm::append_range(shape, updates.getShape().drop_front(indexShape.size()));
  if (getType().getShape() != ArrayRef<int64_t>(shape) ||
      getType().getElementType() != updates.getElementType())
    return emitOpError("result must be of type ")
           << RankedTensorType::get(shape, updates.getElementType());
  return success();
}

LogicalResult PrngOp::verify() {
  const int64_t stateShape[] = {3, 2048};
  if (getState().getType().getShape() != ArrayRef<int64_t>(stateShape) ||
      getNewState().getType() != getState().getType())
    return emitOpError("state and new state must be tensor<3x2048xui32>");
  return success();
}

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
