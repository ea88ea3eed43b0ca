//===- Targets.cpp - The targets and --emit kinds this build offers -------===//
//
// What a backend is (its aliases, whether this build has it, why -O does not
// apply to it) is the backend registry's (Target/TargetBackend.h); the table
// below only lists the --target spellings in the order help texts give them,
// adds the interpreter (a run target that is no backend) and says which
// targets `tilec run` executes. Every --emit kind is built, so that table
// only names them.
//
//===----------------------------------------------------------------------===//

#include "Targets.h"
#include "DriverError.h"
#include "Options.h"

#include "tilec/Compiler/ScheduleLoading.h"
#include "tilec/Target/TargetBackend.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <iterator>

using namespace tilec::driver;
using namespace tilec::compiler;

namespace {

struct TargetInfo {
  Target target;
  const char *name;
  bool runs; ///< `tilec run --target=T` executes
};

constexpr TargetInfo targetTable[] = {
    {Target::OpenCL, "opencl", true},
    {Target::SPIRV, "spirv", true},
    {Target::LLVMX86, "llvm-x86", true},
    {Target::PTX, "ptx", false},
    {Target::Interp, "interp", true},
};

/// The registered backend of a target; null for the interpreter.
const tilec::TargetBackend *backendOf(const TargetInfo &entry) {
  return tilec::lookupTargetBackend(entry.name);
}

struct EmitInfo {
  EmitKind kind;
  const char *name;
};

constexpr EmitInfo emitTable[] = {
    {EmitKind::AST, "ast"},     {EmitKind::Tile, "tile"},
    {EmitKind::Loops, "loops"}, {EmitKind::GPU, "gpu"},
    {EmitKind::LLVM, "llvm"},   {EmitKind::Asm, "asm"},
    {EmitKind::CL, "cl"},       {EmitKind::SPIRVAsm, "spirv-asm"},
    {EmitKind::PlaidML, "plaidml"},
};

const TargetInfo &info(Target target) {
  return *llvm::find_if(targetTable, [&](const TargetInfo &entry) {
    return entry.target == target;
  });
}

const EmitInfo &info(EmitKind kind) {
  return *llvm::find_if(
      emitTable, [&](const EmitInfo &entry) { return entry.kind == kind; });
}

/// The names of the entries of `table` that `keep` accepts, joined by ", ".
template <typename Table, typename Keep>
std::string joinNames(const Table &table, Keep keep) {
  std::string text;
  for (const auto &entry : table)
    if (keep(entry))
      text += text.empty() ? entry.name : fmt::format(", {}", entry.name);
  return text;
}

/// Every name of `table` as "a, b or c", for messages that list choices.
template <typename Table> std::string listChoices(const Table &table) {
  std::string text;
  size_t count = std::size(table), index = 0;
  for (const auto &entry : table) {
    if (index != 0)
      text += index + 1 == count ? " or " : ", ";
    text += entry.name;
    ++index;
  }
  return text;
}

/// `tilec FILE --target=T` produces an artefact.
bool compiles(const TargetInfo &entry) {
  const tilec::TargetBackend *backend = backendOf(entry);
  return backend && backend->available();
}
bool runs(const TargetInfo &entry) { return entry.runs; }
bool notRuns(const TargetInfo &entry) { return !entry.runs; }
bool anyEmitKind(const EmitInfo &) { return true; }

/// The first target `tilec run` can use, for "pass --target=..." hints.
const char *firstRunnableTarget() {
  return llvm::find_if(targetTable, runs)->name;
}

} // namespace

llvm::StringRef tilec::driver::targetName(Target target) {
  return info(target).name;
}

llvm::StringRef tilec::driver::emitKindName(EmitKind kind) {
  return info(kind).name;
}

Target tilec::driver::parseTarget(llvm::StringRef name) {
  for (const TargetInfo &entry : targetTable) {
    const tilec::TargetBackend *backend = backendOf(entry);
    if (backend ? backend->isCalled(name) : name == entry.name)
      return entry.target;
  }
  failUsage(fmt::format("unknown target '{}'; expected {}", name.str(),
                        listChoices(targetTable)));
}

EmitKind tilec::driver::parseEmitKind(llvm::StringRef name) {
  for (const EmitInfo &entry : emitTable)
    if (name == entry.name)
      return entry.kind;
  failUsage(fmt::format("unknown --emit kind '{}'; expected {}", name.str(),
                        listChoices(emitTable)));
}

void tilec::driver::requireCompileTarget(Target target) {
  const TargetInfo &entry = info(target);
  if (compiles(entry))
    return;
  if (entry.runs)
    failUsage(fmt::format("target '{}' executes programs and produces no "
                          "artefact; use 'tilec run --target={}', or "
                          "--emit=ast to check a program",
                          entry.name, entry.name));
  failUsage(fmt::format("target '{}' is not implemented yet; available: {}; "
                        "use --emit=ast to check a program",
                        entry.name, joinNames(targetTable, compiles)));
}

void tilec::driver::requireRunTarget(Target target) {
  const TargetInfo &entry = info(target);
  if (entry.runs)
    return;
  failUsage(fmt::format("target '{}' is not implemented yet; available: {} "
                        "(tilec run --target={})",
                        entry.name, joinNames(targetTable, runs),
                        firstRunnableTarget()));
}

void tilec::driver::warnIfOptLevelIgnored(bool given, int level,
                                          Target target,
                                          std::optional<EmitKind> emit) {
  const tilec::TargetBackend *backend = backendOf(info(target));
  auto printedBy = [&](const tilec::TargetBackend *candidate) {
    return candidate->emits(emitKindName(*emit));
  };
  // -O applies where the backend's own code is made: no --emit, or one of
  // the stages it prints.
  bool applies = backend && backend->optLevelIgnoredReason().empty() &&
                 (!emit || printedBy(backend));
  if (!given || applies)
    return;
  // The forms some backend prints (llvm, asm, cl, spirv-asm) are its code;
  // the others stop before any back end.
  bool beforeCodeGen =
      emit && llvm::none_of(tilec::targetBackends(), printedBy);
  std::string what, why;
  if (beforeCodeGen) {
    what = fmt::format("--emit={}", emitKindName(*emit).str());
    why = "which stops before code generation";
  } else {
    what = fmt::format("target '{}'", targetName(target).str());
    if (!backend)
      why = "which interprets the program and compiles nothing";
    else if (backend->optLevelIgnoredReason().empty())
      why = "which has no code generation in this build";
    else
      why = backend->optLevelIgnoredReason().str();
  }
  llvm::errs() << fmt::format("tilec: warning: -O{} does not apply to {}, "
                              "{}; it sets the level of llvm-x86 code and is "
                              "ignored here\n",
                              level, what, why);
}

llvm::Error tilec::driver::applyScheduleOption(Target target,
                                               const CompileOptions &options,
                                               mlir::ModuleOp module) {
  return compiler::applyScheduleFileForCompile(
      {targetName(target), target == Target::LLVMX86}, options.schedule,
      options.deviceId, options.program.verbose, module, driverReporter());
}

std::string tilec::driver::compileTargetHelp() {
  std::string built, unbuilt;
  for (const TargetInfo &entry : targetTable) {
    if (entry.target == Target::Interp)
      continue; // not a compile target; `tilec run` documents it
    std::string name = entry.name;
    for (llvm::StringRef alias : backendOf(entry)->aliases())
      name += fmt::format(" (alias {})", alias.str());
    std::string &list = compiles(entry) ? built : unbuilt;
    list += list.empty() ? name : ", " + name;
  }
  std::string help = "code-generation target, default opencl; available: " +
                     built;
  if (!unbuilt.empty())
    help += "; not available in this build yet: " + unbuilt;
  return help;
}

std::string tilec::driver::runTargetHelp() {
  return fmt::format("where to run, default opencl; available: {} (interp "
                     "is the reference interpreter); not available in this "
                     "build yet: {}",
                     joinNames(targetTable, runs),
                     joinNames(targetTable, notRuns));
}

std::string tilec::driver::emitKindHelp() {
  return "print an intermediate form and stop; available: " +
         joinNames(emitTable, anyEmitKind);
}

std::string tilec::driver::buildCapabilities() {
  return fmt::format("runs on: {} (tilec run); compiles for: {}",
                     joinNames(targetTable, runs),
                     joinNames(targetTable, compiles));
}
