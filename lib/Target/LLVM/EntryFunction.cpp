//===- EntryFunction.cpp - Find and prepare the entry function ------------===//
//
// The loop level promises one entry function over memrefs (inputs, then
// outputs) with no results. These helpers check that promise before code
// generation relies on it, so hand-written or foreign .mlir input gets a
// diagnostic instead of a crash, and give the function its C name.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Dialect/Tile/IR/ElementTypes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

std::string tilec::findEntryFunction(ModuleOp module) {
  func::FuncOp only;
  unsigned definitions = 0;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (tilec::kernel::Entry(func->getContext()).isAttrPresent(func))
      return func.getSymName().str();
    if (!func.isExternal()) {
      only = func;
      ++definitions;
    }
  }
  return definitions == 1 ? only.getSymName().str() : std::string();
}

LogicalResult tilec::prepareEntryFunction(ModuleOp module,
                                          llvm::StringRef entry,
                                          llvm::StringRef symbol) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return module.emitError() << "no entry function '" << entry << "'";
  if (func.getNumResults() != 0)
    return func.emitError()
           << "the entry function must return no values (outputs are "
              "memref arguments)";
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
      return func.emitError() << "argument " << index
                              << " of the entry function must be a static, "
                                 "identity-layout memref, not "
                              << type;
    func.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(),
                    UnitAttr::get(module.getContext()));
  }
  if (!symbol.empty() && symbol != entry) {
    if (module.lookupSymbol(symbol))
      return func.emitError() << "cannot rename the entry function to '"
                              << symbol << "': the name is taken";
    if (failed(SymbolTable::replaceAllSymbolUses(
            func, StringAttr::get(module.getContext(), symbol), module)))
      return func.emitError() << "cannot rename the entry function";
    func.setSymName(symbol);
  }
  func.setPublic();
  return success();
}

size_t tilec::keptPanelFlagCount(func::FuncOp entry) {
  MLIRContext *context = entry->getContext();
  ArrayAttr names = kernel::InputNames(context).getAttr(entry);
  return kernel::Entry(context).isAttrPresent(entry) && names ? names.size()
                                                              : 0;
}

std::optional<unsigned> tilec::programInputNumber(func::FuncOp entry,
                                                  Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &entry.getBody().front() ||
      argument.getArgNumber() >= keptPanelFlagCount(entry))
    return std::nullopt;
  return argument.getArgNumber();
}

std::vector<tilec::CHeaderParam>
tilec::entryParams(func::FuncOp entry, llvm::ArrayRef<DType> inputDTypes,
                   llvm::ArrayRef<DType> outputDTypes,
                   unsigned unnamedOutputs) {
  MLIRContext *context = entry->getContext();
  ArrayAttr inputNames = kernel::InputNames(context).getAttr(entry);
  ArrayAttr outputNames = kernel::OutputNames(context).getAttr(entry);
  unsigned numArgs = entry.getNumArguments();
  unsigned outputs = std::min<unsigned>(
      outputNames ? outputNames.size() : unnamedOutputs, numArgs);
  std::vector<CHeaderParam> params;
  for (auto [index, type] : llvm::enumerate(entry.getArgumentTypes())) {
    auto memref = cast<MemRefType>(type);
    CHeaderParam param;
    param.isOutput = index >= numArgs - outputs;
    ArrayAttr names = param.isOutput ? outputNames : inputNames;
    size_t position = param.isOutput ? index - (numArgs - outputs) : index;
    if (names && position < names.size())
      if (auto name = dyn_cast<StringAttr>(names[position]))
        param.name = name.str();
    if (param.name.empty())
      param.name = "arg" + std::to_string(index);
    llvm::ArrayRef<DType> known = param.isOutput ? outputDTypes : inputDTypes;
    param.dtype =
        position < known.size()
            ? known[position]
            : dtypeOfSignlessType(memref.getElementType()).value_or(DType::I64);
    param.shape = memref.getShape().vec();
    params.push_back(std::move(param));
  }
  return params;
}
