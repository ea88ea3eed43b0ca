//===- Phase.h - The levels a program passes through ------------*- C++ -*-===//
//
// The IR levels of docs/architecture.md ("Pipeline"), in order. Each level
// after the first is reached by one pipeline of lib/Pipelines, registered
// with tilec-opt as `tilec-pipeline-<phase>`; the driver's --emit levels are
// the shared ones (tile, loops, gpu) plus each backend's own stages.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINES_PHASE_H
#define TILEC_PIPELINES_PHASE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tilec {

enum class Phase {
  /// The tile dialect, as MLIRGen makes it (no pipeline reaches it).
  Tile,
  /// The loop level: affine loop nests on memrefs, one per kernel.
  Loops,
  /// The gpu level: one gpu.module of kernels launched in order.
  GPU,
  /// The SPIR-V back end's level: the gpu level plus its spirv.module.
  SPIRV,
  /// The CPU back end's level: the LLVM dialect.
  LLVM,
  /// The PTX back end's level: the gpu level with its gpu.module in the
  /// LLVM and NVVM dialects.
  NVVM,
  /// The GLSL back end's level: the gpu level with what GLSL lacks (f64
  /// math, accurate f32 math, C's pow, IEEE division by zero) expanded.
  GLSL,
};

/// The phase before `phase`, whose IR its pipeline takes; std::nullopt for
/// Tile. The two backend levels both start from a shared one: SPIR-V from
/// the gpu level, LLVM from the loop level.
std::optional<Phase> previousPhase(Phase phase);

/// The lower-case name of `phase`: "tile", "loops", "gpu", "spirv", "llvm",
/// "nvvm", "glsl".
llvm::StringRef phaseName(Phase phase);

/// The phase called `name` (see phaseName), or std::nullopt.
std::optional<Phase> parsePhase(llvm::StringRef name);

/// The name of the pipeline that reaches `phase`: "tilec-pipeline-<phase>".
std::string pipelineName(Phase phase);

} // namespace tilec

#endif // TILEC_PIPELINES_PHASE_H
