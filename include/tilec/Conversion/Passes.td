//===- Passes.td - Conversion passes of tilec --------------*- tablegen -*-===//
//
// Every dialect conversion of tilec, in one file as in upstream MLIR and
// CIRCT. TableGen generates the pass classes, their create functions and
// registerTilecConversionPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToLoopsPass
    : Pass<"convert-tile-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower the tile dialect to affine loop nests on memrefs";
  let description = [{
    Rewrites every function whose body holds tile ops into the loop level
    that the CPU and GPU back ends share.

    Preconditions: the function takes and returns static-shaped tensors and
    its body holds only tile ops and `func.return`.

    Postconditions: the function takes memrefs, the inputs in header order
    and then the outputs in header order (written by the function), and
    returns nothing; it carries the unit attribute `tilec.entry`. Element
    types are signless: `iN` for si/ui types and `i8` for bool storage.
    Each kernel is a top-level loop nest (affine.for / affine.if /
    affine.load / affine.store, with memref.load/store where an index is
    data-dependent) annotated with `tilec.kernel`; temporaries are
    `memref.alloc`ed at the start and `memref.dealloc`ed at the end.

    A contraction whose output map is a permutation of distinct variables
    becomes one nest over the output cells with the reduction in registers;
    any other contraction becomes an initialisation nest, an accumulation
    nest and, when it must tell untouched cells apart (max, min, prod or a
    `default`), a flag buffer and a final nest. Producers marked with
    `tilec.fused` (see `tile-fuse-elementwise`) are computed inside the nest
    of their single consumer instead of in a buffer of their own.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

//===----------------------------------------------------------------------===//
// Loop level -> gpu level (lib/Conversion/LoopsToGPU)
//===----------------------------------------------------------------------===//

// The GPU passes compile for the device of the module's #tilec.gpu_target
// (tilec/Dialect/Kernel/IR/KernelAttrs.td), or the default one; none takes
// the device's facts as options.

def TilecGPUFuseRowsPass
    : Pass<"tilec-gpu-fuse-rows", "::mlir::func::FuncOp"> {
  let summary = "Make one row nest of each row reduction and the kernels "
                "after it over the same rows (softmax, layer norm)";
  let description = [{
    From every kernel nest without a schedule that reduces rows of at least
    64 columns, takes the following kernels over the same rows (reductions
    over as many columns, loops over those columns, work on row scalars)
    while the result is a row nest (RowNest.h: every buffer written is
    accessed at the row, and then at the enclosing columns loop or at
    constants), and replaces them by one nest: the row loops, each kernel's
    row body inside in order. Named `FIRST..LAST` (a lone reduction keeps
    its name) and fingerprinted as tilec-kernel-fingerprint-kernels does.
    Only for a #tilec.gpu_target that names a device that is
    not a CPU; other targets are left as they are.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::tilec::kernel::KernelDialect"];
}

def TilecGPUFlattenContractionsPass
    : Pass<"tilec-gpu-flatten-contractions", "::mlir::func::FuncOp"> {
  let summary = "Coalesce each operand's free loops and the reduction's "
                "loops of a contraction, so that a convolution is an "
                "implicit GEMM the outer-product tiling takes";
  let description = [{
    For every kernel nest without a schedule that is a contraction of two
    operands (ContractionNest.h) whose band loops read by one operand only
    form one run per operand: replaces each run by one loop over the
    product of its extents and the reduction's chain of loops by one loop
    (innermost fastest), the old induction variables as floordiv/mod of
    the new ones folded into the accesses' maps. A guard around the step
    (a padded convolution's window) is kept. Name and fingerprint stay.
    Only for a #tilec.gpu_target that names a device that is not a CPU
    (where the outer-product tiling applies); other nests and targets are
    left as they are.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::tilec::kernel::KernelDialect"];
}

def TilecGPUSplitReductionsPass
    : Pass<"tilec-gpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Compute the reductions of kernels scheduled with split = S "
                "as S slices and a second kernel that aggregates them";
  let description = [{
    For every kernel nest whose `tilec.schedule` has `split` = S > 1 (a
    contraction whose reduction starts at its aggregation's identity, S
    dividing its length): a temporary of S x band results, a kernel that
    computes slice s of the reduction for every cell (the slice loop
    prepended to the band and to the schedule, on grid z) and a kernel
    `NAME.combine` that aggregates the slices from the nest's start and
    runs its epilogue (no schedule: the default one applies). Both keep
    the nest's fingerprint. Kernels that cannot be split are an error
    naming the rule.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::tilec::kernel::KernelDialect"];
}

def TilecGPUDefaultSchedulePass
    : Pass<"tilec-gpu-default-schedule", "::mlir::func::FuncOp"> {
  let summary = "Give every kernel without a tilec.schedule the default GPU "
                "schedule for the target";
  let description = [{
    For every kernel nest (a top-level `affine.for` with `tilec.kernel`)
    that carries no `tilec.schedule`, finds its band of provably parallel
    loops and attaches the schedule of `tilec::schedule::defaultGPUSchedule`
    (Schedule/GPUDefaultSchedule.h) for the device of the module's
    #tilec.gpu_target. Kernels that already have a schedule (from a schedule file or
    a test) are left alone.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::tilec::kernel::KernelDialect"];
}

def TilecMapKernelsToGPUPass
    : Pass<"tilec-gpu-map-kernels", "::mlir::ModuleOp"> {
  let summary = "Map every kernel nest to a gpu.func launched by "
                "gpu.launch_func, as its tilec.schedule says";
  let description = [{
    Rewrites each kernel nest of each function with `tilec.entry` (a
    top-level `affine.for` carrying `tilec.kernel`) into a `gpu.func` in
    the `gpu.module @tilec_kernels` and a `gpu.launch_func` at the nest's
    place, with constant grid and block sizes.

    The outer band of perfectly nested loops with constant bounds that the
    affine dependence analysis proves parallel is mapped to the grid in the
    schedule's `order` (a permutation of the band, outermost first; empty =
    band order): its last loop to x, the one before to y, and the rest to z
    (one loop, tiled as scheduled, or several, flattened with one point per
    work-group). Loop i of the band is cut into work-group tiles of
    `block[i]` iterations (0 = the whole loop) and each work-item computes
    `thread[i]` of them, strided by the work-group width so that
    neighbouring work-items touch neighbouring addresses; a guard skips the
    iterations past the end where a tile does not divide the loop. Every
    other loop, reductions included, runs inside one work-item, so no
    atomics are needed; a nest with no parallel loop runs as one work-item.

    With `stage[j]` set on a kernel whose body is a register reduction (an
    `affine.for` with `iter_args` directly inside the band), operand j's
    footprint for one reduction block of `block[r]` iterations is copied
    cooperatively into a workgroup-memory attribution, between barriers,
    and the reduction reads it from there.

    `unroll` unrolls the innermost loops inside a work-item (the
    reductions) when nothing is staged.

    `vector` = V (1, 2, 4, 8 or 16) makes each work-item compute its
    `thread[x]` iterations of the x loop as `thread[x]` / V vectors of V
    neighbouring iterations (vector j of work-item t starts at iteration
    (t + j * work-items) * V of the work-group's tile). V must divide
    `thread[x]` and the x loop's trip count, and cannot be combined with
    staging. Loads and stores contiguous along x become vector loads and
    stores, loads invariant along x are broadcast, element-wise arith and
    math ops on f32, f64 and i8..i64 and the reductions that accumulate
    them compute vector<V x T>, and everything else (gathers, scatters, i1,
    f16, bf16 and index values, conditions and loop bounds depending on x)
    is computed one lane at a time.

    `warp` tiles a contraction as outer products across the work-group
    (OuterProductTiling.h); with `mma` = 1 the warp tiles run on tensor
    cores instead: `nvgpu.ldmatrix` from 16-bit staged tiles and
    `nvgpu.mma.sync` (m16n8k16, f32 sums), which only the PTX pipeline
    lowers, and which the schedule check allows only for a CUDA device of
    compute capability 8.0 or newer; with `mma` = 2 each warpgroup's tile
    runs on Hopper's `nvvm.wgmma.mma_async` (m64nNk16, accumulators in
    `!llvm.struct`s) from swizzled tiles that `nvgpu.device_async_copy`
    fills, for compute capability 9.0 only (PTX for sm_90a).

    The gpu.func is named from `tilec.kernel` made a C identifier, and
    carries `tilec.kernel`, `tilec.fingerprint`, `tilec.schedule`,
    `known_block_size` and `known_grid_size`. Its arguments are the values
    the nest uses from outside (memrefs, in order of first use); constants
    are cloned in. Its body holds only scf, arith, math, memref and gpu ops;
    every op keeps its location.

    A schedule that does not fit (no tilec.schedule, a block that is not a
    multiple of its thread count, a work-group above the device limits, a
    staged tile above the local memory, an order that is no permutation of
    the band, a vector width that does not fit) is an error on the kernel.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::tilec::kernel::KernelDialect",
  ];
}

def TilecDedupGPUKernelsPass
    : Pass<"tilec-gpu-dedup-kernels", "::mlir::ModuleOp"> {
  let summary = "Launch one gpu.func for all kernels that compute the same "
                "code on different buffers";
  let description = [{
    A whole network repeats its blocks, and `tilec-gpu-map-kernels`
    makes a gpu.func per kernel nest. Two kernels of a gpu.module are the
    same when their function types, their attributes other than their names
    (`sym_name`, `tilec.kernel`) and their bodies op for op, locations
    ignored, are equal, and their launches bind the same constants (constant
    tensors, scalar constants) to the same arguments, since the back ends
    compile those into the kernel. The fingerprint only buckets candidates.
    Every launch of a later equal kernel is re-pointed at the first one
    launched, and the later one is erased, so the OpenCL C, the SPIR-V and
    the device's own compiler see each distinct kernel once; each launch
    keeps its own buffers and work sizes.

    The Tile statements of a kernel are the locations in its body, which a
    shared kernel holds for one of its launches only; so each launch of a
    shared kernel gets the locations of the kernel it launched before, fused
    into its own location.
  }];
}

def TilecGPUNarrowIntegersPass
    : Pass<"tilec-gpu-narrow-integers", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Narrow a kernel's integer arithmetic to 32 bits where the "
                "ranges allow";
  let description = [{
    Runs `arith-int-range-narrowing` with 32 as the only width on the
    kernel: integer operations whose operands and results the ranges of the
    ids, of the known work-group and grid sizes and of the loop bounds prove
    to fit are done in 32 bits (fewer registers for addresses, the same
    values). With `index-is-32-bit` (a target that computes every index in
    32 bits anyway: GLSL's int) only a kernel that computes in a wider
    integer type than index (a gather's clamp of its i64 ids) is narrowed:
    for the others the narrowing would only add casts, and its range
    analysis took a seventh of MobileNet's compile for an H200.
  }];
  let options = [
    Option<"indexIs32Bit", "index-is-32-bit", "bool", "false",
           "The target computes every index in 32 bits: narrow only kernels "
           "with integers wider than 32 bits">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD
