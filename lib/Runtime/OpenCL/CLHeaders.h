//===- CLHeaders.h - The OpenCL C API, version 1.2 ---------------*- C++
//-*-===//
//
// tilec's kernels need OpenCL 1.2 only, and so does this runtime: targeting
// 1.2 keeps it working with every ICD loader and driver still in use.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_RUNTIME_OPENCL_CLHEADERS_H
#define TILEC_LIB_RUNTIME_OPENCL_CLHEADERS_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#endif // TILEC_LIB_RUNTIME_OPENCL_CLHEADERS_H
