//===- InitAll.h - Register everything tilec defines ------------*- C++ -*-===//
//
// Explicit registration of everything tilec defines, for tilec-opt,
// tilec-translate and the driver. No static registrars: tools call these
// once at start-up.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INITALL_H
#define TILEC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Adds tilec's own dialects and the upstream dialects its IR uses
/// (func, and those of the lower levels) to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers tilec's passes and pipelines with the global pass registry, so
/// that tilec-opt accepts their flags.
void registerAllPasses();
/// Registers every backend of this build with the target registry
/// (Target/TargetBackend.h), one line each, in the order help texts list
/// them; idempotent.
void registerAllTargetBackends();

/// Registers every emitter as a translation (OpenCL C, SPIR-V, LLVM IR and
/// machine code, the C header) for tilec-translate.
void registerAllTranslations();

} // namespace tilec

#endif // TILEC_INITALL_H
