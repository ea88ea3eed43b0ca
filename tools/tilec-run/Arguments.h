//===- Arguments.h - tilec-run's command line --------------------*- C++
//-*-===//
//
// Parsed by hand rather than with CLI11: tilec-run is the tool that is built
// alone on deployment machines, and every library it needs beyond the C++
// standard library is one more thing such a machine must have.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_ARGUMENTS_H
#define TILEC_TOOLS_TILEC_RUN_ARGUMENTS_H

#include "tilec/Support/Result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilec::run {

/// Everything the command line says.
struct Arguments {
  std::string manifest; ///< the ARTEFACT.json path
  std::string device;   ///< --device, or "" for the default
  std::vector<std::pair<std::string, std::string>> inputs; ///< NAME=file
  uint64_t seed = 0;
  std::string outputDir;
  std::string expectDir; ///< --expect DIR: reference outputs DIR/NAME.npy
  /// --repeat; 0: not given (a manifest runs once, --tune takes the folder's).
  unsigned repeat = 0;
  bool json = false;
  bool listDevices = false; ///< --devices
  std::string tuneDir;      ///< --tune DIR: time a tuning folder
  bool help = false;
  // --train (docs/training.md): run the step function for epochs.
  bool train = false;
  std::vector<std::pair<std::string, std::string>> data; ///< --data NAME=file
  std::vector<std::pair<std::string, std::string>> init; ///< --init NAME=file
  uint64_t batch = 0; ///< 0: the batch the manifest was compiled for
  unsigned epochs = 1;
  bool shuffle = false;
  std::string saveDir;
};

/// Parses argv; the error is a usage message (exit code 2).
Result<Arguments> parseArguments(int argc, char **argv);

/// The text of --help.
std::string usageText();

} // namespace tilec::run

#endif // TILEC_TOOLS_TILEC_RUN_ARGUMENTS_H
