//===- Interpreter.h - The reference interpreter ----------------*- C++ -*-===//
//
// Executes a typed program exactly as docs/language.md defines it, one
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
// generateInput and summarizeTensor moved to the LLVM-free support library
// (tilec-run uses them); `tilec run` still finds them here.
#include "tilec/Support/InputGenerator.h"
#include "tilec/Support/TensorSummary.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace tilec {

/// Runs `program` on `inputs` (one per program.inputs, same order, types
/// already checked by the binder). Returns one tensor per program.outputs.
/// The only failures are resources: a tensor too large to allocate.
llvm::Expected<std::vector<Tensor>>
interpret(const typed::Program &program, std::vector<Tensor> inputs);

/// The outputs and, per output, its error bound: for a float output an f64
/// tensor of its shape whose element is the radius around the output's
/// element within which a back end computing the program's math with the
/// promised accuracy lies (lib/Interp/Bounds.h gives the model,
/// README.md the rule Support/Compare applies); for integers and bool an
/// empty tensor (they are exact).
struct ReferenceOutputs {
  std::vector<Tensor> outputs;
  std::vector<Tensor> bounds;
};
/// How the back ends compared with the bounds may compute.
struct ReferenceRules {
  /// f32 sums of products (`+(A * B)` of two f32 tensors) may run on tensor
  /// cores in TF32 (`--allow-tf32`): each product's operands are rounded
  /// or truncated to 10 mantissa bits, which moves a product by up to
  /// 2^-9 of itself, always towards zero (lib/Interp/Bounds.h).
  bool tf32Products = false;
};
llvm::Expected<ReferenceOutputs>
interpretWithBounds(const typed::Program &program, std::vector<Tensor> inputs,
                    ReferenceRules rules = {});

} // namespace tilec

#endif // TILEC_INTERP_INTERPRETER_H
