//===- CPUCodeGen.cpp - Compiling the loop level for one CPU --------------===//
//
// The schedules' CPU facts are read from the same TargetMachine that
// translates and emits, never from the host separately.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipelines/CPUCodeGen.h"

#include "tilec/Pipelines/Pipelines.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace tilec;

CPUCodeGen::CPUCodeGen(const CPUCodeGenOptions &options,
                       std::unique_ptr<llvm::TargetMachine> machine)
    : options(options), machine(std::move(machine)) {}
CPUCodeGen::CPUCodeGen(CPUCodeGen &&) noexcept = default;
CPUCodeGen &CPUCodeGen::operator=(CPUCodeGen &&) noexcept = default;
CPUCodeGen::~CPUCodeGen() = default;

llvm::Expected<CPUCodeGen>
CPUCodeGen::create(const CPUCodeGenOptions &options) {
  initializeNativeTarget();
  auto machine = createTargetMachine(options.cpu, options.optLevel);
  if (!machine)
    return machine.takeError();
  return CPUCodeGen(options, std::move(*machine));
}

LoopsToLLVMOptions CPUCodeGen::loweringOptions() const {
  LoopsToLLVMOptions lowering;
  lowering.parallel = options.parallel;
  lowering.schedule = options.schedule;
  lowering.cpu = targetCPUFacts(*machine);
  return lowering;
}

void CPUCodeGen::buildPipeline(mlir::OpPassManager &pm,
                               bool kernelsFormed) const {
  LoopsToLLVMOptions lowering = loweringOptions();
  lowering.kernelsFormed = kernelsFormed;
  buildLoopsToLLVMPipeline(pm, lowering);
}

void CPUCodeGen::buildKernelFormation(mlir::OpPassManager &pm) const {
  buildCPUKernelFormation(pm, loweringOptions());
}

llvm::Expected<std::unique_ptr<llvm::Module>>
CPUCodeGen::translate(mlir::ModuleOp module,
                      llvm::LLVMContext &context) const {
  return translateToLLVMIR(module, context, *machine);
}

llvm::Error CPUCodeGen::optimize(llvm::Module &module) const {
  return optimizeModule(module, *machine, options.optLevel);
}

llvm::Error CPUCodeGen::emit(llvm::Module &module, MachineCodeKind kind,
                             llvm::raw_pwrite_stream &os) const {
  return emitMachineCode(module, *machine, kind, os);
}
