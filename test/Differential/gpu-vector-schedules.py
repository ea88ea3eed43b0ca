#!/usr/bin/env python3
"""Runs programs on a GPU target with forced vector widths and loop orders,
or with the outer-product tiling.

For each program, every kernel gets a schedule with `vector` = V along its x
loop (and, with --reverse-order, the parallel loops mapped in reverse, so x
is the outermost one), written to a schedule file for the target's first
device; `tilec run --check` then compares the outputs with the interpreter.
A kernel whose loops cannot take the schedule (x not a multiple of V, no
parallel loop) gets no entry and runs on the cost model's schedule; every
other kernel must take it: the run is made with -v, which must report each
of them with the file's schedule and its vector width. Fails if an output
differs, if the mapping rejects a schedule, if -v does not show a scheduled
kernel vectorised, or if no kernel at all was scheduled.

With --outer-product, the kernels with two or more parallel loops and a
reduction directly inside them (the programs given must make those
contractions of two operands) get the outer-product tiling instead:
fragments of V, 4 x 4 registers per work-item, 8 x 16 subgroup tiles, the
block and reduction chunk given, --buffers local buffers, and with --split S
the reduction in S slices (where S divides it; other kernels unsplit).

Usage: gpu-vector-schedules.py --tilec T --target opencl|spirv|glsl --vector V
                               [--reverse-order] [--args="-D N=64 ..."]
                               [--outer-product BY,BX,CHUNK [--buffers B]
                                [--split S]]
                               FILE.tile...
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

RUNTIMES = {"opencl": "opencl", "spirv": "vulkan", "glsl": "gl"}
KERNEL_ATTRS = re.compile(
    r'tilec\.fingerprint = "([0-9a-f]+)", tilec\.kernel = "([^"]+)"')
LOOP = re.compile(r"^\s*affine\.for %\w+ = (\d+) to (\d+) \{$")
REDUCTION = re.compile(r"^\s*%\w+ = affine\.for %\w+ = (\d+) to (\d+) iter_args")
# -v's line for a kernel whose schedule came from the file, with the schedule.
APPLIED = re.compile(r"^tilec: schedule: \S+ \(([0-9a-f]+)\): from .*?: (block=.*)$", re.M)


def device_id(tilec, target):
    listing = json.loads(subprocess.run(
        [tilec, "devices", "--json"], check=True, capture_output=True,
        text=True).stdout)
    for device in listing["devices"]:
        if device["runtime"] == RUNTIMES[target]:
            return device["id"]
    sys.exit(f"no {RUNTIMES[target]} device")


def kernels(tilec, program, extra):
    """(fingerprint, name, trip counts of the outer constant loops, trip
    count of the reduction directly inside them or None)."""
    lines = subprocess.run([tilec, program, *extra, "--emit=loops"], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    starts, found = [], []
    for i, line in enumerate(lines):
        if line.startswith("    affine.for"):
            trips, reduction, in_band = [], None, True
            for nested in lines[i:]:
                match = LOOP.match(nested)
                if match and in_band:
                    trips.append(int(match.group(2)) - int(match.group(1)))
                    continue
                in_band = False
                match = REDUCTION.match(nested)
                if match:
                    reduction = int(match.group(2)) - int(match.group(1))
                    break
                if "affine.for" in nested or not nested.strip().startswith("%"):
                    break
            starts.append((trips, reduction))
        match = KERNEL_ATTRS.search(line)
        if match and line.strip().startswith("}"):
            found.append((match.group(1), match.group(2)))
    return [(fp, name, trips, reduction)
            for (fp, name), (trips, reduction) in zip(found, starts)]


def outer_product_schedule(trips, width, sizes, buffers, split):
    """The outer-product tiling of a contraction whose rows and columns are
    its two innermost parallel loops."""
    rows, columns, chunk = sizes
    count = len(trips)
    block, thread, warp = [1] * count, [1] * count, [1] * count
    block[-2:], thread[-2:], warp[-2:] = [rows, columns], [4, 4], [8, 16]
    return {"block": block + [chunk], "thread": thread, "vector": width,
            "warp": warp, "buffers": buffers, "split": split}


def schedule(trips, width, reverse):
    """x takes V elements per work-item as one vector, in 8-vector tiles."""
    count = max(len(trips), 1)
    order = list(reversed(range(count))) if reverse and count > 1 else []
    x = order[-1] if order else count - 1
    block, thread = [1] * count, [1] * count
    block[x], thread[x] = 8 * width, width
    return {"block": block, "thread": thread, "vector": width, "unroll": 1,
            "stage": [], "order": order}


def vector_loop(trips, reverse):
    """The loop that schedule() makes x."""
    count = max(len(trips), 1)
    return 0 if reverse and count > 1 else count - 1


def takes_vector(trips, width, reverse):
    """Whether the mapping can give this kernel vectors of `width`: it needs
    a parallel loop, and x's trip count a multiple of the width."""
    return bool(trips) and trips[vector_loop(trips, reverse)] % width == 0


def run(args, program, device):
    """Schedules the kernels that can take the vector, runs the program with
    -v and --check; None unless it matches and -v reports every scheduled
    kernel with the file's vector schedule."""
    found = kernels(args.tilec, program, args.args.split())
    entries = {}
    for fingerprint, name, trips, reduction in found:
        if args.outer_product:
            if len(trips) < 2 or reduction is None:
                continue
            split = args.split if reduction % args.split == 0 else 1
            sizes = list(args.outer_product)
            sizes[2] = min(sizes[2], reduction // split)
            chosen = outer_product_schedule(trips, args.vector, sizes,
                                            args.buffers, split)
        elif takes_vector(trips, args.vector, args.reverse_order):
            chosen = schedule(trips, args.vector, args.reverse_order)
        else:
            continue
        entries[fingerprint] = {
            "kernel": name, "target": args.target, "schedule": chosen,
            "seconds": 0, "default_seconds": 0, "date": "2026-11-30",
            "tilec_version": "test"}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "schedules.json")
        with open(path, "w") as file:
            json.dump({"format": "tilec-schedules", "version": 1,
                       "devices": {device: entries}}, file)
        result = subprocess.run(
            [args.tilec, "run", program, *args.args.split(),
             f"--target={args.target}", "--schedule", path, "--check", "-v"],
            capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAILED {program}\n{result.stdout}{result.stderr}")
        return None
    applied = {match.group(1): match.group(2)
               for match in APPLIED.finditer(result.stderr)}
    expected = "warp=" if args.outer_product else f"vector={args.vector} "
    missing = [entry["kernel"] for fingerprint, entry in entries.items()
               if expected not in applied.get(fingerprint, "")]
    if missing:
        print(f"FAILED {program}: -v does not report vector={args.vector} from the "
              f"schedule file for {', '.join(missing)}\n{result.stderr}")
        return None
    tiling = "the outer-product tiling" if args.outer_product \
        else f"vector={args.vector}"
    print(f"ok {os.path.basename(program)}: {len(entries)} of {len(found)} "
          f"kernels with {tiling}")
    return len(entries)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--target", choices=RUNTIMES, required=True)
    parser.add_argument("--vector", type=int, required=True)
    parser.add_argument("--reverse-order", action="store_true")
    parser.add_argument("--outer-product", metavar="BY,BX,CHUNK",
                        type=lambda text: [int(n) for n in text.split(",")])
    parser.add_argument("--buffers", type=int, default=2)
    parser.add_argument("--split", type=int, default=1)
    parser.add_argument("--args", default="",
                        help="tilec arguments for every program")
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    device = device_id(args.tilec, args.target)
    counts = [run(args, program, device) for program in args.programs]
    if None in counts:
        sys.exit(1)
    if sum(counts) == 0:
        sys.exit("no kernel kept a vector schedule")


if __name__ == "__main__":
    main()
