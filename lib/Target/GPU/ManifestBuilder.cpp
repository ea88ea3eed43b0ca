//===- ManifestBuilder.cpp - The launch manifest of the gpu level ---------===//
//
// Part of lib/Target/GPU; see ManifestBuilder.h. The flop count of a
// launch is an estimate for rooflines: every arith or math op that computes
// a value (not constants, casts, comparisons, selects or index arithmetic),
// per vector element (a tensor-core mma.sync its lane's share of the
// warp's products), times the trip counts of the loops around it and the
// number of work-items; both branches of an scf.if count.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/ManifestBuilder.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/IR/ElementTypes.h"
#include "tilec/Dialect/Kernel/Analysis/TemporaryPlan.h"
#include "tilec/Target/GPU/GPUProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CastInterfaces.h"

#include "llvm/Support/MathExtras.h"

#include <set>

using namespace mlir;
using namespace tilec;
using namespace tilec::gpuprogram;

/// Elements computed by one op producing `type`.
static uint64_t lanes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements();
  return 1;
}

/// Arithmetic operations one work-item performs in `block`, each counted
/// `multiplier` times.
static uint64_t countFlops(Block &block, uint64_t multiplier) {
  uint64_t total = 0;
  auto add = [&](uint64_t count) {
    total = llvm::SaturatingAdd(
        total, llvm::SaturatingMultiply(count, multiplier));
  };
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      APInt lower, upper, step;
      uint64_t trips = 1;
      if (matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) &&
          matchPattern(loop.getUpperBound(), m_ConstantInt(&upper)) &&
          matchPattern(loop.getStep(), m_ConstantInt(&step)) &&
          step.getSExtValue() > 0)
        trips = upper.getSExtValue() <= lower.getSExtValue()
                    ? 0
                    : llvm::divideCeil(upper.getSExtValue() -
                                           lower.getSExtValue(),
                                       step.getSExtValue());
      total = llvm::SaturatingAdd(
          total, countFlops(*loop.getBody(),
                            llvm::SaturatingMultiply(multiplier, trips)));
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        total = llvm::SaturatingAdd(total, countFlops(inner, multiplier));
    if (auto fma = dyn_cast<vector::FMAOp>(op)) {
      add(2 * lanes(fma.getType()));
      continue;
    }
    if (auto reduction = dyn_cast<vector::ReductionOp>(op)) {
      add(reduction.getSourceVectorType().getNumElements());
      continue;
    }
    // A warp's tensor-core product of m x k by k x n, shared by its 32
    // lanes (by name: the gpu level needs no nvgpu dialect for the rest).
    if (op.getName().getStringRef() == "nvgpu.mma.sync") {
      uint64_t products = 1;
      if (auto shape = op.getAttrOfType<ArrayAttr>("mmaShape"))
        for (Attribute extent : shape)
          if (auto value = dyn_cast<IntegerAttr>(extent))
            products *= value.getInt();
      add(2 * products / 32);
      continue;
    }
    // A warpgroup's: m64nNk16 shared by its 128 work-items.
    if (op.getName().getStringRef() == "nvvm.wgmma.mma_async") {
      if (auto shape = op.getAttrOfType<NVVM::MMAShapeAttr>("shape"))
        add(2 * uint64_t(shape.getM()) * shape.getN() * shape.getK() / 128);
      continue;
    }
    llvm::StringRef dialect = op.getName().getDialectNamespace();
    if ((dialect != "arith" && dialect != "math") || op.getNumResults() != 1 ||
        isa<arith::ConstantOp, arith::SelectOp, arith::CmpIOp, arith::CmpFOp,
            CastOpInterface>(op))
      continue;
    Type type = op.getResult(0).getType();
    if (type.isIndex())
      continue;
    add(lanes(type));
  }
  return total;
}

/// Adds the temporary buffers to `manifest`: one per slot of the
/// temporary plan, then one per temporary the plan left alone; `idOf`
/// gets the manifest id of each temporary of `program`. The runtimes run
/// kernels in order (an in-order OpenCL queue; a Vulkan barrier between
/// dispatches), so a kernel never overlaps the one that last used a slot.
static void addTemporaries(const GPUProgram &program, rt::Manifest &manifest,
                           std::vector<int> &idOf) {
  TemporaryPlan plan = planTemporaries(program.entry);
  int firstSlot = manifest.buffers.size();
  for (uint64_t bytes : plan.slotBytes) {
    rt::ManifestBuffer slot;
    slot.id = manifest.buffers.size();
    slot.bytes = bytes;
    manifest.buffers.push_back(slot);
  }
  manifest.peakTemporaryBytes = plan.peakBytes();
  for (auto [index, buffer] : llvm::enumerate(program.buffers)) {
    if (buffer.role != rt::BufferRole::Temporary)
      continue;
    if (std::optional<unsigned> slot = plan.slotOf(buffer.value)) {
      idOf[index] = firstSlot + *slot;
      continue;
    }
    rt::ManifestBuffer own;
    own.id = idOf[index] = manifest.buffers.size();
    own.bytes = buffer.bytes;
    manifest.peakTemporaryBytes += buffer.bytes;
    manifest.buffers.push_back(own);
  }
}

/// Fills the buffers, inputs and outputs of `manifest`; `idOf` gets the
/// manifest id of each buffer of `program`.
static LogicalResult addBuffers(const GPUProgram &program,
                                const ManifestContext &context,
                                rt::Manifest &manifest,
                                std::vector<int> &idOf) {
  idOf.assign(program.buffers.size(), -1);
  size_t inputIndex = 0, outputIndex = 0;
  for (auto [programIndex, buffer] : llvm::enumerate(program.buffers)) {
    if (buffer.role == rt::BufferRole::Temporary)
      continue;
    int id = idOf[programIndex] = manifest.buffers.size();
    rt::ManifestBuffer entry;
    entry.id = id;
    entry.role = buffer.role;
    entry.bytes = buffer.bytes;
    bool isInput = buffer.role == rt::BufferRole::Input;
    const std::vector<DType> &given =
        isInput ? context.inputDTypes : context.outputDTypes;
    size_t index = isInput ? inputIndex++ : outputIndex++;
    std::optional<DType> dtype;
    if (given.empty())
      dtype = dtypeOfSignlessType(buffer.type.getElementType());
    else if (index < given.size())
      dtype = given[index];
    if (!dtype)
      return func::FuncOp(program.entry).emitError("no dtype for ")
             << (isInput ? "input" : "output") << " '" << buffer.name << "'";
    entry.name = buffer.name;
    entry.dtype = *dtype;
    entry.shape.assign(buffer.type.getShape().begin(),
                       buffer.type.getShape().end());
    (isInput ? manifest.inputs : manifest.outputs).push_back({buffer.name, id});
    manifest.buffers.push_back(entry);
  }
  addTemporaries(program, manifest, idOf);
  if (inputIndex != context.inputDTypes.size() && !context.inputDTypes.empty())
    return func::FuncOp(program.entry).emitError("the typed program has ")
           << context.inputDTypes.size() << " inputs, the gpu level "
           << inputIndex;
  if (outputIndex != context.outputDTypes.size() &&
      !context.outputDTypes.empty())
    return func::FuncOp(program.entry).emitError("the typed program has ")
           << context.outputDTypes.size() << " outputs, the gpu level "
           << outputIndex;
  return success();
}

/// The manifest entry of one launch; `idOf` maps the program's buffers to
/// the manifest's.
static rt::ManifestKernel kernelEntry(const GPUProgram &program,
                                      const KernelLaunch &launch,
                                      const std::vector<int> &idOf) {
  rt::ManifestKernel kernel;
  kernel.name = launch.name;
  if (auto fingerprint =
          tilec::kernel::Fingerprint(launch.kernel->getContext())
              .getAttr(launch.kernel))
    kernel.fingerprint = fingerprint.str();
  kernel.statements = launch.statements;
  std::set<int> touched;
  for (const LaunchArg &arg : launch.args) {
    if (arg.buffer < 0)
      continue;
    kernel.args.push_back({idOf[arg.buffer], arg.access});
    touched.insert(arg.buffer);
  }
  uint64_t workItems = 1;
  for (int dim = 0; dim < 3; ++dim) {
    kernel.local[dim] = launch.block[dim];
    kernel.global[dim] =
        llvm::SaturatingMultiply(launch.grid[dim], launch.block[dim]);
    workItems = llvm::SaturatingMultiply(workItems, kernel.global[dim]);
  }
  kernel.flops = countFlops(gpu::GPUFuncOp(launch.kernel).getBody().front(), workItems);
  kernel.dynamicSharedBytes = dynamicSharedBytes(launch.kernel);
  for (int buffer : touched)
    kernel.bytes += program.buffers[buffer].bytes;
  return kernel;
}

FailureOr<rt::Manifest> tilec::buildManifest(ModuleOp module,
                                             const ManifestContext &context) {
  auto program = analyzeGPUProgram(module);
  if (failed(program))
    return failure();
  rt::Manifest manifest;
  manifest.target = context.target;
  manifest.artefact = context.artefact;
  manifest.program = context.program;
  manifest.entry = context.entry.empty()
                       ? program->entry.getSymName().str()
                       : context.entry;
  manifest.tilecVersion = context.tilecVersion;
  manifest.device = context.device;
  std::vector<int> idOf;
  if (failed(addBuffers(*program, context, manifest, idOf)))
    return failure();
  for (const KernelLaunch &launch : program->launches)
    manifest.kernels.push_back(kernelEntry(*program, launch, idOf));
  return manifest;
}
