//===- TuneCandidates.h - The kernels autotune measures ---------*- C++ -*-===//
//
// Part of lib/Autotune: the program at the loop level, one KernelTask per
// distinct kernel fingerprint (identical kernels are tuned once, since a
// schedule file entry applies to all of them), each with the cost model's
// best candidates for the device.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_TUNECANDIDATES_H
#define TILEC_AUTOTUNE_TUNECANDIDATES_H

#include "tilec/Autotune/Tuner.h"
#include "tilec/Compiler/DeviceTarget.h"
#include "tilec/Compiler/ProgramLoader.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace tilec::autotune {

/// The kernels of `program` in launch order of their first launch, each
/// with the `top` best candidates of schedule::rankCandidates for
/// `device` (candidate 0 is the cost model's pick). Fails as the loop
/// level's compile does.
llvm::Expected<std::vector<KernelTask>>
planTuning(compiler::ProgramLoader &loader, const typed::Program &program,
           const compiler::DeviceTarget &device, unsigned top);

} // namespace tilec::autotune

#endif // TILEC_AUTOTUNE_TUNECANDIDATES_H
