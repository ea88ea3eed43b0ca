//===- Passes.td - The PTX back end's passes ------------*- tablegen -*-===//
//
// The passes of tilec-pipeline-nvvm that only the PTX back end needs.
// TableGen generates their classes, create functions and
// registerTilecPTXPasses(), declared in Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_PASSES_TD
#define TILEC_TARGET_PTX_PASSES_TD

include "mlir/Pass/PassBase.td"

def TilecPTXMathToIntrinsicsPass
    : Pass<"tilec-ptx-math-to-intrinsics", "::mlir::ModuleOp"> {
  let summary = "Call LLVM's intrinsics for the math ops NVPTX has exactly";
  let description = [{
    convert-gpu-to-nvvm turns math.sqrt, floor, ceil, absf, round,
    roundeven and copysign (and refuses their llvm.intr forms) into calls
    of libdevice's __nv_* functions, which only the CUDA toolkit ships;
    NVPTX selects the LLVM intrinsics directly (sqrt.rn, cvt.rmi, cvt.rpi,
    abs, copysign, ...), exactly. Rewrites each of those math ops on f32
    and f64 (and vectors of them) into an `llvm.call_intrinsic` of
    `llvm.sqrt`, `llvm.floor`, `llvm.ceil`, `llvm.fabs`, `llvm.round`,
    `llvm.roundeven`, `llvm.copysign` or `llvm.fma`, which the conversion
    leaves alone; so are arith.maxnumf, minnumf, maximumf and minimumf
    (`llvm.maxnum`, ..., max.f32 and max.NaN.f32 in PTX), which it would
    also send to libdevice. And arith.divf of f32 becomes PTX's
    `div.full.f32` (inline assembly): within 2 ulps over the whole range,
    inside the 2.5 that the interpreter's bound grants division, where the
    IEEE `div.rn.f32` is a long sequence with a slow path (NVIDIA's OpenCL
    divides approximately too). Runs after tilec-gpu-expand-software-math, so no other
    math op is left; one that is is an error naming it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def TilecPTXMarkRestrictBuffersPass
    : Pass<"tilec-ptx-mark-restrict-buffers", "::mlir::ModuleOp"> {
  let summary = "Mark kernel buffers aligned, and restrict where they alias nothing";
  let description = [{
    Distinct manifest buffers never overlap, so a kernel argument whose
    buffer no other argument of the kernel receives (in any launch of it)
    gets `llvm.noalias`, and one the kernel only reads `llvm.readonly` too:
    NVPTX then reads it through the read-only data cache (`ld.global.nc`)
    and may keep loads in registers across stores, as NVIDIA's OpenCL
    compiler does for `const restrict` arguments. Every buffer argument
    gets `llvm.align = 16` (each buffer is an allocation of its own, which
    cuMemAlloc aligns to 256 bytes), so that neighbouring loads may merge
    into vector loads. Runs on the gpu level
    (GPUProgram.h says which arguments alias), before convert-gpu-to-nvvm.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TilecPTXDynamicSharedMemoryPass
    : Pass<"tilec-ptx-dynamic-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Move workgroup memory above 48 KiB into dynamic shared memory";
  let description = [{
    A CUDA kernel declares at most 48 KiB of shared memory statically
    (ptxas refuses more); beyond that a block gets dynamic shared memory,
    up to the device's opt-in limit (227 KiB on sm_90), when the launch
    asks for it. Each gpu.func whose workgroup attributions exceed 48 KiB
    (the tensor-core tiles of a deep cp.async pipeline) gets them as views
    (`memref.view`) at 16-byte-aligned offsets of one
    `gpu.dynamic_shared_memory` buffer, and loses the attributions; the
    manifest's `dynamic_shared_bytes` (GPUProgram.h, `dynamicSharedBytes`)
    is their total, which the CUDA runtime opts in to and launches with.
    Smaller attributions stay static.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilecPTXLowerBF16MmaPass
    : Pass<"tilec-ptx-lower-bf16-mma", "::mlir::ModuleOp"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    MLIR 22's convert-nvgpu-to-nvvm takes `nvgpu.mma.sync` on f16, tf32,
    i8, i4 and f64 but fails on bf16 ("failed to deduce operand PTX
    types"), which sm_80 and later run as mma.sync m16n8k16 with f32 sums.
    Rewrites each bf16 `nvgpu.mma.sync` (vector<4x2xbf16> A, vector<2x2xbf16>
    B, vector<2x2xf32> C) into `nvvm.mma.sync` with its bf16 pairs packed
    into i32 registers, as PTX takes them, and the four f32 results put
    back into the vector<2x2xf32>. Runs before convert-nvgpu-to-nvvm; other
    element types are left to it.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def TilecPTXSplitKernelModulesPass
    : Pass<"tilec-ptx-split-kernel-modules", "::mlir::ModuleOp"> {
  let summary = "Give each kernel a gpu.module of its own";
  let description = [{
    A gpu.module of several kernels (and no other function) becomes one
    gpu.module per kernel, in order, each with the module's attributes, the
    kernel and copies of the globals it uses; launches name the kernel in
    its new module. The conversions to NVVM, which run per gpu.module, and
    LLVM's optimiser and NVPTX, which run per module of LLVM IR, then work
    on the kernels in parallel (a network has dozens; MobileNet's PTX
    compile spent 0.7 s in LLVM on one thread). EmitPTX.h joins their PTX
    into one module again, so the program still loads as one.
  }];
}

def TilecPTXAlignSwizzledSharedMemoryPass
    : Pass<"tilec-ptx-align-swizzled-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align the shared memory of wgmma kernels to 1024 bytes";
  let description = [{
    wgmma reads its tiles in the 128-byte swizzle, whose pattern repeats
    every 1024 bytes of shared memory and which the tiles' writes follow
    from their start (WgmmaBody.cpp): a tile must start at a multiple of
    1024. Their offsets in the kernel's shared memory are multiples of
    1024 (every tile is whole swizzle atoms); this pass makes the start of
    that memory one too, setting the alignment of each shared-memory global
    (`llvm.mlir.global` in address space 3, the dynamic shared memory
    included) of a gpu.module that holds an `nvvm.wgmma.mma_async` to 1024.
    Runs after convert-gpu-to-nvvm, before convert-nvvm-to-llvm.
  }];
}

#endif // TILEC_TARGET_PTX_PASSES_TD
