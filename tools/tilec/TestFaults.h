//===- TestFaults.h - Wrong outputs for the checks' tests -------*- C++ -*-===//
//
// A check that cannot fail proves nothing, so the tests of `tilec run --check`
// and `tilec bench` make the back end's outputs wrong on purpose and expect
// the check to say so. TILEC_TEST_FAULT (read only here, for tests) names the
// fault, applied to the outputs a back end returned, before the check:
//
//   element  one element in the middle of every output is off by about
//            0.1% (floats: times 1 + 2^-10, plus 2^-10; integers: + 1;
//            bool: negated), as a kernel with a small bug would give;
//   missing  the last output is dropped, as a kernel that never wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_TESTFAULTS_H
#define TILEC_TOOLS_TILEC_TESTFAULTS_H

#include "tilec/Support/Tensor.h"

#include <vector>

namespace tilec::driver {

/// `outputs` as the check is to see them: themselves when TILEC_TEST_FAULT
/// is unset, else a copy in `storage` with the fault applied (an unknown
/// name is a usage error).
const std::vector<Tensor> &withTestFault(const std::vector<Tensor> &outputs,
                                         std::vector<Tensor> &storage);

} // namespace tilec::driver

#endif // TILEC_TOOLS_TILEC_TESTFAULTS_H
