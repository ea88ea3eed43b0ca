//===- Targets.cpp - The --target and --emit choices of this build --------===//
//
// Everything here is read off the backend registry: which targets exist
// (in registration order, then the interpreter), which this build has, which
// print which --emit form. The forms are listed as the program goes through
// them: the typed program, the common levels, the backends' stages grouped
// by the level they start from, and last PlaidML's notation.
//
//===----------------------------------------------------------------------===//

#include "Targets.h"
#include "DriverError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <vector>

using namespace tilec;
using namespace tilec::driver;

namespace {

constexpr llvm::StringLiteral kInterpreter = "interp";

/// Every --target choice: the backends, then the interpreter.
std::vector<TargetChoice> allTargets() {
  std::vector<TargetChoice> targets;
  for (const TargetBackend *backend : targetBackends())
    targets.push_back(TargetChoice::of(*backend));
  targets.push_back(TargetChoice::interpreter());
  return targets;
}

/// `tilec FILE --target=T` produces an artefact.
bool compiles(TargetChoice target) {
  return !target.isInterpreter() && target.getBackend().available();
}
/// `tilec run --target=T` executes.
bool runs(TargetChoice target) {
  return target.isInterpreter() || target.getBackend().available();
}

/// "a, b or c" (`last` = " or "), or "a, b, c" (`last` = ", ").
std::string join(const std::vector<std::string> &names, const char *last) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return text;
}

/// The names of the targets `keep` accepts, as "a, b, c".
template <typename Keep> std::string targetNames(Keep keep) {
  std::vector<std::string> names;
  for (TargetChoice target : allTargets())
    if (keep(target))
      names.push_back(target.name().str());
  return join(names, ", ");
}

/// Every --emit form, in the order the program goes through them.
std::vector<std::string> emitKinds() {
  std::vector<std::string> kinds = {"ast", "tile", "loops", "gpu"};
  for (llvm::StringRef after : {"loops", "gpu"})
    for (const TargetBackend *backend : targetBackends())
      for (const EmitStage &stage : backend->emitStages())
        if (stage.after == after && !llvm::is_contained(kinds, stage.name))
          kinds.push_back(stage.name.str());
  kinds.push_back("plaidml");
  return kinds;
}

/// Whether `target` prints `emit`.
bool makes(TargetChoice target, llvm::StringRef emit) {
  if (!isBackendEmitKind(emit))
    return true;
  if (target.isInterpreter() || !target.getBackend().available())
    return false;
  const TargetBackend &backend = target.getBackend();
  return emit == "gpu" ? backend.kind() == BackendKind::GPU
                       : backend.emits(emit);
}

} // namespace

llvm::StringRef TargetChoice::name() const {
  return backend ? backend->name() : llvm::StringRef(kInterpreter);
}

TargetChoice tilec::driver::parseTarget(llvm::StringRef name) {
  if (name == kInterpreter)
    return TargetChoice::interpreter();
  if (const TargetBackend *backend = lookupTargetBackend(name))
    return TargetChoice::of(*backend);
  std::vector<std::string> names;
  for (TargetChoice target : allTargets())
    names.push_back(target.name().str());
  failUsage(fmt::format("unknown target '{}'; expected {}", name.str(),
                        join(names, " or ")));
}

bool tilec::driver::isBackendEmitKind(llvm::StringRef emit) {
  return emit != "ast" && emit != "plaidml" && emit != "tile" &&
         emit != "loops";
}

void tilec::driver::checkEmitKind(llvm::StringRef emit, TargetChoice target) {
  std::vector<std::string> kinds = emitKinds();
  if (!llvm::is_contained(kinds, emit))
    failUsage(fmt::format("unknown --emit kind '{}'; expected {}", emit.str(),
                          join(kinds, " or ")));
  if (makes(target, emit))
    return;
  std::vector<std::string> makers;
  for (TargetChoice candidate : allTargets())
    if (compiles(candidate) && makes(candidate, emit))
      makers.push_back("--target=" + candidate.name().str());
  failUsage(fmt::format("--emit={} needs {}", emit.str(),
                        join(makers, " or ")));
}

void tilec::driver::requireCompileTarget(TargetChoice target) {
  if (compiles(target))
    return;
  if (target.isInterpreter())
    failUsage(fmt::format("target '{}' executes programs and produces no "
                          "artefact; use 'tilec run --target={}', or "
                          "--emit=ast to check a program",
                          kInterpreter.str(), kInterpreter.str()));
  failUsage(fmt::format("target '{}' is not implemented yet; available: {}; "
                        "use --emit=ast to check a program",
                        target.name().str(), targetNames(compiles)));
}

void tilec::driver::requireRunTarget(TargetChoice target) {
  if (runs(target))
    return;
  failUsage(fmt::format("target '{}' is not implemented yet; available: {} "
                        "(tilec run --target={})",
                        target.name().str(), targetNames(runs),
                        kDefaultTarget));
}

void tilec::driver::requireDeviceTarget(TargetChoice target,
                                        llvm::StringRef command) {
  if (compiles(target))
    return;
  failUsage(fmt::format("{} measures on a device: --target must be {}, not "
                        "'{}'",
                        command.str(), compileTargetNames(),
                        target.name().str()));
}

void tilec::driver::warnIfOptLevelIgnored(bool given, int level,
                                          TargetChoice target,
                                          std::optional<std::string> emit) {
  const TargetBackend *backend =
      target.isInterpreter() ? nullptr : &target.getBackend();
  auto printedBy = [&](const TargetBackend *candidate) {
    return candidate->emits(*emit);
  };
  // -O applies where the backend's own code is made: no --emit, or one of
  // the stages it prints.
  bool applies = backend && backend->optLevelIgnoredReason().empty() &&
                 (!emit || printedBy(backend));
  if (!given || applies)
    return;
  // The forms some backend prints (llvm, asm, cl, spirv-asm) are its code;
  // the others stop before any back end.
  bool beforeCodeGen = emit && llvm::none_of(targetBackends(), printedBy);
  std::string what, why;
  if (beforeCodeGen) {
    what = fmt::format("--emit={}", *emit);
    why = "which stops before code generation";
  } else {
    what = fmt::format("target '{}'", target.name().str());
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

std::string tilec::driver::compileTargetHelp() {
  std::vector<std::string> built, unbuilt;
  for (const TargetBackend *backend : targetBackends()) {
    std::string name = backend->name().str();
    for (llvm::StringRef alias : backend->aliases())
      name += fmt::format(" (alias {})", alias.str());
    (backend->available() ? built : unbuilt).push_back(name);
  }
  std::string help = fmt::format("code-generation target, default {}; "
                                 "available: {}",
                                 kDefaultTarget, join(built, ", "));
  if (!unbuilt.empty())
    help += "; not available in this build yet: " + join(unbuilt, ", ");
  return help;
}

std::string tilec::driver::runTargetHelp() {
  std::string help =
      fmt::format("where to run, default {}; available: {} ({} is the "
                  "reference interpreter)",
                  kDefaultTarget, targetNames(runs), kInterpreter.str());
  std::string unbuilt = targetNames([](TargetChoice t) { return !runs(t); });
  if (!unbuilt.empty())
    help += "; not available in this build yet: " + unbuilt;
  return help;
}

std::string tilec::driver::deviceTargetHelp(llvm::StringRef what) {
  return fmt::format("{}, default {}: {}", what.str(), kDefaultTarget,
                     compileTargetNames());
}

std::string tilec::driver::compileTargetNames() {
  std::vector<std::string> names;
  for (TargetChoice candidate : allTargets())
    if (compiles(candidate))
      names.push_back(candidate.name().str());
  return join(names, " or ");
}

std::string tilec::driver::emitKindHelp() {
  return "print an intermediate form and stop; available: " +
         join(emitKinds(), ", ");
}

std::string tilec::driver::buildCapabilities() {
  return fmt::format("runs on: {} (tilec run); compiles for: {}",
                     targetNames(runs), targetNames(compiles));
}
