//===- SpirvModule.cpp - What a SPIR-V binary declares --------------------===//
//
// The layout is the SPIR-V specification's section 2.3 (physical layout):
// a five-word header, then instructions whose first word holds the word
// count (high half) and the opcode (low half).
//
//===----------------------------------------------------------------------===//

#include "SpirvModule.h"

#include <cstring>

namespace tilec::rt::vulkan {

namespace {

constexpr uint32_t spirvMagic = 0x07230203;
constexpr unsigned headerWords = 5;
// Opcodes and operands used here (SPIR-V specification, section 3).
constexpr uint32_t opCapability = 17;
constexpr uint32_t opEntryPoint = 15;
constexpr uint32_t opExecutionMode = 16;
constexpr uint32_t executionModelGLCompute = 5;
constexpr uint32_t executionModeLocalSize = 17;
constexpr uint32_t executionModeDenormPreserve = 4459;
constexpr uint32_t executionModeSignedZeroInfNanPreserve = 4461;

/// Decodes the nul-terminated literal string starting at `words[0]`, which
/// may span `count` words. False if it is not terminated within them.
bool readString(const uint32_t *words, size_t count, std::string &out) {
  const char *bytes = reinterpret_cast<const char *>(words);
  size_t length = strnlen(bytes, count * 4);
  if (length == count * 4)
    return false;
  out.assign(bytes, length);
  return true;
}

} // namespace

const SpirvEntryPoint *
SpirvModule::findEntryPoint(const std::string &name) const {
  for (const SpirvEntryPoint &e : entryPoints)
    if (e.name == name)
      return &e;
  return nullptr;
}

Result<SpirvModule> parseSpirv(const std::string &bytes,
                               const std::string &fileName) {
  auto bad = [&](const std::string &why) {
    return Result<SpirvModule>::error(fileName +
                                      ": not a valid SPIR-V module: " + why);
  };
  if (bytes.size() % 4 != 0)
    return bad("its size (" + std::to_string(bytes.size()) +
               " bytes) is not a multiple of 4");
  if (bytes.size() < headerWords * 4)
    return bad("shorter than the SPIR-V header");
  SpirvModule module;
  module.words.resize(bytes.size() / 4);
  std::memcpy(module.words.data(), bytes.data(), bytes.size());
  const std::vector<uint32_t> &w = module.words;
  if (w[0] != spirvMagic)
    return bad(w[0] == __builtin_bswap32(spirvMagic)
                   ? "it is in the other byte order than this host's"
                   : "no SPIR-V magic number at the start");

  // Entry points name their function by id; execution modes refer to that id.
  std::vector<uint32_t> entryIds;
  for (size_t at = headerWords; at < w.size();) {
    uint32_t count = w[at] >> 16, opcode = w[at] & 0xFFFF;
    if (count == 0 || at + count > w.size())
      return bad("instruction at word " + std::to_string(at) +
                 " runs past the end");
    const uint32_t *ops = &w[at + 1];
    size_t numOps = count - 1;
    if (opcode == opCapability && numOps >= 1) {
      module.capabilities.push_back(ops[0]);
    } else if (opcode == opEntryPoint && numOps >= 3 &&
               ops[0] == executionModelGLCompute) {
      SpirvEntryPoint entry;
      if (!readString(ops + 2, numOps - 2, entry.name))
        return bad("unterminated entry point name at word " +
                   std::to_string(at));
      module.entryPoints.push_back(entry);
      entryIds.push_back(ops[1]);
    } else if (opcode == opExecutionMode && numOps >= 2) {
      for (size_t i = 0; i < entryIds.size(); ++i) {
        if (entryIds[i] != ops[0])
          continue;
        SpirvEntryPoint &entry = module.entryPoints[i];
        if (ops[1] == executionModeLocalSize && numOps >= 5)
          entry.localSize = {ops[2], ops[3], ops[4]};
        else if (ops[1] == executionModeSignedZeroInfNanPreserve && numOps >= 3)
          entry.infNanPreserveWidths.push_back(ops[2]);
        else if (ops[1] == executionModeDenormPreserve && numOps >= 3)
          entry.denormPreserveWidths.push_back(ops[2]);
      }
    }
    at += count;
  }
  return module;
}

} // namespace tilec::rt::vulkan
