//===- CPUDefaultSchedule.h - The default CPU schedule ------------*- C++ -*-===//
//
// The first cost model: a default schedule for a kernel on a CPU from a few
// facts about the CPU and the kernel's shape. Rules (CPUDefaultSchedule.cpp
// says why):
//   vector   the SIMD width in the kernel's element type, at most the
//            innermost parallel loop's extent (a power of two);
//   thread   along the innermost parallel loop up to 4 vectors (2 with 16
//            registers); along the loop before it as many rows as the
//            accumulators, the operand vectors and one broadcast leave
//            registers for (at most 6), picked to waste few rows at the
//            end; only for kernels that reduce (elementwise kernels have no
//            reuse to gain from more registers); a sliding window (a
//            convolution's taps) whose panel for the widest lane tile
//            (up to 4 vectors) takes more than an eighth of L2 takes 2
//            vectors and a block of rows over the
//            two loops before the lanes instead (pixels, then, at stride
//            1, the image rows that divide the image);
//   block    when one panel of the operand read along the lanes (the
//            reduction extent times the lane tile) fits half of L2 (packed,
//            TiledKernel.cpp), one lane tile per cache tile, ordered
//            outermost, so the panel stays in L2 while all rows sweep it;
//            otherwise no cache tiles;
//   unroll   1 (LLVM unrolls the jammed loop itself).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SCHEDULE_CPUDEFAULTSCHEDULE_H
#define TILEC_SCHEDULE_CPUDEFAULTSCHEDULE_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace tilec::schedule {

/// What the cost model knows about the CPU.
struct CPUFacts {
  int64_t vectorBytes = 16;
  int64_t vectorRegisters = 16;
  /// Read and carried for the cost model; no rule needs it yet (row slabs
  /// blocked for L1 measured slower on the CPU benchmark).
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 1024 * 1024;
};

/// A sysfs cache size ("48K", "2M", "512") as bytes, whitespace and NUL
/// padding allowed; 0 when the text is no size.
int64_t parseCacheSize(llvm::StringRef text);

/// The facts of the machine tilec runs on: SIMD from LLVM's host feature
/// list (AVX-512: 64 bytes and 32 registers, AVX: 32 and 16, else SSE),
/// cache sizes from Linux sysfs (the defaults above where it is missing).
CPUFacts hostCPUFacts();

/// Sets the SIMD facts of `facts` for a CPU with (or without) AVX-512F and
/// AVX: the rule hostCPUFacts applies to the host's features, for a CPU
/// that code is generated for instead.
void setSIMDFacts(CPUFacts &facts, bool hasAVX512F, bool hasAVX);

/// What the cost model knows about a kernel.
struct KernelShape {
  /// Extents of the parallel loops, outermost first.
  std::vector<int64_t> extents;
  /// Bytes per element of the kernel's output.
  int64_t elementBytes = 4;
  /// Iterations of the reduction loops per output element; 0 when the
  /// kernel does not reduce (or the count is not constant).
  int64_t reductionExtent = 0;
  /// Whether the body can be vectorised along the innermost parallel loop.
  bool vectorizable = true;
  /// Whether the kernel slides a window over its rows, as a convolution's
  /// taps do: an operand read by broadcast (not along the lanes) follows
  /// the two loops before the lanes and more than one reduction loop,
  /// while the operands read along the lanes follow neither of those two
  /// loops, so a block of rows over both reuses each lane vector.
  bool slidingWindow = false;
  /// With slidingWindow: how far the window moves per step of the loop
  /// before the pixels (the image rows), 0 when unknown. Neighbouring rows
  /// share input rows at 1; a strided window's rows share few.
  int64_t windowRowStride = 0;
};

/// The default schedule of `kernel` on `cpu` (entries for the parallel
/// loops only).
KernelSchedule defaultCPUSchedule(const KernelShape &kernel,
                                  const CPUFacts &cpu);

/// The profile of the host CPU for llvm-x86 code (hostCPUFacts plus the
/// core count and clock the host runtime reports).
DeviceProfile hostCPUProfile();
/// A CPU profile with `facts`' SIMD and caches and nothing else known (one
/// core, no clock): what the CPU default-schedule pass compares schedules
/// on, since its facts may be given as options for another CPU.
DeviceProfile profileFromCPUFacts(const CPUFacts &facts);

} // namespace tilec::schedule

#endif // TILEC_SCHEDULE_CPUDEFAULTSCHEDULE_H
