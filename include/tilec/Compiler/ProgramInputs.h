//===- ProgramInputs.h - The inputs a program runs on -----------*- C++ -*-===//
//
// Part of lib/Compiler: what `tilec run`, `bench` and `autotune` run a
// program on. `--input NAME=file.npy` files are checked against the entry's
// parameters and read (their shapes and types take part in binding); every
// input without a file is produced by the deterministic generator
// (docs/cli.md, `run`), up to a size limit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_PROGRAMINPUTS_H
#define TILEC_COMPILER_PROGRAMINPUTS_H

#include "tilec/Compiler/ProgramLoader.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Tensor.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilec::compiler {

/// One `--input NAME=PATH`.
struct InputFlag {
  std::string name;
  std::string path;
};

/// Checks that each flag names a parameter of `entry` (a usage error that
/// lists them otherwise) and reads the files (a malformed file is an input
/// error).
llvm::Expected<std::map<std::string, InputFile>>
readInputFiles(const std::vector<InputFlag> &flags, const ast::Function &entry,
               const std::string &entryDisplayName);

/// One tensor per `program.inputs`: the file's if one was given for that
/// name, else generateInput(type, seed, position); an input too large to
/// generate is a runtime error.
llvm::Expected<std::vector<Tensor>>
assembleInputs(const typed::Program &program,
               std::map<std::string, InputFile> files, uint64_t seed);

/// A program bound with its --input files, and its inputs.
struct ProgramWithInputs {
  typed::Program program;
  std::vector<Tensor> inputs;
};

/// What `run` and `bench` do first: parses `loader`'s program, reads the
/// --input files, binds, and assembles the inputs.
llvm::Expected<ProgramWithInputs>
loadProgramWithInputs(ProgramLoader &loader,
                      const std::vector<InputFlag> &flags, uint64_t seed);

} // namespace tilec::compiler

#endif // TILEC_COMPILER_PROGRAMINPUTS_H
