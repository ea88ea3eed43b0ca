//===- TypeRules.h - Result types and broadcasting --------------*- C++ -*-===//
//
// The three-step result-type rule of docs/language.md 5.3 (typed operands
// join, weak constants adapt) and NumPy broadcasting (6.2). Private to
// lib/Frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_TYPERULES_H
#define TILEC_LIB_FRONTEND_TYPERULES_H

#include "Constant.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// What one operand contributes to typing: a tensor's element type, or a
/// constant (weak or typed).
struct TypeInput {
  std::optional<DType> tensorType;
  const Const *constant = nullptr;
};

/// The outcome of step 1 and 2 of 5.3.
struct TypeDecision {
  /// No typed operand and every operand a constant: fold weakly.
  bool weak = false;
  DType type = DType::F32; ///< the computation type otherwise
  std::string error;       ///< "constant 300 does not fit in i8"
};

/// Decides the computation type of one operation. In a comparison an
/// unrepresentable weak integer widens the type instead of failing.
TypeDecision decideType(llvm::ArrayRef<TypeInput> inputs, bool isComparison);

/// "[2, 3]"
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

/// NumPy broadcast of two shapes; nullopt if they clash, with the two
/// clashing sizes in `sizeA`, `sizeB`.
std::optional<std::vector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                int64_t &sizeA, int64_t &sizeB);

/// The element count of `shape`, or -1 if it overflows int64.
int64_t elementCount(llvm::ArrayRef<int64_t> shape);

/// Tensors larger than this many elements are bind errors (a guard against
/// resource blowups from user-given sizes).
constexpr int64_t kMaxElements = int64_t(1) << 40;
/// The largest rank a tensor may have.
constexpr unsigned kMaxRank = 32;

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_TYPERULES_H
