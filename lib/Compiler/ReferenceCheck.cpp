//===- ReferenceCheck.cpp - Outputs against the reference interpreter -----===//
//
// Part of lib/Compiler; see ReferenceCheck.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ReferenceCheck.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Target/CompileError.h"

using namespace tilec;
using namespace tilec::compiler;

llvm::Expected<std::vector<OutputCheck>>
tilec::compiler::compareWithInterpreter(const typed::Program &program,
                                        std::vector<Tensor> inputs,
                                        const std::vector<Tensor> &outputs,
                                        ReferenceRules rules) {
  llvm::Expected<ReferenceOutputs> reference =
      interpretWithBounds(program, std::move(inputs), rules);
  if (!reference)
    return withKind(ErrorKind::Runtime, reference.takeError());
  std::vector<OutputCheck> checks;
  for (size_t i = 0; i < reference->outputs.size(); ++i) {
    OutputCheck check;
    check.comparison =
        i < outputs.size()
            ? compareTensors(outputs[i], reference->outputs[i],
                             &reference->bounds[i])
            : failedComparison("the back end returned no such output");
    check.line = formatComparison(program.value(program.outputs[i]).name,
                                  check.comparison);
    checks.push_back(std::move(check));
  }
  return checks;
}
