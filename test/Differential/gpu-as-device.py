#!/usr/bin/env python3
"""Runs programs compiled for a GPU on this machine's CPU device.

The GPU mappings that only a known GPU gets (the outer-product tiling of
contractions, split reductions, convolutions flattened into implicit GEMMs,
row reductions and their consumers fused into one work-group per row)
are chosen by the cost model from a device profile. This script takes the
target's device from `tilec devices --json`, presents it as a GPU (type
"gpu", id + "-as-gpu"), compiles each program for that profile with
--devices-from, runs the artefact with tilec-run on the real device and
compares the outputs with the interpreter's (--expect). With
--expect-schedule FIELD, every program must also have a kernel whose
schedule sets FIELD (`warp`: the outer-product tiling, `row`: a row nest;
as --emit=gpu prints it), so the test cannot pass on another mapping.

Usage: gpu-as-device.py --tilec T --tilec-run R --target opencl|spirv|glsl
                        [--expect-schedule warp|row] PROGRAM.tile[:ARGS] ...
ARGS are the program's tilec arguments with ',' for spaces
(e.g. conv3x3.tile:-D,N=2,-D,H=9).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

RUNTIMES = {"opencl": "opencl", "spirv": "vulkan", "glsl": "gl"}
EXTENSIONS = {"opencl": ".cl", "spirv": ".spv", "glsl": ".glsl"}


def devices(tilec, target, folder):
    """The real device of `target` and the dump presenting it as a GPU."""
    listing = json.loads(subprocess.run(
        [tilec, "devices", "--json"], check=True, capture_output=True,
        text=True).stdout)
    for device in listing["devices"]:
        if device["runtime"] == RUNTIMES[target]:
            gpu = dict(device, type="gpu", id=device["id"][:-2] + "-as-gpu:0")
            gpu["compute_units"] = max(gpu.get("compute_units") or 0, 2)
            path = os.path.join(folder, "devices.json")
            with open(path, "w") as file:
                json.dump(dict(listing, devices=[gpu]), file)
            return device["id"], gpu["id"], path
    sys.exit(f"no {RUNTIMES[target]} device")


def check(args, spec, real, fake, dump, folder, index):
    program, _, extra = spec.partition(":")
    extra = extra.split(",") if extra else []
    name = os.path.basename(program)
    compile_args = [args.tilec, program, *extra, f"--target={args.target}",
                    f"--devices-from={dump}", f"--device={fake}", "--no-cache"]
    if args.expect_schedule:
        gpu = subprocess.run([*compile_args, "--emit=gpu"],
                             capture_output=True, text=True)
        if gpu.returncode != 0 or f"{args.expect_schedule} = " not in gpu.stdout:
            print(f"FAILED {name}: no kernel's schedule sets "
                  f"{args.expect_schedule}\n{gpu.stderr}")
            return False
    artefact = os.path.join(folder, f"p{index}{EXTENSIONS[args.target]}")
    reference = os.path.join(folder, f"ref{index}")
    steps = [
        [*compile_args, "-o", artefact],
        [args.tilec, "run", program, *extra, "--target=interp",
         "--output-dir", reference],
        [args.tilec_run, artefact + ".json", f"--device={real}",
         "--expect", reference],
    ]
    for step in steps:
        result = subprocess.run(step, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"FAILED {name} {' '.join(extra)}: {' '.join(step)}\n"
                  f"{result.stdout}{result.stderr}")
            return False
    print(f"ok {name} {' '.join(extra)}")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--tilec-run", default="tilec-run")
    parser.add_argument("--target", choices=RUNTIMES, required=True)
    parser.add_argument("--expect-schedule", choices=["warp", "row"])
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        real, fake, dump = devices(args.tilec, args.target, folder)
        results = [check(args, spec, real, fake, dump, folder, i)
                   for i, spec in enumerate(args.programs)]
    if not all(results):
        sys.exit(1)


if __name__ == "__main__":
    main()
