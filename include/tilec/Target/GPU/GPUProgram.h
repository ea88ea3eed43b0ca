//===- GPUProgram.h - What the entry function of the gpu level does -*- C++ -*-===//
//
// Part of lib/Target/GPU, shared by every GPU backend. The emitters (OpenCL
// C) and the manifest builder (every GPU target) need the same facts about
// a gpu-level module: which buffers exist (inputs and
// outputs of the entry function, memref.alloc temporaries), which kernels
// are launched in which order with which work sizes, and how each kernel
// argument is used. analyzeGPUProgram computes them once and checks every
// assumption the two rely on.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_GPU_GPUPROGRAM_H
#define TILEC_TARGET_GPU_GPUPROGRAM_H

#include "tilec/Runtime/Manifest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <string>
#include <vector>

namespace tilec::gpuprogram {

/// A buffer of the program: an entry argument or a temporary.
struct ProgramBuffer {
  rt::BufferRole role = rt::BufferRole::Temporary;
  std::string name; ///< the Tile name of an input or output, else ""
  mlir::MemRefType type;
  uint64_t bytes = 1;
  mlir::Value value; ///< the entry argument or the memref.alloc result
};

/// A constant tensor (memref.global constant): a `__constant` array of the
/// OpenCL program, since the manifest passes no data.
struct ProgramConstant {
  mlir::memref::GlobalOp global;
  std::string name; ///< the array's C name
};

/// One argument of a launched kernel: a buffer, a constant tensor, or a
/// constant the kernel receives by value (then written inline).
struct LaunchArg {
  int buffer = -1;        ///< index into GPUProgram::buffers, or -1
  int constantArray = -1; ///< index into GPUProgram::constants, or -1
  mlir::TypedAttr constant;
  rt::Access access = rt::Access::Read; ///< buffers only
  /// The buffer is passed to this kernel twice, in this launch or another
  /// launch of the same kernel function: the argument may alias another.
  bool aliased = false;
};

/// One gpu.launch_func of the entry function.
struct KernelLaunch {
  mlir::gpu::LaunchFuncOp op;
  mlir::gpu::GPUFuncOp kernel;
  std::string name; ///< the C name of its kernel function
  size_t function = 0; ///< index into GPUProgram::functions
  /// "file:line" of the Tile statements this launch computes.
  std::vector<std::string> statements;
  std::array<uint64_t, 3> grid{1, 1, 1};  ///< work-groups per dimension
  std::array<uint64_t, 3> block{1, 1, 1}; ///< work-items per work-group
  std::vector<LaunchArg> args;            ///< one per gpu.func argument
};

/// One kernel function of the program. The launches of one gpu.func that
/// agree on what the kernel's code is compiled with (the work-group size,
/// the constants bound to arguments) share one; their buffers may differ.
struct KernelFunction {
  std::string name; ///< a C identifier, unique in the program
  std::vector<size_t> launches; ///< indices into GPUProgram::launches
};

struct GPUProgram {
  mlir::func::FuncOp entry;
  std::vector<ProgramBuffer> buffers; ///< inputs, outputs, then temporaries
  std::vector<ProgramConstant> constants; ///< constant tensors used
  std::vector<KernelLaunch> launches; ///< in launch order
  std::vector<KernelFunction> functions; ///< in order of first launch
};

/// Analyses `module`. Fails, with an error on the offending op, when the
/// module is not at the gpu level as Pipelines.h describes it: no entry
/// function (attribute tilec.entry), an entry function doing more than
/// allocating buffers, taking constant tensors (memref.get_global of a
/// constant global) and launching kernels, dynamic shapes, non-constant
/// work sizes, or a kernel argument used in a way that is neither a read
/// nor a write.
mlir::FailureOr<GPUProgram> analyzeGPUProgram(mlir::ModuleOp module);

/// The Tile statements every launch of `function` computes, as the comment
/// above a kernel in the source targets names them ("file:line, ..."), or
/// "(no source location)".
std::string functionStatements(const GPUProgram &program,
                               const KernelFunction &function);

/// The source name of argument `arg` of `function` in the source targets:
/// its buffer's (in_NAME, out_NAME or tmp_N) when every launch passes the
/// same buffer, else arg_N.
std::string kernelArgumentName(const GPUProgram &program,
                               const KernelFunction &function, size_t arg);

/// Storage bytes of one element of a memref: i1 takes a byte.
uint64_t elementBytes(mlir::Type elementType);

/// The shared memory a CUDA kernel may declare statically; beyond it a
/// block opts in to dynamic shared memory.
constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;
/// The bytes of `kernel`'s workgroup attributions laid out one after the
/// other, each at a multiple of 16 bytes.
uint64_t workgroupBytes(mlir::gpu::GPUFuncOp kernel);
/// The dynamic shared memory a PTX launch of `kernel` gives it: its
/// workgroup attributions when they exceed kMaxStaticSharedBytes
/// (tilec-ptx-dynamic-shared-memory moves them there), else 0.
uint64_t dynamicSharedBytes(mlir::gpu::GPUFuncOp kernel);

} // namespace tilec::gpuprogram

#endif // TILEC_TARGET_GPU_GPUPROGRAM_H
