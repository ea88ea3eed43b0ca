//===- TuneCandidates.h - The kernels autotune measures ---------*- C++ -*-===//
//
// Part of `tilec autotune`: the program at the loop level, one KernelTask
// per distinct kernel fingerprint (identical kernels are tuned once, since a
// schedule file entry applies to all of them), each with the cost model's
// best candidates for the device.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TUNECANDIDATES_H
#define TILEC_TOOLS_TILEC_TUNECANDIDATES_H

#include "DeviceSession.h"

#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/ProgramLoader.h"

#include <vector>

namespace tilec::driver {

using compiler::ProgramLoader;

/// The kernels of `program` in launch order of their first launch, each
/// with the `top` best candidates of schedule::rankCandidates for
/// `device` (candidate 0 is the cost model's pick).
std::vector<autotune::KernelTask> planTuning(ProgramLoader &loader,
                                             const typed::Program &program,
                                             const DeviceTarget &device,
                                             unsigned top);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TUNECANDIDATES_H
