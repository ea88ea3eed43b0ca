//===- ProgramInputs.cpp - The inputs a program runs on -------------------===//
//
// Part of lib/Compiler; see ProgramInputs.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/ProgramInputs.h"

#include "tilec/Target/CompileError.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Support/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

using namespace tilec;
using namespace tilec::compiler;

/// The largest input the generator makes. The shapes come from the command
/// line, and a typo such as -D N=1000000 must give an error, not exhaust the
/// machine's memory.
static constexpr int64_t maxGeneratedBytes = int64_t(4) << 30;

/// The usage error for a --input that names no parameter of the entry.
static llvm::Error unknownInput(const InputFlag &flag,
                                const ast::Function &entry,
                                const std::string &entryName) {
  std::vector<std::string> names;
  for (const ast::Param &param : entry.params)
    names.push_back(param.name);
  std::string message = fmt::format("--input {}={}: {} has no parameter '{}'",
                                    flag.name, flag.path, entryName, flag.name);
  std::string suggestion = suggestName(flag.name, names);
  if (!suggestion.empty())
    message += fmt::format("; did you mean '{}'?", suggestion);
  else if (names.empty())
    message += "; it takes no parameters";
  else
    message += fmt::format("; its parameters are {}", fmt::join(names, ", "));
  return usageError(message);
}

llvm::Expected<std::map<std::string, InputFile>>
tilec::compiler::readInputFiles(const std::vector<InputFlag> &flags,
                              const ast::Function &entry,
                              const std::string &entryDisplayName) {
  std::vector<const ast::Param *> params;
  for (const InputFlag &flag : flags) {
    auto param = llvm::find_if(
        entry.params, [&](const ast::Param &p) { return p.name == flag.name; });
    if (param == entry.params.end())
      return unknownInput(flag, entry, entryDisplayName);
    params.push_back(&*param);
  }

  std::map<std::string, InputFile> files;
  for (auto [flag, param] : llvm::zip_equal(flags, params)) {
    // The declared type lets the reader accept numpy's raw '<V2' as bf16.
    Result<Tensor> tensor = readNpy(flag.path, param->dtype);
    if (!tensor)
      return inputError(tensor.message());
    files[flag.name] = InputFile{flag.path, std::move(*tensor)};
  }
  return files;
}

/// generateInput, after checking that the tensor is of a sane size.
static llvm::Expected<Tensor> generateChecked(const typed::Value &value,
                                              uint64_t seed,
                                              unsigned position) {
  int64_t elements = checkedNumElements(value.type.shape);
  int64_t elementBytes = dtypeBytes(value.type.dtype);
  if (elements < 0 || elements > maxGeneratedBytes / elementBytes)
    return runtimeError(fmt::format("input '{}' of type {} is too large to "
                                    "generate (limit {} GiB); give it with "
                                    "--input or bind smaller sizes",
                                    value.name, value.type.str(),
                                    maxGeneratedBytes >> 30));
  return generateInput(value.type, seed, position);
}

llvm::Expected<std::vector<Tensor>>
tilec::compiler::assembleInputs(const typed::Program &program,
                                std::map<std::string, InputFile> files,
                                uint64_t seed) {
  std::vector<Tensor> inputs;
  inputs.reserve(program.inputs.size());
  for (unsigned position = 0; position < program.inputs.size(); ++position) {
    const typed::Value &value = program.value(program.inputs[position]);
    auto file = files.find(value.name);
    if (file != files.end()) {
      inputs.push_back(std::move(file->second.tensor));
      continue;
    }
    llvm::Expected<Tensor> generated = generateChecked(value, seed, position);
    if (!generated)
      return generated.takeError();
    inputs.push_back(std::move(*generated));
  }
  return inputs;
}

llvm::Expected<ProgramWithInputs>
tilec::compiler::loadProgramWithInputs(ProgramLoader &loader,
                                       const std::vector<InputFlag> &flags,
                                       uint64_t seed) {
  llvm::Expected<const ast::Function &> entry = loader.parse();
  if (!entry)
    return entry.takeError();
  llvm::Expected<std::map<std::string, InputFile>> files =
      readInputFiles(flags, *entry, loader.entryDisplayName());
  if (!files)
    return files.takeError();
  loader.setInputFiles(std::move(*files));
  llvm::Expected<typed::Program> program = loader.bind();
  if (!program)
    return program.takeError();
  llvm::Expected<std::vector<Tensor>> inputs =
      assembleInputs(*program, loader.takeInputFiles(), seed);
  if (!inputs)
    return inputs.takeError();
  return ProgramWithInputs{std::move(*program), std::move(*inputs)};
}
