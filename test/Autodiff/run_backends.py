#!/usr/bin/env python3
"""Gradient programs on a backend against the reference interpreter.

For each case of Inputs/ (f64 programs with a loss output), makes an f32
copy, prints its gradient program with `tilec grad -o`, and runs that with
`tilec run --check --target=T`, which compares every output with the
interpreter under the comparison rule of the README. Prints one line per
case and exits non-zero on the first failure, with tilec's output.

  run_backends.py --tilec PATH --target T --out DIR CASE:WRT1,WRT2 ...
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("cases", nargs="+", help="NAME:WRT1,WRT2")
    args = ap.parse_args()
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
    os.makedirs(args.out, exist_ok=True)
    for case in args.cases:
        name, wrts = case.split(":")
        with open(os.path.join(here, name + ".tile")) as f:
            text = re.sub(r"\bf64\b", "f32", f.read()).replace(", 64)", ", 32)")
        forward = os.path.join(args.out, name + ".tile")
        with open(forward, "w") as f:
            f.write(text)
        grad = os.path.join(args.out, name + "_grad.tile")
        steps = [[args.tilec, "grad", forward, "--wrt=" + wrts, "-o", grad],
                 [args.tilec, "run", grad, "--target=" + args.target, "--check",
                  "--seed=1"]]
        for argv in steps:
            proc = subprocess.run(argv, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.stdout.write("%s %s: FAILED: %s\n%s%s" % (
                    name, args.target, " ".join(argv), proc.stdout, proc.stderr))
                return 1
        print("%s %s: gradients match the interpreter" % (name, args.target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
