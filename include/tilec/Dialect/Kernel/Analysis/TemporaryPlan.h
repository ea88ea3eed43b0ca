//===- TemporaryPlan.h - Lifetimes and storage of temporaries ---*- C++ -*-===//
//
// Whole-program temporary-buffer planning, shared by the CPU and GPU back
// ends. At the loop and gpu levels every temporary is a memref.alloc in the
// entry function, whose other top-level ops run one after another (kernel
// nests, or gpu.launch_func). planTemporaries gives each temporary a live
// interval over those ops and a storage slot, so that temporaries whose
// intervals do not overlap share a slot. The loop-level pipeline of every
// target first merges temporaries of one type into whole buffers
// (tilec-kernel-reuse-temporary-buffers, TemporarySharing::SameType); then
// the CPU back end allocates one buffer per byte slot
// (tilec-kernel-share-temporary-buffers), and the GPU manifest lists one
// device buffer per byte slot.
//
// The algorithm, in three steps:
//  1. Lifetimes. A temporary is a top-level memref.alloc of a static,
//     row-major type whose every use is either a top-level memref.dealloc
//     or nested in (or an operand of) a top-level op that yields no memref,
//     so that no alias of it outlives that op. Its interval is [first,
//     last]: the positions of the first and the last top-level op using it
//     (the first writer to the last reader; deallocations do not count).
//     Anything else (returned, aliased at the top level) is left alone.
//  2. Slots, greedy. Each temporary joins the first slot none of whose
//     members is live at the same time, or opens a new slot of its own
//     size. Byte slots (TemporarySharing::Bytes) take temporaries of any
//     types, largest first (ties in program order); since sizes only
//     shrink, a slot is as large as its first member. Same-type slots
//     (TemporarySharing::SameType) take only temporaries of their first
//     member's memref type, in order of first use, and only temporaries
//     freed by a top-level memref.dealloc and used by some top-level op.
//  3. Sizes are rounded up to kTemporaryAlignment, so that the slots can
//     also be laid out one after another in one arena, each aligned for
//     the widest vector load. The planned peak is the sum of the slots.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_ANALYSIS_TEMPORARYPLAN_H
#define TILEC_DIALECT_KERNEL_ANALYSIS_TEMPORARYPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tilec {

/// The alignment, in bytes, of every slot's size (and of its storage).
inline constexpr uint64_t kTemporaryAlignment = 64;

/// How temporaries may share a slot.
enum class TemporarySharing {
  /// Byte slots for any types, largest first, 64-byte rounded:
  /// tilec-kernel-share-temporary-buffers, the GPU manifest, the driver's
  /// report.
  Bytes,
  /// Whole buffers of one memref type, in order of first use:
  /// tilec-kernel-reuse-temporary-buffers.
  SameType,
};

/// One temporary, its live interval and its slot.
struct PlannedTemporary {
  mlir::memref::AllocOp alloc;
  mlir::memref::DeallocOp dealloc; ///< its top-level dealloc, or null
  unsigned first = 0; ///< position of the first top-level op using it
  unsigned last = 0;  ///< position of the last one
  uint64_t bytes = 0; ///< its storage, rounded up to kTemporaryAlignment
  unsigned slot = 0;  ///< index into TemporaryPlan::slotBytes
};

/// Where the temporaries of one function live.
struct TemporaryPlan {
  std::vector<PlannedTemporary> temporaries; ///< in program order
  std::vector<uint64_t> slotBytes;           ///< each a multiple of 64

  /// The memory of all slots: the temporaries' planned peak.
  uint64_t peakBytes() const;
  /// The memory the temporaries would take without sharing.
  uint64_t unsharedBytes() const;
  /// The slot of the temporary `alloc` allocates, if it was planned.
  std::optional<unsigned> slotOf(mlir::Value alloc) const;
};

/// Storage bytes of a static memref type: at least one byte per element
/// (i1 takes a byte), and at least one byte in all.
uint64_t storageBytes(mlir::MemRefType type);

/// Plans the temporaries of `func`'s body (its single block), sharing
/// slots as `sharing` says; a function without a body, or with several
/// blocks, gets an empty plan.
TemporaryPlan
planTemporaries(mlir::func::FuncOp func,
                TemporarySharing sharing = TemporarySharing::Bytes);

/// Plans the temporaries of `module`'s entry function (the one marked
/// `tilec.entry`, at the loop or the gpu level); an empty plan without one.
TemporaryPlan planEntryTemporaries(mlir::ModuleOp module);

} // namespace tilec

#endif // TILEC_DIALECT_KERNEL_ANALYSIS_TEMPORARYPLAN_H
