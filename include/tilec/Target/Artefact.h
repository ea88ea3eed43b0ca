//===- Artefact.h - What a backend is asked for and what it makes -*- C++ -*-===//
//
// The data that crosses the backend interface (TargetBackend.h): what a
// compile knows of the program besides the module (ManifestContext), what it
// asks a backend for (ArtefactRequest), and what the backend gives back
// (Artefact: the kernel file or object, the launch manifest, and files that
// go beside them). The tool decides where they go; a backend never writes a
// file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_ARTEFACT_H
#define TILEC_TARGET_ARTEFACT_H

#include "tilec/Runtime/Manifest.h"
#include "tilec/Support/DType.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// What the manifest says that the module does not know.
struct ManifestContext {
  std::string target = "opencl";
  std::string artefact; ///< file name of the kernels, beside the manifest
  std::string program;  ///< the .tile file
  std::string entry; ///< empty: the entry function's name
  std::string tilecVersion;
  std::string device;
  /// The dtypes of the inputs and outputs in header order, from the typed
  /// program: the loop level's signless integers have lost whether they
  /// were signed. Empty: derived from the memref element types (iN as
  /// signed, i1 as bool).
  std::vector<DType> inputDTypes, outputDTypes;
};

/// What a compile asks of a backend.
struct ArtefactRequest {
  ManifestContext context;
  /// Where the artefact is to be written ("-": stdout; empty: it stays in
  /// memory). Files beside it are named after it, and a CPU backend names
  /// the entry symbol after it (a Tile entry is often `main`, which C
  /// reserves).
  std::string outputPath;
  std::string cpu = "native"; ///< CPU backends: the CPU to make code for
  unsigned optLevel = 2;      ///< CPU backends: -O0 .. -O3
  /// The form the backend's runtime loads rather than the file `tilec FILE`
  /// writes; they differ for the host CPU, whose runtime JIT-compiles the
  /// loop level instead of loading an object file.
  bool forRuntime = false;
};

/// A file that goes beside the artefact (the C header of an object).
struct SideFile {
  std::string path; ///< derived from ArtefactRequest::outputPath
  std::string bytes;
};

/// What a backend makes of a module.
struct Artefact {
  /// The kernel file (OpenCL C, a SPIR-V binary), the object file, or the
  /// module its runtime loads.
  std::string bytes;
  /// The launch manifest (docs/manifest.md), written beside the artefact as
  /// PATH.json; none for an object file, whose C header says how to call it.
  std::optional<rt::Manifest> manifest;
  std::vector<SideFile> sideFiles;
};

} // namespace tilec

#endif // TILEC_TARGET_ARTEFACT_H
