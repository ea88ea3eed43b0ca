#!/usr/bin/env python3
"""On the H200: times each case of bench/gpu/targets_bundle.sh as OpenCL C,
PTX (CUDA) and GLSL (OpenGL) with tilec-run, one after the other per case
in one run, and prints a markdown table of their kernel times and the
ratios OpenCL / PTX and OpenCL / GL (above 1: that target is faster than
tilec's OpenCL). Inputs come from tilec-run's generator (--seed 1), the same
for every target. For the memory-bound cases (bench/cases.py) it also times
torch.clone of the case's largest input in the same process, as
bench/gpu/torch_baselines.py does, and gives each target's least traffic
over its time as a share of that copy bandwidth (the softmax and layer norm
floors of issue 17 are stated in it). A target whose device is not given
is left out.

    targets_vs_opencl.py BUNDLE --tilec-run PATH --opencl-device D
        [--cuda-device D] [--gl-device D] [--repeat N]
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cases import load_cases  # noqa: E402

# Each target: its bundle folder and artefact extension, its column name.
TARGETS = (("opencl", ".cl", "OpenCL"), ("ptx", ".ptx", "PTX"),
           ("glsl", ".glsl", "GL"))


def kernel_time(tilec_run, manifest, device, repeat):
    """The sum of the kernels' median times of one run, in seconds."""
    proc = subprocess.run([tilec_run, manifest, "--device", device, "--seed=1",
                           "--repeat=%d" % repeat, "--json"],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("%s: %s" % (manifest, (proc.stdout + proc.stderr).strip()[-2000:]))
    report = json.loads(proc.stdout)
    return report["total"]["median_s"]


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
    parser.add_argument("--opencl-device", required=True)
    parser.add_argument("--cuda-device")
    parser.add_argument("--gl-device")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    devices = {"opencl": args.opencl_device, "ptx": args.cuda_device,
               "glsl": args.gl_device}
    targets = [t for t in TARGETS if devices[t[0]]]
    others = targets[1:]
    names = sorted(f[:-len(".cl.json")] for f in os.listdir(os.path.join(args.bundle, "opencl"))
                   if f.endswith(".cl.json"))
    cases = {case.name: case for case in load_cases(gpu=True)}
    header = (["case"] + ["%s ms" % t[2] for t in targets] +
              ["%s TFLOP/s" % t[2] for t in targets] +
              ["OpenCL / %s" % t[2] for t in others] + ["copy GB/s"] +
              ["%s %% of copy" % t[2] for t in targets])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = 0
    for name in names:
        try:
            times = []
            for folder, extension, _ in targets:
                seconds = kernel_time(
                    args.tilec_run,
                    os.path.join(args.bundle, folder, name + extension + ".json"),
                    devices[folder], args.repeat)
                times.append(seconds)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            failed += 1
            print("| %s | failed: %s |" % (name, str(error).replace("\n", " ")[:300]))
            continue
        copy = ["—"] * (1 + len(targets))
        case = cases.get(name)
        if case is not None and case.memory_bound:
            gb = copy_gb_per_s(case, args.repeat)
            copy = ["%.0f" % gb] + ["%.0f%%" % (100 * case.bytes / t * 1e-9 / gb)
                                    for t in times]
        # The case's own count (2 M N K for a matmul): the manifests count
        # every arithmetic op, 32-bit address arithmetic included, and each
        # target's differently.
        flops = case.flops if case is not None else None
        row = ([name] + ["%.3f" % (t * 1e3) for t in times] +
               [("%.1f" % (flops / t / 1e12)) if flops else "—" for t in times] +
               ["%.2f" % (times[0] / t) for t in times[1:]] + copy)
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
