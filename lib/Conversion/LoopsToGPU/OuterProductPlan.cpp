//===- OuterProductPlan.cpp - A contraction tiled as outer products -------===//
//
// Resolves a schedule with `warp` against the kernel: the nest must be a
// contraction (ContractionNest.h) whose operands' free loops are grid y and
// x, and the numbers must obey OuterProductTiling.h's rules, which the cost
// model applies too. The staged tiles' types follow.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilec;

/// [buffers][chunk][block / vector] of vector<vector x `element`> in
/// workgroup memory.
static MemRefType tileType(const OuterProductTiling &tiling,
                           const OuterProductSide &side, Type element) {
  MLIRContext *context = element.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  return MemRefType::get({tiling.buffers, tiling.chunk,
                          side.block / tiling.vector},
                         VectorType::get({tiling.vector}, element),
                         MemRefLayoutAttrInterface(), workgroup);
}

/// With `mma`: [buffers][chunk][block + pad] (free-major) or
/// [buffers][block][chunk + pad] of the operand's 16-bit loaded type, with
/// `pipeline` buffers when cp.async fills them; with `wgmma` the swizzled
/// 128-byte rows that OuterProductTiling.h describes (of f32 for TF32).
static MemRefType mmaTileType(const OuterProductTiling &tiling,
                              const OuterProductSide &side, Type element) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      element.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  int64_t pad = OuterProductTiling::kMmaPad;
  int64_t buffers = tiling.pipeline ? tiling.pipeline : tiling.buffers;
  if (tiling.wgmma) {
    // 128-byte rows, swizzled (OuterProductTiling::wgmma).
    int64_t row = tiling.wgmmaRowElements();
    int64_t rows = tiling.freeMajor[side.operand]
                       ? side.block / row * tiling.chunk
                       : side.block;
    return MemRefType::get({buffers, rows, row}, element,
                           MemRefLayoutAttrInterface(), workgroup);
  }
  SmallVector<int64_t> shape =
      tiling.freeMajor[side.operand]
          ? SmallVector<int64_t>{buffers, tiling.chunk, side.block + pad}
          : SmallVector<int64_t>{buffers, side.block, tiling.chunk + pad};
  return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                         workgroup);
}

/// The value a tap the guard excludes reads in place of the operand: zero,
/// whose product with any finite value a sum ignores. (A guarded maximum
/// or minimum comes from the loop level with a flag of whether any tap was
/// taken, which is no contraction of this form.)
static TypedAttr fillFor(Operation *combine, Operation *aggregate,
                         Type type) {
  if (isa<arith::MulFOp>(combine) && isa<arith::AddFOp>(aggregate))
    return FloatAttr::get(type, 0.0);
  if (isa<arith::MulIOp>(combine) && isa<arith::AddIOp>(aggregate))
    return IntegerAttr::get(type, 0);
  return {};
}

/// Which operand the nest's guard predicates, and with what: the guard
/// may read the reduction and one operand's free loop, not both free
/// loops (a tap excluded per cell could not be a staged value).
static LogicalResult planGuard(KernelPlan &plan, OuterProductPlan &outer) {
  ContractionNest &nest = outer.nest;
  bool reads[2] = {false, false};
  for (unsigned i = 0; i < 2; ++i)
    reads[i] = guardReads(
        nest, nest.loopOf(i == 0 ? BandRole::Free0 : BandRole::Free1));
  if (reads[0] && reads[1])
    return scheduleError(plan) << "the outer-product tiling cannot guard "
                                  "taps that depend on both operands' free "
                                  "loops";
  outer.guardedOperand = reads[1] ? 1 : 0;
  Value operand = nest.operands[outer.guardedOperand].value;
  outer.fill = fillFor(nest.combine, nest.aggregate, operand.getType());
  if (!outer.fill)
    return scheduleError(plan)
           << "the outer-product tiling guards the taps of a sum of "
              "products only";
  return success();
}

LogicalResult tilec::planOuterProduct(KernelPlan &plan, const GPUGrid &grid,
                                      const schedule::DeviceProfile &target) {
  std::optional<ContractionNest> nest =
      matchContractionNest(plan.root, plan.band);
  if (!nest)
    return scheduleError(plan)
           << "the outer-product tiling (warp) needs a contraction: one "
              "register reduction per cell combining two loaded operands";
  if (nest->reductionChain.size() != 1)
    return scheduleError(plan)
           << "the outer-product tiling needs one reduction loop, not "
           << nest->reductionChain.size()
           << " (tilec-gpu-flatten-contractions makes one)";
  for (const ContractionOperand &operand : nest->operands)
    if (!operand.value.getType().isIntOrFloat())
      return scheduleError(plan) << "the outer-product tiling needs scalar "
                                    "integer or float operands";
  ContractionShape shape = contractionShapeOf(*nest);
  OuterProductCheck check =
      checkOuterProductTiling(shape, grid, plan.schedule, target);
  if (!check.tiling)
    return scheduleError(plan) << check.error;
  OuterProductPlan outer{std::move(*nest), *check.tiling, {}, {}, -1, {}};
  if (outer.nest.guard && failed(planGuard(plan, outer)))
    return failure();
  const OuterProductTiling &tiling = outer.tiling;
  auto tileOf = [&](const OuterProductSide &side) {
    ContractionOperand &operand = outer.nest.operands[side.operand];
    return tiling.mma ? mmaTileType(tiling, side,
                                    operand.load.getResult().getType())
                      : tileType(tiling, side, operand.value.getType());
  };
  outer.rowsTile = tileOf(tiling.rows);
  outer.columnsTile = tileOf(tiling.columns);
  plan.outerProduct = std::move(outer);
  return success();
}
