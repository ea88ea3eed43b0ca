//===- Interpreter.h - The reference interpreter ----------------*- C++ -*-===//
//
// Executes a typed program exactly as TILE-LANGUAGE.md defines it, one
// statement at a time, with no fusion. It is the oracle every backend is
// compared with, so it favours clarity; it is still fast enough for a
// 224x224 MobileNet (contractions enumerate their index box with integer
// strides rather than re-evaluating rationals).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INTERP_INTERPRETER_H
#define TILEC_INTERP_INTERPRETER_H

#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Tensor.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace tilec {

/// Runs `program` on `inputs` (one per program.inputs, same order, types
/// already checked by the binder). Returns one tensor per program.outputs.
/// The only failures are resources: a tensor too large to allocate.
llvm::Expected<std::vector<Tensor>>
interpret(const typed::Program &program, std::vector<Tensor> inputs);

/// Deterministic input data for an input not given as a file: a function of
/// `seed`, the input's position and its type only. Floats are uniform in
/// [-1, 1), signed integers in [-8, 8], unsigned in [0, 16], bools fair coins.
/// A u32 [3, 2048] input (a prng state) gets values valid for taus88.
Tensor generateInput(const TensorType &type, uint64_t seed, unsigned position);

/// A short summary of an output for `tilec run`: shape, dtype, the first
/// few values and a checksum (sum of the elements as doubles).
std::string summarizeTensor(llvm::StringRef name, const Tensor &t);

} // namespace tilec

#endif // TILEC_INTERP_INTERPRETER_H
