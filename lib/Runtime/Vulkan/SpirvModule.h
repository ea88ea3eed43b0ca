//===- SpirvModule.h - What a SPIR-V binary declares ------------*- C++ -*-===//
//
// Reads just enough of a SPIR-V module to check it against the manifest and
// the device before the driver sees it: the header, the capabilities, and
// each GLCompute entry point with its LocalSize and float controls. Drivers differ in how they
// treat a malformed module (some abort), so this reader rejects any binary
// whose instruction stream does not parse.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_VULKAN_SPIRVMODULE_H
#define TILEC_LIB_RUNTIME_VULKAN_SPIRVMODULE_H

#include "tilec/Support/Result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec::rt::vulkan {

struct SpirvEntryPoint {
  std::string name;
  /// From OpExecutionMode LocalSize; absent when the module sets the size
  /// another way (LocalSizeId, a WorkgroupSize constant).
  std::optional<std::array<uint32_t, 3>> localSize;
  /// The float widths of its SignedZeroInfNanPreserve and DenormPreserve
  /// execution modes (SPV_KHR_float_controls).
  std::vector<uint32_t> infNanPreserveWidths, denormPreserveWidths;
};

struct SpirvModule {
  std::vector<uint32_t> words;
  std::vector<uint32_t> capabilities;       ///< SpvCapability values
  std::vector<SpirvEntryPoint> entryPoints; ///< GLCompute only

  const SpirvEntryPoint *findEntryPoint(const std::string &name) const;
};

/// Parses `bytes` (the artefact file); `fileName` is used in messages.
Result<SpirvModule> parseSpirv(const std::string &bytes,
                               const std::string &fileName);

} // namespace tilec::rt::vulkan

#endif // TILEC_LIB_RUNTIME_VULKAN_SPIRVMODULE_H
