//===- KernelBase.td - The tilec dialect: the loop level's vocabulary -*- tablegen -*-===//
//
// The `tilec` dialect has no ops: the loop level is upstream affine, scf and
// memref. It declares, once, the attributes tilec's passes put on those ops
// (docs/architecture.md, "Three things that exist once"): the schedule as a
// verified attribute and the discardable marks naming kernels, entries and
// fingerprints.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_IR_KERNELBASE_TD
#define TILEC_DIALECT_KERNEL_IR_KERNELBASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/DialectBase.td"

def Kernel_Dialect : Dialect {
  let name = "tilec";
  let cppNamespace = "::tilec::kernel";
  let summary = "The loop level's attributes: schedules and kernel marks";
  let description = [{
    Attributes tilec puts on the loop level (affine/scf/memref) and on the
    gpu level after it. `#tilec.schedule<...>` says how one kernel is tiled,
    `#tilec.gpu_target<...>` which device the GPU passes compile for; the
    discardable attributes below mark what the passes find and keep.
    Every `tilec.*` name is declared here, and the dialect's verifier checks
    each one's type wherever it appears.
  }];
  // One line per name; each gets a `<Name>AttrHelper` class on the dialect.
  let discardableAttrs = (ins
    // The name of a kernel, on its outermost loop (and its gpu.func or call).
    "::mlir::StringAttr":$kernel,
    // The function of a loop-level module that runs the whole program.
    "::mlir::UnitAttr":$entry,
    // The hash of a kernel's canonical form that schedule files are keyed by.
    "::mlir::StringAttr":$fingerprint,
    // A loop whose iterations are independent (set by tiling on the CPU).
    "::mlir::UnitAttr":$parallel,
    // A tile op computed inside its consumer's kernel.
    "::mlir::UnitAttr":$fused,
    // A fused row chain the CPU runs on vectors without a schedule
    // (tilec-cpu-fuse-rows, then tilec-cpu-row-kernels).
    "::mlir::UnitAttr":$row_kernel,
    // The program's input and output names, on the entry function.
    "::mlir::ArrayAttr":$input_names,
    "::mlir::ArrayAttr":$output_names,
    // The source-level name of a tile op's result, for kernel names.
    "::mlir::StringAttr":$name,
    // How a kernel is tiled, on its outermost loop.
    "::tilec::kernel::ScheduleAttr":$schedule,
    // The device the GPU passes compile for, on the builtin module.
    "::tilec::kernel::GPUTargetAttr":$gpu_target,
    // On the builtin module: f32 sums of products may run on tensor cores
    // in TF32 (`--allow-tf32`).
    "::mlir::UnitAttr":$allow_tf32,
    // On a CPU kernel function's buffer of an argument's packed panels, and
    // on the flag that guards the copies into it: the argument's number
    // (lib/Target/LLVM/Transforms/KeptPanels.h).
    "::mlir::IntegerAttr":$packed_argument,
    "::mlir::IntegerAttr":$repack_argument,
    // On a CPU kernel function's argument: every call passes one of the
    // program's inputs there, so its panels are worth packing to keep even
    // where no other row of micro-kernels reuses them in the call.
    "::mlir::UnitAttr":$program_input
  );
  let extraClassDeclaration = [{
    /// Adds the attributes of KernelAttrs.td (in KernelAttrs.cpp, next to
    /// their storage classes).
    void registerAttributes();
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

/// Base class of the tilec dialect's attributes.
class Kernel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Kernel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // TILEC_DIALECT_KERNEL_IR_KERNELBASE_TD
