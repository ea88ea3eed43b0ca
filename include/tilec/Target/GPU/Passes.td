//===- Passes.td - Passes every GPU back end may use ----*- tablegen -*-===//
//
// Passes on the gpu level that more than one GPU back end runs (SPIR-V and
// PTX): TableGen generates their classes, create functions and
// registerTilecGPUPasses(), declared in Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_PASSES_TD
#define TILEC_TARGET_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TilecGPUInlineConstantTensorsPass
    : Pass<"tilec-gpu-inline-constant-tensors", "::mlir::ModuleOp"> {
  let summary = "Move constant tensor kernel arguments into the kernels";
  let description = [{
    The launch manifest passes no data, so a kernel argument bound to a
    constant tensor (a `memref.get_global` of a constant `memref.global`,
    e.g. the result of `shape()`) has no buffer and no binding (OpenCL C
    writes it as a `__constant` array). This pass makes the kernel hold the
    tensor itself: the argument is removed from the gpu.func and its launch
    (so argument i is the manifest's argument i again). By default each
    `memref.load` of it becomes a `tensor.extract` of an `arith.constant`,
    which the SPIR-V conversion turns into a Function-storage array; with
    `as-global` (PTX) the gpu.module gets a copy of the constant
    `memref.global` and the kernel a `memref.get_global` of it, which NVVM
    places in global memory. A constant argument used other than by loads
    (without `as-global`), or a kernel launched several times with
    different constant tensors, is an error.
  }];
  let options = [
    Option<"asGlobal", "as-global", "bool", "false",
           "Give the gpu.module a constant memref.global instead of "
           "inlining an arith.constant tensor">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TilecGPUExpandPowFPass
    : Pass<"tilec-gpu-expand-powf", "::mlir::ModuleOp"> {
  let summary = "Give math.powf C's pow semantics on top of a pow of |x|";
  let description = [{
    GL.Pow is undefined for x < 0, and for x = 0 with y <= 0, and the
    software pow of tilec-gpu-expand-software-math takes x >= 0. Rewrites each
    math.powf (after math-extend-to-supported-types, so f16 is in f32) into
    a math.powf of |x| that is replaced at |x| = 0, the sign of x for odd
    integer y, and selects for C's special cases: NaN for a finite negative
    x and a non-integer y, NaN for a NaN operand, and 1 for pow(x, 0),
    pow(1, y) and pow(-1, +-inf).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TilecGPUExpandSoftwareMathPass
    : Pass<"tilec-gpu-expand-software-math", "::mlir::ModuleOp"> {
  let summary = "Compute the math functions in software, in f64";
  let description = [{
    Rewrites math.exp, log, sin, cos, tan, asin, acos, atan, sinh, cosh,
    tanh, asinh, acosh, atanh and powf on f64 (and on vectors of f64, lane by
    lane) into arith ops: range reduction (Payne-Hanek for sin, cos and tan
    of any argument), Taylor polynomials whose coefficients
    scripts/f64-math-constants.py computes, double-double arithmetic where
    the reduction or pow needs it, and selects for zeros, infinities, NaN
    and the domain edges, with C's results. The error is a few ulps.

    Why: GLSL.std.450 has no f64 versions of these and its f32 versions are
    as loose as Vulkan allows (lavapipe's are thousands of ulps off in
    places); NVIDIA's accurate versions live in libdevice, which comes with
    the CUDA toolkit, and tilec compiles PTX without one.

    With `f32-math` (the default), exp of f32 (and so of f16 and bf16,
    which compute it in f32) is computed in f32 arithmetic within 2 ulps
    (softmax and sigmoid would be compute-bound in f64), and on a device
    that has Float64 and Int64 the other functions on f32 are computed in
    f64 this way and rounded once, as the interpreter does. SPIR-V runs it after tilec-gpu-expand-powf, whose
    math.powf of |x| it expands.
  }];
  let options = [
    Option<"f32Math", "f32-math", "bool", "true",
           "Also compute f32 math functions in software: exp in f32, the "
           "others in f64 (when the device has Float64 and Int64)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def TilecGPUExpandDivisionByZeroPass
    : Pass<"tilec-gpu-expand-division-by-zero", "::mlir::ModuleOp"> {
  let summary = "Divide by a constant zero as a multiplication by infinity";
  let description = [{
    Rewrites `arith.divf %x, %zero`, where `%zero` is a constant +0.0 or
    -0.0 (scalar or splat, possibly through `arith.extf`/`arith.truncf`, as
    f16 arithmetic computes in f32), into `arith.mulf %x, %inf` with the infinity
    of the zero's sign: the same IEEE result for every x (a signed
    infinity, NaN for 0 and NaN). Vulkan bounds OpFDiv's error only for
    divisors of moderate magnitude, GLSL leaves division by zero
    unspecified, and Mesa (lavapipe, llvmpipe) divides by a constant +0.0
    to 0 even under SignedZeroInfNanPreserve.
  }];
}

def TilecGPUUnrollSmallLoopsPass
    : Pass<"tilec-gpu-unroll-small-loops", "::mlir::ModuleOp"> {
  let summary = "Unroll the kernels' short loops of constant trip count";
  let description = [{
    Fully unrolls each `scf.for` inside a `gpu.func` whose bounds and step
    are constants, innermost first, while the unrolled body stays within
    `max-ops` operations (a depthwise convolution's 3x3 taps, a register
    tile's loop over its lanes). For back ends whose driver compiler keeps
    such loops as loops (NVIDIA's GLSL compiler does; the LLVM-based OpenCL
    and PTX compilers unroll them themselves): unrolled, every load of the
    taps can be issued before the first one returns, and the indices fold.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", "2048",
           "The most operations an unrolled loop may hold">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilecGPUSpeculateGuardedLoadsPass
    : Pass<"tilec-gpu-speculate-guarded-loads", "::mlir::ModuleOp"> {
  let summary = "Make a guarded load a load of a safe element and a select";
  let description = [{
    A gather with padding (a convolution's border, a masked tail) loads
    inside `scf.if %inBounds`, and NVIDIA's GLSL compiler keeps each such
    `if` a branch. In a `gpu.func`, an `scf.if` with results whose regions
    hold only pure ops and `memref.load`s of statically shaped, non-empty
    memrefs is replaced by its regions' ops computed unconditionally, each
    load's indices multiplied by the condition (an index of 0 when the load
    would not have run, an element that exists), and a select of the
    results. The values computed are the same; a masked lane reads element
    0 instead of nothing.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TILEC_TARGET_GPU_PASSES_TD
