//===- MapKernelsToGPU.cpp - tilec-gpu-map-kernels ------------------------===//
//
// Turns each kernel nest into a gpu.func and a gpu.launch_func, as the
// kernel's plan (KernelPlan.h) says. Upstream's route (scf.parallel ->
// gpu-map-parallel-loops -> convert-parallel-loops-to-gpu ->
// gpu-kernel-outlining) maps one loop per grid dimension with one element
// per work-item, names kernels after the host function and puts each in a
// module of its own; the schedule needs work-group tiles, several elements
// per work-item, flattened outer loops and one module of named kernels, and
// emitting the gpu.func directly is shorter than repairing that output.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "KernelPlan.h"
#include "MmaBody.h"
#include "OuterProductBody.h"
#include "RowBody.h"
#include "StagedReduction.h"
#include "VectorBody.h"
#include "tilec/Dialect/Kernel/Analysis/ParallelBand.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tilec {
#define GEN_PASS_DEF_TILECMAPKERNELSTOGPUPASS
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

namespace {

/// The gpu.module that holds every kernel.
constexpr llvm::StringLiteral kKernelModuleName = "tilec_kernels";

/// `name` made a C identifier: every other character becomes '_', and a
/// leading digit gets a prefix.
std::string kernelSymbol(StringRef name) {
  std::string symbol;
  for (char c : name)
    symbol += llvm::isAlnum(c) ? c : '_';
  if (symbol.empty() || llvm::isDigit(symbol.front()))
    symbol = "k_" + symbol;
  return symbol;
}

/// Lowers the affine ops of a kernel to scf, arith and memref. The nest's
/// body is cloned into the kernel as it is, affine ops included, and those
/// are lowered at once, in this pass: their induction variables have become
/// work-item positions, which are no affine dimensions.
LogicalResult lowerAffineIn(gpu::GPUFuncOp kernel) {
  SmallVector<Operation *> ops;
  for (Operation &op : kernel.getBody().front())
    ops.push_back(&op);
  MLIRContext *context = kernel.getContext();
  RewritePatternSet patterns(context);
  populateAffineToStdConversionPatterns(patterns);
  populateAffineToVectorConversionPatterns(patterns);
  ConversionTarget target(*context);
  target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect,
                         scf::SCFDialect, vector::VectorDialect>();
  target.addIllegalDialect<affine::AffineDialect>();
  return applyPartialConversion(ops, target, std::move(patterns));
}

/// Unrolls the innermost loops of the nest that run inside a work-item (the
/// reductions) by the schedule's factor, in the host nest before it is
/// cloned, where it is still valid affine code. A staged reduction keeps its
/// loads in the shape the staging plan recorded, so emitStagedBody unrolls
/// it instead, once its body is built.
void unrollReductions(KernelPlan &plan) {
  if (plan.schedule.unroll <= 1 || plan.staging || plan.outerProduct ||
      plan.rows)
    return;
  SmallVector<affine::AffineForOp> innermost;
  plan.root.walk([&](affine::AffineForOp loop) {
    if (llvm::is_contained(plan.band, loop))
      return;
    bool hasInner = false;
    loop.getBody()->walk([&](affine::AffineForOp) { hasInner = true; });
    if (!hasInner)
      innermost.push_back(loop);
  });
  for (affine::AffineForOp loop : innermost)
    (void)affine::loopUnrollByFactor(loop, plan.schedule.unroll);
}

/// Builds the body of one kernel: the positions of each work-item, the
/// loops over the elements it computes, the guard, and the nest's body.
class KernelBodyBuilder {
public:
  KernelBodyBuilder(KernelPlan &plan, OpBuilder &builder, IRMapping &mapping)
      : plan(plan), b(builder), mapping(mapping), loc(plan.root.getLoc()) {}

  /// Emits everything at `b`'s insertion point.
  void build(ValueRange tiles) {
    if (plan.outerProduct && plan.outerProduct->tiling.wgmma)
      return emitWgmmaBody(plan, b, mapping, tiles);
    if (plan.outerProduct && plan.outerProduct->tiling.mma)
      return emitMmaBody(plan, b, mapping, tiles);
    if (plan.outerProduct)
      return emitOuterProductBody(plan, b, mapping, tiles);
    if (plan.rows)
      return emitRowBody(plan, b, mapping, tiles);
    if (plan.band.empty()) {
      Operation *serial = b.clone(*plan.root, mapping);
      serial->setDiscardableAttrs(ArrayRef<NamedAttribute>{});
      return;
    }
    Value inBounds = emitPositions();
    if (plan.staging) {
      place.inBounds = inBounds;
      place.linearId = emitLinearId();
      return emitStagedBody(plan, b, mapping, place, tiles);
    }
    if (inBounds) {
      auto guard = scf::IfOp::create(b, loc, inBounds, false);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    Block &body = *plan.band.back().getBody();
    if (plan.schedule.vector > 1)
      return emitVectorBody(body, plan.band[plan.dims[0].loops.front()],
                            plan.schedule.vector, b, mapping);
    for (Operation &op : body.without_terminator())
      b.clone(op, mapping);
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value mul(Value lhs, int64_t rhs) {
    return rhs == 1 ? lhs
                    : arith::MulIOp::create(b, loc, lhs, constant(rhs))
                          .getResult();
  }

  /// The work-item's number in its work-group, x fastest.
  Value emitLinearId() {
    Value id;
    for (int d = 2; d >= 0; --d) {
      GridDim &dim = plan.dims[d];
      if (dim.workItems() == 1)
        continue;
      Value item = gpu::ThreadIdOp::create(b, loc, kDims[d]);
      id = id ? arith::AddIOp::create(
                    b, loc,
                    arith::MulIOp::create(b, loc, id,
                                          constant(dim.workItems())),
                    item)
                    .getResult()
              : item;
    }
    return id ? id : constant(0);
  }

  /// Maps the band's induction variables to this work-item's iteration and
  /// returns the condition that it lies inside the loops (null if always).
  /// With staging, the iteration is clamped into the loops instead of
  /// skipped, so that every work-item reaches the barriers.
  Value emitPositions() {
    Value inBounds;
    for (int d = 2; d >= 0; --d) {
      GridDim &dim = plan.dims[d];
      if (dim.loops.empty())
        continue;
      Value group = gpu::BlockIdOp::create(b, loc, kDims[d]);
      Value position =
          dim.block == 1
              ? group
              : arith::MulIOp::create(b, loc, group, constant(dim.block))
                    .getResult();
      if (dim.loops.size() == 1)
        place.blockStart[d] = position;
      // Along x a work-item takes `vector` neighbouring iterations at once.
      int64_t width = d == 0 ? plan.schedule.vector : 1;
      if (dim.workItems() > 1) {
        Value item = gpu::ThreadIdOp::create(b, loc, kDims[d]);
        position = arith::AddIOp::create(b, loc, position, mul(item, width));
      }
      if (dim.thread > width) {
        // Element (or vector) j of a work-item lies a work-group's width
        // further on, so that neighbouring work-items touch neighbouring
        // addresses.
        auto elements = scf::ForOp::create(b, loc, constant(0),
                                           constant(dim.thread / width),
                                           constant(1));
        b.setInsertionPoint(elements.getBody()->getTerminator());
        Value offset = mul(elements.getInductionVar(),
                           dim.workItems() * width);
        position = arith::AddIOp::create(b, loc, position, offset);
      }
      if (dim.needsGuard()) {
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             position, constant(dim.extent));
        inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, inside)
                                  .getResult()
                            : inside;
        if (plan.staging)
          position = arith::MinUIOp::create(b, loc, position,
                                            constant(dim.extent - 1));
      }
      mapBandInductionVars(plan, dim, position, b, mapping);
    }
    return inBounds;
  }

  static constexpr gpu::Dimension kDims[3] = {
      gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};

  KernelPlan &plan;
  OpBuilder &b;
  IRMapping &mapping;
  Location loc;
  WorkItemPlace place;
};

/// The workgroup-memory tiles of a kernel, one per staged operand.
SmallVector<Type> tileTypes(const KernelPlan &plan) {
  SmallVector<Type> types;
  if (plan.staging)
    for (const StagedOperand &operand : plan.staging->operands)
      types.push_back(operand.tileType);
  if (plan.outerProduct)
    types = {plan.outerProduct->rowsTile, plan.outerProduct->columnsTile};
  if (plan.rows)
    types.assign(plan.rows->scratch.begin(), plan.rows->scratch.end());
  return types;
}

struct MapKernelsToGPUPass
    : tilec::impl::TilecMapKernelsToGPUPassBase<MapKernelsToGPUPass> {
  using TilecMapKernelsToGPUPassBase::TilecMapKernelsToGPUPassBase;

  void runOnOperation() override;

private:
  LogicalResult mapKernel(KernelPlan &plan, SymbolTable &kernels);
};

void MapKernelsToGPUPass::runOnOperation() {
  ModuleOp module = getOperation();
  schedule::DeviceProfile target = kernel::getGPUTarget(module);
  // Check every schedule before rewriting anything.
  std::vector<KernelPlan> plans;
  bool valid = true;
  for (auto func : module.getOps<func::FuncOp>())
    for (affine::AffineForOp kernel : getKernelNests(func)) {
      FailureOr<KernelPlan> plan = planKernel(kernel, target);
      if (failed(plan))
        valid = false;
      else
        plans.push_back(std::move(*plan));
    }
  if (!valid)
    return signalPassFailure();
  if (plans.empty())
    return;

  OpBuilder builder(module.getBodyRegion());
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  auto kernelModule =
      module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
  if (!kernelModule) {
    builder.setInsertionPointToEnd(module.getBody());
    kernelModule =
        gpu::GPUModuleOp::create(builder, module.getLoc(), kKernelModuleName);
  }
  SymbolTable kernels(kernelModule);
  for (KernelPlan &plan : plans)
    if (failed(mapKernel(plan, kernels)))
      return signalPassFailure();
}

LogicalResult MapKernelsToGPUPass::mapKernel(KernelPlan &plan,
                                             SymbolTable &kernels) {
  affine::AffineForOp root = plan.root;
  Location loc = root.getLoc();
  MLIRContext *context = root.getContext();

  unrollReductions(plan);

  // Values from outside the nest: constants are cloned in, the rest (the
  // buffers) become kernel arguments.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(root.getRegion(), captured);
  SmallVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      arguments.push_back(value);
  }

  auto name = root->getAttrOfType<StringAttr>(tilec::kernel::KernelName::getNameStr());
  OpBuilder detached(context);
  auto func = gpu::GPUFuncOp::create(
      detached, loc, kernelSymbol(name.getValue()),
      FunctionType::get(context, ValueRange(arguments).getTypes(), {}),
      tileTypes(plan));
  kernels.insert(func);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                detached.getUnitAttr());
  func->setAttr(tilec::kernel::KernelName::getNameStr(), name);
  if (Attribute fingerprint = root->getAttr(tilec::kernel::Fingerprint::getNameStr()))
    func->setAttr(tilec::kernel::Fingerprint::getNameStr(), fingerprint);
  tilec::kernel::setKernelSchedule(func, plan.schedule);
  SmallVector<int32_t> blockSize, gridSize;
  for (GridDim &dim : plan.dims) {
    blockSize.push_back(int32_t(dim.workItems()));
    gridSize.push_back(int32_t(dim.groups()));
  }
  func.setKnownBlockSizeAttr(detached.getDenseI32ArrayAttr(blockSize));
  func.setKnownGridSizeAttr(detached.getDenseI32ArrayAttr(gridSize));

  Block &entry = func.getBody().front();
  IRMapping mapping;
  mapping.map(arguments, entry.getArguments());
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (Operation *constant : constants)
    b.clone(*constant, mapping);
  KernelBodyBuilder(plan, b, mapping).build(func.getWorkgroupAttributions());
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);
  if (failed(lowerAffineIn(func)))
    return root.emitError("cannot lower the kernel's affine ops");

  OpBuilder host(root);
  auto size = [&](int32_t value) -> Value {
    return arith::ConstantIndexOp::create(host, loc, value);
  };
  gpu::LaunchFuncOp::create(
      host, loc, func,
      gpu::KernelDim3{size(gridSize[0]), size(gridSize[1]), size(gridSize[2])},
      gpu::KernelDim3{size(blockSize[0]), size(blockSize[1]),
                      size(blockSize[2])},
      Value(), arguments);
  root.erase();
  return success();
}

} // namespace
