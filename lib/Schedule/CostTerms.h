//===- CostTerms.h - Terms every cost estimate shares -----------*- C++ -*-===//
//
// The constants and the overlap rule of the cost model that both the
// general estimate (CostModel.cpp) and the outer-product tiling's
// (OuterProductCost.cpp) use; docs/cost-model.md says where they come
// from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SCHEDULE_COSTTERMS_H
#define TILEC_LIB_SCHEDULE_COSTTERMS_H

#include <algorithm>
#include <initializer_list>

namespace tilec::schedule {

/// Fixed cost of one kernel launch: a floor that keeps tiny kernels from
/// being ranked on noise.
inline constexpr double kLaunchSeconds = 5e-6;
/// GPU: element accesses one compute unit's L1 or local memory serves per
/// cycle (one subgroup-wide access of 32 words, 128 bytes).
inline constexpr double kGPUAccessesPerCycle = 32;
/// GPU: L2 bandwidth over DRAM bandwidth.
inline constexpr double kGPUL2OverDRAM = 3;
/// Cycles of one work-group barrier on a GPU.
inline constexpr double kGPUBarrierCycles = 40;
/// GPU: the work-items a compute unit holds at most.
inline constexpr double kGPUMaxItemsPerCU = 2048;

/// Compute and the memory levels overlap, but not perfectly: this share of
/// the terms that do not dominate still shows. It also breaks ties between
/// schedules equally bound by one term in favour of less traffic.
inline constexpr double kOverlapLeak = 0.1;

/// The time of terms that overlap: the largest, plus the leak of the rest.
inline double overlapped(std::initializer_list<double> terms) {
  double largest = std::max(terms), sum = 0;
  for (double term : terms)
    sum += term;
  return largest + kOverlapLeak * (sum - largest);
}

} // namespace tilec::schedule

#endif // TILEC_LIB_SCHEDULE_COSTTERMS_H
