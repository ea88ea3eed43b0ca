//===- KernelDialect.h - The tilec dialect's attributes ---------*- C++ -*-===//
//
// Declares tilec::kernel::KernelDialect (mnemonic `tilec`), its attributes
// (#tilec.schedule, #tilec.gpu_target) and one typed helper per discardable
// attribute name, so no other file spells a `tilec.*` name.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_KERNEL_IR_KERNELDIALECT_H
#define TILEC_DIALECT_KERNEL_IR_KERNELDIALECT_H

#include "tilec/Schedule/DeviceProfile.h"
#include "tilec/Schedule/Schedule.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Kernel/IR/KernelAttrs.h.inc"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h.inc"

namespace tilec::kernel {

// The discardable attributes (KernelBase.td). Each helper is built from a
// context, `Entry(ctx).isAttrPresent(op)`, and works whether or not the
// dialect is loaded; `Entry::getNameStr()` is the name itself.
using KernelName = KernelDialect::KernelAttrHelper;
using Entry = KernelDialect::EntryAttrHelper;
using Fingerprint = KernelDialect::FingerprintAttrHelper;
using Parallel = KernelDialect::ParallelAttrHelper;
using Fused = KernelDialect::FusedAttrHelper;
using RowKernel = KernelDialect::RowKernelAttrHelper;
using InputNames = KernelDialect::InputNamesAttrHelper;
using OutputNames = KernelDialect::OutputNamesAttrHelper;
using SourceName = KernelDialect::NameAttrHelper;
using Schedule = KernelDialect::ScheduleAttrHelper;
using GPUTarget = KernelDialect::GpuTargetAttrHelper;
using AllowTF32 = KernelDialect::AllowTf32AttrHelper;
using PackedArgument = KernelDialect::PackedArgumentAttrHelper;
using RepackArgument = KernelDialect::RepackArgumentAttrHelper;
using ProgramInput = KernelDialect::ProgramInputAttrHelper;

/// Whether `name` is one of the dialect's (`tilec.` followed by anything).
bool isKernelDialectName(llvm::StringRef name);

/// The schedule on a kernel's outermost loop: std::nullopt if it has none,
/// failure (with an error emitted on `kernel`) if `tilec.schedule` holds
/// something other than a #tilec.schedule.
mlir::FailureOr<std::optional<schedule::KernelSchedule>>
getKernelSchedule(mlir::Operation *kernel);
/// Puts `schedule` on `kernel` as a #tilec.schedule, loading the dialect if
/// needed (passes that call this list it as a dependent dialect, so that it
/// is loaded before they run).
void setKernelSchedule(mlir::Operation *kernel,
                       const schedule::KernelSchedule &schedule);

/// The device the GPU passes compile `op` for: the #tilec.gpu_target of the
/// nearest op enclosing `op` (or `op` itself) that carries one, normally
/// the builtin module; the default profile when none does.
schedule::DeviceProfile getGPUTarget(mlir::Operation *op);
/// Puts `profile` on `module` as its #tilec.gpu_target, loading the dialect
/// if needed.
void setGPUTarget(mlir::Operation *module,
                  const schedule::DeviceProfile &profile);

/// Whether the module enclosing `op` (or `op` itself) lets f32 sums of
/// products run on tensor cores in TF32 (`tilec.allow_tf32`).
bool allowsTF32(mlir::Operation *op);

} // namespace tilec::kernel

#endif // TILEC_DIALECT_KERNEL_IR_KERNELDIALECT_H
