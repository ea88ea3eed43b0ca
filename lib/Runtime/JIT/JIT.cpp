//===- JIT.cpp - Run loop-level MLIR on the host through ORC --------------===//
//
// The module is lowered by the same pipeline as ahead-of-time compilation and
// optimised by the same LLVM pipeline (through the ExecutionEngine's
// transformer hook), so `tilec run` measures the code `-o model.o` ships.
// OpenMP's runtime is loaded from libomp for the parallel loops.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/JIT.h"
#include "CompilerRuntime.h"
#include "KernelTimers.h"

#include "tilec/Pipelines/CPUCodeGen.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace tilec;
using llvm::Error;
using llvm::Expected;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

JITProgram::~JITProgram() = default;

/// Storage bits of a memref element: i1 is stored in a byte.
static unsigned storageBits(mlir::Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits == 1 ? 8 : bits;
}

Expected<std::unique_ptr<JITProgram>>
JITProgram::compile(mlir::ModuleOp module, llvm::StringRef entry,
                    const JITOptions &options) {
  initializeNativeTarget();
  std::unique_ptr<JITProgram> program(new JITProgram());
  program->entry = entry.empty() ? findEntryFunction(module) : entry.str();
  if (program->entry.empty())
    return makeError("the module has no entry function");

  mlir::MLIRContext *context = module.getContext();
  mlir::DialectRegistry registry;
  registerLoopsToLLVMDialects(registry);
  context->appendDialectRegistry(registry);

  // Diagnostics become the error text: the library never prints.
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &diag) {
    diagStream << diag.getLocation() << ": " << diag << "\n";
    return mlir::success();
  });

  if (mlir::failed(prepareEntryFunction(module, program->entry, "")))
    return makeError(diagnostics);
  auto func = module.lookupSymbol<mlir::func::FuncOp>(program->entry);
  size_t namedInputs = keptPanelFlagCount(func);
  for (mlir::Type type : func.getArgumentTypes()) {
    auto memref = mlir::cast<mlir::MemRefType>(type);
    if (!memref.getElementType().isIntOrFloat())
      return makeError("unsupported element type in the entry's arguments");
    program->arguments.push_back(
        {memref.getShape().vec(), storageBits(memref.getElementType())});
  }

  CPUCodeGenOptions target;
  target.cpu = "native";
  target.optLevel = options.optLevel;
  target.parallel = options.parallel;
  auto codegen = CPUCodeGen::create(target);
  if (!codegen)
    return codegen.takeError();
  // Timers go around the kernels as they will run (fused row chains are
  // one kernel), while the nests are still top-level loops.
  if (options.timeKernels) {
    mlir::PassManager formation(context);
    codegen->buildKernelFormation(formation);
    if (mlir::failed(formation.run(module)))
      return makeError("forming the kernels failed:\n" + diagnostics);
    program->timedKernels = jit::insertKernelTimers(func);
  }
  mlir::PassManager pm(context);
  codegen->buildPipeline(pm, /*kernelsFormed=*/options.timeKernels);
  if (mlir::failed(pm.run(module)))
    return makeError("lowering to the LLVM dialect failed:\n" + diagnostics);

  // The ExecutionEngine translates the module itself; the machine lives as
  // long as the program, for the transformer.
  program->machine = codegen->takeMachine();
  llvm::TargetMachine *tm = program->machine.get();
  unsigned optLevel = options.optLevel;
  auto transformer = [tm, optLevel](llvm::Module *llvmModule) {
    return optimizeModule(*llvmModule, *tm, optLevel);
  };

  llvm::StringRef libraries[] = {TILEC_LIBOMP_PATH};
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.transformer =
      llvm::function_ref<Error(llvm::Module *)>(transformer);
  engineOptions.jitCodeGenOptLevel = tm->getOptLevel();
  engineOptions.sharedLibPaths = libraries;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engine = mlir::ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return engine.takeError();
  program->engine = std::move(*engine);
  program->engine->registerSymbols(jit::compilerRuntimeSymbols);
  if (options.timeKernels)
    program->engine->registerSymbols(jit::kernelTimerSymbols);
  // The flags exist where the entry names its inputs (one byte each).
  if (auto flags = program->engine->lookup(program->entry + "_changed_inputs")) {
    program->changedInputs = static_cast<uint8_t *>(*flags);
    program->changedInputCount = namedInputs;
  } else {
    llvm::consumeError(flags.takeError());
  }
  return std::move(program);
}

Error JITProgram::checkArgument(unsigned index, const TensorType &type) const {
  const ArgumentType &expected = arguments[index];
  if (type.shape != expected.shape ||
      dtypeBytes(type.dtype) * 8 != expected.bits)
    return makeError("argument " + llvm::Twine(index) + " of '" + entry +
                     "' is " + type.str() + ", which does not match the " +
                     "compiled memref");
  return Error::success();
}

Expected<std::vector<Tensor>>
JITProgram::run(llvm::ArrayRef<Tensor> inputs,
                llvm::ArrayRef<TensorType> outputTypes,
                std::vector<double> *kernelSeconds) const {
  std::vector<const Tensor *> pointers;
  pointers.reserve(inputs.size());
  for (const Tensor &input : inputs)
    pointers.push_back(&input);
  return runOn(pointers, outputTypes, kernelSeconds);
}

Expected<std::vector<Tensor>>
JITProgram::runOn(llvm::ArrayRef<const Tensor *> inputs,
                  llvm::ArrayRef<TensorType> outputTypes,
                  std::vector<double> *kernelSeconds) const {
  std::vector<Tensor> outputs;
  outputs.reserve(outputTypes.size());
  for (const TensorType &type : outputTypes)
    outputs.emplace_back(type);
  if (Error error = runInto(inputs, outputs, kernelSeconds))
    return std::move(error);
  return std::move(outputs);
}

Error JITProgram::runInto(llvm::ArrayRef<const Tensor *> inputs,
                          llvm::MutableArrayRef<Tensor> outputs,
                          std::vector<double> *kernelSeconds,
                          llvm::ArrayRef<bool> unchanged) const {
  if (inputs.size() + outputs.size() != arguments.size())
    return makeError("'" + entry + "' takes " + llvm::Twine(arguments.size()) +
                     " buffers, given " +
                     llvm::Twine(inputs.size() + outputs.size()));

  // The packed interface takes the address of each argument; each argument
  // is a bare pointer to the buffer.
  std::vector<void *> pointers;
  pointers.reserve(arguments.size());
  for (auto [index, tensor] : llvm::enumerate(inputs)) {
    if (Error error = checkArgument(index, tensor->type))
      return error;
    pointers.push_back(const_cast<uint8_t *>(tensor->data.data()));
  }
  for (auto [index, tensor] : llvm::enumerate(outputs)) {
    if (Error error = checkArgument(inputs.size() + index, tensor.type))
      return error;
    pointers.push_back(tensor.data.data());
  }
  // The JIT runs one call at a time: its kernels keep the panels they pack
  // (rather than the reentrant default) and reuse them where told.
  for (size_t i = 0; i < changedInputCount && i < inputs.size(); ++i)
    changedInputs[i] = i < unchanged.size() && unchanged[i] ? kReusePanels
                                                            : kKeepPanels;
  std::vector<void *> packed;
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  std::vector<double> seconds(timedKernels, 0.0);
  {
    jit::KernelTimerScope timers(seconds);
    if (Error error = engine->invokePacked(entry, packed))
      return error;
  }
  if (kernelSeconds)
    *kernelSeconds = std::move(seconds);
  return Error::success();
}
