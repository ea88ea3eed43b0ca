//===- KeptPanels.h - Packed panels that outlive a run --------*- C++ -*-===//
//
// How tilec-cpu-apply-schedule and tilec-cpu-keep-packed-inputs agree on
// the panels of a kernel function's argument. The schedule packs such an
// operand into one buffer of all its lane tiles' panels, allocated before
// the kernel and tagged kPackedArgument, and copies each panel only where a
// flag, an `arith.constant true` tagged kRepackArgument, holds. Both tags
// name the argument. The module pass then turns the buffer and the flag
// into arguments of the function: at a call that passes a program input,
// what the input's byte in `<entry>_changed_inputs` says (below): a buffer
// kept from one run to the next or one of the call, and whether to pack;
// elsewhere a buffer of the call and `true`. A weight is
// then packed once per binding, as libraries reorder a constant weight
// once. Without the module pass, the tags change nothing: the flag is
// true and the buffer is freed after the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TRANSFORMS_KEPTPANELS_H
#define TILEC_LIB_TRANSFORMS_KEPTPANELS_H

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

namespace tilec::transforms {

/// On the memref.alloc of a kernel function argument's packed panels: the
/// argument's number (i64).
inline llvm::StringRef kPackedArgument =
    kernel::PackedArgument::getNameStr();
/// On the `arith.constant true` that guards the copies into it: the same.
inline llvm::StringRef kRepackArgument =
    kernel::RepackArgument::getNameStr();

using tilec::kKeepPanels;
using tilec::kOwnPanels;
using tilec::kReusePanels;

} // namespace tilec::transforms

#endif // TILEC_LIB_TRANSFORMS_KEPTPANELS_H
