//===- Npy.cpp - Read and write numpy .npy files --------------------------===//
//
// The .npy layout: the magic "\x93NUMPY", a version byte pair, the header
// length (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then a
// Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
// padded with spaces and a newline, then the raw C-order data. The header is
// parsed by a small recursive-descent reader of exactly that literal subset;
// every size is checked against the bytes present before anything is
// allocated.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Npy.h"
#include "tilec/Support/FileIO.h"

#include <algorithm>
#include <cstring>

using namespace tilec;
using std::string_view;

static constexpr char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = 6;
/// More dimensions than any real tensor has; bounds the work on bad input.
static constexpr size_t kMaxRank = 64;
static constexpr bool kBigEndianHost = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

static Status npyError(const std::string &name, const std::string &what) {
  return Status::error(name + ": " + what);
}

/// Drops `prefix` from the front of `text` if it is there.
static bool consumeFront(string_view &text, string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix)
    return false;
  text.remove_prefix(prefix.size());
  return true;
}

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

//===----------------------------------------------------------------------===//
// Header dictionary
//===----------------------------------------------------------------------===//

namespace {
/// The three fields of a .npy header.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Reads the Python dict literal of a header. Errors are plain messages; the
/// caller prefixes the file name.
class HeaderParser {
public:
  explicit HeaderParser(string_view text) : text(text) {}

  /// Parses the dict; on failure returns false and sets `error`.
  bool parse(NpyHeader &header) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("the header is not a Python dict");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key in the header dict");
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + key + "' in the header dict");
      skipSpace();
      if (key == "descr") {
        if (peek() == '[')
          return fail("structured arrays (a list 'descr') are not supported");
        if (!parseString(header.descr))
          return fail("'descr' must be a quoted type string");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (consumeFront(text, "True"))
          header.fortranOrder = true;
        else if (consumeFront(text, "False"))
          header.fortranOrder = false;
        else
          return fail("'fortran_order' must be True or False");
        haveOrder = true;
      } else if (key == "shape") {
        if (!parseShape(header.shape))
          return false;
        haveShape = true;
      } else {
        return fail("unexpected key '" + key + "' in the header dict");
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}' in the header dict");
    }
    skipSpace();
    if (!text.empty())
      return fail("unexpected text after the header dict");
    if (!haveDescr || !haveOrder || !haveShape)
      return fail(std::string("the header dict lacks '") +
                  (!haveDescr   ? "descr"
                   : !haveOrder ? "fortran_order"
                                : "shape") +
                  "'");
    return true;
  }

  std::string error;

private:
  string_view text;

  bool fail(const std::string &msg) {
    error = msg;
    return false;
  }
  char peek() const { return text.empty() ? '\0' : text.front(); }
  bool consume(char c) {
    if (peek() != c)
      return false;
    text.remove_prefix(1);
    return true;
  }
  void skipSpace() {
    size_t start = text.find_first_not_of(" \t\r\n");
    text.remove_prefix(start == string_view::npos ? text.size() : start);
  }

  bool parseString(std::string &out) {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      return false;
    size_t end = text.find(quote, 1);
    if (end == string_view::npos)
      return false;
    out = std::string(text.substr(1, end - 1));
    text.remove_prefix(end + 1);
    return true;
  }

  bool parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return fail("'shape' must be a tuple of integers");
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      bool negative = consume('-');
      size_t digits = 0;
      while (digits < text.size() && isDigit(text[digits]))
        ++digits;
      if (digits == 0)
        return fail("'shape' must be a tuple of integers");
      uint64_t value = 0;
      for (size_t i = 0; i < digits; ++i) {
        if (value > (uint64_t(INT64_MAX) - (text[i] - '0')) / 10)
          return fail("a dimension of 'shape' is too large");
        value = value * 10 + uint64_t(text[i] - '0');
      }
      text.remove_prefix(digits);
      consume('L'); // Python 2 long literals
      if (negative)
        return fail("'shape' has a negative dimension -" +
                    std::to_string(value));
      if (shape.size() == kMaxRank)
        return fail("'shape' has more than " + std::to_string(kMaxRank) +
                    " dimensions");
      shape.push_back(int64_t(value));
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return true;
      return fail("expected ',' or ')' in 'shape'");
    }
  }
};

/// How the data of a file is laid out.
struct NpyLayout {
  DType dtype;
  bool swapBytes;
};
} // namespace

/// Maps a descr string to an element type and byte order.
static Result<NpyLayout> decodeDescr(const std::string &descr,
                                     const std::string &name,
                                     std::optional<DType> expected) {
  // ml_dtypes' bfloat16 is stored in the writer's (little-endian) order.
  if (descr == "bfloat16")
    return NpyLayout{DType::BF16, kBigEndianHost};
  string_view code = string_view(descr).substr(descr.empty() ? 0 : 1);
  if (!code.empty() && code.front() == 'O')
    return npyError(name,
                    "object arrays (dtype '" + descr + "') are not supported");
  char order = descr.empty() ? '\0' : descr[0];
  if (descr.size() < 3 ||
      (order != '<' && order != '>' && order != '|' && order != '='))
    return npyError(name, "unsupported dtype '" + descr + "'");
  static const struct {
    const char *code;
    DType dtype;
  } kCodes[] = {
      {"b1", DType::Bool}, {"i1", DType::I8},  {"i2", DType::I16},
      {"i4", DType::I32},  {"i8", DType::I64}, {"u1", DType::U8},
      {"u2", DType::U16},  {"u4", DType::U32}, {"u8", DType::U64},
      {"f2", DType::F16},  {"f4", DType::F32}, {"f8", DType::F64},
  };
  std::optional<DType> dtype;
  for (const auto &entry : kCodes)
    if (code == entry.code)
      dtype = entry.dtype;
  if (!dtype && code == "V2" && expected == DType::BF16)
    dtype = DType::BF16; // raw 2-byte records written from an ml_dtypes array
  if (!dtype) {
    if (code == "V2")
      return npyError(name, "dtype '" + descr +
                                "' is raw 2-byte data; it is read as bfloat16 "
                                "only where a bf16 input is declared");
    return npyError(name, "unsupported dtype '" + descr + "'");
  }
  unsigned bytes = dtypeBytes(*dtype);
  if (order == '|' && bytes > 1)
    return npyError(name,
                    "dtype '" + descr + "' has no byte order but needs one");
  bool bigEndian = order == '>' || (order == '=' && kBigEndianHost);
  bool swap = bytes > 1 && bigEndian != kBigEndianHost;
  return NpyLayout{*dtype, swap};
}

static void swapElements(std::vector<uint8_t> &data, unsigned bytes) {
  for (size_t i = 0; i + bytes <= data.size(); i += bytes)
    std::reverse(data.begin() + i, data.begin() + i + bytes);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

Result<Tensor> tilec::parseNpy(string_view bytes, const std::string &name,
                               std::optional<DType> expected) {
  if (bytes.size() < kMagicSize + 2 ||
      std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    return npyError(name, "not a .npy file (bad magic string)");
  unsigned major = uint8_t(bytes[6]), minor = uint8_t(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    return npyError(name, "unsupported .npy version " + std::to_string(major) +
                              "." + std::to_string(minor));
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = kMagicSize + 2 + lengthBytes;
  if (bytes.size() < prefix)
    return npyError(name, "truncated header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= uint64_t(uint8_t(bytes[8 + i])) << (8 * i);
  if (headerLength > bytes.size() - prefix)
    return npyError(name, "truncated header (it claims " +
                              std::to_string(headerLength) + " bytes)");
  string_view headerText = bytes.substr(prefix, headerLength);

  NpyHeader header;
  HeaderParser parser(headerText);
  if (!parser.parse(header))
    return npyError(name, "malformed header: " + parser.error);
  if (header.fortranOrder)
    return npyError(name, "Fortran-order arrays are not supported; save a "
                          "C-order array (numpy.ascontiguousarray)");
  auto layout = decodeDescr(header.descr, name, expected);
  if (!layout)
    return layout.status();
  for (int64_t d : header.shape)
    if (d == 0)
      return npyError(name, "zero-sized dimensions are not supported (every "
                            "size must be at least 1)");

  unsigned elementBytes = dtypeBytes(layout->dtype);
  int64_t count = checkedNumElements(header.shape);
  int64_t dataBytes;
  if (count < 0 ||
      __builtin_mul_overflow(count, int64_t(elementBytes), &dataBytes))
    return npyError(name, "the shape is too large");
  string_view data = bytes.substr(prefix + headerLength);
  if (uint64_t(dataBytes) != data.size())
    return npyError(name, "data size mismatch: the shape needs " +
                              std::to_string(dataBytes) +
                              " bytes but the file holds " +
                              std::to_string(data.size()));

  Tensor t;
  t.type = TensorType{layout->dtype, header.shape};
  t.data.assign(data.begin(), data.end());
  if (layout->swapBytes)
    swapElements(t.data, elementBytes);
  if (layout->dtype == DType::Bool)
    for (uint8_t &b : t.data)
      b = b != 0;
  return t;
}

Result<Tensor> tilec::readNpy(const std::string &path,
                              std::optional<DType> expected) {
  Result<std::string> bytes = readFileBytes(path);
  if (!bytes)
    return bytes.status();
  return parseNpy(*bytes, path, expected);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// The descr numpy writes for an element type.
static std::string descrFor(DType t) {
  switch (t) {
  case DType::Bool:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "bfloat16";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  }
  return "";
}

std::string tilec::serializeNpy(const Tensor &t) {
  std::string dict = "{'descr': '" + descrFor(t.type.dtype) +
                     "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < t.type.shape.size(); ++i)
    dict += (i ? ", " : "") + std::to_string(t.type.shape[i]);
  if (t.type.shape.size() == 1)
    dict += ','; // "(3,)", as Python writes a 1-tuple
  dict += "), }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes.
  bool wide = dict.size() + 1 + 10 > 65535;
  size_t prefix = wide ? 12 : 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';

  std::string out(kMagic, kMagicSize);
  out += char(wide ? 2 : 1);
  out += char(0);
  uint32_t length = dict.size();
  for (size_t i = 0; i < (wide ? 4u : 2u); ++i)
    out += char((length >> (8 * i)) & 0xff);
  out += dict;
  size_t dataStart = out.size();
  out.append(reinterpret_cast<const char *>(t.data.data()), t.data.size());
  if (kBigEndianHost && dtypeBytes(t.type.dtype) > 1) {
    unsigned bytes = dtypeBytes(t.type.dtype);
    for (size_t i = dataStart; i + bytes <= out.size(); i += bytes)
      std::reverse(out.begin() + i, out.begin() + i + bytes);
  }
  return out;
}

Status tilec::writeNpy(const std::string &path, const Tensor &t) {
  return writeFileAtomically(path, serializeNpy(t));
}
