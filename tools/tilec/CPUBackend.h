//===- CPUBackend.h - The llvm-x86 target in the driver ---------*- C++ -*-===//
//
// What `tilec FILE --target=llvm-x86` and `tilec run --target=llvm-x86` do
// after the front end: lower the tile module to the loop level, then either
// emit LLVM IR, assembly or an object file with its C header. Running
// through the JIT is DeviceSession's; --check compares with the reference
// interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_CPUBACKEND_H
#define TILEC_TOOLS_TILEC_CPUBACKEND_H

#include "Options.h"
#include "Targets.h"

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Support/Compare.h"
#include "tilec/Support/Tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec::driver {

using compiler::ProgramLoader;

/// Compiles for the host CPU: --emit=llvm or asm prints, otherwise the
/// object goes to -o (default: FILE's stem + ".o") and the header next to it
/// with the same stem. `-o -` writes only the object, to stdout. The code
/// comes from the compile cache when it has it (CompileCache.h).
void compileForCPU(const CompileOptions &options, std::optional<EmitKind> emit,
                   ProgramLoader &loader, const typed::Program &program);

/// One output compared with the interpreter's: the numbers and the report
/// line of Support/Compare.
struct OutputCheck {
  TensorComparison comparison;
  std::string line;
};

/// Runs the interpreter on `inputs` (with its error bounds) and compares
/// each of `outputs` with its output by Support/Compare's rule; an output
/// missing from `outputs` is a mismatch. A failing interpreter is a runtime
/// failure.
std::vector<OutputCheck> compareWithInterpreter(const typed::Program &program,
                                                std::vector<Tensor> inputs,
                                                const std::vector<Tensor> &outputs);

/// Runs the interpreter on `inputs` and prints the check line of each
/// output (errors, NaN counts, the first mismatching element). Returns false
/// when an output breaks the rule.
bool checkAgainstInterpreter(const typed::Program &program,
                             std::vector<Tensor> inputs,
                             const std::vector<Tensor> &outputs);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_CPUBACKEND_H
