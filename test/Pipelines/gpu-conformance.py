#!/usr/bin/env python3
"""Runs tilec-pipeline-gpu over the valid programs of the PlaidML corpus.

Each program is bound from its header (conformance.py reads it: tensors as
-D 'X=dtype[shape]', constants as -D N=V), lowered to the loop level with
`tilec --emit=loops`, and mapped with `tilec-opt -tilec-pipeline-gpu`. Every
valid program must reach the gpu level: a program that does not lower to
loops fails as surely as one the mapping rejects or leaves an affine op in.
--every N keeps every N-th program (a sample). Prints "N mapped, M failed";
exits 1 on a failure or when nothing was mapped.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Conformance"))
import conformance  # noqa: E402


def tile_dtype(name):
    """The header's numpy-style name (float32, uint8, bfloat16, boolean) as
    tilec's."""
    if name == "boolean":
        return "bool"
    for numpy_prefix, tile_prefix in (("bfloat", "bf"), ("float", "f"),
                                      ("uint", "u"), ("int", "i")):
        if name.startswith(numpy_prefix):
            return tile_prefix + name[len(numpy_prefix):]
    return name


def bindings(case):
    args = []
    for name, item in case.items.items():
        if item[0] == "const":
            args += ["-D", "%s=%s" % (name, item[1])]
        else:
            _, dtype, shape, _ = item
            args += ["-D", "%s=%s[%s]" % (name, tile_dtype(dtype), ",".join(map(str, shape)))]
    return args


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--tilec-opt", default="tilec-opt")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    cases = conformance.collect_cases(os.path.join(args.corpus, "plaidml-tile"))
    valid = [c for c in cases.values() if conformance.group_of(c) != "rejected"]
    mapped, failed = 0, []
    for case in valid[::args.every]:
        loops = subprocess.run([args.tilec, case.path, "--emit=loops"] + bindings(case),
                               capture_output=True, text=True, timeout=300)
        if loops.returncode != 0:
            failed.append(case.key)
            print("FAIL %s: does not lower to loops (exit status %d): %s" % (
                case.key, loops.returncode, loops.stderr.strip()[:500]))
            continue
        gpu = subprocess.run([args.tilec_opt, "-tilec-pipeline-gpu"], input=loops.stdout,
                             capture_output=True, text=True, timeout=300)
        if gpu.returncode != 0 or "affine." in gpu.stdout or "gpu.func" not in gpu.stdout:
            failed.append(case.key)
            print("FAIL %s: %s" % (case.key, gpu.stderr.strip()[:500]))
        else:
            mapped += 1
    print("%d mapped, %d failed%s" % (mapped, len(failed),
                                      (": " + " ".join(failed)) if failed else ""))
    return 1 if failed or not mapped else 0


if __name__ == "__main__":
    sys.exit(main())
