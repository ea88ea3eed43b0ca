//===- ReferenceCheck.h - Outputs against the reference interpreter -*- C++ -*-===//
//
// Part of lib/Compiler: what `tilec run --check`, `tilec bench` and the
// tuner's checks share. The interpreter runs the same program on the same
// inputs with its error bounds (Interp/Interpreter.h), and each output a
// backend returned is compared with its reference by Support/Compare's
// rule. An output the backend did not return is a mismatch, never skipped.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_REFERENCECHECK_H
#define TILEC_COMPILER_REFERENCECHECK_H

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/Tensor.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tilec::compiler {

/// One output compared with the interpreter's: the numbers and the report
/// line of Support/Compare.
struct OutputCheck {
  TensorComparison comparison;
  std::string line;
};

/// What the interpreter's bounds allow a program compiled with `options`.
inline ReferenceRules referenceRulesOf(const ProgramOptions &options) {
  return {options.allowTF32};
}

/// Runs the interpreter on `inputs` and compares each of `outputs` (in the
/// program's output order) with its output. A failing interpreter is a
/// runtime error.
llvm::Expected<std::vector<OutputCheck>>
compareWithInterpreter(const typed::Program &program,
                       std::vector<Tensor> inputs,
                       const std::vector<Tensor> &outputs,
                       ReferenceRules rules = {});

} // namespace tilec::compiler

#endif // TILEC_COMPILER_REFERENCECHECK_H
