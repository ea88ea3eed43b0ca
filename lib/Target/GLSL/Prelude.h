//===- Prelude.h - Extensions and helper functions a shader needs -*- C++ -*-===//
//
// Part of the GLSL target. What a shader declares before main() depends on
// what its body uses: the int64 extension only if int64_t appears, and each
// helper function (bf16 and f16 conversions, floor division, NaN-aware
// max, ...) once. The body is therefore emitted first, into a buffer,
// recording what it needs here. The helpers compute exactly what the OpenCL
// target's do, in GLSL's spelling (bit casts are floatBitsToUint, not
// as_uint), so the two targets agree with the interpreter bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_GLSL_PRELUDE_H
#define TILEC_LIB_TARGET_GLSL_PRELUDE_H

#include "GLSLTypes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec::glsl {

class Prelude {
public:
  void useInt64() { int64 = true; }
  bool usesInt64() const { return int64; }
  /// subgroupShuffleXor (GL_KHR_shader_subgroup_shuffle).
  void useSubgroupShuffle() { subgroupShuffle = true; }
  /// The precise qualifier (ES 3.1 needs GL_OES_gpu_shader5 for it).
  void usePrecise() { precise = true; }

  /// The helper converting bits of `format` to float (exact).
  std::string toFloat(StoredFloat format);
  /// The helper rounding a float to bits of `format` (to nearest even,
  /// subnormals and overflow to infinity included; NaN becomes the quiet
  /// NaN of its sign), as lib/Support/Tensor.cpp rounds.
  std::string fromFloat(StoredFloat format);
  /// Rounding a double to `format` once, not twice through float: "round
  /// to odd" into float keeps what rounding to nearest even needs.
  std::string fromDouble(StoredFloat format);
  /// arith.floordivsi, ceildivsi and ceildivui for GLSL type `type`.
  std::string floorDiv(llvm::StringRef type);
  std::string ceilDiv(llvm::StringRef type, bool isUnsigned);
  /// arith.maximumf / minimumf: NaN if either operand is, and -0 < +0.
  std::string maximum(llvm::StringRef type, bool isMax);
  /// arith.maxnumf / minnumf (C's fmax / fmin): the other operand when one
  /// is NaN. GLSL's max and min leave NaN operands undefined.
  std::string maxNum(llvm::StringRef type, bool isMax);
  /// math.round: halfway cases away from zero (GLSL's round may go either
  /// way).
  std::string roundHalfAway(llvm::StringRef type);
  /// arith.remf: C's fmod, exact (GLSL's mod is x - y * floor(x / y)).
  std::string fmod(llvm::StringRef type);

  /// fptosi (fptoui) to i64 of a float or double (`type`), as int64_t
  /// (uint64_t), by int(t) within int's range, else by two 32-bit
  /// conversions: NVIDIA's GL compiler gets int64_t(roundEven(d)) wrong
  /// (the exponent of a software exp lost on the H200).
  std::string toInt64(llvm::StringRef type, bool isUnsigned);
  /// Bits of int64_t: its low 32 bits as an int, a double's bits and back
  /// (GLSL 4.30 has none of unpackInt2x32, doubleBitsToInt64, ...).
  std::string low32();
  std::string doubleBits();
  std::string bitsDouble();

  /// math.copysign: the magnitude of x, the sign of y (bit operations).
  std::string copySign(llvm::StringRef type);

  /// Writes the extension directives (after #version).
  void printExtensions(llvm::raw_ostream &os) const;
  /// Writes the helpers, in order of first use.
  void printHelpers(llvm::raw_ostream &os) const;

private:
  /// Adds helper `name` with definition `text` unless present; returns name.
  std::string define(std::string name, std::string text);

  bool int64 = false;
  bool subgroupShuffle = false;
  bool precise = false;
  llvm::StringSet<> helperNames;
  std::vector<std::string> helpers;
};

} // namespace tilec::glsl

#endif // TILEC_LIB_TARGET_GLSL_PRELUDE_H
