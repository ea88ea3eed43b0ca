//===- DriverError.cpp - How a tilec command stops early ------------------===//
//
// Part of the tilec driver; see DriverError.h.
//
//===----------------------------------------------------------------------===//

#include "DriverError.h"

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
