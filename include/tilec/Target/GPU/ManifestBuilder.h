//===- ManifestBuilder.h - The launch manifest of the gpu level -*- C++ -*-===//
//
// Fills the launch manifest (Runtime/Manifest.h) from a gpu-level module:
// the buffers (the entry function's inputs and outputs in header order,
// then one temporary buffer per storage slot of the temporary plan of
// Dialect/Kernel/Analysis/TemporaryPlan.h, shared by the memref.alloc
// temporaries whose lifetimes do not overlap), the kernels in launch order with
// their buffer arguments and how each kernel accesses them, work sizes
// (global = grid * block, local = block, per dimension), flop and byte
// estimates and the Tile statements each kernel computes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_MANIFESTBUILDER_H
#define TILEC_TARGET_GPU_MANIFESTBUILDER_H

#include "tilec/Runtime/Manifest.h"
#include "tilec/Target/Artefact.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// The manifest of `module`'s entry function. On failure an error has been
/// emitted on the offending op.
mlir::FailureOr<rt::Manifest> buildManifest(mlir::ModuleOp module,
                                            const ManifestContext &context);

} // namespace tilec

#endif // TILEC_TARGET_GPU_MANIFESTBUILDER_H
