//===- DriverError.cpp - How a tilec command stops early ------------------===//
//
// Part of the tilec driver; see DriverError.h.
//
//===----------------------------------------------------------------------===//

#include "DriverError.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::driver;

void tilec::driver::failUsage(const llvm::Twine &message) {
  throw DriverError(ExitCode::UsageError, message.str());
}

void tilec::driver::failInput(const llvm::Twine &message) {
  throw DriverError(ExitCode::InputError, message.str());
}

void tilec::driver::failRuntime(const llvm::Twine &message) {
  throw DriverError(ExitCode::RuntimeFailure, message.str());
}

void tilec::driver::failWith(ExitCode code, llvm::Error error) {
  throw DriverError(code, llvm::toString(std::move(error)));
}

void tilec::driver::orFail(llvm::Error error) {
  if (!error)
    return;
  ExitCode code = ExitCode::RuntimeFailure;
  std::string message;
  llvm::handleAllErrors(
      std::move(error),
      [&](const CompileError &failure) {
        code = failure.kind() == ErrorKind::Input ? ExitCode::InputError
               : failure.kind() == ErrorKind::Usage
                   ? ExitCode::UsageError
                   : ExitCode::RuntimeFailure;
        message = failure.text();
      },
      [&](const llvm::ErrorInfoBase &other) { message = other.message(); });
  throw DriverError(code, message);
}

namespace {

class StderrReporter : public tilec::compiler::Reporter {
public:
  void warning(const llvm::Twine &message) override {
    llvm::errs() << "tilec: warning: " << message << "\n";
  }
  void remark(const llvm::Twine &message) override {
    llvm::errs() << "tilec: " << message << "\n";
  }
  llvm::raw_ostream &diagnostics() override { return llvm::errs(); }
};

} // namespace

tilec::compiler::Reporter &tilec::driver::driverReporter() {
  static StderrReporter reporter;
  return reporter;
}
