//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "tilec/Support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tilec;

namespace {
/// The bytes of a .npy file with the given header dict and data.
std::string npyBytes(const std::string &dict, const std::string &data,
                     int major = 1) {
  std::string header = dict + "\n";
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  uint32_t len = header.size();
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    out += char((len >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string dictFor(const std::string &descr, const std::string &shape,
                    const std::string &order = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + order +
         ", 'shape': " + shape + ", }";
}

/// The error message of a failed parse, or "" if it succeeded.
std::string parseError(const std::string &bytes,
                       std::optional<DType> expected = std::nullopt) {
  auto t = parseNpy(bytes, "f.npy", expected);
  if (t)
    return "";
  return t.message();
}

Tensor sample(DType dtype, std::vector<int64_t> shape) {
  Tensor t(TensorType{dtype, shape});
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setDouble(i, double(i % 5) - 2 + (isFloat(dtype) ? 0.5 : 0));
  return t;
}
} // namespace

TEST_CASE("npy round trips every element type", "[npy]") {
  for (DType d : {DType::Bool, DType::I8, DType::I16, DType::I32, DType::I64,
                  DType::U8, DType::U16, DType::U32, DType::U64, DType::F16,
                  DType::BF16, DType::F32, DType::F64}) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, std::vector<int64_t>{5},
          std::vector<int64_t>{2, 3, 4}}) {
      Tensor t = sample(d, shape);
      std::string bytes = serializeNpy(t);
      CHECK(bytes.size() % 64 == (t.data.size() % 64));
      auto back = parseNpy(bytes, "rt.npy");
      REQUIRE(static_cast<bool>(back));
      CHECK(back->type == t.type);
      CHECK(back->data == t.data);
    }
  }
}

TEST_CASE("npy writes the descr numpy writes", "[npy]") {
  std::string f32 = serializeNpy(sample(DType::F32, {3}));
  CHECK(f32.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }") !=
        std::string::npos);
  CHECK(serializeNpy(sample(DType::Bool, {})).find("'|b1'") !=
        std::string::npos);
  CHECK(serializeNpy(sample(DType::BF16, {2, 2})).find("'bfloat16'") !=
        std::string::npos);
  CHECK(serializeNpy(sample(DType::I8, {2, 2})).find("(2, 2)") !=
        std::string::npos);
  CHECK(f32[f32.size() - 12 - 1] == '\n'); // header ends with a newline
}

TEST_CASE("npy reads big-endian, native and version 2/3 files", "[npy]") {
  std::string be("\x00\x00\x00\x01\xff\xff\xff\xfe", 8);
  auto t = parseNpy(npyBytes(dictFor(">i4", "(2,)"), be), "be.npy");
  REQUIRE(static_cast<bool>(t));
  CHECK(t->type == TensorType{DType::I32, {2}});
  CHECK(t->getInt(0) == 1);
  CHECK(t->getInt(1) == -2);

  std::string f2be("\x3c\x00", 2);
  auto h = parseNpy(npyBytes(dictFor(">f2", "()"), f2be, 2), "h.npy");
  REQUIRE(static_cast<bool>(h));
  CHECK(h->getDouble(0) == 1.0);

  std::string one("\x01\x00", 2);
  auto u = parseNpy(npyBytes(dictFor("=u2", "(1,)"), one, 3), "u.npy");
  REQUIRE(static_cast<bool>(u));
  CHECK(u->getInt(0) == 1);

  auto b = parseNpy(npyBytes("{\"descr\": \"|b1\", \"shape\": (2L,), "
                             "\"fortran_order\": False}",
                             std::string("\x00\x07", 2)),
                    "b.npy");
  REQUIRE(static_cast<bool>(b));
  CHECK(b->getInt(1) == 1);
  CHECK(b->data[1] == 1);
}

TEST_CASE("npy accepts raw 2-byte records as bf16 only when expected",
          "[npy]") {
  std::string bytes = npyBytes(dictFor("<V2", "(1,)"), "\x80\x3f");
  CHECK(parseError(bytes).find("raw 2-byte") != std::string::npos);
  auto t = parseNpy(bytes, "v.npy", DType::BF16);
  REQUIRE(static_cast<bool>(t));
  CHECK(t->type.dtype == DType::BF16);
  CHECK(t->getDouble(0) == 1.0);
}

TEST_CASE("npy rejects malformed files with a message", "[npy]") {
  std::string f4 = dictFor("<f4", "(2,)");
  std::string data(8, '\0');
  auto has = [](const std::string &msg, const char *what) {
    INFO(msg);
    CHECK(msg.rfind("f.npy: ", 0) == 0);
    CHECK(msg.find(what) != std::string::npos);
  };
  has(parseError("PK\x03\x04 not numpy"), "bad magic");
  has(parseError(""), "bad magic");
  has(parseError(npyBytes(f4, data, 4)), "unsupported .npy version");
  has(parseError(npyBytes(f4, data).substr(0, 9)), "truncated header");
  has(parseError(npyBytes(f4, data).substr(0, 30)), "truncated header");
  has(parseError(npyBytes("['descr', '<f4']", data)), "malformed header");
  has(parseError(npyBytes("{'descr': '<f4', 'shape': (2,)}", data)),
      "lacks 'fortran_order'");
  has(parseError(npyBytes("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (2,), 'extra': 1}",
                          data)),
      "unexpected key");
  has(parseError(npyBytes("{'descr': '<f4' 'fortran_order': False}", data)),
      "expected ','");
  has(parseError(npyBytes(dictFor("<f4", "(2, x)"), data)), "tuple");
  has(parseError(npyBytes(dictFor("<f4", "(2,)") + " junk", data)),
      "unexpected text");
  has(parseError(npyBytes(dictFor("<f4", "(2,)", "True"), data)),
      "Fortran-order");
  has(parseError(npyBytes(dictFor("<f4", "(2,)", "Maybe"), data)),
      "True or False");
  has(parseError(npyBytes(dictFor("<f4", "(3,)"), data)), "data size mismatch");
  has(parseError(npyBytes(dictFor("<f4", "(1,)"), data)), "data size mismatch");
  has(parseError(npyBytes(dictFor("<f4", "(1000000000000,)"), data)),
      "data size mismatch");
  has(parseError(npyBytes(dictFor("<f4", "(-2,)"), data)), "negative");
  has(parseError(npyBytes(dictFor("<f4", "(0, 2)"), data)), "zero-sized");
  has(parseError(npyBytes(dictFor("<f4", "(99999999999999999999,)"), data)),
      "too large");
  has(parseError(npyBytes(
          dictFor("<f4", "(4294967296, 4294967296, 4294967296)"), data)),
      "too large");
  has(parseError(npyBytes(dictFor("<c8", "(1,)"), data)),
      "unsupported dtype '<c8'");
  has(parseError(npyBytes(dictFor("<U3", "(1,)"), data)), "unsupported dtype");
  has(parseError(npyBytes(dictFor("|O", "(1,)"), data)), "object arrays");
  has(parseError(npyBytes(dictFor("|i4", "(2,)"), data)), "byte order");
  has(parseError(npyBytes("{'descr': [('a', '<f4')], 'fortran_order': False, "
                          "'shape': (2,)}",
                          data)),
      "structured");
}

TEST_CASE("npy files are written atomically and read back", "[npy]") {
  llvm::SmallString<128> dir;
  REQUIRE(!llvm::sys::fs::createUniqueDirectory("tilec-npy-test", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "x.npy");
  Tensor t = sample(DType::F16, {3, 2});
  REQUIRE(writeNpy(std::string(path), t).ok());
  auto back = readNpy(std::string(path));
  REQUIRE(static_cast<bool>(back));
  CHECK(back->data == t.data);
  // Only the file itself is left in the directory.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    ++entries;
  CHECK(entries == 1);

  auto missing = readNpy(std::string(dir) + "/nope.npy");
  REQUIRE(!static_cast<bool>(missing));
  std::string msg = missing.message();
  CHECK(msg.find("nope.npy: cannot read") != std::string::npos);

  llvm::SmallString<128> bad(dir);
  llvm::sys::path::append(bad, "no-such-dir", "y.npy");
  Status err = writeNpy(std::string(bad), t);
  REQUIRE(!err.ok());
  CHECK(err.message().find("y.npy") != std::string::npos);

  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(dir);
}
