//===- LLVMBackend.cpp - The llvm-x86 target ------------------------------===//
//
// The CPU backend as the registry sees it (Target/TargetBackend.h): the
// scheduled loop level lowered through the LLVM dialect to an x86-64 object
// file and its C header (CPUCompile.h, CHeader.h) for the CPU of the
// request, or, for its runtime, kept as MLIR bytecode that the host JIT
// compiles when it loads it (Runtime/JITRuntime.h).
//
// The entry symbol of an object is the output file's stem
// (cSymbolForOutput), since a Tile entry is often `main`, which C reserves.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/LLVM/LLVMBackend.h"
#include "tilec/Dialect/Kernel/IR/KernelDialect.h"
#include "tilec/Pipelines/CPUCodeGen.h"
#include "tilec/Runtime/JITRuntime.h"
#include "tilec/Target/CompileError.h"
#include "tilec/Target/LLVM/CHeader.h"
#include "tilec/Target/LLVM/CPUCompile.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"
#include "tilec/Target/TargetBackend.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace tilec;

namespace {

CPUCodeGenOptions codeGenOptions(const ArtefactRequest &request) {
  CPUCodeGenOptions options;
  options.cpu = request.cpu;
  options.optLevel = request.optLevel;
  return options;
}

/// The entry function `module` has; an error on the module otherwise.
llvm::Expected<mlir::func::FuncOp> entryOf(mlir::ModuleOp module) {
  std::string name = findEntryFunction(module);
  if (!name.empty())
    if (auto entry = module.lookupSymbol<mlir::func::FuncOp>(name))
      return entry;
  return runtimeError(
      "internal error: the loop level has no usable entry function");
}

/// What the JIT runtime reads of a manifest (Runtime/JITRuntime.h): the
/// program's inputs and outputs with their types, and its kernels (the
/// kernel nests of the entry) in launch order.
rt::Manifest jitManifest(mlir::func::FuncOp entry,
                         const ManifestContext &context) {
  rt::Manifest manifest;
  manifest.target = context.target;
  manifest.artefact = "<memory>";
  for (const CHeaderParam &param :
       entryParams(entry, context.inputDTypes, context.outputDTypes)) {
    rt::ManifestBuffer buffer;
    buffer.id = static_cast<int>(manifest.buffers.size());
    buffer.role = param.isOutput ? rt::BufferRole::Output : rt::BufferRole::Input;
    buffer.name = param.name;
    buffer.dtype = param.dtype;
    buffer.shape = param.shape;
    int64_t elements = 1;
    for (int64_t extent : param.shape)
      elements *= extent;
    buffer.bytes = static_cast<uint64_t>(elements) * dtypeBytes(param.dtype);
    (param.isOutput ? manifest.outputs : manifest.inputs)
        .push_back({param.name, buffer.id});
    manifest.buffers.push_back(std::move(buffer));
  }
  mlir::MLIRContext *mlirContext = entry->getContext();
  for (mlir::Operation &op : entry.getBody().front()) {
    auto name = kernel::KernelName(mlirContext).getAttr(&op);
    if (!name)
      continue;
    rt::ManifestKernel kernel;
    kernel.name = name.str();
    if (auto fingerprint = kernel::Fingerprint(mlirContext).getAttr(&op))
      kernel.fingerprint = fingerprint.str();
    manifest.kernels.push_back(std::move(kernel));
  }
  return manifest;
}

class LLVMBackend : public TargetBackend {
public:
  llvm::StringRef name() const override { return "llvm-x86"; }
  llvm::ArrayRef<llvm::StringRef> aliases() const override { return names; }
  BackendKind kind() const override { return BackendKind::CPU; }
  llvm::StringRef runtime() const override { return "cpu"; }
  llvm::StringRef artefactExtension() const override { return ".o"; }
  llvm::ArrayRef<EmitStage> emitStages() const override { return stages; }
  llvm::StringRef codeGenStageName() const override { return "machine code"; }
  /// -O is the level of this backend's code.
  llvm::StringRef optLevelIgnoredReason() const override { return ""; }

  void registerDialects(mlir::DialectRegistry &registry) const override {
    registerLoopsToLLVMDialects(registry);
  }

  llvm::Error checkRequest(const ArtefactRequest &request) const override {
    auto codegen = CPUCodeGen::create(codeGenOptions(request));
    if (!codegen)
      return usageError(llvm::toString(codegen.takeError()));
    return llvm::Error::success();
  }

  llvm::Expected<Artefact>
  serialize(mlir::ModuleOp module,
            const ArtefactRequest &request) const override {
    llvm::Expected<mlir::func::FuncOp> entry = entryOf(module);
    if (!entry)
      return entry.takeError();
    if (request.forRuntime)
      return jitArtefact(module, *entry, request.context);
    std::string symbol = cSymbolForOutput(request.outputPath);
    llvm::Expected<std::string> object =
        code(module, request, symbol, CPUOutput::Object);
    if (!object)
      return object.takeError();
    Artefact artefact;
    artefact.bytes = std::move(*object);
    if (!request.outputPath.empty() && request.outputPath != "-")
      artefact.sideFiles.push_back(header(*entry, request, symbol));
    return artefact;
  }

  /// --emit=llvm and --emit=asm: the code for no file, so its entry is
  /// named as cSymbolForOutput names stdout's.
  llvm::Error printStage(llvm::StringRef stage, mlir::ModuleOp module,
                         const ArtefactRequest &request,
                         llvm::raw_ostream &os) const override {
    if (!emits(stage))
      return TargetBackend::printStage(stage, module, request, os);
    llvm::Expected<std::string> text =
        code(module, request, cSymbolForOutput(""),
             stage == "llvm" ? CPUOutput::LLVMIR : CPUOutput::Assembly);
    if (!text)
      return text.takeError();
    os << *text;
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<CacheKeyField>>
  cacheKeyFields(const ArtefactRequest &request) const override {
    auto codegen = CPUCodeGen::create(codeGenOptions(request));
    if (!codegen)
      return usageError(llvm::toString(codegen.takeError()));
    const llvm::TargetMachine &machine = codegen->getMachine();
    return std::vector<CacheKeyField>{
        {"triple", machine.getTargetTriple().str()},
        {"cpu", machine.getTargetCPU().str()},
        {"features", machine.getTargetFeatureString().str()},
        {"opt", std::to_string(request.optLevel)},
        {"symbol", cSymbolForOutput(request.outputPath)}};
  }

  std::unique_ptr<rt::Runtime> createRuntime(unsigned optLevel) const override {
    JITOptions options;
    options.optLevel = optLevel;
    return rt::createJITRuntime(options);
  }

private:
  /// `output` of a copy of `module` whose entry is called `symbol`.
  static llvm::Expected<std::string> code(mlir::ModuleOp module,
                                          const ArtefactRequest &request,
                                          llvm::StringRef symbol,
                                          CPUOutput output) {
    auto codegen = CPUCodeGen::create(codeGenOptions(request));
    if (!codegen)
      return usageError(llvm::toString(codegen.takeError()));
    mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
    if (mlir::failed(
            prepareEntryFunction(*copy, findEntryFunction(*copy), symbol)))
      return inputError();
    return generateCPUCode(*module.getContext(), *copy, *codegen, output);
  }

  /// model.h beside model.o.
  static SideFile header(mlir::func::FuncOp entry,
                         const ArtefactRequest &request,
                         llvm::StringRef symbol) {
    llvm::SmallString<128> path(request.outputPath);
    llvm::sys::path::replace_extension(path, ".h");
    SideFile file{path.str().str(), ""};
    llvm::raw_string_ostream os(file.bytes);
    llvm::StringRef source = request.context.program;
    writeCHeader(os, symbol,
                 source == "<stdin>" ? source
                                     : llvm::sys::path::filename(source),
                 entryParams(entry, request.context.inputDTypes,
                             request.context.outputDTypes),
                 keptPanelFlagCount(entry));
    return file;
  }

  /// The loop level as MLIR bytecode with the manifest the JIT reads.
  static llvm::Expected<Artefact> jitArtefact(mlir::ModuleOp module,
                                              mlir::func::FuncOp entry,
                                              const ManifestContext &context) {
    Result<std::string> bytecode = rt::writeJITArtefact(module);
    if (!bytecode)
      return runtimeError(bytecode.message());
    Artefact artefact;
    artefact.bytes = std::move(*bytecode);
    artefact.manifest = jitManifest(entry, context);
    return artefact;
  }

  static constexpr llvm::StringRef names[] = {"llvm"};
  static constexpr EmitStage stages[] = {{"llvm", "loops"}, {"asm", "loops"}};
};

} // namespace

void tilec::registerLLVMBackend() {
  registerTargetBackend(std::make_unique<LLVMBackend>());
}
