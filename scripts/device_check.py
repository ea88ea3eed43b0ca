#!/usr/bin/env python3
"""Runs a bundle of compiled programs on this machine's device and compares
every output with the interpreter's, computed where the bundle was made.

    device_check.py BUNDLE_DIR [--tilec-run PATH] [--device D] [--jobs N]

BUNDLE_DIR is what `differential.py --target=T --bundle BUNDLE_DIR` wrote:
jobs.txt lists, per program, its folder, manifest, seed and input files.
Each runs as `tilec-run MANIFEST --seed=S --input NAME=FILE ... --expect ref`
(tilec-run compares with the same rule as `tilec run --check`). Prints one
FAIL block per failing program and a last line "N passed, N failed"; exits 1
if anything failed. Needs only python3 and tilec-run (no numpy, no LLVM).
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run(tilec_run, device, bundle, line):
    folder, manifest, seed, *inputs = line.rstrip("\n").split("\t")
    here = os.path.join(bundle, folder)
    cmd = [tilec_run, os.path.join(here, manifest), "--seed=%s" % seed,
           "--expect", os.path.join(here, "ref")]
    for item in inputs:
        name, path = item.split("=", 1)
        cmd += ["--input", "%s=%s" % (name, os.path.join(here, path))]
    if device:
        cmd += ["--device", device]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return folder, cmd, None, "timed out"
    return folder, cmd, proc.returncode, proc.stdout + proc.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle")
    parser.add_argument("--tilec-run", default="tilec-run")
    parser.add_argument("--device", default="")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()
    with open(os.path.join(args.bundle, "jobs.txt"), encoding="utf-8") as f:
        lines = [l for l in f if l.strip()]
    failed = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for folder, cmd, code, output in pool.map(
                lambda l: run(args.tilec_run, args.device, args.bundle, l), lines):
            if code == 0:
                continue
            failed.append(folder)
            print("FAIL %s (%s)" % (folder, "exit status %d" % code
                                    if code is not None else "timeout"))
            print("    command: %s" % " ".join(cmd))
            print("    " + output.strip().replace("\n", "\n    ")[-3000:])
    print("%d passed, %d failed%s" % (len(lines) - len(failed), len(failed),
                                      (": " + " ".join(failed)) if failed else ""))
    return 1 if failed or not lines else 0


if __name__ == "__main__":
    sys.exit(main())
