//===- TensorSummary.h - One-line summaries of tensors ----------*- C++ -*-===//
//
// How `tilec run` and tilec-run report an output on stdout, so that the two
// can be compared line by line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_TENSORSUMMARY_H
#define TILEC_SUPPORT_TENSORSUMMARY_H

#include "tilec/Support/Tensor.h"

#include <string>
#include <string_view>

namespace tilec {

/// A short summary of an output: shape, dtype, the first few values and a
/// checksum (sum of the elements as doubles), e.g.
/// "Y: f32[2, 3] = [0.5, -1, 2, ...] sum=1.5".
std::string summarizeTensor(std::string_view name, const Tensor &t);

} // namespace tilec

#endif // TILEC_SUPPORT_TENSORSUMMARY_H
