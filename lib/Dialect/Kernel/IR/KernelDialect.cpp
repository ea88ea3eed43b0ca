//===- KernelDialect.cpp - The tilec dialect --------------------*- C++ -*-===//
//
// Registers the tilec dialect's attributes and checks the type of every
// `tilec.*` attribute an op carries, so a misspelt or mistyped mark is an
// error where it appears rather than a silently ignored one; finds the GPU
// target that applies to an op.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace tilec::kernel;

#include "tilec/Dialect/Kernel/IR/KernelDialect.cpp.inc"

void KernelDialect::initialize() { registerAttributes(); }

bool tilec::kernel::isKernelDialectName(llvm::StringRef name) {
  return name.consume_front(KernelDialect::getDialectNamespace()) &&
         name.starts_with(".");
}

LogicalResult KernelDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();
  auto expect = [&](bool holds, StringRef what) -> LogicalResult {
    if (holds)
      return success();
    return op->emitError() << "'" << name << "' must be " << what;
  };
  if (name == KernelName::getNameStr() || name == Fingerprint::getNameStr() ||
      name == SourceName::getNameStr())
    return expect(isa<StringAttr>(value), "a string");
  if (name == Entry::getNameStr() || name == Parallel::getNameStr() ||
      name == Fused::getNameStr() || name == RowKernel::getNameStr() ||
      name == AllowTF32::getNameStr() || name == ProgramInput::getNameStr())
    return expect(isa<UnitAttr>(value), "a unit attribute");
  if (name == InputNames::getNameStr() || name == OutputNames::getNameStr()) {
    auto names = dyn_cast<ArrayAttr>(value);
    return expect(names && llvm::all_of(names, llvm::IsaPred<StringAttr>),
                  "an array of strings");
  }
  if (name == PackedArgument::getNameStr() ||
      name == RepackArgument::getNameStr()) {
    auto number = dyn_cast<IntegerAttr>(value);
    return expect(number && number.getType().isInteger(64) &&
                      number.getInt() >= 0,
                  "a non-negative i64");
  }
  if (name == Schedule::getNameStr())
    return expect(isa<ScheduleAttr>(value), "a #tilec.schedule");
  if (name == GPUTarget::getNameStr())
    return expect(isa<GPUTargetAttr>(value), "a #tilec.gpu_target");
  return op->emitError() << "'" << name
                         << "' is not an attribute of the tilec dialect";
}

FailureOr<std::optional<tilec::schedule::KernelSchedule>>
tilec::kernel::getKernelSchedule(Operation *kernel) {
  Attribute attr = kernel->getAttr(Schedule::getNameStr());
  if (!attr)
    return std::optional<schedule::KernelSchedule>();
  auto typed = dyn_cast<ScheduleAttr>(attr);
  if (!typed)
    return kernel->emitError() << "'" << Schedule::getNameStr()
                               << "' must be a #tilec.schedule";
  return std::optional<schedule::KernelSchedule>(typed.getSchedule());
}

void tilec::kernel::setKernelSchedule(
    Operation *kernel, const schedule::KernelSchedule &schedule) {
  MLIRContext *context = kernel->getContext();
  // Callers outside a pass (the schedule file, the driver) may not have
  // loaded the dialect; inside one it is a dependent dialect, already loaded.
  context->getOrLoadDialect<KernelDialect>();
  Schedule(context).setAttr(kernel, ScheduleAttr::get(context, schedule));
}

tilec::schedule::DeviceProfile tilec::kernel::getGPUTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto target = dyn_cast_or_null<GPUTargetAttr>(
            op->getAttr(GPUTarget::getNameStr())))
      return target.getProfile();
  return schedule::DeviceProfile();
}

void tilec::kernel::setGPUTarget(Operation *module,
                                 const schedule::DeviceProfile &profile) {
  MLIRContext *context = module->getContext();
  context->getOrLoadDialect<KernelDialect>();
  GPUTarget(context).setAttr(module, GPUTargetAttr::get(context, profile));
}

bool tilec::kernel::allowsTF32(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->hasAttr(AllowTF32::getNameStr()))
      return true;
  return false;
}
