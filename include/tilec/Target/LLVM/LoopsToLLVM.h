//===- LoopsToLLVM.h - Loop-level MLIR to the LLVM dialect ------*- C++ -*-===//
//
// The first half of the CPU back end: the choices of the pass pipeline
// (lib/Pipelines/LLVMPipeline.cpp) that takes the loop level of
// docs/architecture.md (one func.func over memrefs, affine/scf loops, arith,
// math) to the LLVM dialect, the dialects it needs, and the entry function's
// C ABI. Kernels are tiled and vectorised by their schedules first (a
// default one where none is given). Outer parallel loops become OpenMP
// parallel loops; memref arguments use the bare-pointer calling convention,
// so the entry function takes plain pointers in header order (the C ABI of
// model.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_LLVM_LOOPSTOLLVM_H
#define TILEC_TARGET_LLVM_LOOPSTOLLVM_H

#include "tilec/Schedule/CPUDefaultSchedule.h"
#include "tilec/Target/LLVM/CHeader.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class ModuleOp;
class Value;
} // namespace mlir

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace tilec {

/// The values of a byte of `<entry>_changed_inputs`, one per input of a
/// CPU program (tilec-cpu-keep-packed-inputs): what a call does with the
/// panels its kernels pack from that input. The value at load keeps the
/// code reentrant: each call packs into memory of its own.
enum KeptPanelsByte : uint8_t {
  /// Reuse the kept panels, packed by an earlier call from the same input,
  /// unchanged since.
  kReusePanels = 0,
  /// Pack into memory of the call's own (the value at load).
  kOwnPanels = 1,
  /// Pack into the kept panels, for later calls to reuse.
  kKeepPanels = 2,
};

/// Choices of the loops-to-LLVM pipeline (buildLoopsToLLVMPipeline in
/// tilec/Pipelines/Pipelines.h).
struct LoopsToLLVMOptions {
  /// Run outermost parallel loops on all cores through OpenMP (libomp).
  bool parallel = true;
  /// Give every kernel a default CPU schedule (cost model, host facts) and
  /// apply the schedules: cache tiles, register tiles, vectors.
  bool schedule = true;
  /// The CPU the default schedules are made for; the host when unset.
  /// CPUCodeGen (tilec/Pipelines/CPUCodeGen.h) sets it from the machine it
  /// generates code for, so the two agree.
  std::optional<schedule::CPUFacts> cpu;
  /// The kernels were already formed (buildCPUKernelFormation ran): the
  /// JIT times each kernel, so it marks them between the two.
  bool kernelsFormed = false;
};

/// Adds the dialects the pipeline creates and their LLVM IR translations.
void registerLoopsToLLVMDialects(mlir::DialectRegistry &registry);

/// Prepares the entry function `entry` of a loop-level module for the C ABI:
/// renames it to `symbol` (when not empty) and marks every memref argument
/// noalias (inputs and outputs are distinct buffers, which lets LLVM
/// vectorise without runtime overlap checks). Fails with a diagnostic on the
/// function when it is missing or does not have the loop-level form (memref
/// arguments only, no results).
llvm::LogicalResult prepareEntryFunction(mlir::ModuleOp module,
                                         llvm::StringRef entry,
                                         llvm::StringRef symbol);

/// The entry function of a loop-level module: the one with the
/// `tilec.entry` attribute, else the only function definition, else "".
std::string findEntryFunction(mlir::ModuleOp module);

/// How many bytes `<entry>_changed_inputs` has (KeptPanelsByte, one per
/// input): the inputs `entry` names if it carries `tilec.entry`, else 0
/// (no such global).
size_t keptPanelFlagCount(mlir::func::FuncOp entry);

/// The number of the program input that `value` is, if it is one: an
/// argument of `entry` among the first keptPanelFlagCount(entry).
std::optional<unsigned> programInputNumber(mlir::func::FuncOp entry,
                                           mlir::Value value);

/// The parameters of a loop-level entry function (memref arguments, the
/// program's inputs then its outputs): named by its tilec.input_names and
/// tilec.output_names, else `argN` with the last `unnamedOutputs` arguments
/// as outputs; typed by `inputDTypes`/`outputDTypes` where given (the typed
/// program's, which know signedness), else by the element types, integers
/// read as signed.
std::vector<CHeaderParam> entryParams(mlir::func::FuncOp entry,
                                      llvm::ArrayRef<DType> inputDTypes = {},
                                      llvm::ArrayRef<DType> outputDTypes = {},
                                      unsigned unnamedOutputs = 1);

} // namespace tilec

#endif // TILEC_TARGET_LLVM_LOOPSTOLLVM_H
