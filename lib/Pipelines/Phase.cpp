//===- Phase.cpp - The levels a program passes through --------------------===//

#include "tilec/Pipelines/Phase.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace tilec;

std::optional<Phase> tilec::previousPhase(Phase phase) {
  switch (phase) {
  case Phase::Tile:
    return std::nullopt;
  case Phase::Loops:
    return Phase::Tile;
  case Phase::GPU:
  case Phase::LLVM:
    return Phase::Loops;
  case Phase::SPIRV:
  case Phase::NVVM:
  case Phase::GLSL:
    return Phase::GPU;
  }
  return std::nullopt;
}

llvm::StringRef tilec::phaseName(Phase phase) {
  switch (phase) {
  case Phase::Tile:
    return "tile";
  case Phase::Loops:
    return "loops";
  case Phase::GPU:
    return "gpu";
  case Phase::SPIRV:
    return "spirv";
  case Phase::LLVM:
    return "llvm";
  case Phase::NVVM:
    return "nvvm";
  case Phase::GLSL:
    return "glsl";
  }
  return "";
}

std::optional<Phase> tilec::parsePhase(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Phase>>(name)
      .Case("tile", Phase::Tile)
      .Case("loops", Phase::Loops)
      .Case("gpu", Phase::GPU)
      .Case("spirv", Phase::SPIRV)
      .Case("llvm", Phase::LLVM)
      .Case("nvvm", Phase::NVVM)
      .Case("glsl", Phase::GLSL)
      .Default(std::nullopt);
}

std::string tilec::pipelineName(Phase phase) {
  return ("tilec-pipeline-" + llvm::Twine(phaseName(phase))).str();
}
