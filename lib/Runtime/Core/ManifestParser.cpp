//===- ManifestParser.cpp - Reading and validating a launch manifest ------===//
//
// A manifest is written by the compiler but may be edited by hand or come
// from another version of tilec, and the runtimes trust what it says about
// buffer sizes and work sizes. So every field is checked here, once, with a
// message that names the file and the field ("m.json: kernels[0].global[1]:
// must be an integer >= 1"); after parseManifest succeeds the runtimes need
// not check again. Unknown keys are errors too: a misspelled optional field
// would otherwise be ignored silently.
//
//===----------------------------------------------------------------------===//

#include "ManifestSpelling.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Json.h"
#include "tilec/Support/Tensor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>

using namespace tilec;
using namespace tilec::rt;
using json = nlohmann::json;

namespace {

/// Walks the JSON tree, filling a Manifest; stops at the first error.
class ManifestReader : private JsonErrorTrail {
public:
  explicit ManifestReader(const std::string &name) : JsonErrorTrail(name) {}

  Result<Manifest> read(const json &root);

private:
  using JsonErrorTrail::at;
  static std::string at(const std::string &where, size_t index) {
    return where + "[" + std::to_string(index) + "]";
  }

  bool checkKeys(const json &object, const std::string &where,
                 std::initializer_list<const char *> allowed);
  const json *require(const json &object, const std::string &where,
                      const char *key);
  bool readString(const json &object, const std::string &where, const char *key,
                  std::string &out, bool nonEmpty);
  bool readUInt(const json &value, const std::string &where, uint64_t &out,
                uint64_t min = 0);
  bool readUInt(const json &object, const std::string &where, const char *key,
                uint64_t &out, uint64_t min = 0);
  bool readInt(const json &object, const std::string &where, const char *key,
               int &out);
  const json *readArray(const json &object, const std::string &where,
                        const char *key);

  bool readBuffer(const json &value, const std::string &where,
                  ManifestBuffer &buffer);
  bool readValues(const json &root, const char *key, BufferRole role,
                  const Manifest &manifest, std::vector<ManifestValue> &out);
  bool readKernel(const json &value, const std::string &where,
                  const Manifest &manifest, ManifestKernel &kernel);
  bool readSizes(const json &object, const std::string &where, const char *key,
                 std::array<uint64_t, 3> &out);
  bool checkBuffer(const Manifest &manifest, const std::string &where, int id);
  /// The buffer with id `id` read so far, or null.
  const ManifestBuffer *findBuffer(const Manifest &manifest, int id) const;

  /// Buffer id -> its index in Manifest::buffers. Manifest::findBuffer is a
  /// linear search, fine for a runtime's few look-ups but quadratic over a
  /// file's every reference (a 1 MB manifest of 20,000 buffers took 1.3 s).
  std::map<int, size_t> bufferIndex;
};

} // namespace

bool ManifestReader::checkKeys(const json &object, const std::string &where,
                               std::initializer_list<const char *> allowed) {
  if (!object.is_object())
    return fail(where, "must be an object");
  for (const auto &item : object.items())
    if (std::none_of(allowed.begin(), allowed.end(),
                     [&](const char *key) { return item.key() == key; }))
      return fail(at(where, item.key().c_str()), "unknown field");
  return true;
}

const json *ManifestReader::require(const json &object,
                                    const std::string &where, const char *key) {
  auto it = object.find(key);
  if (it == object.end()) {
    fail(at(where, key), "missing");
    return nullptr;
  }
  return &*it;
}

bool ManifestReader::readString(const json &object, const std::string &where,
                                const char *key, std::string &out,
                                bool nonEmpty) {
  const json *value = require(object, where, key);
  if (!value)
    return false;
  if (!value->is_string())
    return fail(at(where, key), "must be a string");
  out = value->get<std::string>();
  if (nonEmpty && out.empty())
    return fail(at(where, key), "must not be empty");
  return true;
}

bool ManifestReader::readUInt(const json &value, const std::string &where,
                              uint64_t &out, uint64_t min) {
  if (!value.is_number_unsigned() || value.get<uint64_t>() < min)
    return fail(where, "must be an integer >= " + std::to_string(min));
  out = value.get<uint64_t>();
  return true;
}

bool ManifestReader::readUInt(const json &object, const std::string &where,
                              const char *key, uint64_t &out, uint64_t min) {
  const json *value = require(object, where, key);
  return value && readUInt(*value, at(where, key), out, min);
}

bool ManifestReader::readInt(const json &object, const std::string &where,
                             const char *key, int &out) {
  uint64_t value;
  if (!readUInt(object, where, key, value))
    return false;
  if (value > uint64_t(INT32_MAX))
    return fail(at(where, key), "is too large");
  out = int(value);
  return true;
}

const json *ManifestReader::readArray(const json &object,
                                      const std::string &where,
                                      const char *key) {
  const json *value = require(object, where, key);
  if (value && !value->is_array()) {
    fail(at(where, key), "must be an array");
    return nullptr;
  }
  return value;
}

const ManifestBuffer *ManifestReader::findBuffer(const Manifest &manifest,
                                                 int id) const {
  auto found = bufferIndex.find(id);
  if (found == bufferIndex.end())
    return nullptr;
  return &manifest.buffers[found->second];
}

bool ManifestReader::checkBuffer(const Manifest &manifest,
                                 const std::string &where, int id) {
  if (!findBuffer(manifest, id))
    return fail(where, "no buffer has id " + std::to_string(id));
  return true;
}

bool ManifestReader::readBuffer(const json &value, const std::string &where,
                                ManifestBuffer &buffer) {
  if (!checkKeys(value, where,
                 {"id", "role", "name", "dtype", "shape", "bytes"}))
    return false;
  std::string role;
  if (!readInt(value, where, "id", buffer.id) ||
      !readString(value, where, "role", role, true) ||
      !readUInt(value, where, "bytes", buffer.bytes, 1))
    return false;
  std::optional<BufferRole> parsedRole = parseBufferRole(role);
  if (!parsedRole)
    return fail(at(where, "role"),
                "must be \"input\", \"output\" or \"temporary\", not \"" +
                    role + "\"");
  buffer.role = *parsedRole;
  if (buffer.role == BufferRole::Temporary)
    return true; // name, dtype and shape describe program values only
  std::string dtype;
  if (!readString(value, where, "name", buffer.name, true) ||
      !readString(value, where, "dtype", dtype, true))
    return false;
  std::optional<DType> parsedDType = parseDType(dtype);
  if (!parsedDType)
    return fail(at(where, "dtype"), "unknown element type \"" + dtype + "\"");
  buffer.dtype = *parsedDType;
  const json *shape = readArray(value, where, "shape");
  if (!shape)
    return false;
  buffer.shape.clear();
  for (size_t i = 0; i < shape->size(); ++i) {
    uint64_t size;
    if (!readUInt((*shape)[i], at(at(where, "shape"), i), size, 1))
      return false;
    if (size > uint64_t(INT64_MAX))
      return fail(at(at(where, "shape"), i), "is too large");
    buffer.shape.push_back(int64_t(size));
  }
  int64_t elements = checkedNumElements(buffer.shape);
  uint64_t expected = uint64_t(elements) * dtypeBytes(buffer.dtype);
  if (elements < 0 || expected / dtypeBytes(buffer.dtype) != uint64_t(elements))
    return fail(at(where, "shape"), "is too large");
  if (buffer.bytes != expected)
    return fail(at(where, "bytes"),
                "is " + std::to_string(buffer.bytes) + " but " +
                    TensorType{buffer.dtype, buffer.shape}.str() + " needs " +
                    std::to_string(expected));
  return true;
}

bool ManifestReader::readValues(const json &root, const char *key,
                                BufferRole role, const Manifest &manifest,
                                std::vector<ManifestValue> &out) {
  const json *values = readArray(root, "", key);
  if (!values)
    return false;
  std::set<int> used;
  for (size_t i = 0; i < values->size(); ++i) {
    std::string where = at(key, i);
    ManifestValue value;
    if (!checkKeys((*values)[i], where, {"name", "buffer"}) ||
        !readString((*values)[i], where, "name", value.name, true) ||
        !readInt((*values)[i], where, "buffer", value.buffer) ||
        !checkBuffer(manifest, at(where, "buffer"), value.buffer))
      return false;
    const ManifestBuffer &buffer = *findBuffer(manifest, value.buffer);
    if (buffer.role != role)
      return fail(at(where, "buffer"),
                  "buffer " + std::to_string(value.buffer) + " is an " +
                      std::string(bufferRoleName(buffer.role)) +
                      " buffer, not " + std::string(bufferRoleName(role)));
    if (buffer.name != value.name)
      return fail(at(where, "name"), "is \"" + value.name + "\" but buffer " +
                                         std::to_string(value.buffer) +
                                         " holds \"" + buffer.name + "\"");
    if (!used.insert(value.buffer).second)
      return fail(at(where, "buffer"), "buffer " +
                                           std::to_string(value.buffer) +
                                           " is listed twice");
    out.push_back(value);
  }
  for (const ManifestBuffer &buffer : manifest.buffers)
    if (buffer.role == role && !used.count(buffer.id))
      return fail(key, std::string(bufferRoleName(role)) + " buffer " +
                           std::to_string(buffer.id) + " (\"" + buffer.name +
                           "\") is not listed");
  return true;
}

bool ManifestReader::readSizes(const json &object, const std::string &where,
                               const char *key, std::array<uint64_t, 3> &out) {
  const json *sizes = readArray(object, where, key);
  if (!sizes)
    return false;
  if (sizes->size() != 3)
    return fail(at(where, key), "must hold 3 sizes");
  for (size_t i = 0; i < 3; ++i)
    if (!readUInt((*sizes)[i], at(at(where, key), i), out[i], 1))
      return false;
  return true;
}

/// A C identifier: what an OpenCL kernel, SPIR-V entry point or PTX .entry
/// is called.
static bool isIdentifier(const std::string &name) {
  auto isAlpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (name.empty() || !isAlpha(name[0]))
    return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return isAlpha(c) || (c >= '0' && c <= '9');
  });
}

bool ManifestReader::readKernel(const json &value, const std::string &where,
                                const Manifest &manifest,
                                ManifestKernel &kernel) {
  bool spirv = manifest.target == "spirv";
  if (!checkKeys(value, where,
                 {"name", "fingerprint", "statements", "args", "global",
                  "local", "flops", "bytes", "spirv_entry", "bindings",
                  "dynamic_shared_bytes"}) ||
      !readString(value, where, "name", kernel.name, true) ||
      !readString(value, where, "fingerprint", kernel.fingerprint, true))
    return false;
  if (!isIdentifier(kernel.name))
    return fail(at(where, "name"),
                "\"" + kernel.name + "\" is not a C identifier");
  if (kernel.fingerprint.size() != 16 ||
      kernel.fingerprint.find_first_not_of("0123456789abcdef") !=
          std::string::npos)
    return fail(at(where, "fingerprint"), "must be 16 lower-case hex digits");
  const json *statements = readArray(value, where, "statements");
  if (!statements)
    return false;
  for (size_t i = 0; i < statements->size(); ++i) {
    if (!(*statements)[i].is_string())
      return fail(at(at(where, "statements"), i), "must be a string");
    kernel.statements.push_back((*statements)[i].get<std::string>());
  }
  const json *args = readArray(value, where, "args");
  if (!args)
    return false;
  for (size_t i = 0; i < args->size(); ++i) {
    std::string argWhere = at(at(where, "args"), i);
    KernelArg arg;
    std::string access;
    if (!checkKeys((*args)[i], argWhere, {"buffer", "access"}) ||
        !readInt((*args)[i], argWhere, "buffer", arg.buffer) ||
        !checkBuffer(manifest, at(argWhere, "buffer"), arg.buffer) ||
        !readString((*args)[i], argWhere, "access", access, true))
      return false;
    std::optional<Access> parsed = parseAccess(access);
    if (!parsed)
      return fail(at(argWhere, "access"),
                  "must be \"read\", \"write\" or \"read_write\", not \"" +
                      access + "\"");
    arg.access = *parsed;
    if (arg.access != Access::Read &&
        findBuffer(manifest, arg.buffer)->role == BufferRole::Input)
      return fail(at(argWhere, "access"), "input buffer " +
                                              std::to_string(arg.buffer) +
                                              " must not be written");
    kernel.args.push_back(arg);
  }
  if (!readSizes(value, where, "global", kernel.global) ||
      !readSizes(value, where, "local", kernel.local) ||
      !readUInt(value, where, "flops", kernel.flops) ||
      !readUInt(value, where, "bytes", kernel.bytes))
    return false;
  for (size_t i = 0; i < 3; ++i)
    if (kernel.global[i] % kernel.local[i] != 0)
      return fail(at(at(where, "local"), i),
                  std::to_string(kernel.local[i]) + " does not divide the " +
                      "global size " + std::to_string(kernel.global[i]));
  if (value.contains("dynamic_shared_bytes")) {
    if (manifest.target != "ptx")
      return fail(at(where, "dynamic_shared_bytes"),
                  "belongs to ptx manifests only");
    // Optional: a hand-written ptx manifest without shared memory may omit
    // it. cuLaunchKernel takes an unsigned int.
    if (!readUInt(value, where, "dynamic_shared_bytes",
                  kernel.dynamicSharedBytes))
      return false;
    if (kernel.dynamicSharedBytes > UINT32_MAX)
      return fail(at(where, "dynamic_shared_bytes"), "is too large");
  }
  if (!spirv) {
    if (value.contains("spirv_entry") || value.contains("bindings"))
      return fail(where, "'spirv_entry' and 'bindings' belong to spirv "
                         "manifests only");
    return true;
  }
  if (!readString(value, where, "spirv_entry", kernel.spirvEntry, true))
    return false;
  const json *bindings = readArray(value, where, "bindings");
  if (!bindings)
    return false;
  for (size_t i = 0; i < bindings->size(); ++i) {
    std::string bindingWhere = at(at(where, "bindings"), i);
    KernelBinding binding;
    if (!checkKeys((*bindings)[i], bindingWhere,
                   {"set", "binding", "buffer"}) ||
        !readInt((*bindings)[i], bindingWhere, "set", binding.set) ||
        !readInt((*bindings)[i], bindingWhere, "binding", binding.binding) ||
        !readInt((*bindings)[i], bindingWhere, "buffer", binding.buffer) ||
        !checkBuffer(manifest, at(bindingWhere, "buffer"), binding.buffer))
      return false;
    kernel.bindings.push_back(binding);
  }
  return true;
}

Result<Manifest> ManifestReader::read(const json &root) {
  Manifest m;
  std::string format;
  int version = 0;
  if (!root.is_object())
    return Result<Manifest>::error(fileName + ": must be a JSON object");
  // The version first: a newer manifest's new fields are no typing errors.
  if (!readString(root, "", "format", format, true) ||
      !readInt(root, "", "version", version))
    return Status::error(error);
  if (format != "tilec-manifest")
    return Result<Manifest>::error(fileName + ": format: must be "
                                              "\"tilec-manifest\"");
  if (version != kManifestVersion)
    return Result<Manifest>::error(
        fileName + ": version: this tilec reads version " +
        std::to_string(kManifestVersion) + ", not " + std::to_string(version));
  if (!checkKeys(root, "",
                 {"format", "version", "target", "artefact", "program", "entry",
                  "tilec_version", "device", "buffers", "inputs", "outputs",
                  "kernels", "peak_temporary_bytes"}) ||
      !readString(root, "", "target", m.target, true) ||
      !readString(root, "", "artefact", m.artefact, true) ||
      !readString(root, "", "program", m.program, false) ||
      !readString(root, "", "entry", m.entry, false) ||
      !readString(root, "", "tilec_version", m.tilecVersion, false) ||
      !readString(root, "", "device", m.device, false) ||
      !readUInt(root, "", "peak_temporary_bytes", m.peakTemporaryBytes))
    return Status::error(error);
  if (m.target != "opencl" && m.target != "spirv" && m.target != "ptx" &&
      m.target != "glsl")
    return Result<Manifest>::error(fileName +
                                   ": target: must be \"opencl\", "
                                   "\"spirv\", \"ptx\" or \"glsl\", not \"" +
                                   m.target + "\"");
  const json *buffers = readArray(root, "", "buffers");
  if (!buffers)
    return Status::error(error);
  for (size_t i = 0; i < buffers->size(); ++i) {
    ManifestBuffer buffer;
    if (!readBuffer((*buffers)[i], at("buffers", i), buffer))
      return Status::error(error);
    if (!bufferIndex.emplace(buffer.id, m.buffers.size()).second)
      return Result<Manifest>::error(fileName + ": " + at("buffers", i) +
                                     ".id: " + std::to_string(buffer.id) +
                                     " is used twice");
    m.buffers.push_back(buffer);
  }
  if (!readValues(root, "inputs", BufferRole::Input, m, m.inputs) ||
      !readValues(root, "outputs", BufferRole::Output, m, m.outputs))
    return Status::error(error);
  const json *kernels = readArray(root, "", "kernels");
  if (!kernels)
    return Status::error(error);
  for (size_t i = 0; i < kernels->size(); ++i) {
    ManifestKernel kernel;
    if (!readKernel((*kernels)[i], at("kernels", i), m, kernel))
      return Status::error(error);
    m.kernels.push_back(std::move(kernel));
  }
  return m;
}

Result<Manifest> tilec::rt::parseManifest(const std::string &text,
                                          const std::string &name) {
  Result<json> root = parseJson(text, name);
  if (!root)
    return Result<Manifest>::error(root.message());
  return ManifestReader(name).read(*root);
}
