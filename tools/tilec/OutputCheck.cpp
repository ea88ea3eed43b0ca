//===- OutputCheck.cpp - Printing the check against the interpreter -------===//
//
// Part of the tilec driver; see OutputCheck.h.
//
//===----------------------------------------------------------------------===//

#include "OutputCheck.h"
#include "DriverError.h"
#include "TestFaults.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

std::vector<OutputCheck>
tilec::driver::checkOutputs(const typed::Program &program,
                            std::vector<Tensor> inputs,
                            const std::vector<Tensor> &backEnd,
                            ReferenceRules rules) {
  std::vector<Tensor> faulty;
  const std::vector<Tensor> &outputs = withTestFault(backEnd, faulty);
  return orFail(
      compareWithInterpreter(program, std::move(inputs), outputs, rules));
}

bool tilec::driver::checkAgainstInterpreter(
    const typed::Program &program, std::vector<Tensor> inputs,
    const std::vector<Tensor> &outputs, ReferenceRules rules) {
  bool allMatch = true;
  for (const OutputCheck &check :
       checkOutputs(program, std::move(inputs), outputs, rules)) {
    llvm::outs() << check.line << "\n";
    allMatch = allMatch && check.comparison.match;
  }
  return allMatch;
}
