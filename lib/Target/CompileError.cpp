//===- CompileError.cpp - How a compile fails -----------------------------===//
//
// See CompileError.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/CompileError.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;

char CompileError::ID = 0;

void CompileError::log(llvm::raw_ostream &os) const { os << messageText; }

std::error_code CompileError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error tilec::inputError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Input, message.str());
}

llvm::Error tilec::usageError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Usage, message.str());
}

llvm::Error tilec::runtimeError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Runtime, message.str());
}

llvm::Error tilec::withKind(ErrorKind kind, llvm::Error error) {
  if (!error || error.isA<CompileError>())
    return error;
  return llvm::make_error<CompileError>(kind,
                                        llvm::toString(std::move(error)));
}
