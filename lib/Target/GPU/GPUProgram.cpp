//===- GPUProgram.cpp - What the entry function of the gpu level does -----===//
//
// Part of lib/Target/GPU; see GPUProgram.h. Buffers are identified by
// the SSA value the entry function passes to a launch, so an argument that
// two launches share is one buffer, and a kernel that receives one buffer
// twice is told so (its arguments then may alias and lose `restrict`).
// Launches of one gpu.func (tilec-gpu-dedup-kernels merges equal kernels)
// share a kernel function when the code compiled for them is the same.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/GPU/GPUProgram.h"
#include "tilec/Target/GPU/Identifiers.h"
#include "tilec/Target/GPU/Statements.h"

#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace mlir;
using namespace tilec;
using namespace tilec::gpuprogram;

uint64_t gpuprogram::elementBytes(Type elementType) {
  if (auto vector = dyn_cast<VectorType>(elementType))
    return vector.getNumElements() * elementBytes(vector.getElementType());
  unsigned bits = elementType.isIndex() ? 64 : elementType.getIntOrFloatBitWidth();
  return std::max(1u, bits / 8);
}

uint64_t gpuprogram::workgroupBytes(gpu::GPUFuncOp kernel) {
  uint64_t bytes = 0;
  for (BlockArgument attribution : kernel.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    bytes = llvm::alignTo(bytes, 16) +
            uint64_t(type.getNumElements()) * elementBytes(type.getElementType());
  }
  return bytes;
}

uint64_t gpuprogram::dynamicSharedBytes(gpu::GPUFuncOp kernel) {
  uint64_t bytes = workgroupBytes(kernel);
  return bytes > kMaxStaticSharedBytes ? bytes : 0;
}

/// The entry function: the one marked tilec.entry.
static FailureOr<func::FuncOp> findEntry(ModuleOp module) {
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!kernel::Entry(module.getContext()).isAttrPresent(func))
      continue;
    if (entry)
      return func.emitError("more than one function is marked ")
             << kernel::Entry::getNameStr();
    entry = func;
  }
  if (!entry)
    return module.emitError("no entry function: the gpu level needs a "
                            "func.func marked ")
           << kernel::Entry::getNameStr();
  return entry;
}

/// A statically shaped memref with a strided layout, or an error on `op`.
static LogicalResult checkBufferType(Operation *op, Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return op->emitError("expected a memref, found ") << type;
  if (!memref.hasStaticShape() || !memref.isLastDimUnitStride())
    return op->emitError("buffers must have a static shape and a row-major "
                         "layout, found ")
           << type;
  return success();
}

static uint64_t bufferBytes(MemRefType type) {
  return std::max<uint64_t>(1, type.getNumElements() *
                                   elementBytes(type.getElementType()));
}

namespace {
/// Builds a GPUProgram from the entry function's ops.
class ProgramBuilder {
public:
  explicit ProgramBuilder(func::FuncOp entry) { program.entry = entry; }

  FailureOr<GPUProgram> build() {
    if (failed(addEntryArguments()))
      return failure();
    for (Operation &op : program.entry.getBody().getOps())
      if (failed(visit(op)))
        return failure();
    groupLaunches();
    return std::move(program);
  }

private:
  LogicalResult addEntryArguments();
  LogicalResult visit(Operation &op);
  LogicalResult addLaunch(gpu::LaunchFuncOp launch);
  void groupLaunches();
  FailureOr<std::array<uint64_t, 3>> sizes(gpu::LaunchFuncOp launch,
                                           gpu::KernelDim3 dims);
  std::string uniqueName(StringRef name);

  LogicalResult addConstant(memref::GetGlobalOp get);

  GPUProgram program;
  llvm::DenseMap<Value, int> bufferOf;
  llvm::DenseMap<Value, int> constantOf; ///< index into program.constants
  llvm::StringSet<> kernelNames;
};
} // namespace

LogicalResult ProgramBuilder::addEntryArguments() {
  func::FuncOp entry = program.entry;
  MLIRContext *context = entry.getContext();
  auto inputs = kernel::InputNames(context).getAttr(entry);
  auto outputs = kernel::OutputNames(context).getAttr(entry);
  if (!inputs || !outputs ||
      inputs.size() + outputs.size() != entry.getNumArguments())
    return entry.emitError("the entry function needs ")
           << kernel::InputNames::getNameStr() << " and "
           << kernel::OutputNames::getNameStr() << " naming each argument";
  if (entry.getNumResults() != 0)
    return entry.emitError("the entry function must return nothing at the "
                           "gpu level (outputs are arguments)");
  for (auto [index, arg] : llvm::enumerate(entry.getArguments())) {
    if (failed(checkBufferType(entry, arg.getType())))
      return failure();
    bool isInput = index < inputs.size();
    auto name = dyn_cast<StringAttr>(
        isInput ? inputs[index] : outputs[index - inputs.size()]);
    if (!name)
      return entry.emitError()
             << kernel::InputNames::getNameStr() << " and "
             << kernel::OutputNames::getNameStr() << " must hold strings";
    auto type = cast<MemRefType>(arg.getType());
    bufferOf[arg] = program.buffers.size();
    program.buffers.push_back(
        {isInput ? rt::BufferRole::Input : rt::BufferRole::Output,
         name.str(), type, bufferBytes(type), arg});
  }
  return success();
}

LogicalResult ProgramBuilder::visit(Operation &op) {
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
    return addLaunch(launch);
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    if (failed(checkBufferType(alloc, alloc.getType())))
      return failure();
    bufferOf[alloc] = program.buffers.size();
    program.buffers.push_back({rt::BufferRole::Temporary, "", alloc.getType(),
                               bufferBytes(alloc.getType()), alloc});
    return success();
  }
  if (auto get = dyn_cast<memref::GetGlobalOp>(op))
    return addConstant(get);
  // Constants feed work sizes and by-value arguments; deallocation and the
  // return need no code on the host side of the manifest.
  if (isa<arith::ConstantOp, memref::DeallocOp, func::ReturnOp>(op))
    return success();
  return op.emitError("unsupported operation in the entry function at the "
                      "gpu level: it may only allocate buffers and launch "
                      "kernels");
}

LogicalResult ProgramBuilder::addConstant(memref::GetGlobalOp get) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  auto value = global ? dyn_cast_or_null<DenseElementsAttr>(
                            global.getInitialValueAttr())
                      : DenseElementsAttr();
  if (!global || !global.getConstant() || !value ||
      failed(checkBufferType(get, get.getType())))
    return get.emitError("only constant globals with a value can be used by "
                         "kernels");
  for (auto [index, constant] : llvm::enumerate(program.constants))
    if (constant.global == global) {
      constantOf[get] = index;
      return success();
    }
  constantOf[get] = program.constants.size();
  program.constants.push_back(
      {global, "const_" + std::to_string(program.constants.size())});
  return success();
}

FailureOr<std::array<uint64_t, 3>>
ProgramBuilder::sizes(gpu::LaunchFuncOp launch, gpu::KernelDim3 dims) {
  std::array<uint64_t, 3> result;
  Value values[3] = {dims.x, dims.y, dims.z};
  for (int i = 0; i < 3; ++i) {
    APInt size;
    if (!matchPattern(values[i], m_ConstantInt(&size)) || size.isNegative() ||
        size.isZero())
      return launch.emitError("work sizes must be positive constants");
    result[i] = size.getZExtValue();
  }
  return result;
}

std::string ProgramBuilder::uniqueName(StringRef name) {
  std::string base = clIdentifier(name), candidate = base;
  for (int suffix = 1; !kernelNames.insert(candidate).second; ++suffix)
    candidate = base + "_" + std::to_string(suffix);
  return candidate;
}

/// How `kernel` uses its memref argument `arg`, from the memory effects of
/// its users, or failure (reported) for a use that is neither.
static FailureOr<rt::Access> accessOf(BlockArgument arg) {
  bool reads = false, writes = false;
  for (Operation *user : arg.getUsers()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return user->emitError("unsupported use of a kernel buffer argument");
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffectsOnValue(arg, instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      reads |= isa<MemoryEffects::Read>(instance.getEffect());
      writes |= isa<MemoryEffects::Write>(instance.getEffect());
    }
  }
  if (reads && writes)
    return rt::Access::ReadWrite;
  return writes ? rt::Access::Write : rt::Access::Read;
}

LogicalResult ProgramBuilder::addLaunch(gpu::LaunchFuncOp launch) {
  auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
      launch, launch.getKernel());
  if (!kernel || !kernel.isKernel())
    return launch.emitError("launches ")
           << launch.getKernel() << ", which is no gpu.func kernel";
  if (launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
      launch.getAsyncObject() || !launch.getAsyncDependencies().empty())
    return launch.emitError("clusters, dynamic shared memory and "
                            "asynchronous launches are not supported");
  KernelLaunch result;
  result.op = launch;
  result.kernel = kernel;
  auto grid = sizes(launch, launch.getGridSizeOperandValues());
  auto block = sizes(launch, launch.getBlockSizeOperandValues());
  if (failed(grid) || failed(block))
    return failure();
  result.grid = *grid;
  result.block = *block;
  if (launch.getKernelOperands().size() != kernel.getNumArguments())
    return launch.emitError("passes ")
           << launch.getKernelOperands().size() << " arguments to a kernel "
           << "taking " << kernel.getNumArguments();

  llvm::DenseMap<int, int> uses;
  for (auto [operand, arg] :
       llvm::zip(launch.getKernelOperands(), kernel.getArguments())) {
    LaunchArg launchArg;
    if (auto constant = constantOf.find(operand); constant != constantOf.end()) {
      auto access = accessOf(arg);
      if (failed(access))
        return failure();
      if (*access != rt::Access::Read)
        return launch.emitError("a kernel writes to a constant tensor");
      launchArg.constantArray = constant->second;
    } else if (isa<MemRefType>(operand.getType())) {
      auto found = bufferOf.find(operand);
      if (found == bufferOf.end())
        return launch.emitError("a kernel buffer must be an argument of the "
                                "entry function or a memref.alloc");
      auto access = accessOf(arg);
      if (failed(access))
        return failure();
      launchArg.buffer = found->second;
      launchArg.access = *access;
      ++uses[launchArg.buffer];
    } else if (!matchPattern(operand, m_Constant(&launchArg.constant))) {
      return launch.emitError("a kernel argument that is no buffer must be a "
                              "constant");
    }
    result.args.push_back(launchArg);
  }
  for (LaunchArg &arg : result.args)
    arg.aliased = arg.buffer >= 0 && uses[arg.buffer] > 1;
  program.launches.push_back(std::move(result));
  return success();
}

/// Whether `a` and `b` compile to the same code when they launch the same
/// gpu.func: the same work-group size, and the same constants bound to the
/// same arguments.
static bool sameCode(const KernelLaunch &a, const KernelLaunch &b) {
  if (a.kernel != b.kernel || a.block != b.block)
    return false;
  for (auto [x, y] : llvm::zip(a.args, b.args))
    if ((x.buffer < 0) != (y.buffer < 0) ||
        x.constantArray != y.constantArray || x.constant != y.constant)
      return false;
  return true;
}

void ProgramBuilder::groupLaunches() {
  llvm::DenseMap<Operation *, unsigned> launchesOf;
  for (const KernelLaunch &launch : program.launches)
    ++launchesOf[launch.kernel];
  std::vector<KernelFunction> &functions = program.functions;
  for (size_t index = 0; index < program.launches.size(); ++index) {
    KernelLaunch &launch = program.launches[index];
    auto function = llvm::find_if(functions, [&](const KernelFunction &f) {
      return sameCode(program.launches[f.launches.front()], launch);
    });
    if (function == functions.end()) {
      functions.push_back({uniqueName(launch.kernel.getName()), {}});
      function = std::prev(functions.end());
    }
    function->launches.push_back(index);
    launch.function = function - functions.begin();
    launch.name = function->name;
    // A shared gpu.func holds the locations of one of its launches; each
    // launch has its own on its op (tilec-gpu-dedup-kernels).
    launch.statements = tileStatements(
        launchesOf[launch.kernel] > 1 ? launch.op.getOperation()
                                      : launch.kernel.getOperation());
  }
  // One signature serves every launch of a function: an argument that may
  // alias in one launch may in all.
  for (const KernelFunction &function : functions) {
    std::vector<bool> aliased(
        program.launches[function.launches.front()].args.size());
    for (size_t launch : function.launches)
      for (auto [index, arg] : llvm::enumerate(program.launches[launch].args))
        aliased[index] = aliased[index] || arg.aliased;
    for (size_t launch : function.launches)
      for (auto [index, arg] : llvm::enumerate(program.launches[launch].args))
        arg.aliased = aliased[index];
  }
}

FailureOr<GPUProgram> gpuprogram::analyzeGPUProgram(ModuleOp module) {
  auto entry = findEntry(module);
  if (failed(entry))
    return failure();
  return ProgramBuilder(*entry).build();
}

std::string gpuprogram::functionStatements(const GPUProgram &program,
                                           const KernelFunction &function) {
  std::set<std::string> statements;
  for (size_t index : function.launches) {
    const KernelLaunch &launch = program.launches[index];
    statements.insert(launch.statements.begin(), launch.statements.end());
  }
  if (statements.empty())
    return "(no source location)";
  return llvm::join(statements, ", ");
}

/// The name of buffer `index` of `program`: in_NAME, out_NAME or tmp_N.
static std::string bufferName(const GPUProgram &program, int index) {
  const ProgramBuffer &buffer = program.buffers[index];
  switch (buffer.role) {
  case rt::BufferRole::Input:
    return "in_" + clIdentifier(buffer.name);
  case rt::BufferRole::Output:
    return "out_" + clIdentifier(buffer.name);
  case rt::BufferRole::Temporary:
    break;
  }
  int first = 0;
  while (program.buffers[first].role != rt::BufferRole::Temporary)
    ++first;
  return "tmp_" + std::to_string(index - first);
}

std::string gpuprogram::kernelArgumentName(const GPUProgram &program,
                                           const KernelFunction &function,
                                           size_t arg) {
  int buffer = program.launches[function.launches.front()].args[arg].buffer;
  for (size_t launch : function.launches)
    if (program.launches[launch].args[arg].buffer != buffer)
      return "arg_" + std::to_string(arg);
  return bufferName(program, buffer);
}
