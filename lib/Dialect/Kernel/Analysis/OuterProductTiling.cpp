//===- OuterProductTiling.cpp - The outer-product tiling's rules ----------===//
//
// See OuterProductTiling.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/Analysis/OuterProductTiling.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using schedule::KernelSchedule;

/// Whether `start` leaves every value `aggregate` combines it with as it
/// is, so that slices can start from it: arith's neutral element, either
/// zero for a float sum, and -inf (+inf) for a float maximum (minimum),
/// which maxnumf's NaN identity also ignores.
static bool isIdentityOf(mlir::Operation *aggregate, mlir::Attribute start) {
  std::optional<mlir::TypedAttr> identity =
      mlir::arith::getNeutralElement(aggregate);
  if (identity && start == *identity)
    return true;
  auto value = mlir::dyn_cast<mlir::FloatAttr>(start);
  if (!value)
    return false;
  const llvm::APFloat &f = value.getValue();
  if (mlir::isa<mlir::arith::AddFOp>(aggregate))
    return f.isZero();
  if (mlir::isa<mlir::arith::MaxNumFOp, mlir::arith::MaximumFOp>(aggregate))
    return f.isInfinity() && f.isNegative();
  if (mlir::isa<mlir::arith::MinNumFOp, mlir::arith::MinimumFOp>(aggregate))
    return f.isInfinity() && !f.isNegative();
  return false;
}

/// The 16-bit float type `operand` is loaded as and extended to f32 from,
/// if that is all its slice does.
static mlir::Type extendedFrom16Bits(const ContractionOperand &operand) {
  if (operand.slice.size() != 1 || !operand.value.getType().isF32())
    return {};
  mlir::affine::AffineLoadOp load = operand.load;
  auto extend = mlir::dyn_cast<mlir::arith::ExtFOp>(operand.slice.front());
  if (!extend || extend.getIn() != load.getResult())
    return {};
  mlir::Type loaded = load.getResult().getType();
  return loaded.isF16() || loaded.isBF16() ? loaded : mlir::Type();
}

/// Whether the nest's guard, if any, is the same over each aligned run of
/// `run` reduction iterations (all of it, or none, copied).
static bool guardSameOverRuns(const ContractionNest &nest, int64_t run) {
  if (!nest.guard)
    return true;
  mlir::Value k = nest.innermost().getInductionVar();
  mlir::affine::AffineIfOp guard = nest.guard;
  mlir::IntegerSet set = guard.getIntegerSet();
  for (auto [position, operand] : llvm::enumerate(guard.getOperands())) {
    if (operand != k)
      continue;
    if (position >= set.getNumDims())
      return false;
    for (mlir::AffineExpr constraint : set.getConstraints())
      if (coefficientOverRuns(constraint, position, run) != 0)
        return false;
  }
  return true;
}

static MmaInput mmaInputOf(const ContractionNest &nest) {
  if (!mlir::isa<mlir::arith::MulFOp>(nest.combine) ||
      !mlir::isa<mlir::arith::AddFOp>(nest.aggregate) ||
      !guardSameOverRuns(nest, ContractionOperand::kReductionRun))
    return MmaInput::None;
  mlir::Type a = extendedFrom16Bits(nest.operands[0]);
  mlir::Type b = extendedFrom16Bits(nest.operands[1]);
  if (a && a == b)
    return a.isF16() ? MmaInput::F16 : MmaInput::BF16;
  auto loadedF32 = [](const ContractionOperand &operand) {
    return operand.slice.empty() && operand.value.getType().isF32();
  };
  if (loadedF32(nest.operands[0]) && loadedF32(nest.operands[1]) &&
      tilec::kernel::allowsTF32(nest.combine))
    return MmaInput::TF32;
  return MmaInput::None;
}

bool tilec::dependsOn(mlir::Value value, mlir::Value iv) {
  if (value == iv)
    return true;
  mlir::Operation *def = value.getDefiningOp();
  return def && mlir::isPure(def) &&
         llvm::any_of(def->getOperands(),
                      [&](mlir::Value v) { return dependsOn(v, iv); });
}

bool tilec::guardReads(const ContractionNest &nest, int loop) {
  if (!nest.guard || loop < 0)
    return false;
  mlir::Value iv =
      mlir::affine::AffineForOp(nest.band[loop]).getInductionVar();
  mlir::affine::AffineIfOp guard = nest.guard;
  return llvm::any_of(guard.getOperands(),
                      [&](mlir::Value v) { return dependsOn(v, iv); });
}

ContractionShape tilec::contractionShapeOf(const ContractionNest &nest) {
  ContractionShape shape;
  shape.freeLoop[0] = nest.loopOf(BandRole::Free0);
  shape.freeLoop[1] = nest.loopOf(BandRole::Free1);
  shape.reduction = 1;
  for (mlir::affine::AffineForOp loop : nest.reductionChain)
    shape.reduction *= loop.getConstantUpperBound();
  mlir::Value init = mlir::affine::AffineForOp(nest.reduction).getInits()[0];
  mlir::Attribute start;
  if (mlir::matchPattern(init, mlir::m_Constant(&start)))
    shape.startsAtIdentity = isIdentityOf(nest.aggregate, start);
  shape.mmaInput = mmaInputOf(nest);
  for (unsigned i = 0; i < 2; ++i)
    shape.guardReadsFree[i] = guardReads(nest, shape.freeLoop[i]);
  for (unsigned i = 0; i < 2; ++i) {
    const ContractionOperand &operand = nest.operands[i];
    shape.contiguousAlongFree[i] = operand.contiguousAlongFree;
    int free = shape.freeLoop[i];
    shape.copiesBy16Bytes[i] =
        operand.contiguousAlongFree
            ? free >= 0 && operand.alignedElements % 8 == 0 &&
                  mlir::affine::AffineForOp(nest.band[free])
                          .getConstantUpperBound() % 8 == 0
            : operand.alignedRunsAlongReduction &&
                  nest.innermost().getConstantUpperBound() % 8 == 0;
    mlir::Type type = nest.operands[i].value.getType();
    shape.elementBytes[i] =
        type.isIntOrFloat()
            ? std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8)
            : 4;
  }
  return shape;
}

std::optional<std::string>
tilec::checkReductionSplit(const ContractionShape &shape, int64_t split) {
  if (split == 1)
    return std::nullopt;
  if (!shape.startsAtIdentity)
    return std::string("split = ") + std::to_string(split) +
           " needs a reduction that starts at its aggregation's identity";
  if (shape.reduction % split != 0)
    return llvm::formatv("split = {0} does not divide the {1} iterations of "
                         "the reduction",
                         split, shape.reduction)
        .str();
  return std::nullopt;
}

int64_t OuterProductTiling::localBytes(const ContractionShape &shape) const {
  if (wgmma)
    return pipeline * (rows.block + columns.block) * chunk * elementBytes;
  if (mma) {
    int64_t elements = 0;
    for (const OuterProductSide *side : {&rows, &columns})
      elements += freeMajor[side->operand] ? chunk * (side->block + kMmaPad)
                                           : side->block * (chunk + kMmaPad);
    return (pipeline ? pipeline : buffers) * elements * 2;
  }
  return buffers * chunk *
         (rows.block * shape.elementBytes[rows.operand] +
          columns.block * shape.elementBytes[columns.operand]);
}

namespace {

/// The side of grid dimension `dim`, or an error.
std::optional<std::string> sideOf(const ContractionShape &shape,
                                  const GPUGrid &grid,
                                  const KernelSchedule &schedule, unsigned dim,
                                  OuterProductSide &side) {
  const char *name = dim == 0 ? "x" : "y";
  const GridDim &grid1 = grid.dims[dim];
  if (grid1.loops.size() != 1)
    return llvm::formatv("the outer-product tiling needs one loop on grid {0}",
                         name)
        .str();
  side.loop = grid1.loops.front();
  if (side.loop == shape.freeLoop[0])
    side.operand = 0;
  else if (side.loop == shape.freeLoop[1])
    side.operand = 1;
  else
    return llvm::formatv("loop {0} on grid {1} is the free loop of neither "
                         "operand of the contraction",
                         side.loop, name)
        .str();
  side.block = grid1.block;
  side.thread = grid1.thread;
  side.warp = schedule.warpOf(side.loop);
  if (side.warp <= 0 || side.warp % side.thread != 0 ||
      side.block % side.warp != 0)
    return llvm::formatv("warp[{0}] = {1} must be a multiple of thread[{0}] "
                         "= {2} dividing the block {3}",
                         side.loop, side.warp, side.thread, side.block)
        .str();
  if (!schedule.mma && side.thread % schedule.vector != 0)
    return llvm::formatv("vector = {0} does not divide thread[{1}] = {2}",
                         schedule.vector, side.loop, side.thread)
        .str();
  return std::nullopt;
}

/// Whether the device and the contraction's operands take tensor cores
/// (`wgmma`: Hopper's warpgroup MMA, which sm_90a alone has).
std::optional<std::string> checkMmaInputs(const ContractionShape &shape,
                                          const schedule::DeviceProfile &device,
                                          bool wgmma) {
  if (wgmma && device.computeCapability != 90)
    return std::string("mma = 2 needs wgmma: a CUDA device of compute "
                       "capability 9.0 (--target=ptx)");
  if (device.computeCapability < 80)
    return std::string("mma = 1 needs tensor cores: a CUDA device of compute "
                       "capability 8.0 or newer (--target=ptx)");
  if (shape.mmaInput == MmaInput::None)
    return llvm::formatv("mma = {0} needs a sum of products of two f16 or two "
                         "bf16 operands (two f32 with --allow-tf32), with no "
                         "guard or one that takes or skips aligned runs of 8 "
                         "reduction iterations",
                         wgmma ? 2 : 1)
        .str();
  if (shape.mmaInput == MmaInput::TF32 && !wgmma)
    return std::string("mma = 1 takes f16 and bf16 operands: TF32 runs on "
                       "wgmma (mma = 2)");
  return std::nullopt;
}

/// The warpgroup MMA's rules on the sides and the chunk (OuterProductTiling::wgmma).
std::optional<std::string> checkWgmmaTiles(const OuterProductTiling &tiling,
                                           unsigned reductionLoop) {
  using T = OuterProductTiling;
  const OuterProductSide &rows = tiling.rows, &columns = tiling.columns;
  if ((rows.warp != T::kWgmmaM && rows.warp != 2 * T::kWgmmaM) ||
      rows.lanes() != 32)
    return llvm::formatv("with mma = 2, warp[{0}] = {1} must be 64 or 128 and "
                         "32 times thread[{0}] = {2}",
                         rows.loop, rows.warp, rows.thread)
        .str();
  int64_t multiple = tiling.freeMajor[columns.operand] ? T::kWgmmaRow : 8;
  if (columns.warp % multiple != 0 || columns.warp > T::kWgmmaMaxN ||
      columns.lanes() != 4)
    return llvm::formatv("with mma = 2, warp[{0}] = {1} must be a multiple of "
                         "{2} up to {3} and 4 times thread[{0}] = {4}",
                         columns.loop, columns.warp, multiple, T::kWgmmaMaxN,
                         columns.thread)
        .str();
  if (tiling.chunk != tiling.wgmmaRowElements())
    return llvm::formatv("with mma = 2, the reduction block block[{0}] = {1} "
                         "must be {2} (128-byte swizzled rows)",
                         reductionLoop, tiling.chunk,
                         tiling.wgmmaRowElements())
        .str();
  if (!tiling.pipeline)
    return std::string("mma = 2 copies its tiles with cp.async: it needs a "
                       "pipeline");
  return std::nullopt;
}

/// The tensor-core rules on the sides and the chunk.
std::optional<std::string> checkMmaTiles(const ContractionShape &shape,
                                         const OuterProductTiling &tiling,
                                         unsigned reductionLoop) {
  using T = OuterProductTiling;
  for (auto [side, instruction, lanes] :
       {std::tuple{&tiling.rows, T::kMmaM, int64_t(8)},
        std::tuple{&tiling.columns, T::kMmaN, int64_t(4)}})
    if (side->warp % instruction != 0 || side->lanes() != lanes)
      return llvm::formatv("with mma = 1, warp[{0}] = {1} must be a multiple "
                           "of {2} and {3} times thread[{0}] = {4}",
                           side->loop, side->warp, instruction, lanes,
                           side->thread)
          .str();
  int64_t steps = (shape.reduction + T::kMmaK - 1) / T::kMmaK * T::kMmaK;
  if (tiling.chunk < T::kMmaK || tiling.chunk % T::kMmaK != 0 ||
      tiling.chunk > steps)
    return llvm::formatv("with mma = 1, the reduction block block[{0}] = {1} "
                         "must be a multiple of {2} up to {3}",
                         reductionLoop, tiling.chunk, T::kMmaK, steps)
        .str();
  return std::nullopt;
}

} // namespace

OuterProductCheck tilec::checkOuterProductTiling(
    const ContractionShape &shape, const GPUGrid &grid,
    const KernelSchedule &schedule, const schedule::DeviceProfile &device) {
  OuterProductCheck check;
  if (shape.freeLoop[0] < 0 || shape.freeLoop[1] < 0) {
    check.error = "the outer-product tiling needs a contraction with one "
                  "free loop per operand";
    return check;
  }
  OuterProductTiling tiling;
  tiling.vector = schedule.vector;
  tiling.mma = schedule.mma != 0;
  tiling.wgmma = schedule.mma == 2;
  if (tiling.mma) {
    if (std::optional<std::string> error =
            checkMmaInputs(shape, device, tiling.wgmma)) {
      check.error = *error;
      return check;
    }
    if (tiling.vector != 1 && tiling.vector != 2 && tiling.vector != 4 &&
        tiling.vector != 8) {
      check.error = llvm::formatv("the tensor-core tiling needs vector = 1, "
                                  "2, 4 or 8, not {0}",
                                  tiling.vector);
      return check;
    }
  } else if (tiling.vector != 2 && tiling.vector != 4) {
    check.error = llvm::formatv("the outer-product tiling needs vector = 2 "
                                "or 4, not {0}",
                                tiling.vector);
    return check;
  }
  for (auto [dim, side] : {std::pair{1u, &tiling.rows},
                           std::pair{0u, &tiling.columns}})
    if (std::optional<std::string> error =
            sideOf(shape, grid, schedule, dim, *side)) {
      check.error = *error;
      return check;
    }
  if (tiling.rows.operand == tiling.columns.operand) {
    check.error = "grid x and y hold the free loops of one operand";
    return check;
  }
  unsigned reductionLoop = grid.dimOf.size();
  tiling.chunk = schedule.blockOf(reductionLoop);
  if (tiling.mma) {
    bool tf32 = shape.mmaInput == MmaInput::TF32;
    tiling.elementBytes = mmaElementBytes(shape.mmaInput);
    for (unsigned i = 0; i < 2; ++i) {
      tiling.freeMajor[i] = shape.contiguousAlongFree[i] && !tf32;
      tiling.transposed[i] = shape.contiguousAlongFree[i] && tf32;
      // A guarded tap is copied, or zero-filled, a vector along the
      // reduction at a time (ContractionShape::mmaInput).
      if (shape.contiguousAlongFree[i] && shape.guardReadsFree[i]) {
        check.error = llvm::formatv(
            "mma = {0} stages operand {1} along its free loop, which the "
            "guard reads",
            schedule.mma, i);
        return check;
      }
    }
    tiling.pipeline = schedule.pipeline;
    if (std::optional<std::string> error =
            tiling.wgmma ? checkWgmmaTiles(tiling, reductionLoop)
                         : checkMmaTiles(shape, tiling, reductionLoop)) {
      check.error = *error;
      return check;
    }
    int64_t vector16Bytes = 16 / tiling.elementBytes;
    if (tiling.pipeline && tiling.vector != vector16Bytes) {
      check.error = llvm::formatv("pipeline = {0} copies 16 bytes at a time: "
                                  "it needs vector = {1}, not {2}",
                                  tiling.pipeline, vector16Bytes,
                                  tiling.vector);
      return check;
    }
    for (const OuterProductSide *side : {&tiling.rows, &tiling.columns})
      if (tiling.pipeline && !tiling.transposed[side->operand] &&
          !shape.copiesBy16Bytes[side->operand]) {
        check.error = llvm::formatv(
            "pipeline = {0} needs operand {1} in runs of 16 aligned bytes "
            "along its tile's rows",
            tiling.pipeline, side->operand);
        return check;
      }
  } else if (tiling.chunk < 1 || tiling.chunk > shape.reduction) {
    check.error = llvm::formatv("the reduction block block[{0}] = {1} must be "
                                "between 1 and the {2} iterations of the "
                                "reduction",
                                reductionLoop, tiling.chunk, shape.reduction);
    return check;
  }
  tiling.buffers = schedule.buffers;
  tiling.items = grid.workItems();
  // A CUDA block opts in to more shared memory than it gets by default;
  // only the tensor-core tiles (PTX alone) use it.
  int64_t limit = tiling.mma ? std::max(device.localMemBytes,
                                        device.sharedMemOptInBytes)
                             : device.localMemBytes;
  if (int64_t bytes = tiling.localBytes(shape); bytes > limit) {
    check.error = llvm::formatv("the staged tiles need {0} bytes of local "
                                "memory, above the {1} of the device",
                                bytes, limit);
    return check;
  }
  check.tiling = tiling;
  return check;
}
