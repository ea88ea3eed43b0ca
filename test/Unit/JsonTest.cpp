//===- JsonTest.cpp - parseJson, the reader of every tilec JSON file ------===//

#include "tilec/Support/Json.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tilec;

namespace {
/// `depth` arrays nested in one another around a 1: "[[1]]" for 2.
std::string nestedArrays(size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}
} // namespace

TEST_CASE("parseJson: a syntax error names the file and the place",
          "[json]") {
  Result<nlohmann::json> parsed = parseJson("{\"a\": [1,\n 2", "f.json");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.message().rfind("f.json: not valid JSON: parse error at line "
                               "2, column 3",
                               0) == 0);
  CHECK(parseJson("{\"a\": [1, 2]}", "f.json"));
}

// Found while writing tilec-fuzz-schedule: a schedule file whose "format"
// held a million nested arrays overflowed the stack while the error message
// printed it.
TEST_CASE("parseJson: nesting deeper than kMaxJsonDepth is an error",
          "[json]") {
  CHECK(parseJson(nestedArrays(kMaxJsonDepth), "f.json"));
  Result<nlohmann::json> deep = parseJson(nestedArrays(kMaxJsonDepth + 1),
                                          "f.json");
  REQUIRE_FALSE(deep);
  CHECK(deep.message() == "f.json: JSON nested more than " +
                              std::to_string(kMaxJsonDepth) + " levels deep");
  Result<nlohmann::json> huge = parseJson(nestedArrays(1000000), "f.json");
  REQUIRE_FALSE(huge);
  CHECK(huge.message() == deep.message());
  // Objects count as arrays do.
  std::string objects;
  for (int i = 0; i <= kMaxJsonDepth; ++i)
    objects += "{\"k\": ";
  objects += "1" + std::string(kMaxJsonDepth + 1, '}');
  CHECK_FALSE(parseJson(objects, "f.json"));
}
