//===- OutputCheck.h - Printing the check against the interpreter -*- C++ -*-===//
//
// `tilec run --check` and `tilec bench` compare a backend's outputs with the
// reference interpreter's (lib/Compiler's compareWithInterpreter), after the
// test fault of TILEC_TEST_FAULT, if any, is applied to them (TestFaults.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OUTPUTCHECK_H
#define TILEC_TOOLS_TILEC_OUTPUTCHECK_H

#include "tilec/Compiler/ReferenceCheck.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Tensor.h"

#include <vector>

namespace tilec::driver {

/// Each output of `outputs` (with the test fault) compared with the
/// interpreter's on `inputs`; a failing interpreter ends the command.
std::vector<compiler::OutputCheck>
checkOutputs(const typed::Program &program, std::vector<Tensor> inputs,
             const std::vector<Tensor> &outputs, ReferenceRules rules);

/// Prints the check line of each output (errors, NaN counts, the first
/// mismatching element) on stdout. Returns false when an output breaks the
/// rule.
bool checkAgainstInterpreter(const typed::Program &program,
                             std::vector<Tensor> inputs,
                             const std::vector<Tensor> &outputs,
                             ReferenceRules rules);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_OUTPUTCHECK_H
