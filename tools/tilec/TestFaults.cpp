//===- TestFaults.cpp - Wrong back-end outputs for the checks' tests ------===//

#include "TestFaults.h"
#include "DriverError.h"

#include <cmath>
#include <cstdlib>
#include <string>

using namespace tilec;
using namespace tilec::driver;

/// Element n/2 of `t`, made slightly wrong.
static void spoilMiddleElement(Tensor &t) {
  int64_t k = t.numElements() / 2;
  if (t.type.dtype == DType::Bool)
    t.setInt(k, t.getInt(k) == 0);
  else if (!isFloat(t.type.dtype))
    t.setInt(k, t.getInt(k) + 1);
  else
    t.setDouble(k, t.getDouble(k) * (1 + std::ldexp(1.0, -10)) +
                       std::ldexp(1.0, -10));
}

const std::vector<Tensor> &
tilec::driver::withTestFault(const std::vector<Tensor> &outputs,
                             std::vector<Tensor> &storage) {
  const char *fault = std::getenv("TILEC_TEST_FAULT");
  if (!fault || !*fault)
    return outputs;
  std::string name = fault;
  storage = outputs;
  if (name == "element") {
    for (Tensor &output : storage)
      spoilMiddleElement(output);
  } else if (name == "missing") {
    if (!storage.empty())
      storage.pop_back();
  } else {
    failUsage("TILEC_TEST_FAULT=" + name +
              " names no fault; 'element' or 'missing'");
  }
  return storage;
}
