#!/usr/bin/env python3
"""On the H200: times each case of bench/gpu/tensor_cores.sh with tilec-run
on the CUDA device and the same operation in PyTorch in one process (a
matmul with torch.matmul: cuBLAS, same dtype, f32 sums, TF32 for the
tf32 cases; a 3x3 convolution
with F.conv2d on channels_last data: cuDNN), and prints a markdown table of
both times, tilec's TFLOP/s and the ratio library time / tilec time (1.0:
as fast as the library).

    tensor_cores.py BUNDLE --tilec-run PATH --device D [--repeat N]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

import torch
import torch.nn.functional as F

from targets_vs_opencl import kernel_time


def torch_seconds(dtype, n, repeat, tf32=False, batch=5):
    """cuBLAS's time per product: `batch` products between each pair of
    events, so that the launch's host overhead hides behind the products
    before it (tilec-run's CUDA timing hides it too: CudaHold.h); `tf32`:
    f32 products in TF32 (cuBLAS's TF32 kernels)."""
    a = torch.rand(n, n, dtype=dtype, device="cuda") * 2 - 1
    b = torch.rand(n, n, dtype=dtype, device="cuda") * 2 - 1
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        return time_batches(lambda: torch.matmul(a, b), repeat, batch)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = False


def torch_conv_seconds(dtype, n, size, ci, co, repeat, batch=5):
    """cuDNN's time per 3x3 convolution (padding 1) of NHWC images (NCHW
    in channels_last memory), timed as torch_seconds does."""
    torch.backends.cudnn.benchmark = True
    x = (torch.rand(n, ci, size, size, dtype=dtype, device="cuda") * 2 - 1) \
        .contiguous(memory_format=torch.channels_last)
    w = (torch.rand(co, ci, 3, 3, dtype=dtype, device="cuda") * 2 - 1) \
        .contiguous(memory_format=torch.channels_last)
    return time_batches(lambda: F.conv2d(x, w, padding=1), repeat, batch)


def time_batches(fn, repeat, batch):
    """The median seconds of one call of `fn`, `batch` calls between each
    pair of events, after warm-up."""
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            fn()
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / batch)
    return statistics.median(times)


def baseline(name, repeat):
    """cuDNN's or cuBLAS's seconds and the case's FLOPs, from its name:
    matmul-DTYPE-N (N^3) or conv3x3-DTYPE-NxSIZExCIxCO."""
    dtypes = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
              "tf32": torch.float32}
    conv = re.match(r"conv3x3-(\w+)-(\d+)x(\d+)x(\d+)x(\d+)", name)
    if conv:
        dtype_name, n, size, ci, co = conv.groups()
        n, size, ci, co = int(n), int(size), int(ci), int(co)
        return (torch_conv_seconds(dtypes[dtype_name], n, size, ci, co, repeat),
                2 * n * size * size * co * 9 * ci)
    dtype_name, n = re.match(r"matmul-(\w+)-(\d+)", name).groups()
    n = int(n)
    return (torch_seconds(dtypes[dtype_name], n, repeat, tf32=dtype_name == "tf32"),
            2 * n ** 3)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle")
    parser.add_argument("--tilec-run", required=True)
    parser.add_argument("--device", required=True)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    # Reduced-precision sums stay f32, as tilec's.
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    # The f32 case (the SIMT outer product beside them) against FP32 cuBLAS,
    # the tf32 case (--allow-tf32) against its TF32 kernels.
    torch.backends.cuda.matmul.allow_tf32 = False
    print("| case | tilec ms | cuBLAS/cuDNN ms | tilec TFLOP/s | tilec / library |")
    print("|---|---|---|---|---|")
    failed = 0
    for manifest in sorted(f for f in os.listdir(args.bundle) if f.endswith(".ptx.json")):
        name = manifest[:-len(".ptx.json")]
        try:
            ours = kernel_time(args.tilec_run, os.path.join(args.bundle, manifest),
                               args.device, args.repeat)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            failed += 1
            print("| %s | failed: %s | | | |" % (name, str(error).replace("\n", " ")[:300]))
            continue
        theirs, flops = baseline(name, args.repeat)
        print("| %s | %.3f | %.3f | %.1f | %.2f |" % (
            name, ours * 1e3, theirs * 1e3, flops / ours / 1e12, theirs / ours))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
