//===- FuzzFrontend.cpp - libFuzzer entry point for the front end ---------===//
//
// Feeds arbitrary bytes through every phase-1 and phase-2 step that the
// compiler runs on a source file: parseModule, checkModule and, for inputs
// without errors, findEntry and bindProgram with no -D options (so literal
// dimensions and defaults are what reach the binder). Diagnostics go to a null
// stream; a crash, a sanitizer report, a hang or a huge allocation is a bug.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstddef>
#include <cstdint>

using namespace tilec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::SourceMgr sourceMgr;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
  llvm::raw_null_ostream nullStream;
  DiagnosticEngine diag(sourceMgr, nullStream);

  ast::Module module = parseModule(bufferId, diag);
  if (diag.hadError() || !checkModule(module, diag))
    return 0;
  const ast::Function *entry = findEntry(module, "");
  if (!entry)
    return 0;
  bindProgram(module, *entry, BindOptions(), diag);
  return 0;
}
