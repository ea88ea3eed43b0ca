//===- CompileCacheKeys.h - What each compile depends on --------*- C++ -*-===//
//
// Part of lib/Compiler: the key material of the compile cache. The program
// enters as its loop-level module printed after the schedules were applied
// (and, for a GPU backend, the device put on it as #tilec.gpu_target), with
// its source locations: that covers every kernel's fingerprint and
// schedule, the -D bindings, the entry, the device's facts and the
// "file:line" of each statement that manifests record. What the module does
// not say (the backend, the manifest's fields, the output's name, and what
// the backend adds: the machine and -O of CPU code) is added field by field.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILECACHEKEYS_H
#define TILEC_COMPILER_COMPILECACHEKEYS_H

#include "tilec/Compiler/CompileCache.h"

#include "tilec/Target/TargetBackend.h"

#include "mlir/IR/BuiltinOps.h"

namespace tilec::compiler {

/// What `backend` makes of the scheduled loop-level `module` for
/// `request`: `output` names it (the artefact, or an --emit form);
/// `backendFields` are the backend's own (cacheKeyFields).
CacheKey compileCacheKey(const TargetBackend &backend, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::StringRef output,
                         llvm::ArrayRef<CacheKeyField> backendFields);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_COMPILECACHEKEYS_H
