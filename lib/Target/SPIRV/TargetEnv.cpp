//===- TargetEnv.cpp - A device profile as a spirv.target_env -------------===//
//
// Maps the device facts to a spirv.target_env for the Vulkan client API.
//
//===----------------------------------------------------------------------===//

#include "TargetEnv.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"

#include <algorithm>

using namespace mlir;

FailureOr<spirv::TargetEnvAttr>
tilec::buildTargetEnv(MLIRContext *context,
                      const schedule::DeviceProfile &options) {
  static constexpr spirv::Version kVersions[] = {
      spirv::Version::V_1_0, spirv::Version::V_1_1, spirv::Version::V_1_2,
      spirv::Version::V_1_3, spirv::Version::V_1_4, spirv::Version::V_1_5,
      spirv::Version::V_1_6};
  if (options.spirvVersionMinor < 0 || options.spirvVersionMinor > 6)
    return failure();

  using spirv::Capability;
  using spirv::Extension;
  SmallVector<Capability> caps = {Capability::Shader};
  // Storage buffers are core from SPIR-V 1.3 on; before, Vulkan 1.0 drivers
  // take them through this extension.
  SmallVector<Extension> exts = {Extension::SPV_KHR_storage_buffer_storage_class};
  if (options.fp16)
    caps.push_back(Capability::Float16);
  if (options.fp64)
    caps.push_back(Capability::Float64);
  if (options.int8)
    caps.push_back(Capability::Int8);
  if (options.int16)
    caps.push_back(Capability::Int16);
  if (options.int64)
    caps.push_back(Capability::Int64);
  if (options.storage8Bit) {
    caps.push_back(Capability::StorageBuffer8BitAccess);
    exts.push_back(Extension::SPV_KHR_8bit_storage);
  }
  if (options.storage16Bit) {
    caps.push_back(Capability::StorageBuffer16BitAccess);
    exts.push_back(Extension::SPV_KHR_16bit_storage);
  }
  // Float controls (tilec-spirv-float-controls); core only from 1.4.
  bool infNan = options.infNanPreserve16 || options.infNanPreserve32 ||
                options.infNanPreserve64;
  bool denorm = options.denormPreserve16 || options.denormPreserve32 ||
                options.denormPreserve64;
  if (infNan)
    caps.push_back(Capability::SignedZeroInfNanPreserve);
  if (denorm)
    caps.push_back(Capability::DenormPreserve);
  if (infNan || denorm)
    exts.push_back(Extension::SPV_KHR_float_controls);
  if (options.subgroups)
    caps.append({Capability::GroupNonUniform,
                 Capability::GroupNonUniformArithmetic,
                 Capability::GroupNonUniformBallot,
                 Capability::GroupNonUniformShuffle});

  // spirv-update-vce lowers the module's version to the least its ops need,
  // which is at most 1.3 for what tilec emits; from 1.4 on, entry points
  // must list their storage buffers, which lower-abi-attrs does when the
  // environment says 1.4+ but which a 1.0-1.3 module must not do. So the
  // environment stops at 1.3: any newer device accepts those modules.
  int minor = static_cast<int>(std::min<int64_t>(options.spirvVersionMinor, 3));
  auto triple =
      spirv::VerCapExtAttr::get(kVersions[minor], caps, exts, context);
  spirv::ResourceLimitsAttr defaults = spirv::getDefaultResourceLimits(context);
  auto limits = spirv::ResourceLimitsAttr::get(
      context, defaults.getMaxComputeSharedMemorySize(),
      defaults.getMaxComputeWorkgroupInvocations(),
      defaults.getMaxComputeWorkgroupSize(),
      static_cast<int>(options.subgroupSize),
      /*min_subgroup_size=*/std::nullopt, /*max_subgroup_size=*/std::nullopt,
      /*cooperative_matrix_properties_khr=*/nullptr,
      /*cooperative_matrix_properties_nv=*/nullptr);
  return spirv::TargetEnvAttr::get(triple, limits, spirv::ClientAPI::Vulkan);
}
