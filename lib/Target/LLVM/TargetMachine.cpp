//===- TargetMachine.cpp - The host TargetMachine and machine code --------===//
//
// "native" means the host CPU and the features the running machine reports,
// like clang's -march=native, so the default build uses every vector
// extension available. --cpu=NAME targets another x86 CPU on the same triple.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/CodeGen.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

void tilec::initializeNativeTarget() {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  InitializeNativeTargetAsmParser();
}

std::string tilec::resolveCPUName(StringRef cpu) {
  if (cpu.empty() || cpu == "native")
    return sys::getHostCPUName().str();
  return cpu.str();
}

/// The feature string for `cpu`: the host's detected features for the host
/// CPU, none otherwise (the CPU name implies its own).
static std::string featuresFor(StringRef cpu) {
  if (!cpu.empty() && cpu != "native")
    return "";
  SubtargetFeatures features;
  for (const auto &[name, enabled] : sys::getHostCPUFeatures())
    features.AddFeature(name, enabled);
  return features.getString();
}

static CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    return CodeGenOptLevel::Less;
  case 2:
    return CodeGenOptLevel::Default;
  default:
    return CodeGenOptLevel::Aggressive;
  }
}

Expected<std::unique_ptr<TargetMachine>>
tilec::createTargetMachine(StringRef cpu, unsigned optLevel) {
  Triple triple(sys::getProcessTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "no code generator for %s: %s",
                             triple.str().c_str(), error.c_str());
  std::string cpuName = resolveCPUName(cpu);
  // Reject unknown names up front: LLVM would only warn and fall back to a
  // generic CPU, which silently gives slow code.
  std::unique_ptr<MCSubtargetInfo> probe(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!probe || !probe->isCPUStringValid(cpuName))
    return createStringError(inconvertibleErrorCode(),
                             "unknown CPU '%s' for %s", cpuName.c_str(),
                             triple.str().c_str());
  TargetOptions options;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, featuresFor(cpu), options, Reloc::PIC_, std::nullopt,
      codeGenLevel(optLevel)));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for %s",
                             cpuName.c_str());
  return std::move(machine);
}

tilec::schedule::CPUFacts
tilec::targetCPUFacts(const TargetMachine &machine) {
  schedule::CPUFacts facts = schedule::hostCPUFacts();
  const MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  schedule::setSIMDFacts(facts, subtarget->checkFeatures("+avx512f"),
                         subtarget->checkFeatures("+avx"));
  return facts;
}

Error tilec::emitMachineCode(Module &module, TargetMachine &machine,
                             MachineCodeKind kind, raw_pwrite_stream &os) {
  legacy::PassManager passes;
  CodeGenFileType type = kind == MachineCodeKind::Object
                             ? CodeGenFileType::ObjectFile
                             : CodeGenFileType::AssemblyFile;
  if (machine.addPassesToEmitFile(passes, os, nullptr, type))
    return createStringError(inconvertibleErrorCode(),
                             "the target cannot emit this file type");
  passes.run(module);
  return Error::success();
}
