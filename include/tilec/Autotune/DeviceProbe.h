//===- DeviceProbe.h - Measuring a device's peak rates ----------*- C++ -*-===//
//
// Part of lib/Autotune: what `tilec devices --probe` measures. The probes
// are two small Tile programs compiled by tilec itself and loaded on the
// device (LoadedProgram.h), so the same code measures OpenCL, Vulkan and the
// CPU JIT:
// a large copy (bandwidth) and a long chain of multiply-adds on every
// element (compute). The compute figure is what tilec's own generated code
// reaches on such a chain, which may be below the hardware's peak.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_DEVICEPROBE_H
#define TILEC_AUTOTUNE_DEVICEPROBE_H

#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Schedule/ProfileCache.h"

#include "llvm/Support/Error.h"

namespace tilec::compiler {
class Reporter;
} // namespace tilec::compiler

namespace tilec::autotune {

/// Runs both probes on `device` (a few hundred milliseconds) and returns the
/// best rates seen, dated today. Diagnostics go to `reporter`; failures are
/// CompileErrors.
llvm::Expected<schedule::MeasuredPeaks>
probeDevice(compiler::DeviceTarget &device, compiler::Reporter &reporter);

} // namespace tilec::autotune

#endif // TILEC_AUTOTUNE_DEVICEPROBE_H
