//===- Prelude.h - Extensions and helper functions a program needs -*- C++ -*-===//
//
// Part of the OpenCL target. What comes before the kernels depends on what
// they use: the cl_khr_fp64 pragma only if double appears, and each helper
// function (bf16 and f16 conversions, floor division,
// NaN-propagating max, ...) once, before its first use. The kernels are
// therefore emitted first, into a buffer, recording what they need here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_PRELUDE_H
#define TILEC_LIB_TARGET_OPENCL_PRELUDE_H

#include "CLTypes.h"

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
  void useDouble() { dbl = true; }

  /// The name of the helper converting bits of `format` to float (exact).
  std::string toFloat(StoredFloat format);
  /// The helper rounding a float to bits of `format` (to nearest even,
  /// subnormals and overflow to infinity included; NaN becomes the quiet NaN
  /// of the same sign), bit for bit as lib/Support/Tensor.cpp does.
  std::string fromFloat(StoredFloat format);
  /// Rounding a double, long or ulong to `format` once, not twice through
  /// float: "round to odd" into float keeps the information nearest-even
  /// rounding needs.
  std::string fromDouble(StoredFloat format);
  std::string fromLong(StoredFloat format, bool isUnsigned);
  /// Floor and ceiling division as arith.floordivsi, ceildivsi and
  /// ceildivui define them, for C type `type` ("int", "ulong", ...).
  std::string floorDiv(llvm::StringRef type);
  std::string ceilDiv(llvm::StringRef type, bool isUnsigned);
  /// arith.maximumf / minimumf: NaN if either operand is NaN, and -0 < +0.
  std::string maximum(llvm::StringRef type, bool isMax);

  /// tanh of a float that is exactly +-1 where the correctly rounded result
  /// is: OpenCL allows tanh 5 ulp, and one ulp below 1 becomes a large error
  /// in asin or acos of the result.
  std::string floatTanh();

  /// Writes the pragmas and helpers, each block after an empty line.
  void print(llvm::raw_ostream &os) const;

private:
  /// Adds helper `name` with definition `text` unless present; returns name.
  std::string define(std::string name, std::string text);

  bool dbl = false;
  llvm::StringSet<> helperNames;
  std::vector<std::string> helpers; ///< definitions, in order of first use
};

} // namespace tilec::opencl

#endif // TILEC_LIB_TARGET_OPENCL_PRELUDE_H
