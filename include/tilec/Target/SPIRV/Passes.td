//===- Passes.td - The SPIR-V back end's passes ---------*- tablegen -*-===//
//
// The passes that take the gpu level (Pipelines.h, buildLoopsToGPUPipeline)
// to one Vulkan-flavoured spirv.module (SPIRVTarget.h says in which order).
// TableGen generates the pass classes, their create functions and
// registerTilecSPIRVPasses(), declared in Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES_TD
#define TILEC_TARGET_SPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

// Every pass that needs to know the device reads the module's
// #tilec.gpu_target (tilec/Dialect/Kernel/IR/KernelAttrs.td), or the
// default one; none takes the device's facts as options.

def TilecSPIRVCheckDevicePass
    : Pass<"tilec-spirv-check-device", "::mlir::ModuleOp"> {
  let summary = "Check that the device supports what every kernel needs";
  let description = [{
    Walks every `gpu.func` of the gpu level and, for each element type and
    operation, the SPIR-V capability it needs (f16: Float16, and
    StorageBuffer16BitAccess when in a buffer; i8/bool: Int8 and
    StorageBuffer8BitAccess; i16 and bf16 (stored as i16): Int16 and
    StorageBuffer16BitAccess; i64: Int64; f64: Float64; subgroup ops:
    GroupNonUniform). A capability the device lacks is an error at the op
    (its location is the Tile statement) naming the capability and the
    kernel. Without this check the upstream type converter would silently
    widen narrow types.
  }];
}

def TilecSPIRVLegalizeBoolArithPass
    : Pass<"tilec-spirv-legalize-bool-arith", "::mlir::ModuleOp"> {
  let summary = "Rewrite integer min/max of i1 into logical and/or";
  let description = [{
    SPIR-V's integer min/max (GL.UMin, GL.SMax, ...) take 8- to 64-bit
    integers only, while the gpu level computes min/max of bools as i1.
    Rewrites them, on i1 and vectors of i1, into `arith.andi` / `arith.ori`:
    unsigned i1 has false < true, so minui is and and maxui is or; signed
    i1 has true (-1) < false (0), so minsi is or and maxsi is and.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TilecSPIRVEmulateBF16Pass
    : Pass<"tilec-spirv-emulate-bf16", "::mlir::ModuleOp"> {
  let summary = "Store bf16 as i16 bits, after its arithmetic went to f32";
  let description = [{
    Vulkan has no bf16. Runs after `arith-emulate-unsupported-floats` and
    `math-extend-to-supported-types` have moved all bf16 arithmetic to f32,
    so bf16 values only flow between loads, stores, selects, constants and
    `arith.extf` / `arith.truncf`. Rewrites those conversions into integer
    operations, rounding f32 to bf16 to nearest even (NaN becomes the quiet
    NaN 0x7FC0 with its sign), bit-exact with tilec::floatToBFloat, and
    retypes every bf16 value, memref and function signature of the module
    to i16. A bf16 operation of any other kind is an error on it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TilecSPIRVAttachTargetPass
    : Pass<"tilec-spirv-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the SPIR-V target environment and entry-point ABIs";
  let description = [{
    Puts `spirv.target_env` (the version, capabilities and extensions the
    module's #tilec.gpu_target allows, on top of Vulkan's Shader) on the module and every
    gpu.module, and `spirv.entry_point_abi` with the work-group size of its
    `known_block_size` on every kernel gpu.func. A kernel without a known
    block size is an error.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def TilecConvertGPUToSPIRVPass
    : Pass<"tilec-convert-gpu-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Convert each gpu.module to a Vulkan spirv.module";
  let description = [{
    Upstream `convert-gpu-to-spirv`, plus the math, vector and index
    patterns it lacks (the gpu level uses math.exp, math.tanh, ...): each
    gpu.module is cloned to a spirv.module beside it, every kernel its own
    entry point, arguments bound at descriptor set 0, binding i = argument
    i, workgroup attributions as Workgroup variables. The host side is left
    alone. A transcendental math op on f64 (exp, pow, acosh, ...: GLSL.std.450
    defines them on 16- and 32-bit floats only, and f32 misses the f64
    tolerance) is an error naming the function and the kernel.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def TilecSPIRVFloatControlsPass
    : Pass<"tilec-spirv-float-controls", "::mlir::spirv::ModuleOp"> {
  let summary = "Ask for IEEE infinities, NaNs, signed zeros and subnormals";
  let description = [{
    Vulkan lets a driver assume that no infinity or NaN occurs, and flush
    subnormals, unless the entry point declares the SPV_KHR_float_controls
    execution modes SignedZeroInfNanPreserve and DenormPreserve for a float
    width. For every entry point and every float width its function uses,
    this pass declares each mode that the device grants for that width (the
    inf_nan_preserve_* and denorm_preserve_* fields of the module's
    #tilec.gpu_target, from VkPhysicalDeviceFloatControlsProperties); spirv-update-vce then keeps
    the capabilities and the extension the modes need.
  }];
}

def TilecSPIRVEntryPointInterfacesPass
    : Pass<"tilec-spirv-entry-point-interfaces", "::mlir::spirv::ModuleOp"> {
  let summary = "List every global variable an entry point uses (SPIR-V 1.4)";
  let description = [{
    Before SPIR-V 1.4 an OpEntryPoint names only its Input and Output
    variables, so a driver cannot tell which Workgroup variables each
    kernel of a many-kernel module uses, and may give every kernel all of
    them: a training step's 14 kernels of 4-24 KiB each then ask for
    121 KiB where the device has 48 KiB (Vulkan's validation layer counts
    it so). Where the module's #tilec.gpu_target allows SPIR-V 1.4 or newer,
    this pass lists in each entry point's interface every
    spirv.GlobalVariable its function, or a function it calls, takes the
    address of (as 1.4 requires), and raises the module's version to 1.4
    if spirv-update-vce had left it lower. Below 1.4 the module stays as
    it was.
  }];
}

#endif // TILEC_TARGET_SPIRV_PASSES_TD
