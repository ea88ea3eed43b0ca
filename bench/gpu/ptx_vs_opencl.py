#!/usr/bin/env python3
"""On the H200: times each case of bench/gpu/ptx_bundle.sh as PTX (CUDA) and
as OpenCL C with tilec-run, in one process run after the other per case, and
prints a markdown table of their kernel times and the ratio OpenCL / PTX
(above 1: PTX is faster). Inputs come from tilec-run's generator (--seed 1),
the same for both.

    ptx_vs_opencl.py BUNDLE --tilec-run PATH --cuda-device D --opencl-device D [--repeat N]
"""

import argparse
import json
import os
import subprocess
import sys


def kernel_time(tilec_run, manifest, device, repeat):
    """The sum of the kernels' median times of one run, in seconds."""
    proc = subprocess.run([tilec_run, manifest, "--device", device, "--seed=1",
                           "--repeat=%d" % repeat, "--json"],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("%s: %s" % (manifest, (proc.stdout + proc.stderr).strip()[-2000:]))
    report = json.loads(proc.stdout)
    return report["total"]["median_s"], sum(k["flops"] for k in report["kernels"])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle")
    parser.add_argument("--tilec-run", required=True)
    parser.add_argument("--cuda-device", required=True)
    parser.add_argument("--opencl-device", required=True)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    names = sorted(f[:-len(".ptx.json")] for f in os.listdir(os.path.join(args.bundle, "ptx"))
                   if f.endswith(".ptx.json"))
    print("| case | PTX ms | OpenCL ms | PTX TFLOP/s | OpenCL / PTX |")
    print("|---|---|---|---|---|")
    failed = 0
    for name in names:
        try:
            ptx, flops = kernel_time(args.tilec_run,
                                     os.path.join(args.bundle, "ptx", name + ".ptx.json"),
                                     args.cuda_device, args.repeat)
            cl, _ = kernel_time(args.tilec_run,
                                os.path.join(args.bundle, "opencl", name + ".cl.json"),
                                args.opencl_device, args.repeat)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            failed += 1
            print("| %s | failed: %s | | | |" % (name, str(error).replace("\n", " ")[:300]))
            continue
        print("| %s | %.3f | %.3f | %.1f | %.2f |" % (
            name, ptx * 1e3, cl * 1e3, flops / ptx / 1e12, cl / ptx))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
