//===- Passes.td - Loop-level transforms of tilec --------*- tablegen -*-===//
//
// The loop-level passes every back end runs. TableGen generates the pass
// classes, their create functions and registerTilecKernelTransformsPasses().
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FingerprintKernelsPass
    : Pass<"tilec-kernel-fingerprint-kernels", "::mlir::func::FuncOp"> {
  let summary = "Attach tilec.fingerprint to every kernel loop nest";
  let description = [{
    Runs on the loop level, after the last pass that changes a kernel. Each
    top-level op carrying `tilec.kernel` gets `tilec.fingerprint`: a 64-bit
    hash, in hex, of the kernel's canonical printed form with no locations,
    no names and no tilec attributes. It therefore depends only on shapes,
    element types, index maps, guards and the arithmetic (the aggregation
    included), so schedules keyed by it survive renames and source edits.
  }];
}

def ReuseTemporaryBuffersPass
    : Pass<"tilec-kernel-reuse-temporary-buffers", "::mlir::func::FuncOp"> {
  let summary = "Reuse temporary buffers whose lifetimes do not overlap";
  let description = [{
    Plans with `tilec::planTemporaries(func, TemporarySharing::SameType)`
    (TemporaryPlan.h). Every top-level `memref.alloc` of the function (each
    temporary is allocated once, at the start) has a lifetime: the
    top-level ops between its first and last use. An allocation whose
    lifetime starts after an earlier allocation of the same type has ended
    takes over that buffer; its own `memref.alloc` and `memref.dealloc` go.
    Only temporaries the plan takes are merged: of a static, row-major
    type, never returned nor aliased at the top level, freed by a top-level
    `memref.dealloc` and used by some top-level op.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ShareTemporaryBuffersPass
    : Pass<"tilec-kernel-share-temporary-buffers", "::mlir::func::FuncOp"> {
  let summary = "Store temporaries whose lifetimes do not overlap together";
  let description = [{
    Plans the function's temporaries (top-level memref.alloc ops) with
    `tilec::planTemporaries` (TemporaryPlan.h): each gets a live interval
    over the top-level ops and a storage slot shared with temporaries that
    are never alive at the same time. Each slot becomes one 64-byte aligned
    `memref<Nxi8>` allocation, each temporary a `memref.view` of its slot,
    and the slots are deallocated before the return in place of the
    temporaries. Allocations that escape or are aliased at the top level
    are left as they are.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def SetGPUTargetPass
    : Pass<"tilec-kernel-set-gpu-target", "::mlir::ModuleOp"> {
  let summary = "Say which device the GPU passes compile the module for";
  let description = [{
    Puts `target`, a `#tilec.gpu_target<...>` (fields not named keep the
    default profile's values), on the module as `tilec.gpu_target`,
    replacing any there. Every GPU pass reads the device from that
    attribute; `tilec` puts it there from the device it compiles for, and
    tests and `tilec-opt` pipelines use this pass to compile for another
    device than the default one:

    ```
    tilec-opt '--tilec-kernel-set-gpu-target=target=#tilec.gpu_target<fp16=false>' \
        --tilec-pipeline-gpu --tilec-pipeline-spirv
    ```

    A `target` that is not a valid `#tilec.gpu_target` is an error.
  }];
  let options = [
    Option<"target", "target", "std::string", [{"#tilec.gpu_target<>"}],
           "The device, as a #tilec.gpu_target attribute">,
  ];
  let dependentDialects = ["::tilec::kernel::KernelDialect"];
}

#endif // TILEC_DIALECT_KERNEL_TRANSFORMS_PASSES_TD
