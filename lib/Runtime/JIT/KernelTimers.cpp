//===- KernelTimers.cpp - Host-clock times of each kernel nest ------------===//
//
// See KernelTimers.h. The calls take the kernel's index as an i64 constant;
// the functions are C symbols that the JIT resolves to this library, so the
// generated code needs no global state of its own.
//
//===----------------------------------------------------------------------===//

#include "KernelTimers.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ExecutionEngine/Orc/Shared/ExecutorAddress.h"

#include <chrono>
#include <cstdint>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kBeginName = "tilec_kernel_timer_begin";
constexpr llvm::StringLiteral kEndName = "tilec_kernel_timer_end";

/// The table the calls of this thread fill, and the start of the kernel
/// that is running.
thread_local std::vector<double> *activeTable = nullptr;
thread_local std::chrono::steady_clock::time_point kernelStart;

void tilecKernelTimerBegin(int64_t) {
  kernelStart = std::chrono::steady_clock::now();
}

void tilecKernelTimerEnd(int64_t kernel) {
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - kernelStart;
  if (activeTable && kernel >= 0 &&
      static_cast<size_t>(kernel) < activeTable->size())
    (*activeTable)[kernel] += elapsed.count();
}

/// Declares `void name(i64)` in `module` unless it is there already.
void declareTimer(ModuleOp module, llvm::StringRef name) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto type = builder.getFunctionType({builder.getI64Type()}, {});
  auto function = func::FuncOp::create(builder, module.getLoc(), name, type);
  function.setPrivate();
}

void callTimer(OpBuilder &builder, Location loc, llvm::StringRef name,
               unsigned kernel) {
  Value index = arith::ConstantIntOp::create(builder, loc, kernel, 64);
  func::CallOp::create(builder, loc, name, TypeRange(), ValueRange{index});
}

} // namespace

unsigned tilec::jit::insertKernelTimers(func::FuncOp entry) {
  ModuleOp module = entry->getParentOfType<ModuleOp>();
  entry->getContext()->getOrLoadDialect<arith::ArithDialect>();
  declareTimer(module, kBeginName);
  declareTimer(module, kEndName);
  unsigned count = 0;
  for (Operation &op : llvm::make_early_inc_range(entry.getBody().getOps())) {
    auto kernel = dyn_cast<affine::AffineForOp>(op);
    if (!kernel || !kernel->hasAttr(tilec::kernel::KernelName::getNameStr()))
      continue;
    OpBuilder builder(kernel);
    callTimer(builder, kernel.getLoc(), kBeginName, count);
    builder.setInsertionPointAfter(kernel);
    callTimer(builder, kernel.getLoc(), kEndName, count);
    ++count;
  }
  return count;
}

llvm::orc::SymbolMap
tilec::jit::kernelTimerSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  symbols[interner(kBeginName)] = {
      llvm::orc::ExecutorAddr::fromPtr(&tilecKernelTimerBegin),
      llvm::JITSymbolFlags::Exported};
  symbols[interner(kEndName)] = {
      llvm::orc::ExecutorAddr::fromPtr(&tilecKernelTimerEnd),
      llvm::JITSymbolFlags::Exported};
  return symbols;
}

tilec::jit::KernelTimerScope::KernelTimerScope(std::vector<double> &seconds)
    : previous(activeTable) {
  activeTable = &seconds;
}

tilec::jit::KernelTimerScope::~KernelTimerScope() { activeTable = previous; }
