//===- Passes.td - The CPU back end's loop-level passes ----*- tablegen -*-===//
//
// The passes that rewrite the loop level for the CPU (the LLVM back end):
// outlining kernels, assigning CPU schedules and applying them, and giving
// outer loops threads. TableGen generates the pass classes, their create
// functions and registerTilecCPUTransformsPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_TRANSFORMS_PASSES_TD
#define TILEC_TARGET_LLVM_TRANSFORMS_PASSES_TD

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
  let dependentDialects = ["::tilec::kernel::KernelDialect"];
}

def ApplyCPUSchedulePass
    : Pass<"tilec-cpu-apply-schedule", "::mlir::func::FuncOp"> {
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
    differs between the points is versioned (all points inside; all but
    the first or all but the last row of points inside, those jammed and
    that row's else-branch; or each point alone) and an invariant guard is
    hoisted out of the reduction loop it sits in. `unroll` unrolls the
    innermost reduction loops.
    Block entries of reduction loops are not applied on the CPU.

    Where the lanes' tile loop is the outermost, operands read along the
    lanes and the reduction alone (a matmul's B, a convolution's filter)
    are packed per lane tile into contiguous panels, where more than one
    row of micro-kernels meets each panel or the operand is an argument
    marked `tilec.program_input` (tilec-cpu-outline-kernels), whose
    panels are kept across runs. An operand that is an
    argument of the function has all its panels in one buffer allocated
    before the kernel (tagged `tilec.packed_argument`, the argument's
    number), each copied under a flag, an `arith.constant true` tagged
    `tilec.repack_argument`; tilec-cpu-keep-packed-inputs turns both into
    arguments, so that a weight is packed once for many runs. Such a
    buffer's panels of more than 64 rows are read from beyond L2 on a
    lane tile's first pass over the other band loops (every one at its
    lower bound): that pass prefetches (into L2) each panel vector 32 rows
    ahead through a second view, in a copy of the micro-kernel under an
    affine.if where the tile has other passes, and the buffer has room for
    32 rows past its last panel. Only operands of `prefetch-min-bytes` or
    more are prefetched.

    A kernel the pass does not understand is left as it is; one that
    cannot be vectorised is register-blocked with scalars. A malformed
    schedule, or one that does not fit the kernel, is an error.
  }];
  let options = [
    Option<"prefetchMinBytes", "prefetch-min-bytes", "int64_t", "1 << 20",
           "the least size of a kept operand whose panels the first pass "
           "prefetches: below 1 MiB ResNet-18's convolutions gained "
           "nothing, and the copy of the micro-kernel cost compile time">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def KeepPackedInputsPass
    : Pass<"tilec-cpu-keep-packed-inputs", "::mlir::ModuleOp"> {
  let summary = "Pack a program input's panels once, not on every run";
  let description = [{
    Runs after tilec-cpu-apply-schedule on a module whose entry function
    (`tilec.entry`, its first `tilec.input_names` arguments the inputs)
    calls the outlined kernels. Each buffer of packed panels a kernel
    function allocates for one of its arguments (`tilec.packed_argument`)
    becomes an argument of the function, and so does the flag that guards
    the copies into it (`tilec.repack_argument`). A call whose operand is
    the entry's input j does what byte j of `<entry>_changed_inputs` says
    (KeptPanelsByte): 1 packs into a buffer of the call's own, 2 into a
    buffer that lives as long as the program (a `memref.global`, one per
    kernel, buffer and input), 0 reuses that one unpacked. Any other call
    packs into a buffer of its own, freed after it.

    `<entry>_changed_inputs` is a public global of one byte per input the
    entry names, made whenever it names some (the C header declares it);
    the code only reads it. Every byte is 1 at load, so that calls from
    several threads stay correct. The host's JIT runtime, which runs one
    call at a time, writes 2, or 0 when it was promised that the input is
    the previous run's, unchanged (tilec bench's runs on bound inputs).

    Why: a convolution's filter is packed on every run otherwise, and
    ResNet's 7x7x512 convolutions spent a third of their time packing their
    9 MiB of filters, where oneDNN reorders a constant weight once and
    onnxruntime prepacks its initializers at load.

    The `tilec.program_input` marks of tilec-cpu-outline-kernels are
    removed from every function's arguments (LLVM knows no such
    parameter attribute).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ParallelizeOuterLoopsPass
    : Pass<"tilec-cpu-parallelize-outer-loops", "::mlir::func::FuncOp"> {
  let summary = "Make the outermost parallel loop of every nest an "
                "affine.parallel";
  let description = [{
    Walks each loop nest from the outside in and turns the first loop that
    runs more than once and whose iterations are independent into an
    `affine.parallel` (which the CPU pipeline gives OpenMP threads); the
    loops inside it are left alone, since nested teams would oversubscribe
    and inner parallelism is the vectoriser's.

    A loop carrying `tilec.parallel` is taken to be parallel without
    analysis: tilec-cpu-apply-schedule marks the loops it makes from a
    kernel's parallel band so. Dependence analysis of a register-blocked
    micro-kernel (hundreds of accesses) is what made upstream's
    affine-parallelize, which checks every loop, most of a model's compile
    time. Other loops are checked with the affine dependence analysis.
    Loops that run once (a batch of one) are looked through, so their
    inner loops get the threads. A nest of fewer than 4096 operations (each
    op of a body once per iteration, a loop of unknown trip count counting
    as large) runs on one thread: a team's fork and join cost more.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect"];
}

def TransposeLaneOperandsPass
    : Pass<"tilec-cpu-transpose-lane-operands", "::mlir::func::FuncOp"> {
  let summary = "Give a kernel a copy of an operand with its lane dimension "
                "last, when that makes the kernel vectorisable";
  let description = [{
    The CPU schedule vectorises a kernel along its innermost parallel loop
    (the lane) only when every access that loop moves is unit-stride along
    a memref's last dimension (KernelNest.h). A convolution's input
    gradient, dI[n, y, x, ci] = +(dO[n, y - ky, x - kx, co] *
    F[ky, kx, ci, co]), reads its filter with the lane `ci` in a middle
    dimension: the kernel stayed scalar (the seed CNN's training step spent
    69% of its time in it).

    For each kernel that is not vectorisable, each memref the kernel only
    reads whose accesses move along exactly one dimension with the lane, by
    one element, gets a copy with that dimension moved last: a new kernel
    (`NAME.lanes_K`, before NAME) copies it into a temporary, and the
    kernel's loads read the copy. The change is kept only when the kernel
    becomes vectorisable and the copy is small against the kernel's work
    (at most one element per 8 of its innermost iterations). The values
    read are the same, so the results are bit for bit those of before.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect"];
}

def CPUFuseRowsPass : Pass<"tilec-cpu-fuse-rows", "::mlir::func::FuncOp"> {
  let summary = "Fuse each chain of row kernels (softmax, layer norm) that "
                "can run on vectors into one row kernel";
  let description = [{
    Fuses every chain of kernels without a schedule that starts at a row
    reduction and goes on over the same rows (FuseRowChains.h), as long as
    every step over the row's columns can run on vectors: each access that
    moves with the column walks a contiguous last dimension, and each op
    that depends on the column is element-wise. The fused nest is marked
    `tilec.row_kernel`: tilec-cpu-default-schedule gives it no schedule,
    and tilec-cpu-row-kernels vectorises it.

    Why: softmax 1024x4096 read or wrote the whole matrix six times in four
    kernels, and its row reductions ran as scalar chains, at half oneDNN's
    speed. Fused, a row is read from memory once; its later steps find it
    in L1.
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "int64_t", "0",
           "SIMD register width in bytes (0 = the host's)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::tilec::kernel::KernelDialect"];
}

def RowKernelsPass : Pass<"tilec-cpu-row-kernels", "::mlir::func::FuncOp"> {
  let summary = "Run each row kernel's rows on threads and its columns on "
                "vectors";
  let description = [{
    For each top-level nest marked `tilec.row_kernel` (tilec-cpu-fuse-rows)
    that has no schedule:

    - the temporaries only it uses (written a column per row, allocated in
      the function) become one row on the thread's stack, up to 64 KiB per
      row, in a memref.alloca_scope around the row's body;
    - every loop over the columns computes `vector-bytes` of its widest
      element per step (`affine.vector_load`, vector ops, broadcasts of
      what does not depend on the column), reductions with four vector
      accumulators reduced at the end, the last columns in the scalar loop;
    - a division by a value the same for every column (a row's sum or
      deviation) multiplies by its reciprocal, within 2 ulps of the
      quotient (the interpreter grants 2.5), and divides after all where
      that would not hold (the reciprocal not a normal number, a quotient
      near overflow, NaN or inf): a vector division issues once per 10-16
      cycles;
    - the outermost row loop is marked `tilec.parallel`.

    A vector sum adds in another order than the scalar loop; the
    interpreter's bound of a sum holds for every order.
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "int64_t", "0",
           "SIMD register width in bytes (0 = the host's)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::tilec::kernel::KernelDialect"];
}

def InlineVectorMathPass
    : Pass<"tilec-cpu-inline-vector-math", "::mlir::func::FuncOp"> {
  let summary = "Compute exp and tanh of f32 with vector arithmetic instead "
                "of libm";
  let description = [{
    Rewrites every `math.exp` and `math.tanh` on f32 or on a vector of f32
    (f16 and bf16 compute theirs in f32) into the arith and math ops of
    include/tilec/Target/Math/F32Math.h, exp within 2 ulps and tanh within 3
    (inside the 3 and 5 the interpreter's bound grants them), on the op's
    own type: a vector exp stays a vector computation. A sum `1 + tanh(w)`
    or `1 - tanh(w)` whose tanh has no other use becomes `2 / (1 +
    exp(-+2w))` first: one exp and a division instead of tanh's polynomial,
    exp, division and selects (GELU's tanh form computes this sum per
    element; it ran at 0.85-0.88 of oneDNN's), and more accurate where the
    sum cancels.

    Why: math.exp otherwise becomes llvm.exp, which LLVM's x86 back end
    turns into one call of libm's expf per lane, and tanh a call of tanhf.
    Softmax, sigmoid, GELU and the exp-based activations spent most of
    their time in those calls (softmax 1024x4096: 10.8 of 12.6 ms in its
    exp kernel).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def KeepTemporarySlotsPass
    : Pass<"tilec-cpu-keep-temporary-slots", "::mlir::ModuleOp"> {
  let summary = "Keep the temporaries' memory from one call to the next";
  let description = [{
    Runs on the LLVM dialect. Each `malloc` of a size computed from
    constants alone that the same function frees (the temporaries' slots of
    tilec-kernel-share-temporary-buffers) gets a cache of its own: a
    private global pointer, null at first. The call takes the cached block
    with an atomic exchange (malloc when it finds none), and the free puts
    it back with a compare-and-swap (free when the cache is full again).

    Why: a large block that malloc maps afresh on every call costs a page
    fault per 4 KiB on its first writes, every call. Softmax 1024x4096
    spent 4.8 of its 8 ms faulting in its 16 MiB temporary. A cached block
    is faulted in once. Calls from several threads stay correct: a thread
    that finds the cache empty uses memory of its own. What is cached is
    kept until the process ends (one block per temporary slot).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineKernelsPass : Pass<"tilec-cpu-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move every kernel nest into a function of its own, once "
                "per distinct kernel";
  let description = [{
    Each kernel (a top-level loop nest marked `tilec.kernel`) becomes a
    private, never-inlined `func.func` that takes the buffers it uses, and
    its nest a `func.call`. Kernels that are the same up to the buffers
    they touch (a model's repeated blocks: same fingerprint, same schedule,
    same body op for op) share one function, so they are scheduled,
    lowered and compiled once.

    Besides the duplicates, a function per kernel keeps LLVM's work linear
    in the size of the model (one giant function makes register allocation
    and several analyses superlinear) and lets MLIR run the function-level
    passes on several threads. Constants used by a nest are copied into
    its function rather than passed, so they cannot make equal kernels
    differ. The `tilec.kernel` name moves to the call.

    An argument that every call passes one of the entry's inputs as (its
    first `tilec.input_names` arguments) is marked `tilec.program_input`:
    tilec-cpu-apply-schedule packs its panels to keep even where a call
    reads each panel once (a matrix-vector product's weight), and
    tilec-cpu-keep-packed-inputs removes the marks.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

#endif // TILEC_TARGET_LLVM_TRANSFORMS_PASSES_TD
