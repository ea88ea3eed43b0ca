//===- Reporter.cpp - Where lib/Compiler's messages go --------------------===//
//
// Part of lib/Compiler; see Reporter.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/Reporter.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec::compiler;

Reporter::~Reporter() = default;

namespace {

class SilentReporter : public Reporter {
public:
  void warning(const llvm::Twine &) override {}
  void remark(const llvm::Twine &) override {}
  llvm::raw_ostream &diagnostics() override { return llvm::nulls(); }
};

} // namespace

Reporter &tilec::compiler::silentReporter() {
  static SilentReporter reporter;
  return reporter;
}
