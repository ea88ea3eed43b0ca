//===- DataMovement.cpp - reshape, gather, scatter and literals -----------===//
//
// The statements that move elements without arithmetic on them (sections
// 8.4 and 8.5), plus bind-time literal tensors. Indices are clamped into
// range, never skipped.
//
//===----------------------------------------------------------------------===//

#include "InterpInternal.h"

#include <algorithm>
#include <cstring>

using namespace tilec;
using namespace tilec::interp;

llvm::Expected<Tensor> interp::reshapeTensor(const Tensor &src,
                                             const TensorType &outType) {
  if (checkedNumElements(outType.shape) != src.numElements() ||
      outType.dtype != src.type.dtype)
    return malformedError("reshape changes the element count or type");
  Tensor out;
  out.type = outType;
  out.data = src.data;
  return out;
}

/// Index element `k` of `indices` clamped into [0, size).
static int64_t clampedIndex(const Tensor &indices, int64_t k, int64_t size) {
  int64_t v = indices.getInt(k);
  // A u64 index above INT64_MAX reads as negative but is huge.
  if (indices.type.dtype == DType::U64 && v < 0)
    return size - 1;
  return v < 0 ? 0 : v >= size ? size - 1 : v;
}

/// The number of elements in dimensions [from, rank) of `shape`.
static int64_t trailingCount(const std::vector<int64_t> &shape, size_t from) {
  int64_t n = 1;
  for (size_t d = from; d < shape.size(); ++d)
    n *= shape[d];
  return n;
}

llvm::Expected<Tensor> interp::gatherTensor(const Tensor &values,
                                            const Tensor &indices,
                                            const TensorType &outType,
                                            const Radii *sourceRadius,
                                            Radii *radius) {
  if (values.type.rank() < 1 || isFloat(indices.type.dtype) ||
      outType.dtype != values.type.dtype)
    return malformedError("gather operands");
  auto out = allocateTensor(outType, "a gather result");
  if (!out)
    return out.takeError();
  int64_t rowElems = trailingCount(values.type.shape, 1);
  if (checkedNumElements(outType.shape) != indices.numElements() * rowElems)
    return malformedError("gather result shape");
  size_t rowBytes = size_t(rowElems) * dtypeBytes(values.type.dtype);
  int64_t rows = values.type.shape[0];
  bool moveRadii = radius && sourceRadius && !sourceRadius->empty();
  if (moveRadii)
    radius->assign(size_t(out->numElements()), ErrorBound());
  for (int64_t k = 0; k < indices.numElements(); ++k) {
    int64_t row = clampedIndex(indices, k, rows);
    std::memcpy(out->data.data() + k * rowBytes,
                values.data.data() + row * rowBytes, rowBytes);
    if (moveRadii)
      std::copy_n(sourceRadius->begin() + row * rowElems, rowElems,
                  radius->begin() + k * rowElems);
  }
  return out;
}

llvm::Expected<Tensor> interp::scatterTensor(const Tensor &updates,
                                             const Tensor &indices,
                                             const Tensor &shapeSource,
                                             const TensorType &outType,
                                             const Radii *sourceRadius,
                                             Radii *radius) {
  const std::vector<int64_t> &eShape = updates.type.shape;
  const std::vector<int64_t> &iShape = indices.type.shape;
  if (isFloat(indices.type.dtype) || shapeSource.type.rank() < 1 ||
      iShape.size() > eShape.size() ||
      !std::equal(iShape.begin(), iShape.end(), eShape.begin()) ||
      outType.dtype != updates.type.dtype || outType.rank() < 1 ||
      outType.shape[0] != shapeSource.type.shape[0])
    return malformedError("scatter operands");
  int64_t rowElems = trailingCount(eShape, iShape.size());
  if (checkedNumElements(outType.shape) != outType.shape[0] * rowElems)
    return malformedError("scatter result shape");
  auto out = allocateTensor(outType, "a scatter result");
  if (!out)
    return out.takeError();
  // Sums accumulate in f64 or wrapping int64 and are converted once.
  DType t = outType.dtype;
  bool isFloatType = isFloat(t);
  size_t n = size_t(out->numElements());
  std::vector<double> fsum(isFloatType ? n : 0);
  std::vector<int64_t> isum(isFloatType ? 0 : n);
  // Float sums are bounded as a contraction's are (Bounds.h).
  std::vector<SumBound> bounds(isFloatType && radius ? n : 0);
  int64_t rows = outType.shape[0];
  for (int64_t j = 0; j < indices.numElements(); ++j) {
    int64_t row = clampedIndex(indices, j, rows);
    for (int64_t r = 0; r < rowElems; ++r) {
      int64_t src = j * rowElems + r, dst = row * rowElems + r;
      if (isFloatType) {
        fsum[dst] += updates.getDouble(src);
        if (!bounds.empty())
          bounds[dst].add(updates.getDouble(src),
                          sourceRadius && !sourceRadius->empty()
                              ? (*sourceRadius)[src]
                              : ErrorBound());
      } else
        isum[dst] =
            int64_t(uint64_t(isum[dst]) + uint64_t(updates.getInt(src)));
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (isFloatType)
      out->setDouble(k, fsum[k]);
    else
      out->setInt(k, isum[k]); // bool: "any update was true"
  }
  if (!bounds.empty()) {
    radius->resize(n);
    for (size_t k = 0; k < n; ++k)
      (*radius)[k] = bounds[k].bound(out->getDouble(k), t);
  }
  return out;
}

llvm::Expected<Tensor>
interp::literalTensor(const std::vector<typed::Scalar> &values,
                      const TensorType &outType) {
  if (checkedNumElements(outType.shape) != int64_t(values.size()))
    return malformedError("literal element count");
  auto out = allocateTensor(outType, "a literal");
  if (!out)
    return out.takeError();
  for (size_t k = 0; k < values.size(); ++k) {
    const typed::Scalar &s = values[k];
    Element e;
    if (isFloat(s.dtype))
      e.f = s.f;
    else
      e.i = normalizeInteger(s.i, s.dtype);
    e = convertElement(e, s.dtype, outType.dtype);
    if (isFloat(outType.dtype))
      out->setDouble(k, e.f);
    else
      out->setInt(k, e.i);
  }
  return out;
}
