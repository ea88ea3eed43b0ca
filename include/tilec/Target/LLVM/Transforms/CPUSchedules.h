//===- CPUSchedules.h - The CPU schedules a kernel can take -----*- C++ -*-===//
//
// One ranking for the default schedule (tilec-cpu-default-schedule) and
// for `tilec autotune`'s candidates on the CPU, so that the tuner's first
// candidate is the schedule a plain compile uses and the tuner measures
// only kernels the CPU passes can tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_TRANSFORMS_CPUSCHEDULES_H
#define TILEC_TARGET_LLVM_TRANSFORMS_CPUSCHEDULES_H

#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Schedule/Schedule.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

#include <vector>

namespace tilec::transforms {

/// The schedules for `kernel` on a CPU with `facts`, best first, at most
/// `top`: none for a row kernel (tilec-cpu-row-kernels vectorises it
/// without one) or a nest of a form tilec-cpu-apply-schedule does not take
/// (KernelNest.h).
std::vector<schedule::KernelSchedule>
rankCPUSchedules(mlir::affine::AffineForOp kernel,
                 const schedule::CPUFacts &facts, unsigned top);

} // namespace tilec::transforms

#endif // TILEC_TARGET_LLVM_TRANSFORMS_CPUSCHEDULES_H
