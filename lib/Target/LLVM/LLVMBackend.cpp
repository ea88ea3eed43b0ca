//===- LLVMBackend.cpp - The llvm-x86 target's facts ----------------------===//
//
// The CPU backend as the registry sees it (Target/TargetBackend.h): the
// loop level lowered through the LLVM dialect to an x86-64 object file and
// its C header (CodeGen.h, CHeader.h), or run on the host by the JIT.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LLVMBackend.h"
#include "tilec/Target/TargetBackend.h"

using namespace tilec;

namespace {

class LLVMBackend : public TargetBackend {
public:
  llvm::StringRef name() const override { return "llvm-x86"; }
  llvm::ArrayRef<llvm::StringRef> aliases() const override { return names; }
  BackendKind kind() const override { return BackendKind::CPU; }
  llvm::StringRef runtime() const override { return "cpu"; }
  llvm::StringRef artefactExtension() const override { return ".o"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "machine code"; }
  /// -O is the level of this backend's code.
  llvm::StringRef optLevelIgnoredReason() const override { return ""; }

private:
  static constexpr llvm::StringRef names[] = {"llvm"};
  static constexpr EmitStage stages[] = {{"llvm", "loops"}, {"asm", "loops"}};
};

} // namespace

void tilec::registerLLVMBackend() {
  registerTargetBackend(std::make_unique<LLVMBackend>());
}
