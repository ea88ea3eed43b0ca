//===- OuterProductPlan.cpp - A contraction tiled as outer products -------===//
//
// Resolves a schedule with `warp` against the kernel: the nest must be a
// contraction (ContractionNest.h) whose operands' free loops are grid y and
// x, and the numbers must obey OuterProductTiling.h's rules, which the cost
// model applies too. The staged tiles' types follow.
//
//===----------------------------------------------------------------------===//

#include "KernelPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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

LogicalResult tilec::planOuterProduct(KernelPlan &plan, const GPUGrid &grid,
                                      const schedule::DeviceProfile &target) {
  std::optional<ContractionNest> nest =
      matchContractionNest(plan.root, plan.band);
  if (!nest)
    return scheduleError(plan)
           << "the outer-product tiling (warp) needs a contraction: one "
              "register reduction per cell combining two loaded operands";
  for (const ContractionOperand &operand : nest->operands)
    if (!operand.value.getType().isIntOrFloat())
      return scheduleError(plan) << "the outer-product tiling needs scalar "
                                    "integer or float operands";
  ContractionShape shape = contractionShapeOf(*nest);
  OuterProductCheck check =
      checkOuterProductTiling(shape, grid, plan.schedule, target);
  if (!check.tiling)
    return scheduleError(plan) << check.error;
  OuterProductPlan outer{std::move(*nest), *check.tiling, {}, {}};
  outer.rowsTile =
      tileType(outer.tiling, outer.tiling.rows,
               outer.nest.operands[outer.tiling.rows.operand].value.getType());
  outer.columnsTile = tileType(
      outer.tiling, outer.tiling.columns,
      outer.nest.operands[outer.tiling.columns.operand].value.getType());
  plan.outerProduct = std::move(outer);
  return success();
}
