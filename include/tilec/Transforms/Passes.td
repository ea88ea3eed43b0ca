//===- Passes.td - Loop-level transforms of tilec --------*- tablegen -*-===//
//
// The passes that rewrite the loop level for a target: assigning schedules
// and applying them. TableGen generates the pass classes, their create
// functions and registerTilecTransformsPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TRANSFORMS_PASSES_TD
#define TILEC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUDefaultSchedulePass
    : Pass<"tilec-cpu-default-schedule", "::mlir::func::FuncOp"> {
  let summary = "Give every kernel without a schedule a default CPU schedule";
  let description = [{
    Sets `tilec.schedule` on each kernel (a top-level loop nest marked
    `tilec.kernel`) that has none, from a few facts about the CPU: the SIMD
    register width and count and the L1/L2 data cache sizes. The rules are
    those of `tilec::schedule::defaultCPUSchedule` (CPUDefaultSchedule.h).
    Every option left at 0 is read from the host (LLVM's host feature list,
    Linux sysfs), so lit tests give them all to be deterministic.
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "int64_t", "0",
           "SIMD register width in bytes (0 = the host's)">,
    Option<"vectorRegisters", "vector-registers", "int64_t", "0",
           "number of SIMD registers (0 = the host's)">,
    Option<"l1Bytes", "l1-bytes", "int64_t", "0",
           "L1 data cache size in bytes (0 = the host's)">,
    Option<"l2Bytes", "l2-bytes", "int64_t", "0",
           "L2 cache size in bytes (0 = the host's)">,
  ];
}

def ApplyCPUSchedulePass
    : Pass<"tilec-apply-cpu-schedule", "::mlir::func::FuncOp"> {
  let summary = "Tile, register-block and vectorise kernels by their schedule";
  let description = [{
    Rewrites each kernel whose outermost loop carries `tilec.schedule` and
    whose form it understands (see KernelNest.h): a band of perfectly nested
    parallel loops with constant bounds, whose innermost body uses only
    affine loads, stores at the top of that body, pure scalar ops, and
    nested affine.for (reductions with iter_args) and affine.if (guards).

    The band is split into full register tiles and remainders. Full tiles
    are cache-tiled by `block`, their tile loops permuted by `order`, and
    each runs a micro-kernel that computes `thread[i]` points of band loop
    i at once: one copy of the body per point, jammed so the reduction
    loops carry every point's accumulator, and `vector` lanes of the
    innermost band loop per point as `vector` dialect values. A guard that
    differs between the points is versioned (all points inside, or each
    point alone) and an invariant guard is hoisted out of the reduction
    loop it sits in. `unroll` unrolls the innermost reduction loops.
    Block entries of reduction loops are not applied on the CPU.

    A kernel the pass does not understand is left as it is; one that
    cannot be vectorised is register-blocked with scalars. A malformed
    schedule, or one that does not fit the kernel, is an error.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // TILEC_TRANSFORMS_PASSES_TD
