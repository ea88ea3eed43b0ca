//===- LLVMTranslation.cpp - The loop level to LLVM IR, code, a header ----===//
//
// See LLVMTranslation.h. The sequence is the driver's for --target=llvm-x86
// (docs/architecture.md, "The CPU back end"): the entry prepared for the C
// ABI, the loops-to-LLVM pipeline with default schedules for the chosen CPU,
// translation, LLVM's -O pipeline, then assembly or an object.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LLVMTranslation.h"
#include "tilec/Pipelines/CPUCodeGen.h"
#include "tilec/Target/LLVM/CHeader.h"
#include "tilec/Target/LLVM/CPUCompile.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
namespace cl = llvm::cl;

namespace {

/// The options of every translation of this file, created by
/// registerLLVMTranslations (no static registrars).
struct Options {
  cl::opt<std::string> cpu{"cpu", cl::desc("the CPU to generate code for"),
                           cl::init("native")};
  cl::opt<unsigned> optLevel{"O", cl::desc("LLVM optimisation level 0..3"),
                             cl::Prefix, cl::init(2)};
  cl::opt<bool> noParallel{"no-parallel",
                           cl::desc("no OpenMP for parallel loops")};
  cl::opt<std::string> symbol{
      "symbol", cl::desc("the entry's C name (object and header default: "
                         "tile_model)")};
  cl::opt<unsigned> numOutputs{
      "num-outputs",
      cl::desc("trailing arguments that are outputs when the entry names "
               "none (tilec.output_names)"),
      cl::init(1)};
};

Options &options() {
  static Options options;
  return options;
}

/// What each translation needs from the common start.
enum class Product { LLVMIR, Assembly, Object, Header };

void registerLoopLevelDialects(DialectRegistry &registry) {
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  func::FuncDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect>();
  registerLoopsToLLVMDialects(registry);
}

LogicalResult fail(ModuleOp module, llvm::Error error) {
  return module.emitError() << llvm::toString(std::move(error));
}

LogicalResult translate(ModuleOp module, llvm::raw_ostream &os,
                        Product product) {
  const Options &opts = options();
  if (opts.optLevel > 3)
    return module.emitError() << "-O must be 0..3";
  std::string entry = findEntryFunction(module);
  if (entry.empty())
    return module.emitError()
           << "no entry function (mark one with tilec.entry)";
  std::string symbol = opts.symbol;
  bool cFile = product == Product::Object || product == Product::Header;
  if (symbol.empty() && cFile)
    symbol = cSymbolForOutput("-");
  if (failed(prepareEntryFunction(module, entry, symbol)))
    return failure();
  if (!symbol.empty())
    entry = symbol;

  if (product == Product::Header) {
    llvm::StringRef source = "<stdin>";
    if (auto file = dyn_cast<FileLineColLoc>(module.getLoc()))
      source = file.getFilename().getValue();
    auto function = module.lookupSymbol<func::FuncOp>(entry);
    writeCHeader(os, symbol, source,
                 entryParams(function, {}, {}, opts.numOutputs),
                 keptPanelFlagCount(function));
    return success();
  }

  // The schedules are made for the CPU code is generated for, as the
  // driver makes them (CPUCodeGen.h).
  CPUCodeGenOptions target;
  target.cpu = opts.cpu;
  target.optLevel = opts.optLevel;
  target.parallel = !opts.noParallel;
  auto codegen = CPUCodeGen::create(target);
  if (!codegen)
    return fail(module, codegen.takeError());
  CPUOutput output = product == Product::LLVMIR     ? CPUOutput::LLVMIR
                     : product == Product::Assembly ? CPUOutput::Assembly
                                                    : CPUOutput::Object;
  llvm::Expected<std::string> code =
      generateCPUCode(*module.getContext(), module, *codegen, output);
  if (!code) {
    // A failed pipeline has reported its diagnostics; LLVM's errors are
    // text.
    std::string message = llvm::toString(code.takeError());
    return message.empty() ? failure() : module.emitError() << message;
  }
  os << *code;
  return success();
}

void registerTranslation(llvm::StringRef name, llvm::StringRef description,
                         Product product) {
  TranslateFromMLIRRegistration registration(
      name, description,
      [product](ModuleOp module, llvm::raw_ostream &os) {
        return translate(module, os, product);
      },
      registerLoopLevelDialects);
}

} // namespace

void tilec::registerLLVMTranslations() {
  (void)options();
  registerTranslation("tilec-to-llvmir",
                      "the loop level as optimised LLVM IR", Product::LLVMIR);
  registerTranslation("tilec-to-asm", "the loop level as assembly",
                      Product::Assembly);
  registerTranslation("tilec-to-object",
                      "the loop level as an ELF object (tilec -o model.o)",
                      Product::Object);
  registerTranslation("tilec-to-c-header",
                      "the C header declaring the loop level's entry "
                      "(model.h)",
                      Product::Header);
}
