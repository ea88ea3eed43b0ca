//===- EmulateBF16.cpp - tilec-spirv-emulate-bf16 -------------------------===//
//
// Vulkan has no bf16 type. Once upstream's emulation passes have moved bf16
// arithmetic to f32, bf16 is only carried around, so it becomes i16 bits:
// extensions shift the bits into an f32, truncations round with the loop
// level's own bit-exact routine (TileToLoops' roundToNarrowFloat, the
// interpreter's rounding), and every other bf16 value, memref and function
// signature is retyped in place. Retyping the host function too keeps the
// gpu.launch_func operands matching the kernels.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "../../Conversion/TileToLoops/Patterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilec {
#define GEN_PASS_DEF_TILECSPIRVEMULATEBF16PASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// `type` with bf16 (alone, or as the element of a shaped type) as i16.
Type bitsType(Type type) {
  auto i16 = IntegerType::get(type.getContext(), 16);
  if (type.isBF16())
    return i16;
  if (auto shaped = dyn_cast<ShapedType>(type))
    if (shaped.getElementType().isBF16())
      return shaped.clone(i16);
  if (auto func = dyn_cast<FunctionType>(type)) {
    auto map = [](TypeRange types) {
      return llvm::to_vector(llvm::map_range(types, bitsType));
    };
    return FunctionType::get(type.getContext(), map(func.getInputs()),
                             map(func.getResults()));
  }
  return type;
}

bool mentionsBF16(Type type) { return bitsType(type) != type; }

bool mentionsBF16(Operation *op) {
  return llvm::any_of(op->getOperandTypes(),
                      [](Type t) { return mentionsBF16(t); }) ||
         llvm::any_of(op->getResultTypes(),
                      [](Type t) { return mentionsBF16(t); });
}

/// Ops that only move or hold values, so that retyping them is exact.
bool movesValuesOnly(Operation *op) {
  return isa<arith::SelectOp, arith::BitcastOp, arith::ConstantOp,
             gpu::LaunchFuncOp,
             gpu::ReturnOp, func::ReturnOp, func::CallOp, vector::LoadOp,
             vector::StoreOp, vector::BroadcastOp, vector::ExtractOp,
             vector::InsertOp, vector::TransferReadOp,
             vector::TransferWriteOp>(op) ||
         isa<memref::MemRefDialect, scf::SCFDialect>(op->getDialect());
}

/// The f32 (or wider) value of bf16 bits `bits` (i16 after retyping).
Value extendBits(OpBuilder &b, Location loc, Value bits, FloatType to) {
  Type i32 = b.getI32Type();
  Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
  Value shifted = arith::ShLIOp::create(
      b, loc, wide,
      arith::ConstantOp::create(b, loc, i32, IntegerAttr::get(i32, 16)));
  Value f32 = arith::BitcastOp::create(b, loc, b.getF32Type(), shifted);
  return to.isF32() ? f32 : arith::ExtFOp::create(b, loc, to, f32);
}

struct EmulateBF16Pass
    : tilec::impl::TilecSPIRVEmulateBF16PassBase<EmulateBF16Pass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Truncations first, while their results are still bf16: the rounding
    // routine builds bf16 constants and selects, retyped below.
    SmallVector<arith::TruncFOp> truncations;
    module.walk([&](arith::TruncFOp op) {
      if (op.getType().isBF16())
        truncations.push_back(op);
    });
    for (arith::TruncFOp op : truncations) {
      OpBuilder b(op);
      op.replaceAllUsesWith(tilec::loops::roundToNarrowFloat(
          b, op.getLoc(), op.getIn(), /*isUnsigned=*/false,
          cast<FloatType>(op.getType())));
      op.erase();
    }

    SmallVector<arith::ExtFOp> extensions;
    WalkResult result = module.walk([&](Operation *op) {
      if (!mentionsBF16(op))
        return WalkResult::advance();
      if (auto ext = dyn_cast<arith::ExtFOp>(op);
          ext && ext.getIn().getType().isBF16() &&
          cast<FloatType>(ext.getType()).getWidth() >= 32) {
        extensions.push_back(ext);
        return WalkResult::advance();
      }
      if (isa<FunctionOpInterface>(op) || movesValuesOnly(op))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' on bf16 has no SPIR-V emulation";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();

    retype(module);
    for (arith::ExtFOp op : extensions) {
      OpBuilder b(op);
      op.replaceAllUsesWith(extendBits(b, op.getLoc(), op.getIn(),
                                       cast<FloatType>(op.getType())));
      op.erase();
    }
  }

  /// bf16 -> i16 in every type of the module; bf16 constants become their
  /// bits and bitcasts that became no-ops disappear.
  void retype(ModuleOp module) {
    SmallVector<Operation *> noOps;
    module.walk([&](Operation *op) {
      if (auto func = dyn_cast<FunctionOpInterface>(op))
        func.setType(bitsType(func.getFunctionType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(bitsType(arg.getType()));
      for (OpResult value : op->getResults())
        value.setType(bitsType(value.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        retypeConstant(constant);
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        retypeGlobal(global);
      if (auto cast = dyn_cast<arith::BitcastOp>(op))
        if (cast.getIn().getType() == cast.getType())
          noOps.push_back(op);
    });
    for (Operation *op : noOps) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  }

  /// A bf16 memref.global (a constant tensor) as i16 memory with the same
  /// bits, matching its memref.get_global users once they are retyped.
  static void retypeGlobal(memref::GlobalOp op) {
    MemRefType type = op.getType();
    if (!type.getElementType().isBF16())
      return;
    auto bits = cast<MemRefType>(bitsType(type));
    op.setType(bits);
    if (auto initial = op.getInitialValue())
      if (auto dense = dyn_cast<DenseFPElementsAttr>(*initial))
        op.setInitialValueAttr(dense.bitcast(bits.getElementType()));
  }

  /// A bf16 constant (its type already i16) as the same bits.
  static void retypeConstant(arith::ConstantOp op) {
    Type type = op.getType();
    if (auto value = dyn_cast<FloatAttr>(op.getValue())) {
      if (value.getType().isBF16())
        op.setValueAttr(IntegerAttr::get(
            type, value.getValue().bitcastToAPInt()));
    } else if (auto dense = dyn_cast<DenseFPElementsAttr>(op.getValue())) {
      if (dense.getElementType().isBF16())
        op.setValueAttr(dense.bitcast(getElementTypeOrSelf(type)));
    }
  }
};

} // namespace
