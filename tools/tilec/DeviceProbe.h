//===- DeviceProbe.h - Measuring a device's peak rates ----------*- C++ -*-===//
//
// Part of the tilec driver: what `tilec devices --probe` measures. The
// probes are two small Tile programs compiled by tilec itself through the
// device session, so the same code measures OpenCL, Vulkan and the CPU JIT:
// a large copy (bandwidth) and a long chain of multiply-adds on every
// element (compute). The compute figure is what tilec's own generated code
// reaches on such a chain, which may be below the hardware's peak.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_DEVICEPROBE_H
#define TILEC_TOOLS_TILEC_DEVICEPROBE_H

#include "DeviceSession.h"

#include "tilec/Schedule/ProfileCache.h"

namespace tilec::driver {

/// Runs both probes on `device` (a few hundred milliseconds) and returns the
/// best rates seen, dated today. Failures are DriverErrors.
schedule::MeasuredPeaks probeDevice(DeviceTarget &device);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_DEVICEPROBE_H
