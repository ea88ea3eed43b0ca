//===- KernelPlan.h - How one kernel nest maps to the grid ------*- C++ -*-===//
//
// The schedule of a kernel resolved against its parallel band and the
// device: which loops go to which grid dimension, with which work-group
// tile and elements per work-item. Checking a schedule and emitting the
// gpu.func are separate steps; this is what passes between them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_LOOPSTOGPU_KERNELPLAN_H
#define TILEC_LIB_CONVERSION_LOOPSTOGPU_KERNELPLAN_H

#include "tilec/Dialect/Kernel/Analysis/ContractionNest.h"
#include "tilec/Dialect/Kernel/Analysis/GPUGrid.h"
#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Dialect/Kernel/Analysis/RowNest.h"
#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace tilec {

/// One affine expression of loop induction variables, split into the part
/// that moves with the work-group and reduction block (`terms`) and the rest.
struct TileCorner {
  /// (loop, coefficient) for the band loops and the staged reduction loop,
  /// in band order then the reduction loop.
  llvm::SmallVector<std::pair<mlir::Value, int64_t>> terms;
  /// Added to the terms' block starts: the expression's lowest value over
  /// one block minus what the terms give.
  int64_t offset = 0;
  /// How many values the expression takes over one block (its tile extent).
  int64_t size = 1;
};

/// An operand copied into local memory: its tile per reduction block is the
/// box spanned by every load of it, each dimension a TileCorner.
struct StagedOperand {
  mlir::Value memref;
  llvm::SmallVector<TileCorner> box;
  llvm::SmallVector<mlir::affine::AffineLoadOp> loads;
  /// The workgroup-memory type of the tile.
  mlir::MemRefType tileType;
};

/// How a register reduction is staged: the reduction loop directly inside
/// the band, cut into blocks of `block` iterations, each preceded by a
/// cooperative copy of the staged operands' tiles.
struct StagingPlan {
  mlir::affine::AffineForOp reduction;
  int64_t block = 0;
  llvm::SmallVector<StagedOperand> operands;
};

/// How a contraction is tiled as outer products (OuterProductTiling.h).
struct OuterProductPlan {
  ContractionNest nest;
  OuterProductTiling tiling;
  /// The workgroup-memory tiles of the rows' and the columns' operand:
  /// [buffer][chunk iteration][block / vector] of vector<vector x T>.
  mlir::MemRefType rowsTile, columnsTile;
  /// With a guard: the operand whose loads it predicates (the one whose
  /// free loop it reads, if any), and the value an excluded tap reads,
  /// which leaves the sum of products unchanged (0).
  int guardedOperand = -1;
  mlir::TypedAttr fill;
};

/// How a row nest runs (RowPlan.cpp): one work-group of `items` work-items
/// per row, work-item i taking columns i, i + items, ... (`perItem` of
/// them, the last ones clamped into the row where `items` does not divide
/// it).
struct RowPlan {
  RowNest nest;
  int64_t items = 0;
  int64_t perItem = 0;
  /// The buffers that live only in this kernel (allocated by the function,
  /// used nowhere else, written before they are read): their columns stay
  /// in the work-items' registers and their row scalars are forwarded, never
  /// stored.
  llvm::DenseSet<mlir::Value> privateBuffers;
  /// One workgroup-memory scratch row per reduction step, in step order:
  /// memref<items x T>.
  llvm::SmallVector<mlir::MemRefType> scratch;
  /// Lanes that reduce 32-bit values among themselves by shuffles, without
  /// memory or barriers (a CUDA device's warp, or the whole work-group when
  /// smaller); 0: the tree in scratch memory alone.
  int64_t shuffleLanes = 0;
};

/// A kernel nest and how it runs on the grid.
struct KernelPlan {
  mlir::affine::AffineForOp root;
  llvm::SmallVector<mlir::affine::AffineForOp> band;
  schedule::KernelSchedule schedule;
  GridDim dims[3]; ///< x, y, z (GPUGrid.h)
  /// Set when the schedule stages an operand.
  std::optional<StagingPlan> staging;
  /// Set when the schedule asks for the outer-product tiling (`warp`).
  std::optional<OuterProductPlan> outerProduct;
  /// Set when the schedule maps a row nest (`row`).
  std::optional<RowPlan> rows;
};

/// Resolves `root`'s schedule against its parallel band and `target`.
/// Emits an error on `root` and fails if it has no schedule or the schedule
/// does not fit the device.
mlir::FailureOr<KernelPlan> planKernel(mlir::affine::AffineForOp root,
                                       const schedule::DeviceProfile &target);

/// Fills `plan.staging` from the schedule's `stage` entries (Staging.cpp).
/// Emits an error on the kernel and fails if a staged operand cannot be
/// staged or the tiles exceed the local memory.
mlir::LogicalResult planStaging(KernelPlan &plan,
                                const schedule::DeviceProfile &target);

/// Fills `plan.outerProduct` (OuterProductPlan.cpp). Emits an error on the
/// kernel and fails if it is no contraction the tiling applies to or the
/// schedule breaks a rule of OuterProductTiling.h.
mlir::LogicalResult planOuterProduct(KernelPlan &plan, const GPUGrid &grid,
                                     const schedule::DeviceProfile &target);

/// Fills `plan.rows` and the launch geometry in `plan.dims` (RowPlan.cpp).
/// Emits an error on the kernel and fails if it is no row nest or `row`
/// does not fit the device.
mlir::LogicalResult planRows(KernelPlan &plan,
                             const schedule::DeviceProfile &target);

/// Maps the induction variables of the band loops on `dim` from
/// `position`, the iteration number along `dim` (a flattened one is split
/// by division), emitting the arithmetic at `b`.
void mapBandInductionVars(const KernelPlan &plan, const GridDim &dim,
                          mlir::Value position, mlir::OpBuilder &b,
                          mlir::IRMapping &mapping);

/// The error prefix for a schedule that does not fit `plan`'s kernel.
mlir::InFlightDiagnostic scheduleError(KernelPlan &plan);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_LOOPSTOGPU_KERNELPLAN_H
