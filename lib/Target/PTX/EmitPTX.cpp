//===- EmitPTX.cpp - An NVVM-dialect gpu.module as PTX text ---------------===//
//
// The NVVM level's gpu.modules (one per kernel, where they were split) are
// translated to LLVM IR, optimised at -O3 and assembled to PTX by LLVM's
// NVPTX back end, all in process and the modules in parallel; their PTX is
// joined into one module. The chip
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
#include "mlir/IR/Threading.h"

#include "llvm/ADT/StringSet.h"
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

/// Whether `line`, outside every brace, declares or defines something at
/// the module's scope (shared memory, a constant tensor): the parts'
/// copies of one global print the same line. (Inside a function, inline
/// PTX declares its own registers, also unindented.)
static bool isModuleScopeDeclaration(llvm::StringRef line, int depth) {
  line = line.rtrim();
  return depth == 0 && line.starts_with(".") && line.ends_with(";");
}

std::string tilec::ptx::joinPTX(llvm::ArrayRef<std::string> parts) {
  std::string joined;
  llvm::StringSet<> declared;
  for (auto [index, text] : llvm::enumerate(parts)) {
    // The first part's header (.version, .target, .address_size) is the
    // module's; the others repeat it.
    bool inHeader = index > 0;
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(text).split(lines, '\n');
    int depth = 0;
    for (llvm::StringRef line : lines) {
      if (inHeader) {
        inHeader = !line.starts_with(".address_size");
        continue;
      }
      bool repeated = isModuleScopeDeclaration(line, depth) &&
                      !declared.insert(line).second;
      depth += int(line.count('{')) - int(line.count('}'));
      if (repeated)
        continue;
      joined += line;
      joined += '\n';
    }
  }
  // split() leaves an empty last line after the final newline.
  while (llvm::StringRef(joined).ends_with("\n\n"))
    joined.pop_back();
  return joined;
}

FailureOr<std::string>
tilec::ptx::emitPTX(llvm::ArrayRef<gpu::GPUModuleOp> modules,
                    llvm::StringRef chip) {
  gpu::GPUModuleOp first = modules.front();
  auto fail = [&](gpu::GPUModuleOp where, llvm::Error error) {
    where.emitError() << "cannot generate PTX: "
                      << llvm::toString(std::move(error));
    return failure();
  };
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createNVPTXMachine(chip);
  if (!machine)
    return fail(first, machine.takeError());

  // Each module's LLVM IR in a context of its own, translated here (it
  // reads the MLIR), then optimised and assembled on all cores.
  struct Part {
    std::unique_ptr<llvm::LLVMContext> context =
        std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module;
    std::string text;
    std::optional<std::string> error;
  };
  std::vector<Part> parts(modules.size());
  {
    TimedStage stage("LLVM IR");
    for (auto [module, part] : llvm::zip_equal(modules, parts)) {
      llvm::Expected<std::unique_ptr<llvm::Module>> translated =
          translateToLLVMIR(module, *part.context, **machine);
      if (!translated)
        return fail(module, translated.takeError());
      part.module = std::move(*translated);
      declareDynamicSharedMemory(*part.module);
    }
  }
  {
    TimedStage stage("LLVM -O3 and NVPTX");
    auto compile = [&](size_t index) {
      Part &part = parts[index];
      // A target machine is not shared between threads.
      llvm::Expected<std::unique_ptr<llvm::TargetMachine>> own =
          createNVPTXMachine(chip);
      llvm::Error error = own.takeError();
      if (!error)
        error = optimizeModule(*part.module, **own, /*optLevel=*/3);
      llvm::SmallString<0> text;
      llvm::raw_svector_ostream os(text);
      if (!error)
        error =
            emitMachineCode(*part.module, **own, MachineCodeKind::Assembly, os);
      if (error)
        part.error = llvm::toString(std::move(error));
      part.text = std::string(text.str());
    };
    // The MLIR context's threads (none where its threading is off).
    parallelFor(first.getContext(), 0, parts.size(), compile);
  }
  std::vector<std::string> texts;
  for (auto [module, part] : llvm::zip_equal(modules, parts)) {
    if (part.error)
      return fail(module, llvm::createStringError(*part.error));
    texts.push_back(std::move(part.text));
  }
  return joinPTX(texts);
}
