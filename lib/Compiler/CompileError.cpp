//===- CompileError.cpp - How a compile fails -----------------------------===//
//
// Part of lib/Compiler; see CompileError.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileError.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec::compiler;

char CompileError::ID = 0;

void CompileError::log(llvm::raw_ostream &os) const { os << messageText; }

std::error_code CompileError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error tilec::compiler::inputError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Input, message.str());
}

llvm::Error tilec::compiler::usageError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Usage, message.str());
}

llvm::Error tilec::compiler::runtimeError(const llvm::Twine &message) {
  return llvm::make_error<CompileError>(ErrorKind::Runtime, message.str());
}

llvm::Error tilec::compiler::withKind(ErrorKind kind, llvm::Error error) {
  if (!error || error.isA<CompileError>())
    return error;
  return llvm::make_error<CompileError>(kind,
                                        llvm::toString(std::move(error)));
}
