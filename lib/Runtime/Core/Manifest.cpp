//===- Manifest.cpp - Printing, reading and writing launch manifests ------===//
//
// Printing goes through nlohmann::json, whose objects keep their keys sorted,
// so the same Manifest always prints the same text. Validation of what is
// read lives in ManifestParser.cpp.
//
//===----------------------------------------------------------------------===//

#include "ManifestSpelling.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/FileIO.h"

#include <nlohmann/json.hpp>

using namespace tilec;
using namespace tilec::rt;
using json = nlohmann::json;

namespace {
constexpr BufferRole kRoles[] = {BufferRole::Input, BufferRole::Output,
                                 BufferRole::Temporary};
constexpr Access kAccesses[] = {Access::Read, Access::Write, Access::ReadWrite};
} // namespace

std::string_view tilec::rt::bufferRoleName(BufferRole role) {
  switch (role) {
  case BufferRole::Input:
    return "input";
  case BufferRole::Output:
    return "output";
  case BufferRole::Temporary:
    return "temporary";
  }
  return "temporary";
}

std::optional<BufferRole> tilec::rt::parseBufferRole(std::string_view name) {
  for (BufferRole role : kRoles)
    if (bufferRoleName(role) == name)
      return role;
  return std::nullopt;
}

std::string_view tilec::rt::accessName(Access access) {
  switch (access) {
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "read_write";
  }
  return "read_write";
}

std::optional<Access> tilec::rt::parseAccess(std::string_view name) {
  for (Access access : kAccesses)
    if (accessName(access) == name)
      return access;
  return std::nullopt;
}

const ManifestValue *Manifest::findValue(const std::string &name) const {
  for (const auto *values : {&inputs, &outputs})
    for (const ManifestValue &value : *values)
      if (value.name == name)
        return &value;
  return nullptr;
}

const ManifestBuffer *Manifest::findBuffer(int id) const {
  for (const ManifestBuffer &buffer : buffers)
    if (buffer.id == id)
      return &buffer;
  return nullptr;
}

static json bufferJson(const ManifestBuffer &buffer) {
  json out = {{"id", buffer.id},
              {"role", bufferRoleName(buffer.role)},
              {"bytes", buffer.bytes}};
  if (buffer.role != BufferRole::Temporary) {
    out["name"] = buffer.name;
    out["dtype"] = dtypeName(buffer.dtype);
    out["shape"] = buffer.shape;
  }
  return out;
}

static json valuesJson(const std::vector<ManifestValue> &values) {
  json out = json::array();
  for (const ManifestValue &value : values)
    out.push_back({{"name", value.name}, {"buffer", value.buffer}});
  return out;
}

static json kernelJson(const ManifestKernel &kernel,
                       const std::string &target) {
  json args = json::array();
  for (const KernelArg &arg : kernel.args)
    args.push_back(
        {{"buffer", arg.buffer}, {"access", accessName(arg.access)}});
  json out = {{"name", kernel.name},
              {"fingerprint", kernel.fingerprint},
              {"statements", kernel.statements},
              {"args", args},
              {"global", kernel.global},
              {"local", kernel.local},
              {"flops", kernel.flops},
              {"bytes", kernel.bytes}};
  if (target == "ptx")
    out["dynamic_shared_bytes"] = kernel.dynamicSharedBytes;
  if (target == "spirv") {
    json bindings = json::array();
    for (const KernelBinding &binding : kernel.bindings)
      bindings.push_back({{"set", binding.set},
                          {"binding", binding.binding},
                          {"buffer", binding.buffer}});
    out["spirv_entry"] = kernel.spirvEntry;
    out["bindings"] = bindings;
  }
  return out;
}

std::string tilec::rt::printManifest(const Manifest &manifest) {
  json buffers = json::array(), kernels = json::array();
  for (const ManifestBuffer &buffer : manifest.buffers)
    buffers.push_back(bufferJson(buffer));
  for (const ManifestKernel &kernel : manifest.kernels)
    kernels.push_back(kernelJson(kernel, manifest.target));
  json root = {{"format", "tilec-manifest"},
               {"version", kManifestVersion},
               {"target", manifest.target},
               {"artefact", manifest.artefact},
               {"program", manifest.program},
               {"entry", manifest.entry},
               {"tilec_version", manifest.tilecVersion},
               {"device", manifest.device},
               {"buffers", buffers},
               {"inputs", valuesJson(manifest.inputs)},
               {"outputs", valuesJson(manifest.outputs)},
               {"kernels", kernels},
               {"peak_temporary_bytes", manifest.peakTemporaryBytes}};
  // Names come from the user's program; invalid UTF-8 in one must not make
  // dump() throw.
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<Manifest> tilec::rt::readManifest(const std::string &path) {
  Result<std::string> text = readFileBytes(path);
  if (!text)
    return text.status();
  return parseManifest(*text, path);
}

Status tilec::rt::writeManifest(const std::string &path,
                                const Manifest &manifest) {
  return writeFileAtomically(path, printManifest(manifest));
}

std::string tilec::rt::kernelWhere(const ManifestKernel &kernel) {
  return "kernel '" + kernel.name + "'";
}

std::string tilec::rt::kernelPrefix(const ManifestKernel &kernel) {
  return kernelWhere(kernel) + ": ";
}

std::string tilec::rt::describeBuffer(const ManifestBuffer &buffer) {
  std::string text = "buffer " + std::to_string(buffer.id) + " (";
  if (!buffer.name.empty())
    text += "'" + buffer.name + "', ";
  return text + std::to_string(buffer.bytes) + " bytes)";
}

std::string tilec::rt::sizesText(const std::array<uint64_t, 3> &sizes) {
  return "[" + std::to_string(sizes[0]) + ", " + std::to_string(sizes[1]) +
         ", " + std::to_string(sizes[2]) + "]";
}

std::array<uint64_t, 3>
tilec::rt::workGroupCounts(const ManifestKernel &kernel) {
  std::array<uint64_t, 3> groups;
  for (int d = 0; d < 3; ++d) {
    uint64_t global = kernel.global[d], local = kernel.local[d];
    // Written so that it cannot overflow for any global size.
    groups[d] = local == 0 ? 0 : global / local + (global % local != 0);
  }
  return groups;
}
