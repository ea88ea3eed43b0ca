//===- RequiredFeatures.h - What a test run must find -----------*- C++ -*-===//
//
// TILEC_REQUIRE_FEATURES names the optional test features that must be
// present: a comma-separated list ("opencl,vulkan") or "all", which
// scripts/test.sh (and so CI) sets. lit reads the same variable. A runtime
// test that would skip for want of a required feature fails instead.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_REQUIREDFEATURES_H
#define TILEC_TEST_UNIT_REQUIREDFEATURES_H

#include <cstdlib>
#include <sstream>
#include <string>

namespace tilec::test {

inline bool featureRequired(const std::string &feature) {
  const char *value = std::getenv("TILEC_REQUIRE_FEATURES");
  std::stringstream list(value ? value : "");
  for (std::string name; std::getline(list, name, ',');)
    if (name == feature || name == "all")
      return true;
  return false;
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_REQUIREDFEATURES_H
