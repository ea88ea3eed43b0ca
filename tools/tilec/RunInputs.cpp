//===- RunInputs.cpp - The inputs of `tilec run` --------------------------===//
//
// Part of the tilec driver; see RunInputs.h.
//
//===----------------------------------------------------------------------===//

#include "RunInputs.h"
#include "DriverError.h"

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Interp/Interpreter.h"
#include "tilec/Support/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

using namespace tilec;
using namespace tilec::driver;
using namespace tilec::compiler;

/// The largest input the generator makes. The shapes come from the command
/// line, and a typo such as -D N=1000000 must give an error, not exhaust the
/// machine's memory.
static constexpr int64_t maxGeneratedBytes = int64_t(4) << 30;

std::vector<InputFlag>
tilec::driver::parseInputFlags(const std::vector<std::string> &flags) {
  std::vector<InputFlag> parsed;
  std::set<std::string> seen;
  for (const std::string &flag : flags) {
    auto [name, path] = llvm::StringRef(flag).split('=');
    if (name.empty() || path.empty())
      failUsage(
          fmt::format("--input '{}' is not of the form NAME=FILE.npy", flag));
    if (!seen.insert(name.str()).second)
      failUsage(fmt::format("--input gives '{}' twice", name.str()));
    parsed.push_back({name.str(), path.str()});
  }
  return parsed;
}

/// The usage error for a --input that names no parameter of the entry.
[[noreturn]] static void failUnknownInput(const InputFlag &flag,
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
  failUsage(message);
}

std::map<std::string, InputFile>
tilec::driver::readInputFiles(const std::vector<InputFlag> &flags,
                              const ast::Function &entry,
                              const std::string &entryDisplayName) {
  std::vector<const ast::Param *> params;
  for (const InputFlag &flag : flags) {
    auto param = llvm::find_if(
        entry.params, [&](const ast::Param &p) { return p.name == flag.name; });
    if (param == entry.params.end())
      failUnknownInput(flag, entry, entryDisplayName);
    params.push_back(&*param);
  }

  std::map<std::string, InputFile> files;
  for (auto [flag, param] : llvm::zip_equal(flags, params)) {
    // The declared type lets the reader accept numpy's raw '<V2' as bf16.
    Result<Tensor> tensor = readNpy(flag.path, param->dtype);
    if (!tensor)
      failInput(tensor.message());
    files[flag.name] = InputFile{flag.path, std::move(*tensor)};
  }
  return files;
}

/// generateInput, after checking that the tensor is of a sane size.
static Tensor generateChecked(const typed::Value &value, uint64_t seed,
                              unsigned position) {
  int64_t elements = checkedNumElements(value.type.shape);
  int64_t elementBytes = dtypeBytes(value.type.dtype);
  if (elements < 0 || elements > maxGeneratedBytes / elementBytes)
    failRuntime(fmt::format("input '{}' of type {} is too large to generate "
                            "(limit {} GiB); give it with --input or bind "
                            "smaller sizes",
                            value.name, value.type.str(),
                            maxGeneratedBytes >> 30));
  return generateInput(value.type, seed, position);
}

std::vector<Tensor>
tilec::driver::assembleInputs(const typed::Program &program,
                              std::map<std::string, InputFile> files,
                              uint64_t seed) {
  std::vector<Tensor> inputs;
  inputs.reserve(program.inputs.size());
  for (unsigned position = 0; position < program.inputs.size(); ++position) {
    const typed::Value &value = program.value(program.inputs[position]);
    auto file = files.find(value.name);
    if (file != files.end())
      inputs.push_back(std::move(file->second.tensor));
    else
      inputs.push_back(generateChecked(value, seed, position));
  }
  return inputs;
}

ProgramWithInputs
tilec::driver::loadProgramWithInputs(ProgramLoader &loader,
                                     const std::vector<InputFlag> &flags,
                                     uint64_t seed) {
  const ast::Function &entry = orFail(loader.parse());
  loader.setInputFiles(
      readInputFiles(flags, entry, loader.entryDisplayName()));
  ProgramWithInputs loaded{orFail(loader.bind()), {}};
  loaded.inputs =
      assembleInputs(loaded.program, loader.takeInputFiles(), seed);
  return loaded;
}
