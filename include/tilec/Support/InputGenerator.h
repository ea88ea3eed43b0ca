//===- InputGenerator.h - Deterministic input data --------------*- C++ -*-===//
//
// The data `tilec run --seed=N` and `tilec-run --seed=N` give to inputs not
// read from files. Both tools use this one function, so a compiled artefact
// run with tilec-run sees exactly the inputs the interpreter saw.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_INPUTGENERATOR_H
#define TILEC_SUPPORT_INPUTGENERATOR_H

#include "tilec/Support/Tensor.h"

#include <cstdint>

namespace tilec {

/// Deterministic input data for an input not given as a file: a function of
/// `seed`, the input's position and its type only. Floats are uniform in
/// [-1, 1), signed integers in [-8, 8], unsigned in [0, 16], bools fair coins.
/// A u32 [3, 2048] input (a prng state) gets values valid for taus88.
Tensor generateInput(const TensorType &type, uint64_t seed, unsigned position);

} // namespace tilec

#endif // TILEC_SUPPORT_INPUTGENERATOR_H
