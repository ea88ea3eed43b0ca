//===- InterpInternal.h - Shared pieces of the interpreter ------*- C++ -*-===//
//
// Private to lib/Interp: the statement evaluators the driver dispatches to,
// and the element conversion and allocation helpers they share.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERP_INTERPINTERNAL_H
#define TILEC_LIB_INTERP_INTERPINTERNAL_H

#include "Bounds.h"

#include "tilec/Frontend/TypedAST.h"
#include "tilec/Support/Tensor.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tilec::interp {

/// The most elements one tensor may have (2^31). Larger tensors are refused
/// with an error instead of risking an allocation failure, which would abort.
constexpr int64_t kMaxElements = int64_t(1) << 31;

/// An error for a value the interpreter refuses to hold.
llvm::Error tooLargeError(const TensorType &type, llvm::StringRef what);
/// An error for a program the binder should never have produced.
llvm::Error malformedError(const llvm::Twine &what);

/// A zero-filled tensor of `type`, or an error if it has too many elements.
llvm::Expected<Tensor> allocateTensor(const TensorType &type,
                                      llvm::StringRef what);

/// One element in canonical form: floats as a double already rounded to
/// their type, integers and bools as int64 (sign- or zero-extended, u64 as
/// its bit pattern, bool 0/1). Only the member matching the type is used.
struct Element {
  double f = 0;
  int64_t i = 0;
};
/// Element `index` of `t` in canonical form.
Element readElement(const Tensor &t, int64_t index);
/// Converts a canonical element of type `from` to type `to` (section 5.4).
Element convertElement(Element v, DType from, DType to);
/// `src` converted element by element to `to` (a copy even if equal).
Tensor castTensor(const Tensor &src, DType to);

/// The radii of the values computed so far (indexed by ValueId, Bounds.h),
/// when the caller asked for bounds; the evaluators take a null pointer
/// otherwise and then compute no radius. `tf32Products`: the back end may
/// round the operands of f32 sums of products to TF32 (`--allow-tf32`).
struct ValueRadii : std::vector<Radii> {
  bool tf32Products = false;
};

/// Evaluates an elementwise expression tree over `values` (indexed by
/// ValueId) into a tensor of `expr.type`; with `radii`, also its radii.
llvm::Expected<Tensor> evaluateElementwise(const typed::Expr &expr,
                                           const std::vector<Tensor> &values,
                                           const ValueRadii *radii = nullptr,
                                           Radii *radius = nullptr);

/// Executes a contraction whose output has type `outType`; with `radii`,
/// also its radii.
llvm::Expected<Tensor> evaluateContraction(const typed::Contraction &c,
                                           const TensorType &outType,
                                           const std::vector<Tensor> &values,
                                           const ValueRadii *radii = nullptr,
                                           Radii *radius = nullptr);

/// reshape, gather and scatter (sections 8.4 and 8.5).
llvm::Expected<Tensor> reshapeTensor(const Tensor &src,
                                     const TensorType &outType);
/// With `radius`, gather and scatter also give the radii of their result
/// from those of `values` / `updates` (`sourceRadius`, empty when exact).
llvm::Expected<Tensor> gatherTensor(const Tensor &values, const Tensor &indices,
                                    const TensorType &outType,
                                    const Radii *sourceRadius = nullptr,
                                    Radii *radius = nullptr);
llvm::Expected<Tensor> scatterTensor(const Tensor &updates,
                                     const Tensor &indices,
                                     const Tensor &shapeSource,
                                     const TensorType &outType,
                                     const Radii *sourceRadius = nullptr,
                                     Radii *radius = nullptr);
/// A Literal statement's tensor.
llvm::Expected<Tensor> literalTensor(const std::vector<typed::Scalar> &values,
                                     const TensorType &outType);

/// One taus88 step of a lane (section 8.6); returns the lane's output word.
uint32_t taus88Step(uint32_t &s1, uint32_t &s2, uint32_t &s3);
/// A prng draw: the f32 values of `valueType` and the state after them.
llvm::Expected<std::pair<Tensor, Tensor>> prngDraw(const Tensor &state,
                                                   const TensorType &valueType);

} // namespace tilec::interp

#endif // TILEC_LIB_INTERP_INTERPINTERNAL_H
