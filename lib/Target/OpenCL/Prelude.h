//===- Prelude.h - Extensions and helper functions a program needs -*- C++ -*-===//
//
// Part of the OpenCL target. What comes before the kernels depends on what
// they use: the cl_khr_fp16 and cl_khr_fp64 pragmas only if half or double
// appears, and each helper function (bf16 conversions, floor division,
// NaN-propagating max, ...) once, before its first use. The kernels are
// therefore emitted first, into a buffer, recording what they need here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_PRELUDE_H
#define TILEC_LIB_TARGET_OPENCL_PRELUDE_H

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec::opencl {

class Prelude {
public:
  void useHalf() { half = true; }
  void useDouble() { dbl = true; }

  /// The name of the helper converting bf16 bits to float (exact).
  std::string bf16ToFloat();
  /// The helper rounding a float to bf16 bits (to nearest even; NaN stays
  /// a quiet NaN of the same sign), as lib/Support/Tensor.cpp does.
  std::string floatToBF16();
  /// Rounding a double, long or ulong to bf16 once, not twice through
  /// float: "round to odd" into float keeps the information nearest-even
  /// rounding needs.
  std::string doubleToBF16();
  std::string longToBF16(bool isUnsigned);
  /// Floor and ceiling division as arith.floordivsi, ceildivsi and
  /// ceildivui define them, for C type `type` ("int", "ulong", ...).
  std::string floorDiv(llvm::StringRef type);
  std::string ceilDiv(llvm::StringRef type, bool isUnsigned);
  /// arith.maximumf / minimumf: NaN if either operand is NaN, and -0 < +0.
  std::string maximum(llvm::StringRef type, bool isMax);

  /// Writes the pragmas and helpers, each block after an empty line.
  void print(llvm::raw_ostream &os) const;

private:
  /// Adds helper `name` with definition `text` unless present; returns name.
  std::string define(std::string name, std::string text);

  bool half = false, dbl = false;
  llvm::StringSet<> helperNames;
  std::vector<std::string> helpers; ///< definitions, in order of first use
};

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_PRELUDE_H
