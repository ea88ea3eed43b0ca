//===- TuneFolder.h - The folder of remote tuning ---------------*- C++ -*-===//
//
// Remote tuning (docs/architecture.md) passes files, not connections: `tilec
// autotune --export-candidates DIR` writes the candidate kernels of a
// program with their index DIR/tune.json, `tilec-run --tune DIR` times them
// on the target machine into DIR/results.json, and `tilec autotune --import
// DIR` merges the best verified candidates into a schedule file. Both tools
// read and write these two files through this header (lib/Autotune), which
// links no LLVM, so the runtime-only build has it.
// docs/autotune.md is the reference of the format; in short:
//
// tune.json
//   {"format": "tilec-tune", "version": 1, "target": "opencl",
//    "device": "opencl:pocl:cpu-...:0", "program": "x.tile", "entry": "main",
//    "tilec_version": "...", "repeat": 5,
//    "inputs": {"A": "inputs/A.npy"}, "reference": {"C": "reference/C.npy"},
//    "kernels": [{"kernel": "matmul_C", "fingerprint": "026c...",
//                 "candidates": [{"id": "026c.../0",
//                                 "manifest": "026c.../0/kernels.json",
//                                 "schedule": {...}}, ...]}]}
//   Candidate 0 of each kernel is the cost model's own pick; a candidate's
//   program is the whole program with that schedule on that kernel.
// results.json
//   {"format": "tilec-tune-results", "version": 1, "device": "...",
//    "candidates": {"026c.../0": {"status": "ok", "seconds": [...],
//                                 "message": ""}, ...}}
//   status "ok": verified against the reference, `seconds` one time per
//   repeat (the mean launch time of the kernel's launches in that run);
//   "wrong": outputs differ from the reference; "failed": did not load or
//   run (message says why).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_AUTOTUNE_TUNEFOLDER_H
#define TILEC_AUTOTUNE_TUNEFOLDER_H

#include "tilec/Support/Result.h"

#include <map>
#include <string>
#include <vector>

namespace tilec::tune {

inline constexpr int kTuneFolderVersion = 1;
inline constexpr const char *kIndexFileName = "tune.json";
inline constexpr const char *kResultsFileName = "results.json";

/// One candidate schedule of one kernel, compiled into its own program.
struct CandidateEntry {
  std::string id;       ///< "FINGERPRINT/N", unique in the folder
  std::string manifest; ///< the launch manifest, relative to the folder
  /// The schedule as the schedule file's JSON object, kept as text so that
  /// this LLVM-free code need not know the schedule's fields.
  std::string scheduleJson;
};

/// One kernel (by fingerprint) and its candidates, best estimate first.
struct KernelEntry {
  std::string kernel;
  std::string fingerprint;
  std::vector<CandidateEntry> candidates;
};

/// DIR/tune.json.
struct TuneIndex {
  std::string target; ///< "opencl", "spirv" or "ptx"
  std::string device; ///< the device id the candidates were compiled for
  std::string program, entry, tilecVersion;
  unsigned repeat = 5;
  std::map<std::string, std::string> inputs;    ///< name -> .npy path
  std::map<std::string, std::string> reference; ///< output name -> .npy path
  std::vector<KernelEntry> kernels;
};

/// What measuring one candidate gave.
struct CandidateResult {
  enum class Status { Ok, Wrong, Failed };
  Status status = Status::Failed;
  std::vector<double> seconds; ///< one per repeat; Ok only
  std::string message;         ///< why Wrong or Failed
};

/// DIR/results.json.
struct TuneResults {
  std::string device;
  std::map<std::string, CandidateResult> candidates; ///< by candidate id
};

std::string printTuneIndex(const TuneIndex &index);
/// Parses and checks the index; `name` names the file in errors.
Result<TuneIndex> parseTuneIndex(const std::string &text,
                                 const std::string &name);
std::string printTuneResults(const TuneResults &results);
Result<TuneResults> parseTuneResults(const std::string &text,
                                     const std::string &name);

/// DIR/tune.json and DIR/results.json; the writes are atomic.
std::string indexPath(const std::string &dir);
std::string resultsPath(const std::string &dir);
Result<TuneIndex> readTuneIndex(const std::string &dir);
Status writeTuneIndex(const std::string &dir, const TuneIndex &index);
/// A missing results file is an empty result set (nothing measured yet).
Result<TuneResults> readTuneResults(const std::string &dir);
Status writeTuneResults(const std::string &dir, const TuneResults &results);

/// `relative` inside `dir`, refusing absolute paths and "..", so that a
/// folder from elsewhere cannot make a tool read or write outside it.
Result<std::string> pathInFolder(const std::string &dir,
                                 const std::string &relative);

/// The median of `values` (0 when empty).
double medianOf(std::vector<double> values);

} // namespace tilec::tune

#endif // TILEC_AUTOTUNE_TUNEFOLDER_H
