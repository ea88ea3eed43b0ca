//===- KeepTemporarySlots.cpp - tilec-cpu-keep-temporary-slots ------------===//
//
// Every malloc/free pair of a call-invariant size goes through a one-block cache
// (see the pass's description). The cache logic lives in two private
// functions that LLVM inlines:
//
//   acquire(cache, size): p = xchg(cache, null); p ? p : malloc(size)
//   release(cache, p):    cmpxchg(cache, null, p) fails ? free(p)
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec {
#define GEN_PASS_DEF_KEEPTEMPORARYSLOTSPASS
#include "tilec/Target/LLVM/Transforms/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAcquire = "tilec_slot_acquire";
constexpr llvm::StringLiteral kRelease = "tilec_slot_release";

bool calls(LLVM::CallOp call, StringRef name) {
  std::optional<StringRef> callee = call.getCallee();
  return callee && *callee == name;
}

/// Whether `value` is the same on every call: computed by pure ops from
/// constants only (a size the memref lowering computes from a null
/// pointer's getelementptr, say), never from arguments or memory.
bool isCallInvariant(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isCallInvariant(operand, depth + 1);
  });
}

/// A malloc of a call-invariant size and the frees of its block.
struct SlotAllocation {
  LLVM::CallOp malloc;
  SmallVector<LLVM::CallOp> frees;
};

/// The mallocs of `func` whose blocks `func` frees.
SmallVector<SlotAllocation> findSlots(LLVM::LLVMFuncOp func) {
  SmallVector<SlotAllocation> slots;
  func.walk([&](LLVM::CallOp call) {
    if (!calls(call, "malloc") || call.getNumOperands() != 1 ||
        call.getNumResults() != 1 ||
        !isCallInvariant(call.getOperand(0)))
      return;
    // The block may be used in any way (the memref lowering aligns it);
    // the function's free gives it back. Freeing it twice, or using it
    // after the free, would be wrong with or without the cache.
    SlotAllocation slot{call, {}};
    for (Operation *user : call.getResult().getUsers()) {
      auto free = dyn_cast<LLVM::CallOp>(user);
      if (free && calls(free, "free") && free.getNumOperands() == 1)
        slot.frees.push_back(free);
    }
    if (!slot.frees.empty())
      slots.push_back(slot);
  });
  return slots;
}

/// The declaration of `name` in `module`, created if missing.
LLVM::LLVMFuncOp declare(ModuleOp module, StringRef name,
                         LLVM::LLVMFunctionType type) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// A private function of `type` whose body `build` writes from its entry.
template <typename Build>
void define(ModuleOp module, StringRef name, LLVM::LLVMFunctionType type,
            Build build) {
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto func = LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type,
                                       LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  build(builder, func);
}

void defineCacheFunctions(ModuleOp module) {
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto voidType = LLVM::LLVMVoidType::get(context);
  LLVM::LLVMFuncOp malloc = declare(
      module, "malloc", LLVM::LLVMFunctionType::get(ptr, {i64}));
  LLVM::LLVMFuncOp free = declare(
      module, "free", LLVM::LLVMFunctionType::get(voidType, {ptr}));
  auto ordering = LLVM::AtomicOrdering::acq_rel;

  define(module, kAcquire, LLVM::LLVMFunctionType::get(ptr, {ptr, i64}),
         [&](OpBuilder &b, LLVM::LLVMFuncOp func) {
           Value cache = func.getArgument(0), size = func.getArgument(1);
           Value null = LLVM::ZeroOp::create(b, loc, ptr);
           Value cached = LLVM::AtomicRMWOp::create(
               b, loc, LLVM::AtomicBinOp::xchg, cache, null, ordering);
           Value empty = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                              cached, null);
           Block *entry = b.getInsertionBlock();
           Block *allocate = b.createBlock(entry->getParent());
           Block *done = b.createBlock(entry->getParent(), {}, {ptr}, {loc});
           b.setInsertionPointToEnd(entry);
           LLVM::CondBrOp::create(b, loc, empty, allocate, ValueRange{}, done,
                                  ValueRange{cached});
           b.setInsertionPointToEnd(allocate);
           Value fresh =
               LLVM::CallOp::create(b, loc, malloc, ValueRange{size})
                   .getResult();
           LLVM::BrOp::create(b, loc, ValueRange{fresh}, done);
           b.setInsertionPointToEnd(done);
           LLVM::ReturnOp::create(b, loc, done->getArgument(0));
         });

  define(module, kRelease,
         LLVM::LLVMFunctionType::get(voidType, {ptr, ptr}),
         [&](OpBuilder &b, LLVM::LLVMFuncOp func) {
           Value cache = func.getArgument(0), block = func.getArgument(1);
           Value null = LLVM::ZeroOp::create(b, loc, ptr);
           Value exchange = LLVM::AtomicCmpXchgOp::create(
               b, loc, cache, null, block, ordering,
               LLVM::AtomicOrdering::monotonic);
           Value stored = LLVM::ExtractValueOp::create(b, loc, exchange, 1);
           Block *entry = b.getInsertionBlock();
           Block *release = b.createBlock(entry->getParent());
           Block *done = b.createBlock(entry->getParent());
           b.setInsertionPointToEnd(entry);
           LLVM::CondBrOp::create(b, loc, stored, done, release);
           b.setInsertionPointToEnd(release);
           LLVM::CallOp::create(b, loc, free, ValueRange{block});
           LLVM::BrOp::create(b, loc, ValueRange{}, done);
           b.setInsertionPointToEnd(done);
           LLVM::ReturnOp::create(b, loc, ValueRange{});
         });
}

/// A new private global pointer, null at first, named after `hint`.
LLVM::GlobalOp createCache(ModuleOp module, SymbolTable &symbols,
                           StringRef hint) {
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  Location loc = module.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto global = LLVM::GlobalOp::create(builder, loc, ptr, /*isConstant=*/false,
                                       LLVM::Linkage::Internal, hint,
                                       Attribute());
  Block *init = builder.createBlock(&global.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  LLVM::ReturnOp::create(builder, loc,
                         LLVM::ZeroOp::create(builder, loc, ptr).getResult());
  symbols.insert(global); // renames it if `hint` is taken
  return global;
}

struct KeepTemporarySlotsPass
    : public tilec::impl::KeepTemporarySlotsPassBase<KeepTemporarySlotsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<SlotAllocation> slots;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      llvm::append_range(slots, findSlots(func));
    if (slots.empty())
      return;
    defineCacheFunctions(module);
    auto acquire = module.lookupSymbol<LLVM::LLVMFuncOp>(kAcquire);
    auto release = module.lookupSymbol<LLVM::LLVMFuncOp>(kRelease);
    SymbolTable symbols(module);
    for (SlotAllocation &slot : slots) {
      LLVM::GlobalOp cache = createCache(module, symbols, "tilec_slot_cache");
      OpBuilder builder(slot.malloc);
      Location loc = slot.malloc.getLoc();
      Value address = LLVM::AddressOfOp::create(builder, loc, cache);
      auto taken = LLVM::CallOp::create(
          builder, loc, acquire,
          ValueRange{address, slot.malloc.getOperand(0)});
      slot.malloc.getResult().replaceAllUsesWith(taken.getResult());
      slot.malloc.erase();
      for (LLVM::CallOp free : slot.frees) {
        builder.setInsertionPoint(free);
        Value at = LLVM::AddressOfOp::create(builder, free.getLoc(), cache);
        LLVM::CallOp::create(builder, free.getLoc(), release,
                             ValueRange{at, free.getOperand(0)});
        free.erase();
      }
    }
  }
};

} // namespace
