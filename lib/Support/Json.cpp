//===- Json.cpp - Parsing JSON files with messages for people -------------===//

#include "tilec/Support/Json.h"

#include <utility>
#include <vector>

using namespace tilec;
using json = nlohmann::json;

namespace {

/// Records where JSON text stops being JSON. A SAX pass rather than a
/// catch, so that no exception is needed.
class SyntaxErrorFinder : public nlohmann::json_sax<json> {
public:
  std::string message;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t &) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &e) override {
    // what() reads "[json.exception.parse_error.101] parse error at line 3,
    // column 5: ..."; the bracketed id means nothing to a user.
    std::string what = e.what();
    size_t start = what.find("] ");
    message = start == std::string::npos ? what : what.substr(start + 2);
    return false;
  }
};

/// Whether `root` nests more than kMaxJsonDepth levels of arrays and
/// objects. An explicit stack, since the point is to avoid recursion.
bool nestsTooDeep(const json &root) {
  std::vector<std::pair<const json *, int>> pending{{&root, 1}};
  while (!pending.empty()) {
    auto [value, depth] = pending.back();
    pending.pop_back();
    if (!value->is_structured())
      continue;
    if (depth > kMaxJsonDepth)
      return true;
    for (const json &child : *value)
      pending.push_back({&child, depth + 1});
  }
  return false;
}

} // namespace

Result<json> tilec::parseJson(const std::string &text,
                              const std::string &name) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    SyntaxErrorFinder finder;
    json::sax_parse(text, &finder);
    return Result<json>::error(
        name + ": not valid JSON" +
        (finder.message.empty() ? "" : ": " + finder.message));
  }
  // nlohmann parses and destroys values iteratively, but dumping, copying
  // and comparing them recurse once per level: a file of a million '[' would
  // overflow the stack of whichever reader then describes the value in a
  // message.
  if (nestsTooDeep(root))
    return Result<json>::error(name + ": JSON nested more than " +
                               std::to_string(kMaxJsonDepth) +
                               " levels deep");
  return root;
}
