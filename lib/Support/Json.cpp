//===- Json.cpp - Parsing JSON files with messages for people -------------===//

#include "tilec/Support/Json.h"

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

} // namespace

Result<json> tilec::parseJson(const std::string &text,
                              const std::string &name) {
  // nlohmann parses iteratively, but dumping, copying and comparing a value
  // recurse once per level: a file of a million '[' would overflow the stack
  // of whichever reader then describes the value in a message. The callback
  // sees every value's depth as it is parsed and drops what is too deep.
  bool tooDeep = false;
  json root = json::parse(
      text,
      [&](int depth, json::parse_event_t, json &) {
        tooDeep = tooDeep || depth > kMaxJsonDepth;
        return !tooDeep;
      },
      /*allow_exceptions=*/false);
  if (tooDeep)
    return Result<json>::error(name + ": JSON nested more than " +
                               std::to_string(kMaxJsonDepth) +
                               " levels deep");
  if (!root.is_discarded())
    return root;
  SyntaxErrorFinder finder;
  json::sax_parse(text, &finder);
  return Result<json>::error(name + ": not valid JSON" +
                             (finder.message.empty() ? ""
                                                     : ": " + finder.message));
}
