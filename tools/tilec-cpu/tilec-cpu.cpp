//===- tilec-cpu.cpp - Drive the CPU back end on loop-level MLIR ----------===//
//
// A test tool for lib/Target/LLVM and lib/Runtime/JIT that starts from the
// loop level (hand-written .mlir), so the back end is tested apart from the
// front end and the lowering:
//
//   tilec-cpu FILE.mlir --emit=mlir-llvm|llvm|asm|obj|header|run
//             [-O0..-O3] [--cpu=NAME] [--no-parallel] [--symbol=NAME]
//             [-o OUT]
//
// `run` fills input k element i with ((7 i + 3 k) mod 11) - 5 and prints each
// output on one line; parameter names for `header` come from the entry's
// tilec.input_names / tilec.output_names attributes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/ElementTypes.h"
#include "tilec/Runtime/JIT.h"
#include "tilec/Target/LLVM/CHeader.h"
#include "tilec/Target/LLVM/CodeGen.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace tilec;
namespace cl = llvm::cl;

static cl::opt<std::string> inputPath(cl::Positional, cl::desc("<file.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                       cl::init("-"));
static cl::opt<std::string>
    emit("emit", cl::desc("mlir-llvm, llvm, asm, obj, header or run"),
         cl::init("run"));
static cl::opt<unsigned> optLevel("O", cl::desc("optimisation level 0..3"),
                                  cl::Prefix, cl::init(2));
static cl::opt<std::string> cpu("cpu", cl::desc("target CPU"),
                                cl::init("native"));
static cl::opt<bool> noParallel("no-parallel",
                                cl::desc("no OpenMP for parallel loops"));
static cl::opt<std::string>
    symbolName("symbol",
               cl::desc("C name of the entry (default: for obj and header, "
                        "from the -o file's stem)"));
static cl::opt<unsigned>
    numOutputs("num-outputs",
               cl::desc("trailing arguments that are outputs when the entry "
                        "has no tilec.output_names"),
               cl::init(1));

static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilec-cpu") << message << "\n";
  return 1;
}

/// The DType stored in a memref of `type` (integers read as signed).
static DType dtypeOf(mlir::Type type) {
  return dtypeOfSignlessType(type).value_or(DType::I64);
}

/// The entry's parameters: names from the tilec.*_names attributes, else
/// argN, the last --num-outputs arguments being outputs.
static std::vector<CHeaderParam> entryParams(mlir::func::FuncOp func) {
  auto inputNames = func->getAttrOfType<mlir::ArrayAttr>("tilec.input_names");
  auto outputNames = func->getAttrOfType<mlir::ArrayAttr>("tilec.output_names");
  unsigned numArgs = func.getNumArguments();
  unsigned outputs = outputNames ? outputNames.size() : numOutputs.getValue();
  outputs = std::min(outputs, numArgs);
  std::vector<CHeaderParam> params;
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto memref = mlir::cast<mlir::MemRefType>(type);
    CHeaderParam param;
    param.isOutput = index >= numArgs - outputs;
    mlir::ArrayAttr names = param.isOutput ? outputNames : inputNames;
    size_t position = param.isOutput ? index - (numArgs - outputs) : index;
    if (names && position < names.size())
      if (auto name = mlir::dyn_cast<mlir::StringAttr>(names[position]))
        param.name = name.str();
    if (param.name.empty())
      param.name = "arg" + std::to_string(index);
    param.dtype = dtypeOf(memref.getElementType());
    param.shape = memref.getShape().vec();
    params.push_back(std::move(param));
  }
  return params;
}

/// Prints every element of `tensor` on one line.
static void printTensor(llvm::raw_ostream &os, const CHeaderParam &param,
                        const Tensor &tensor) {
  os << param.name << ":";
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (isFloat(tensor.type.dtype))
      os << " " << llvm::format("%g", tensor.getDouble(i));
    else
      os << " " << tensor.getInt(i);
  }
  os << "\n";
}

static int runJIT(mlir::ModuleOp module, const std::string &entry,
                  const std::vector<CHeaderParam> &params) {
  std::vector<Tensor> inputs;
  std::vector<TensorType> outputTypes;
  std::vector<CHeaderParam> outputParams;
  for (const CHeaderParam &param : params) {
    TensorType type{param.dtype, param.shape};
    if (param.isOutput) {
      outputTypes.push_back(type);
      outputParams.push_back(param);
      continue;
    }
    Tensor tensor(type);
    int64_t k = inputs.size();
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.setDouble(i, double((7 * i + 3 * k) % 11 - 5));
    inputs.push_back(std::move(tensor));
  }
  JITOptions options;
  options.optLevel = optLevel;
  options.parallel = !noParallel;
  auto program = JITProgram::compile(module, entry, options);
  if (!program)
    return fail(llvm::toString(program.takeError()));
  auto outputs = (*program)->run(inputs, outputTypes);
  if (!outputs)
    return fail(llvm::toString(outputs.takeError()));
  for (auto [param, tensor] : llvm::zip(outputParams, *outputs))
    printTensor(llvm::outs(), param, tensor);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "tilec CPU back-end test tool\n");
  if (optLevel > 3)
    return fail("-O must be 0..3");

  mlir::DialectRegistry registry;
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect>();
  registerLoopsToLLVMDialects(registry);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  std::string error;
  auto file = mlir::openInputFile(inputPath, &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  std::string entry = findEntryFunction(*module);
  if (entry.empty())
    return fail("no entry function (mark one with tilec.entry)");
  std::string symbol = symbolName;
  if (symbol.empty() && (emit == "obj" || emit == "header"))
    symbol = cSymbolForOutput(outputPath);
  if (mlir::failed(prepareEntryFunction(*module, entry, symbol)))
    return 1;
  if (!symbol.empty())
    entry = symbol;
  std::vector<CHeaderParam> params =
      entryParams(module->lookupSymbol<mlir::func::FuncOp>(entry));

  if (emit == "run")
    return runJIT(*module, entry, params);

  auto output = mlir::openOutputFile(outputPath, &error);
  if (!output)
    return fail(error);
  if (emit == "header") {
    writeCHeader(output->os(), symbol, inputPath, params);
    output->keep();
    return 0;
  }

  LoopsToLLVMOptions lowering;
  lowering.parallel = !noParallel;
  mlir::PassManager pm(&context);
  buildLoopsToLLVMPipeline(pm, lowering);
  if (mlir::failed(pm.run(*module)))
    return 1;
  if (emit == "mlir-llvm") {
    module->print(output->os());
    output->keep();
    return 0;
  }

  initializeNativeTarget();
  auto machine = createTargetMachine(cpu, optLevel);
  if (!machine)
    return fail(llvm::toString(machine.takeError()));
  llvm::LLVMContext llvmContext;
  auto llvmModule = translateToLLVMIR(*module, llvmContext, **machine);
  if (!llvmModule)
    return fail(llvm::toString(llvmModule.takeError()));
  if (llvm::Error err = optimizeModule(**llvmModule, **machine, optLevel))
    return fail(llvm::toString(std::move(err)));
  if (emit == "llvm") {
    (*llvmModule)->print(output->os(), nullptr);
  } else if (emit == "asm" || emit == "obj") {
    MachineCodeKind kind =
        emit == "obj" ? MachineCodeKind::Object : MachineCodeKind::Assembly;
    if (llvm::Error err =
            emitMachineCode(**llvmModule, **machine, kind, output->os()))
      return fail(llvm::toString(std::move(err)));
  } else {
    return fail("unknown --emit kind '" + emit + "'");
  }
  output->keep();
  return 0;
}
