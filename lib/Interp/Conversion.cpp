//===- Conversion.cpp - Element conversions and allocation ----------------===//
//
// The conversions of docs/language.md 5.4 on canonical elements, shared by
// casts, contractions (operands promoted to the combination type, `default`
// tensors converted to the output type) and literals.
//
//===----------------------------------------------------------------------===//

#include "InterpInternal.h"

using namespace tilec;
using namespace tilec::interp;

llvm::Error interp::tooLargeError(const TensorType &type,
                                  llvm::StringRef what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the interpreter cannot hold " + what +
                                     " of type " + type.str() +
                                     ": more than 2^31 elements");
}

llvm::Error interp::malformedError(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed typed program: " + what);
}

llvm::Expected<Tensor> interp::allocateTensor(const TensorType &type,
                                              llvm::StringRef what) {
  int64_t n = checkedNumElements(type.shape);
  if (n < 0 || n > kMaxElements)
    return tooLargeError(type, what);
  for (int64_t d : type.shape)
    if (d < 1)
      return malformedError(what + " has a size below 1: " + type.str());
  return Tensor(type);
}

Element interp::readElement(const Tensor &t, int64_t index) {
  Element e;
  if (isFloat(t.type.dtype))
    e.f = t.getDouble(index);
  else
    e.i = t.getInt(index);
  return e;
}

Element interp::convertElement(Element v, DType from, DType to) {
  Element r;
  if (isFloat(from)) {
    if (isFloat(to))
      r.f = roundToFloatType(v.f, to);
    else if (to == DType::Bool)
      r.i = v.f != 0; // NaN is true
    else
      r.i = normalizeInteger(truncateToInt64(v.f), to);
    return r;
  }
  if (isFloat(to))
    r.f = integerToFloatType(v.i, isUnsigned(from), to);
  else
    r.i = normalizeInteger(v.i, to);
  return r;
}

Tensor interp::castTensor(const Tensor &src, DType to) {
  TensorType type{to, src.type.shape};
  Tensor out(type);
  int64_t n = src.numElements();
  DType from = src.type.dtype;
  for (int64_t i = 0; i < n; ++i) {
    Element e = convertElement(readElement(src, i), from, to);
    if (isFloat(to))
      out.setDouble(i, e.f);
    else
      out.setInt(i, e.i);
  }
  return out;
}
