#!/usr/bin/env python3
"""What NVIDIA's OpenCL compiler makes of tilec's kernels.

  cl_inspect.py KERNELS.cl [--options=-cl-nv-verbose] [--ptx=OUT.ptx]

Builds the OpenCL C file on the first GPU of the first platform that has
one (through the ICD loader; scripts/gpu-env.sh registers NVIDIA's driver),
prints the build log (with -cl-nv-verbose, ptxas's registers, shared memory
and spills per kernel) and, from the program binary (PTX text on NVIDIA),
per kernel the count of the instructions the tiling is judged by: 128-bit
shared loads (ld.shared.v4), scalar shared loads, fused multiply-adds and
128-bit global loads. The evidence GPU-CPU-TILING.md asks for when a kernel
is slower than expected; it needs no package beyond the standard library.
"""

import argparse
import ctypes
import re
import sys

CL_DEVICE_TYPE_GPU = 1 << 2
CL_PROGRAM_BUILD_LOG = 0x1183
CL_PROGRAM_BINARY_SIZES = 0x1165
CL_PROGRAM_BINARIES = 0x1166


def opencl():
    for name in ("libOpenCL.so.1", "libOpenCL.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    sys.exit("cl_inspect: no OpenCL ICD loader")


def first_gpu(cl):
    count = ctypes.c_uint()
    cl.clGetPlatformIDs(0, None, ctypes.byref(count))
    platforms = (ctypes.c_void_p * count.value)()
    cl.clGetPlatformIDs(count.value, platforms, None)
    for platform in platforms:
        device = ctypes.c_void_p()
        found = ctypes.c_uint()
        if (cl.clGetDeviceIDs(ctypes.c_void_p(platform), CL_DEVICE_TYPE_GPU, 1,
                              ctypes.byref(device), ctypes.byref(found)) == 0
                and found.value):
            return device
    sys.exit("cl_inspect: no OpenCL GPU")


def build(cl, device, source, options):
    error = ctypes.c_int()
    cl.clCreateContext.restype = ctypes.c_void_p
    context = cl.clCreateContext(None, 1, ctypes.byref(device), None, None,
                                 ctypes.byref(error))
    text = ctypes.c_char_p(source.encode())
    cl.clCreateProgramWithSource.restype = ctypes.c_void_p
    program = cl.clCreateProgramWithSource(ctypes.c_void_p(context), 1,
                                           ctypes.byref(text), None,
                                           ctypes.byref(error))
    status = cl.clBuildProgram(ctypes.c_void_p(program), 1,
                               ctypes.byref(device), options.encode(), None,
                               None)
    size = ctypes.c_size_t()
    cl.clGetProgramBuildInfo(ctypes.c_void_p(program), device,
                             CL_PROGRAM_BUILD_LOG, 0, None, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    cl.clGetProgramBuildInfo(ctypes.c_void_p(program), device,
                             CL_PROGRAM_BUILD_LOG, size, log, None)
    binary = b""
    if status == 0:
        sizes = ctypes.c_size_t()
        cl.clGetProgramInfo(ctypes.c_void_p(program), CL_PROGRAM_BINARY_SIZES,
                            ctypes.sizeof(sizes), ctypes.byref(sizes), None)
        buffer = ctypes.create_string_buffer(sizes.value)
        pointer = ctypes.c_char_p(ctypes.addressof(buffer))
        cl.clGetProgramInfo(ctypes.c_void_p(program), CL_PROGRAM_BINARIES,
                            ctypes.sizeof(pointer), ctypes.byref(pointer),
                            None)
        binary = buffer.raw
    return status, log.value.decode(errors="replace"), binary


def counts(ptx):
    """Per .entry of the PTX text, the instructions of interest."""
    patterns = {
        "ld.shared.v4": r"\bld\.shared\.v4\.",
        "ld.shared scalar": r"\bld\.shared\.(?:f32|b32|u32|s32)\b",
        "fma.rn.f32": r"\bfma\.rn\.f32\b",
        "ld.global.v4": r"\bld\.global(?:\.nc)?\.v4\.",
        "bar.sync": r"\bbar(?:rier)?\.sync\b",
    }
    result = {}
    for match in re.finditer(r"\.entry\s+(\w+)(.*?)(?=\.entry|\Z)", ptx,
                             re.S):
        name, body = match.group(1), match.group(2)
        result[name] = {key: len(re.findall(pattern, body))
                        for key, pattern in patterns.items()}
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source")
    parser.add_argument("--options", default="-cl-nv-verbose")
    parser.add_argument("--ptx", help="also write the program binary here")
    args = parser.parse_args()
    cl = opencl()
    device = first_gpu(cl)
    with open(args.source) as f:
        status, log, binary = build(cl, device, f.read(), args.options)
    print(f"build status {status}")
    print(log.strip())
    if not binary:
        return 1
    ptx = binary.decode(errors="replace")
    if args.ptx:
        with open(args.ptx, "w") as f:
            f.write(ptx)
    for kernel, found in counts(ptx).items():
        print(kernel + ": " + ", ".join(f"{k} {v}" for k, v in found.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
