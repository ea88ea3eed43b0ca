#!/usr/bin/env python3
"""Cold compile time of MobileNet v1 (N=1, 224x224) for every target.

Times `tilec examples/models/mobilenet_v1.tile -D N=1 -D Res=224 -o FILE
--no-cache` for each target, without a device and for the H200's device of
that target (bench/gpu/h200-devices.json), as whole processes: the median
wall time of --repeat runs after one warm-up. With --baseline (another
tilec, e.g. a build of an earlier commit) both compilers run in turn, A B A
B ..., and the table gives the ratio of their medians, so that the
comparison holds while the machine's speed drifts.

    python3 bench/compile_time.py --tilec build/bin/tilec [--baseline OLD]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = ["examples/models/mobilenet_v1.tile", "-D", "N=1", "-D", "Res=224"]
DEVICES = "--devices-from=bench/gpu/h200-devices.json"

# (label, target, H200 device id or None)
CASES = [
    ("opencl", "opencl", None),
    ("opencl, H200", "opencl", "opencl:nvidia:nvidia-h200:0"),
    ("spirv, H200", "spirv", "vulkan:nvidia:nvidia-h200:0"),
    ("ptx", "ptx", None),
    ("ptx, H200", "ptx", "cuda:nvidia:nvidia-h200:0"),
    ("glsl", "glsl", None),
    ("glsl, H200", "glsl", "gl:nvidia:nvidia-h200:0"),
    ("llvm-x86", "llvm-x86", None),
]


def command(tilec, target, device, output):
    args = [tilec] + MODEL + ["--target=" + target, "--no-cache",
                              "-o", output]
    if device:
        args += [DEVICES, "--device=" + device]
    return args


def seconds(args):
    start = time.perf_counter()
    result = subprocess.run(args, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(args), result.stderr[-2000:]))
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilec", default=os.path.join(ROOT, "build/bin/tilec"))
    parser.add_argument("--baseline", help="another tilec, timed in turn")
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    compilers = [options.tilec] + ([options.baseline] if options.baseline else [])

    header = "| case | tilec s |"
    rule = "|---|---|"
    if options.baseline:
        header += " baseline s | tilec / baseline |"
        rule += "---|---|"
    print(header)
    print(rule)
    with tempfile.TemporaryDirectory() as out:
        for label, target, device in CASES:
            runs = [[] for _ in compilers]
            for repeat in range(options.repeat + 1):
                for index, tilec in enumerate(compilers):
                    output = os.path.join(out, "%d.%s" % (index, target))
                    elapsed = seconds(command(tilec, target, device, output))
                    if repeat > 0:  # the first round warms the caches
                        runs[index].append(elapsed)
            medians = [statistics.median(r) for r in runs]
            row = "| %s | %.3f |" % (label, medians[0])
            if options.baseline:
                row += " %.3f | %.2f |" % (medians[1], medians[0] / medians[1])
            print(row, flush=True)


if __name__ == "__main__":
    main()
