#!/usr/bin/env python3
"""On the H200: times each case of bench/gpu/tensor_cores.sh with tilec-run
on the CUDA device and the same matmul with torch.matmul (cuBLAS, same dtype,
f32 sums) in one process, and prints a markdown table of both times, tilec's
TFLOP/s and the ratio cuBLAS time / tilec time (1.0: as fast as cuBLAS).

    tensor_cores.py BUNDLE --tilec-run PATH --device D [--repeat N]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

import torch

from targets_vs_opencl import kernel_time


def torch_seconds(dtype, n, repeat, batch=5):
    """cuBLAS's time per product: `batch` products between each pair of
    events, so that the launch's host overhead hides behind the products
    before it (tilec-run's CUDA timing hides it too: CudaHold.h)."""
    a = torch.rand(n, n, dtype=dtype, device="cuda") * 2 - 1
    b = torch.rand(n, n, dtype=dtype, device="cuda") * 2 - 1
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            torch.matmul(a, b)
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / batch)
    return statistics.median(times)


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
    # The f32 case (the SIMT outer product beside them) against FP32 cuBLAS.
    torch.backends.cuda.matmul.allow_tf32 = False
    print("| case | tilec ms | cuBLAS ms | tilec TFLOP/s | tilec / cuBLAS |")
    print("|---|---|---|---|---|")
    failed = 0
    for manifest in sorted(f for f in os.listdir(args.bundle) if f.endswith(".ptx.json")):
        name = manifest[:-len(".ptx.json")]
        dtype_name, n = re.match(r"matmul-(\w+)-(\d+)", name).groups()
        dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                 "f32": torch.float32}[dtype_name]
        n = int(n)
        try:
            ours = kernel_time(args.tilec_run, os.path.join(args.bundle, manifest),
                               args.device, args.repeat)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            failed += 1
            print("| %s | failed: %s | | | |" % (name, str(error).replace("\n", " ")[:300]))
            continue
        theirs = torch_seconds(dtype, n, args.repeat)
        print("| %s | %.3f | %.3f | %.1f | %.2f |" % (
            name, ours * 1e3, theirs * 1e3, 2 * n ** 3 / ours / 1e12, theirs / ours))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
