//===- OutlineKernels.cpp - The tilec-cpu-outline-kernels pass ------------===//
//
// A function per distinct kernel. Two kernels are the same when their
// outlined functions are equivalent op for op (locations ignored), which
// the fingerprint only narrows down: the fingerprint is a hash, and a hash
// can collide.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Target/LLVM/Transforms/Passes.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace tilec {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

/// The values `kernel` uses that are defined outside it, in order of first
/// use, so that equal kernels list them in the same order.
llvm::SetVector<Value> valuesFromOutside(Operation *kernel) {
  llvm::SetVector<Value> outside;
  kernel->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      Region *home = operand.getParentRegion();
      if (!kernel->isAncestor(home->getParentOp()))
        outside.insert(operand);
    }
  });
  return outside;
}

class KernelOutliner {
public:
  KernelOutliner(ModuleOp module) : module(module), symbols(module) {}

  /// Replaces `kernel` with a call of its function.
  void outline(Operation *kernel);

private:
  ModuleOp module;
  SymbolTable symbols;
  /// The functions made so far, by fingerprint (or "" when a kernel has
  /// none).
  llvm::StringMap<SmallVector<func::FuncOp>> byFingerprint;

  func::FuncOp makeFunction(Operation *kernel, StringRef name,
                            ArrayRef<Value> arguments,
                            ArrayRef<Value> constants);
  func::FuncOp findEqual(func::FuncOp candidate, StringRef fingerprint);
  /// Marks `function`'s arguments that are the caller's program inputs
  /// (tilec.program_input) at its `first` call, and unmarks those that are
  /// not at every call.
  void markProgramInputs(func::FuncOp function, ArrayRef<Value> arguments,
                         Operation *kernel, bool first);
};

func::FuncOp KernelOutliner::makeFunction(Operation *kernel, StringRef name,
                                          ArrayRef<Value> arguments,
                                          ArrayRef<Value> constants) {
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  SmallVector<Type> types;
  for (Value value : arguments)
    types.push_back(value.getType());
  auto function = func::FuncOp::create(builder, kernel->getLoc(), name,
                                       builder.getFunctionType(types, {}));
  // Internal to the object, and kept out of line: inlining them back would
  // undo the point of the pass.
  function.setPrivate();
  function->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(builder.getContext(),
                                           LLVM::Linkage::Internal));
  function->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Value constant : constants)
    builder.clone(*constant.getDefiningOp(), mapping);
  Operation *copy = builder.clone(*kernel, mapping);
  copy->removeAttr(tilec::kernel::KernelName::getNameStr());
  func::ReturnOp::create(builder, kernel->getLoc());
  return function;
}

void KernelOutliner::markProgramInputs(func::FuncOp function,
                                       ArrayRef<Value> arguments,
                                       Operation *kernel, bool first) {
  // Kernels are collected from function bodies: there is a caller.
  auto caller = kernel->getParentOfType<func::FuncOp>();
  StringRef name = tilec::kernel::ProgramInput::getNameStr();
  for (auto [number, value] : llvm::enumerate(arguments)) {
    bool input = tilec::programInputNumber(caller, value).has_value();
    if (first && input)
      function.setArgAttr(number, name, UnitAttr::get(kernel->getContext()));
    else if (!input)
      function.removeArgAttr(number, name);
  }
}

func::FuncOp KernelOutliner::findEqual(func::FuncOp candidate,
                                       StringRef fingerprint) {
  for (func::FuncOp existing : byFingerprint[fingerprint])
    if (existing.getFunctionType() == candidate.getFunctionType() &&
        OperationEquivalence::isRegionEquivalentTo(
            &existing.getBody(), &candidate.getBody(),
            OperationEquivalence::IgnoreLocations))
      return existing;
  return {};
}

void KernelOutliner::outline(Operation *kernel) {
  SmallVector<Value> arguments, constants;
  for (Value value : valuesFromOutside(kernel))
    (matchPattern(value, m_Constant()) ? constants : arguments)
        .push_back(value);
  auto name = kernel->getAttrOfType<StringAttr>(tilec::kernel::KernelName::getNameStr());
  auto fingerprint =
      kernel->getAttrOfType<StringAttr>(tilec::kernel::Fingerprint::getNameStr());
  StringRef key = fingerprint ? fingerprint.getValue() : "";

  func::FuncOp function = makeFunction(
      kernel, ("tilec_kernel_" + name.getValue()).str(), arguments,
      constants);
  func::FuncOp equal = findEqual(function, key);
  if (equal) {
    function.erase();
    function = equal;
  } else {
    symbols.insert(function); // Renames it if the name is taken.
    byFingerprint[key].push_back(function);
  }
  markProgramInputs(function, arguments, kernel, /*first=*/!equal);
  OpBuilder builder(kernel);
  auto call = func::CallOp::create(builder, kernel->getLoc(), function,
                                   arguments);
  call->setAttr(tilec::kernel::KernelName::getNameStr(), name);
  kernel->erase();
}

struct OutlineKernelsPass
    : public tilec::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> kernels;
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      for (Operation &op : function.getBody().getOps())
        if (isa<affine::AffineForOp>(op) &&
            op.getAttrOfType<StringAttr>(tilec::kernel::KernelName::getNameStr()))
          kernels.push_back(&op);
    }
    KernelOutliner outliner(getOperation());
    for (Operation *kernel : kernels)
      outliner.outline(kernel);
  }
};

} // namespace
