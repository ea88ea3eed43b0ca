//===- RunInputs.h - The inputs of `tilec run` ------------------*- C++ -*-===//
//
// `--input NAME=file.npy` flags, checked against the entry's parameters and
// read; and the final list of input tensors, where every input without a
// file is produced by the deterministic generator (docs/cli.md, `run`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUNINPUTS_H
#define TILEC_TOOLS_TILEC_RUNINPUTS_H

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilec::driver {

using compiler::ProgramLoader;

/// One `--input NAME=PATH`.
struct InputFlag {
  std::string name;
  std::string path;
};

/// Splits the --input flags; a malformed or repeated one is a usage error.
std::vector<InputFlag> parseInputFlags(const std::vector<std::string> &flags);

/// Checks that each flag names a parameter of `entry` (a usage error that
/// lists them otherwise) and reads the files (a malformed file is an input
/// error).
std::map<std::string, InputFile>
readInputFiles(const std::vector<InputFlag> &flags, const ast::Function &entry,
               const std::string &entryDisplayName);

/// One tensor per `program.inputs`: the file's if one was given for that
/// name, else generateInput(type, seed, position).
std::vector<Tensor> assembleInputs(const typed::Program &program,
                                   std::map<std::string, InputFile> files,
                                   uint64_t seed);

/// A program bound with its --input files, and its inputs.
struct ProgramWithInputs {
  typed::Program program;
  std::vector<Tensor> inputs;
};

/// What `run` and `bench` do first: parses `loader`'s program, reads the
/// --input files (their shapes and types take part in binding), binds, and
/// assembles the inputs.
ProgramWithInputs loadProgramWithInputs(ProgramLoader &loader,
                                        const std::vector<InputFlag> &flags,
                                        uint64_t seed);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_RUNINPUTS_H
