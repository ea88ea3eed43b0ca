//===- Output.cpp - Writing results without half-written files ------------===//
//
// Part of the tilec driver; see Output.h. llvm::writeToOutput does the
// temporary-and-rename dance (and removes the temporary if the process is
// interrupted); the .npy writer of the Support library does its own.
//
//===----------------------------------------------------------------------===//

#include "Output.h"
#include "DriverError.h"

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

using namespace tilec;
using namespace tilec::driver;

void tilec::driver::writeOutputFile(llvm::StringRef path,
                                    llvm::StringRef contents) {
  llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << contents;
    return llvm::Error::success();
  });
  // The error's own text repeats the temporary's name; the reason is enough.
  if (error)
    failRuntime(
        fmt::format("cannot write '{}': {}", path.str(),
                    llvm::errorToErrorCode(std::move(error)).message()));
  if (path == "-") {
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      llvm::outs().clear_error();
      failRuntime("cannot write to stdout");
    }
  }
}

void tilec::driver::writeArtefact(const std::string &path,
                                  const Artefact &artefact) {
  std::vector<std::pair<std::string, std::string>> files = {
      {path, artefact.bytes}};
  if (path != "-") {
    if (artefact.manifest)
      files.push_back({path + ".json", rt::printManifest(*artefact.manifest)});
    for (const SideFile &file : artefact.sideFiles)
      files.push_back({file.path, file.bytes});
  }
  for (size_t i = 1; i < files.size(); ++i)
    if (files[i].first == path)
      failUsage(fmt::format("-o '{}' would be overwritten by a file written "
                            "beside it; give the artefact another name",
                            path));
  for (size_t i = 0; i < files.size(); ++i) {
    try {
      writeOutputFile(files[i].first, files[i].second);
    } catch (const DriverError &) {
      for (size_t j = 0; j < i; ++j)
        (void)llvm::sys::fs::remove(files[j].first);
      throw;
    }
  }
}

void tilec::driver::ensureDirectory(llvm::StringRef dir) {
  // Permissions as `mkdir -p` gives them (the umask still applies).
  if (std::error_code ec = llvm::sys::fs::create_directories(
          dir, /*IgnoreExisting=*/true, llvm::sys::fs::all_all))
    failRuntime(fmt::format("cannot create directory '{}': {}", dir.str(),
                            ec.message()));
}

std::string tilec::driver::writeTensorFile(llvm::StringRef dir,
                                           llvm::StringRef name,
                                           const Tensor &tensor) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name + ".npy");
  if (Status written = writeNpy(std::string(path), tensor); !written)
    failRuntime(written.message());
  return std::string(path);
}
