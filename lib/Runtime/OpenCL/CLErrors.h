//===- CLErrors.h - OpenCL error codes as names ------------------*- C++
//-*-===//

#ifndef TILEC_LIB_RUNTIME_OPENCL_CLERRORS_H
#define TILEC_LIB_RUNTIME_OPENCL_CLERRORS_H

#include "CLHeaders.h"

#include <string>

namespace tilec::rt::cl {

/// CL_PLATFORM_NOT_FOUND_KHR (cl_khr_icd): what the ICD loader returns when
/// no driver is installed; cl.h itself does not define it.
constexpr cl_int kPlatformNotFound = -1001;

/// "CL_OUT_OF_RESOURCES" for -5; "OpenCL error -1234" for codes it lacks.
std::string errorName(cl_int code);

} // namespace tilec::rt::cl

#endif // TILEC_LIB_RUNTIME_OPENCL_CLERRORS_H
