#!/usr/bin/env python3
"""On the H200: times each case of bench/gpu/ptx_bundle.sh as PTX (CUDA) and
as OpenCL C with tilec-run, in one process run after the other per case, and
prints a markdown table of their kernel times and the ratio OpenCL / PTX
(above 1: PTX is faster). Inputs come from tilec-run's generator (--seed 1),
the same for both. For the memory-bound cases (bench/cases.py) it also
times torch.clone of the case's largest input in the same process, as
bench/gpu/torch_baselines.py does, and gives each target's least traffic
over its time as a share of that copy bandwidth (the softmax and layer norm
floors of issue 17 are stated in it).

    ptx_vs_opencl.py BUNDLE --tilec-run PATH --cuda-device D --opencl-device D [--repeat N]
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cases import load_cases  # noqa: E402


def kernel_time(tilec_run, manifest, device, repeat):
    """The sum of the kernels' median times of one run, in seconds."""
    proc = subprocess.run([tilec_run, manifest, "--device", device, "--seed=1",
                           "--repeat=%d" % repeat, "--json"],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("%s: %s" % (manifest, (proc.stdout + proc.stderr).strip()[-2000:]))
    report = json.loads(proc.stdout)
    return report["total"]["median_s"], sum(k["flops"] for k in report["kernels"])


def copy_gb_per_s(case, repeat):
    """torch.clone's rate on a tensor of the case's largest input (imported
    here: only the memory-bound cases need PyTorch)."""
    import torch
    from torch_baselines import copy_bandwidth
    tensors = [torch.empty(shape, dtype=torch.float32, device="cuda")
               for shape in case.input_shapes]
    return copy_bandwidth(case, tensors, max(repeat, 20))["gb_per_s"]


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
    cases = {case.name: case for case in load_cases(gpu=True)}
    print("| case | PTX ms | OpenCL ms | PTX TFLOP/s | OpenCL / PTX "
          "| copy GB/s | PTX % of copy | OpenCL % of copy |")
    print("|---|---|---|---|---|---|---|---|")
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
            print("| %s | failed: %s | | | | | | |" % (
                name, str(error).replace("\n", " ")[:300]))
            continue
        copy = ["—"] * 3
        case = cases.get(name)
        if case is not None and case.memory_bound:
            gb = copy_gb_per_s(case, args.repeat)
            copy = ["%.0f" % gb] + ["%.0f%%" % (100 * case.bytes / t * 1e-9 / gb)
                                    for t in (ptx, cl)]
        print("| %s | %.3f | %.3f | %.1f | %.2f | %s |" % (
            name, ptx * 1e3, cl * 1e3, flops / ptx / 1e12, cl / ptx, " | ".join(copy)))
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
