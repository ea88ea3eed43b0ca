//===- EmitPTX.cpp - An NVVM-dialect gpu.module as PTX text ---------------===//
//
// The NVVM level's gpu.module is translated to LLVM IR, optimised at -O3
// and assembled to PTX by LLVM's NVPTX back end, all in process. The chip
// is the device's compute capability; LLVM picks the oldest PTX ISA
// version that has it, so the text loads on any driver that knows the GPU.
// Floats keep IEEE semantics: no fast-math flags, no flush to zero, so
// division and sqrt are the correctly rounded div.rn and sqrt.rn. Only a
// multiply feeding an add may fuse into one fma.rn, as OpenCL C compilers
// do by default (FP_CONTRACT ON): one rounding instead of two, inside the
// interpreter's error bound either way.
//
//===----------------------------------------------------------------------===//

#include "EmitPTX.h"

#include "tilec/Target/LLVM/CodeGen.h"
#include "tilec/Target/PTX/PTXTarget.h"

#include "tilec/Target/StageTiming.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>
#include <optional>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace mlir;

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXMachine(llvm::StringRef chip) {
  initializeNVPTX();
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "this LLVM has no NVPTX back end: %s",
                                   error.c_str());
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, chip, "", options, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "NVPTX does not know the chip %s",
                                   chip.str().c_str());
  return std::move(machine);
}

} // namespace

/// gpu.dynamic_shared_memory's buffer, which convert-gpu-to-nvvm makes an
/// internal shared global of no elements, as an external declaration:
/// NVPTX then prints `.extern .shared .align 16 .b8 NAME[]`, the start of
/// the launch's dynamic shared memory, and the optimiser assumes nothing
/// about the accesses past its (unknown) end.
static void declareDynamicSharedMemory(llvm::Module &module) {
  constexpr unsigned kSharedAddressSpace = 3;
  for (llvm::GlobalVariable &global : module.globals()) {
    auto *array = llvm::dyn_cast<llvm::ArrayType>(global.getValueType());
    if (global.getAddressSpace() != kSharedAddressSpace || !array ||
        array->getNumElements() != 0)
      continue;
    global.setInitializer(nullptr);
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
}

FailureOr<std::string> tilec::ptx::emitPTX(gpu::GPUModuleOp kernels,
                                           llvm::StringRef chip) {
  auto fail = [&](llvm::Error error) -> FailureOr<std::string> {
    kernels.emitError() << "cannot generate PTX: "
                        << llvm::toString(std::move(error));
    return failure();
  };
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createNVPTXMachine(chip);
  if (!machine)
    return fail(machine.takeError());
  llvm::LLVMContext context;
  std::optional<TimedStage> stage;
  stage.emplace("LLVM IR");
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      translateToLLVMIR(kernels, context, **machine);
  if (!module)
    return fail(module.takeError());
  declareDynamicSharedMemory(**module);
  stage.emplace("LLVM -O3");
  if (llvm::Error error = optimizeModule(**module, **machine, /*optLevel=*/3))
    return fail(std::move(error));
  stage.emplace("NVPTX");
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  if (llvm::Error error = emitMachineCode(**module, **machine,
                                          MachineCodeKind::Assembly, os))
    return fail(std::move(error));
  return std::string(text.str());
}
