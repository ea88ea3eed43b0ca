//===- Manifest.h - The launch manifest of compiled kernels -------*- C++ -*-===//
//
// `tilec FILE -o kernel.cl` (or `--target=spirv -o model.spv`) writes the
// kernels and, beside them, OUT.json: everything a host program needs to run
// them without the compiler (docs/cli.md). The compiler fills a Manifest and calls
// writeManifest; the runtimes and tilec-run call readManifest. No LLVM here.
//
// The JSON (version 1) looks like this; docs/manifest.md is the reference:
//   {
//     "format": "tilec-manifest", "version": 1,
//     "target": "opencl",               // or "spirv", "ptx"
//     "artefact": "kernel.cl",          // beside the manifest
//     "program": "examples/matmul.tile", "entry": "main",
//     "tilec_version": "0.3.0",
//     "device": "",                     // device id the schedule was for, or ""
//     "buffers": [ {"id": 0, "role": "input", "name": "A", "dtype": "f32",
//                   "shape": [4, 6], "bytes": 96}, ...
//                  {"id": 3, "role": "temporary", "bytes": 64} ],
//     "inputs":  [ {"name": "A", "buffer": 0}, ... ],   // header order
//     "outputs": [ {"name": "C", "buffer": 2} ],
//     "kernels": [ {"name": "matmul_C", "fingerprint": "026c6791287ff337",
//                   "statements": ["examples/matmul.tile:11"],
//                   "args": [ {"buffer": 0, "access": "read"}, ... ],
//                   "global": [5, 4, 1], "local": [5, 4, 1],
//                   "flops": 240, "bytes": 296,
//                   "spirv_entry": "matmul_C",          // spirv only
//                   "bindings": [ {"set": 0, "binding": 0, "buffer": 0} ],
//                   "dynamic_shared_bytes": 0 } ],      // ptx only
//     "peak_temporary_bytes": 64
//   }
// Kernels run in the order listed, one entry per launch; launches of equal
// kernels name the same kernel function. Every kernel argument is a buffer,
// passed in `args` order (OpenCL: kernel argument i; SPIR-V: `bindings`;
// PTX: parameter i, the buffer's bare device pointer).
// Temporary buffers are device-only, untyped storage planned by the compiler
// (Dialect/Kernel/Analysis/TemporaryPlan.h): temporaries whose lifetimes do not overlap
// share one buffer whatever their types, so kernels must run in order, each
// after the one before has finished. An output buffer may also be read by
// later kernels. Outputs are never inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_MANIFEST_H
#define TILEC_RUNTIME_MANIFEST_H

#include "tilec/Support/DType.h"
#include "tilec/Support/Result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilec::rt {

inline constexpr int kManifestVersion = 1;

enum class BufferRole { Input, Output, Temporary };
enum class Access { Read, Write, ReadWrite };

struct ManifestBuffer {
  int id = 0;
  BufferRole role = BufferRole::Temporary;
  std::string name;             ///< the program's name for inputs and outputs
  DType dtype = DType::F32;     ///< inputs and outputs (temporaries: unused)
  std::vector<int64_t> shape;   ///< inputs and outputs
  uint64_t bytes = 0;           ///< size on the device (>= 1)
};

/// An entry function parameter: its name and the buffer holding it.
struct ManifestValue {
  std::string name;
  int buffer = 0;
};

struct KernelArg {
  int buffer = 0;
  Access access = Access::Read;
};

/// SPIR-V only: where a buffer is bound.
struct KernelBinding {
  int set = 0;
  int binding = 0;
  int buffer = 0;
};

struct ManifestKernel {
  std::string name;                    ///< kernel function / entry point
  std::string fingerprint;             ///< 16 hex digits
  std::vector<std::string> statements; ///< "file:line" of the Tile statements
  std::vector<KernelArg> args;
  std::array<uint64_t, 3> global{1, 1, 1}; ///< total work-items per dim
  std::array<uint64_t, 3> local{1, 1, 1};  ///< work-group size per dim
  uint64_t flops = 0; ///< arithmetic operations of one launch
  uint64_t bytes = 0; ///< bytes read and written by one launch (unique)
  std::string spirvEntry;              ///< SPIR-V entry point name
  std::vector<KernelBinding> bindings; ///< SPIR-V descriptor bindings
  /// PTX only: the dynamic shared memory of one block, in bytes (the
  /// `.extern .shared` array), given to cuLaunchKernel.
  uint64_t dynamicSharedBytes = 0;
};

struct Manifest {
  std::string target;   ///< "opencl", "spirv" or "ptx"
  std::string artefact; ///< file name of the kernels, relative to the manifest
  std::string program;  ///< the .tile file it was compiled from
  std::string entry;
  std::string tilecVersion;
  std::string device;   ///< device id the code was specialised for, or ""
  std::vector<ManifestBuffer> buffers;
  std::vector<ManifestValue> inputs;
  std::vector<ManifestValue> outputs;
  std::vector<ManifestKernel> kernels;
  uint64_t peakTemporaryBytes = 0;

  const ManifestBuffer *findBuffer(int id) const;
  /// The input or output called `name`, or null.
  const ManifestValue *findValue(const std::string &name) const;
};

/// "kernel 'NAME'", how every runtime's message about a kernel starts.
std::string kernelWhere(const ManifestKernel &kernel);
/// kernelWhere followed by ": ".
std::string kernelPrefix(const ManifestKernel &kernel);
/// "buffer 3 ('X', 64 bytes)", how every runtime's message about a buffer
/// starts (the name only for an input or output).
std::string describeBuffer(const ManifestBuffer &buffer);
/// "[a, b, c]".
std::string sizesText(const std::array<uint64_t, 3> &sizes);
/// Work-groups to launch per dimension: global / local, rounded up (the
/// parser checked that local divides global).
std::array<uint64_t, 3> workGroupCounts(const ManifestKernel &kernel);

/// The manifest as JSON text (sorted, stable, 2-space indented).
std::string printManifest(const Manifest &manifest);
/// Parses and validates manifest JSON: every field checked (types, buffer ids
/// that exist, sizes matching shapes and dtypes, local dividing global, ...).
/// `name` is the file name used in messages.
Result<Manifest> parseManifest(const std::string &text,
                               const std::string &name);
/// Reads and parses a manifest file.
Result<Manifest> readManifest(const std::string &path);
/// Writes the manifest atomically (temporary file, then rename).
Status writeManifest(const std::string &path, const Manifest &manifest);

} // namespace tilec::rt

#endif // TILEC_RUNTIME_MANIFEST_H
