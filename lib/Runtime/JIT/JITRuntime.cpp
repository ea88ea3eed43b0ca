//===- JITRuntime.cpp - The host CPU as an rt::Runtime --------------------===//
//
// Loading parses the artefact in a context of its own and compiles it with
// JITProgram; the program keeps only the native code and the manifest, so it
// outlives the context, the runtime and the caller's module.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/JITRuntime.h"
#include "tilec/Runtime/HostCpuRuntime.h"
#include "tilec/Target/LLVM/LoopsToLLVM.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::rt;

namespace {

/// A loop-level program compiled for the host, run by manifest names.
class JITRuntimeProgram final : public Program {
public:
  JITRuntimeProgram(std::unique_ptr<JITProgram> compiled, Manifest manifest,
                    std::vector<TensorType> outputTypes)
      : compiled(std::move(compiled)), manifest(std::move(manifest)),
        outputTypes(std::move(outputTypes)) {}

  Status run(const std::map<std::string, Tensor> &inputs,
             std::map<std::string, Tensor> &outputs,
             std::vector<KernelTiming> *timings) override {
    // A promise covers the next run only, whatever becomes of it, and
    // addresses only those of a run that succeeded.
    bool promised = reusePromised;
    reusePromised = false;
    std::vector<const uint8_t *> previous = std::move(lastAddresses);
    lastAddresses.clear();
    if (Status checked = checkInputs(manifest, inputs); !checked)
      return checked;
    std::vector<const Tensor *> ordered;
    for (const ManifestValue &input : manifest.inputs)
      ordered.push_back(&inputs.at(input.name));
    // An output tensor of the right type left from an earlier run is
    // written again in place: a caller that runs many times (tilec bench)
    // neither allocates nor faults in its memory on every run.
    std::vector<Tensor> results;
    for (size_t i = 0; i < manifest.outputs.size(); ++i) {
      auto kept = outputs.find(manifest.outputs[i].name);
      if (kept != outputs.end() && kept->second.type == outputTypes[i])
        results.push_back(std::move(kept->second));
      else
        results.emplace_back(outputTypes[i]);
    }
    // Reused only as promised, and only where the tensor is where it was.
    llvm::SmallVector<bool> unchanged(ordered.size(), false);
    std::vector<const uint8_t *> addresses;
    for (size_t i = 0; i < ordered.size(); ++i) {
      addresses.push_back(ordered[i]->data.data());
      unchanged[i] = promised && i < previous.size() &&
                     previous[i] == addresses[i];
    }
    std::vector<double> seconds;
    if (llvm::Error error =
            compiled->runInto(ordered, results, &seconds, unchanged))
      return Status::error(llvm::toString(std::move(error)));
    lastAddresses = std::move(addresses);
    for (size_t i = 0; i < manifest.outputs.size(); ++i)
      outputs[manifest.outputs[i].name] = std::move(results[i]);
    if (timings)
      for (size_t k = 0; k < manifest.kernels.size(); ++k)
        timings->push_back({manifest.kernels[k].name, seconds[k]});
    return Status::success();
  }

  void reuseInputs() override { reusePromised = true; }

private:
  std::unique_ptr<JITProgram> compiled;
  Manifest manifest;
  std::vector<TensorType> outputTypes;
  /// Set by reuseInputs for the next run.
  bool reusePromised = false;
  /// Where the inputs of the last run that succeeded were.
  std::vector<const uint8_t *> lastAddresses;
};

/// The dtype and shape of each of the manifest's outputs, in order.
Result<std::vector<TensorType>> outputTypesOf(const Manifest &manifest) {
  std::vector<TensorType> types;
  for (const ManifestValue &output : manifest.outputs) {
    const ManifestBuffer *buffer = manifest.findBuffer(output.buffer);
    if (!buffer)
      return Result<std::vector<TensorType>>::error(
          "the manifest's output '" + output.name + "' has no buffer");
    types.push_back({buffer->dtype, buffer->shape});
  }
  return types;
}

/// The dialects of the loop level, which the artefact is written in, and
/// those the lowering to LLVM creates.
void registerArtefactDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  registerLoopsToLLVMDialects(registry);
}

class JITRuntime final : public HostCpuRuntime {
public:
  explicit JITRuntime(const JITOptions &options) : options(options) {
    this->options.timeKernels = true;
  }

  Result<std::unique_ptr<Program>> load(const std::string &deviceId,
                                        const Manifest &manifest,
                                        const std::string &artefact) override {
    using Loaded = Result<std::unique_ptr<Program>>;
    std::vector<DeviceInfo> host = devices();
    if (host.empty() || host.front().id != deviceId)
      return Loaded::error("no cpu device '" + deviceId + "'; the host is " +
                           (host.empty() ? "" : host.front().id));
    Result<std::vector<TensorType>> outputTypes = outputTypesOf(manifest);
    if (!outputTypes)
      return outputTypes.status();

    mlir::DialectRegistry registry;
    registerArtefactDialects(registry);
    mlir::MLIRContext context(registry);
    std::string diagnostics;
    llvm::raw_string_ostream diagStream(diagnostics);
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      diagStream << d.getLocation() << ": " << d << "\n";
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(artefact, &context,
                                                "<jit artefact>");
    if (!module)
      return Loaded::error("the JIT artefact is not a loop-level module:\n" +
                           diagnostics);

    auto compiled = JITProgram::compile(*module, "", options);
    if (!compiled)
      return Loaded::error(llvm::toString(compiled.takeError()));
    if ((*compiled)->timedKernelCount() != manifest.kernels.size())
      return Loaded::error(
          "internal error: " + std::to_string(manifest.kernels.size()) +
          " kernels, " + std::to_string((*compiled)->timedKernelCount()) +
          " timed");
    return std::unique_ptr<Program>(std::make_unique<JITRuntimeProgram>(
        std::move(*compiled), manifest, std::move(*outputTypes)));
  }

private:
  JITOptions options;
};

} // namespace

std::unique_ptr<Runtime>
tilec::rt::createJITRuntime(const JITOptions &options) {
  return std::make_unique<JITRuntime>(options);
}

Result<std::string> tilec::rt::writeJITArtefact(mlir::ModuleOp module) {
  std::string bytes;
  llvm::raw_string_ostream stream(bytes);
  if (mlir::failed(mlir::writeBytecodeToFile(module, stream)))
    return Result<std::string>::error(
        "internal error: the loop-level module could not be written as "
        "bytecode");
  return bytes;
}
