//===- CLBuildLog.h - Explaining a failed OpenCL build -----------*- C++
//-*-===//

#ifndef TILEC_LIB_RUNTIME_OPENCL_CLBUILDLOG_H
#define TILEC_LIB_RUNTIME_OPENCL_CLBUILDLOG_H

#include "tilec/Runtime/Manifest.h"

#include <string>

namespace tilec::rt::cl {

/// Where the driver's log puts the first error: the kernel of `manifest`
/// that holds that line, and the source line with a caret under the column.
/// Clang-based drivers write "<source>:LINE:COL: error: ..." (NVIDIA, Intel)
/// or "error: <source>:LINE:COL: ..." (PoCL); for a log without either
/// form the result is empty.
std::string locateBuildError(const std::string &log, const std::string &source,
                             const Manifest &manifest);

} // namespace tilec::rt::cl

#endif // TILEC_LIB_RUNTIME_OPENCL_CLBUILDLOG_H
