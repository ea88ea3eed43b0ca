//===- KeepPackedInputs.cpp - tilec-cpu-keep-packed-inputs ----------------===//
//
// Turns the kept panels of KeptPanels.h into arguments of their kernel
// function and gives each call what fits its operand (see the pass's
// description). A kernel function is shared by every call of an equal
// kernel, so the buffer cannot be a global of the function: ResNet's
// stages call one convolution with each of their filters.
//
//===----------------------------------------------------------------------===//

#include "KeptPanels.h"

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tilec {
#define GEN_PASS_DEF_KEEPPACKEDINPUTSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::transforms;

namespace {

/// Alignment of the kept buffers: a whole cache line, like malloc'd
/// vectors' rows.
constexpr int64_t kBufferAlignment = 64;

/// The tagged ops of one kernel function: its kept buffers and its flags,
/// each with the number of the argument it packs.
struct KeptOps {
  SmallVector<std::pair<memref::AllocOp, int64_t>> buffers;
  SmallVector<std::pair<arith::ConstantOp, int64_t>> flags;
};

KeptOps keptOpsOf(func::FuncOp function) {
  KeptOps kept;
  for (Operation &op : function.getBody().front()) {
    if (auto number = op.getAttrOfType<IntegerAttr>(kPackedArgument))
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        kept.buffers.push_back({alloc, number.getInt()});
    if (auto number = op.getAttrOfType<IntegerAttr>(kRepackArgument))
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        kept.flags.push_back({constant, number.getInt()});
  }
  return kept;
}

class KeptInputs {
public:
  KeptInputs(ModuleOp module, func::FuncOp entry, unsigned inputs)
      : module(module), symbols(module), users(tables, module), entry(entry),
        inputs(inputs) {}

  /// Rewrites `function` and its calls in the entry; false (nothing done)
  /// when something else uses it.
  bool rewrite(func::FuncOp function, const KeptOps &kept);
  /// `<entry>_changed_inputs`, made on first use.
  memref::GlobalOp changedInputs();

private:
  ModuleOp module;
  SymbolTable symbols;
  /// Who uses each function, found in one walk (a walk per function took
  /// 36 ms of MobileNet's compile). Rewriting one function's calls leaves
  /// the others' as they were.
  SymbolTableCollection tables;
  SymbolUserMap users;
  func::FuncOp entry;
  unsigned inputs;
  memref::GlobalOp changed;

  /// The entry's input that `value` is, if it is one.
  std::optional<unsigned> inputOf(Value value) {
    return tilec::programInputNumber(entry, value);
  }
  memref::GlobalOp global(StringRef name, MemRefType type,
                          Attribute initialValue, bool isPublic);
  void rewriteCall(func::CallOp call, func::FuncOp function,
                   const KeptOps &kept);
};

memref::GlobalOp KeptInputs::global(StringRef name, MemRefType type,
                                    Attribute initialValue, bool isPublic) {
  if (auto existing = symbols.lookup<memref::GlobalOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto op = memref::GlobalOp::create(
      b, module.getLoc(), name,
      isPublic ? StringAttr() : b.getStringAttr("private"), type, initialValue,
      /*constant=*/false, b.getI64IntegerAttr(kBufferAlignment));
  symbols.insert(op);
  return op;
}

memref::GlobalOp KeptInputs::changedInputs() {
  if (changed)
    return changed;
  Builder b(module.getContext());
  auto type = MemRefType::get({int64_t(inputs)}, b.getI8Type());
  auto ones = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), type.getElementType()),
      b.getI8IntegerAttr(kOwnPanels));
  changed = global((entry.getSymName() + "_changed_inputs").str(), type, ones,
                   /*isPublic=*/true);
  return changed;
}

bool KeptInputs::rewrite(func::FuncOp function, const KeptOps &kept) {
  SmallVector<func::CallOp> calls;
  for (Operation *user : users.getUsers(function)) {
    auto call = dyn_cast<func::CallOp>(user);
    if (!call || call->getParentOfType<func::FuncOp>() != entry)
      return false;
    calls.push_back(call);
  }
  for (func::CallOp call : calls)
    rewriteCall(call, function, kept);
  // The function's side: the buffers and flags become its last arguments,
  // in the order rewriteCall passes them (insertArgument keeps the
  // argument attributes and the type in step).
  Location loc = function.getLoc();
  auto append = [&](Type type) {
    unsigned index = function.getNumArguments();
    (void)function.insertArgument(index, type, {}, loc);
    return function.getArgument(index);
  };
  for (auto [alloc, number] : kept.buffers) {
    Value argument = append(alloc.getType());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(argument);
    alloc.erase();
  }
  for (auto [flag, number] : kept.flags) {
    flag.replaceAllUsesWith(append(flag.getType()));
    flag.erase();
  }
  return true;
}

void KeptInputs::rewriteCall(func::CallOp call, func::FuncOp function,
                             const KeptOps &kept) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  SmallVector<Value> operands(call.getOperands());
  SmallVector<Value> ownBuffers;
  // The input's byte (kOwnPanels, kKeepPanels or kReusePanels), loaded
  // once per call for its buffers and its flag.
  llvm::SmallDenseMap<unsigned, Value> bytesRead;
  auto byteOf = [&](unsigned input) -> Value {
    Value &byte = bytesRead[input];
    if (byte)
      return byte;
    memref::GlobalOp bytes = changedInputs();
    Value all = memref::GetGlobalOp::create(b, loc, bytes.getType(),
                                            bytes.getSymName());
    byte = memref::LoadOp::create(
        b, loc, all, ValueRange{arith::ConstantIndexOp::create(b, loc, input)});
    return byte;
  };
  auto byteIs = [&](Value byte, arith::CmpIPredicate predicate, int value) {
    return arith::CmpIOp::create(
        b, loc, predicate, byte,
        arith::ConstantIntOp::create(b, loc, b.getI8Type(), value));
  };
  for (auto [index, entry] : llvm::enumerate(kept.buffers)) {
    auto [alloc, number] = entry;
    MemRefType type = alloc.getType();
    Value own = memref::AllocOp::create(b, loc, type);
    ownBuffers.push_back(own);
    std::optional<unsigned> input = inputOf(operands[number]);
    if (!input) {
      operands.push_back(own);
      continue;
    }
    std::string name = (function.getSymName() + "_panels" + Twine(index) +
                        "_input" + Twine(*input))
                           .str();
    global(name, type, b.getUnitAttr(), /*isPublic=*/false);
    Value keptPanels = memref::GetGlobalOp::create(b, loc, type, name);
    operands.push_back(arith::SelectOp::create(
        b, loc, byteIs(byteOf(*input), arith::CmpIPredicate::eq, kOwnPanels),
        own, keptPanels));
  }
  for (auto [flag, number] : kept.flags) {
    std::optional<unsigned> input = inputOf(call.getOperand(number));
    operands.push_back(
        input ? Value(byteIs(byteOf(*input), arith::CmpIPredicate::ne,
                             kReusePanels))
              : Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
  }
  auto replacement =
      func::CallOp::create(b, loc, function.getSymName(), TypeRange{}, operands);
  replacement->setDiscardableAttrs(call->getDiscardableAttrDictionary());
  b.setInsertionPointAfter(replacement);
  for (Value own : ownBuffers)
    memref::DeallocOp::create(b, loc, own);
  call.erase();
}

struct KeepPackedInputsPass
    : public tilec::impl::KeepPackedInputsPassBase<KeepPackedInputsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The marks of program inputs have served the tiling: LLVM would warn
    // about a parameter attribute it does not know.
    for (auto function : module.getOps<func::FuncOp>())
      for (unsigned i = 0; i < function.getNumArguments(); ++i)
        function.removeArgAttr(i, tilec::kernel::ProgramInput::getNameStr());
    auto entry =
        module.lookupSymbol<func::FuncOp>(tilec::findEntryFunction(module));
    if (!entry || entry.isExternal())
      return;
    unsigned inputs = tilec::keptPanelFlagCount(entry);
    KeptInputs kept(module, entry, inputs);
    // Every object with inputs has the flags, kept panels or not: its C
    // header declares them.
    if (inputs != 0)
      kept.changedInputs();
    for (auto function :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (function == entry || function.isExternal())
        continue;
      KeptOps ops = keptOpsOf(function);
      if (!ops.buffers.empty() || !ops.flags.empty())
        kept.rewrite(function, ops);
    }
  }
};

} // namespace
