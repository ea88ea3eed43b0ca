//===- InlineConstantTensors.cpp - tilec-gpu-inline-constant-tensors ------===//
//
// The manifest (buildManifest) gives a kernel argument bound to a constant
// tensor no buffer, since no data travels with it; OpenCL C declares such a
// tensor as a `__constant` array inside the program. Here the kernel gets
// the tensor as an arith.constant (SPIR-V) or a global of its gpu.module
// (PTX) instead, and loses the argument, so that its remaining arguments
// are bound where the manifest says.
// A kernel launched several times (tilec-gpu-dedup-kernels) is inlined once,
// which its launches allow only when they bind the same tensors.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVectorExtras.h"

namespace tilec {
#define GEN_PASS_DEF_TILECGPUINLINECONSTANTTENSORSPASS
#include "tilec/Target/GPU/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The value of the constant global that `operand` takes, or null when it
/// takes none (it is a buffer).
DenseElementsAttr constantTensorOf(Value operand,
                                   SymbolTableCollection &symbols) {
  auto get = operand.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global =
      symbols.lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
  if (!global || !global.getConstant())
    return {};
  return dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
}

/// Makes `kernel` read the constant global `global` (copied into its
/// gpu.module once) in place of its argument `arg`.
LogicalResult useGlobal(gpu::GPUFuncOp kernel, BlockArgument arg,
                        memref::GlobalOp global) {
  auto kernels = kernel->getParentOfType<gpu::GPUModuleOp>();
  SymbolTable table(kernels);
  auto copy = table.lookup<memref::GlobalOp>(global.getSymName());
  if (!copy) {
    copy = cast<memref::GlobalOp>(global->clone());
    copy.setPrivate();
    table.insert(copy, kernels.getBody()->begin());
  }
  if (copy.getType() != arg.getType())
    return kernel.emitError("constant tensor of type ")
           << copy.getType() << " passed as " << arg.getType();
  OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Value read = memref::GetGlobalOp::create(builder, arg.getLoc(),
                                           copy.getType(), copy.getSymName());
  arg.replaceAllUsesWith(read);
  return success();
}

/// Makes `kernel` compute with `value` in place of its argument `arg`: every
/// load becomes a tensor.extract of the constant.
LogicalResult inlineTensor(gpu::GPUFuncOp kernel, BlockArgument arg,
                           DenseElementsAttr value) {
  for (Operation *user : arg.getUsers())
    if (!isa<memref::LoadOp>(user))
      return user->emitError("a kernel argument bound to a constant tensor "
                             "may only be loaded from on SPIR-V");
  auto type = cast<MemRefType>(arg.getType());
  auto tensorType = RankedTensorType::get(type.getShape(), type.getElementType());
  if (value.getType() != tensorType)
    return kernel.emitError("constant tensor of type ")
           << value.getType() << " passed as " << type;
  OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Value tensor = arith::ConstantOp::create(builder, arg.getLoc(), value);
  for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
    auto load = cast<memref::LoadOp>(user);
    builder.setInsertionPoint(load);
    Value element = tensor::ExtractOp::create(builder, load.getLoc(), tensor,
                                              load.getIndices());
    load.replaceAllUsesWith(element);
    load.erase();
  }
  return success();
}

/// The constant global `operand` takes, or null when it takes none.
Attribute constantGlobalOf(Value operand, SymbolTableCollection &symbols) {
  if (!constantTensorOf(operand, symbols))
    return {};
  return operand.getDefiningOp<memref::GetGlobalOp>().getNameAttr();
}

/// Whether every launch binds the same constant globals to the same
/// arguments as the first.
bool sameConstants(ArrayRef<gpu::LaunchFuncOp> launches,
                   SymbolTableCollection &symbols) {
  auto globals = [&](gpu::LaunchFuncOp launch) {
    return llvm::map_to_vector(launch.getKernelOperands(), [&](Value v) {
      return constantGlobalOf(v, symbols);
    });
  };
  SmallVector<Attribute> first = globals(launches.front());
  return llvm::all_of(launches, [&](gpu::LaunchFuncOp launch) {
    return globals(launch) == first;
  });
}

/// Inlines the constant tensors that `launches` (which agree on them) pass
/// to `kernel`, and drops those arguments from all of them.
LogicalResult inlineConstantArguments(ArrayRef<gpu::LaunchFuncOp> launches,
                                      gpu::GPUFuncOp kernel,
                                      SymbolTableCollection &symbols,
                                      bool asGlobal) {
  gpu::LaunchFuncOp launch = launches.front();
  llvm::BitVector inlined(kernel.getNumArguments());
  for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands())) {
    DenseElementsAttr value = constantTensorOf(operand, symbols);
    if (!value)
      continue;
    BlockArgument arg = kernel.getArgument(index);
    if (failed(asGlobal
                   ? useGlobal(kernel, arg,
                               symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
                                   launch, operand.getDefiningOp<memref::GetGlobalOp>()
                                               .getNameAttr()))
                   : inlineTensor(kernel, arg, value)))
      return failure();
    inlined.set(index);
  }
  if (inlined.none())
    return success();
  if (failed(kernel.eraseArguments(inlined)))
    return failure();
  for (gpu::LaunchFuncOp each : launches) {
    MutableOperandRange operands = each.getKernelOperandsMutable();
    for (int index = inlined.size() - 1; index >= 0; --index)
      if (inlined.test(index))
        operands.erase(index);
  }
  return success();
}

struct InlineConstantTensorsPass
    : tilec::impl::TilecGPUInlineConstantTensorsPassBase<
          InlineConstantTensorsPass> {
  using TilecGPUInlineConstantTensorsPassBase::
      TilecGPUInlineConstantTensorsPassBase;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    llvm::MapVector<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      if (auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              launch, launch.getKernel()))
        launches[kernel].push_back(launch);
    });
    for (auto &[op, kernelLaunches] : launches) {
      auto kernel = cast<gpu::GPUFuncOp>(op);
      gpu::LaunchFuncOp launch = kernelLaunches.front();
      bool takesConstant = llvm::any_of(launch.getKernelOperands(), [&](Value v) {
        return static_cast<bool>(constantTensorOf(v, symbols));
      });
      if (!takesConstant)
        continue;
      // One kernel body cannot hold two launches' different constants.
      if (!sameConstants(kernelLaunches, symbols)) {
        kernel.emitError() << "kernel '" << kernel.getName()
                           << "' is launched " << kernelLaunches.size()
                           << " times with different constant tensors";
        return signalPassFailure();
      }
      if (failed(inlineConstantArguments(kernelLaunches, kernel, symbols,
                                         asGlobal)))
        return signalPassFailure();
    }
  }
};

} // namespace
