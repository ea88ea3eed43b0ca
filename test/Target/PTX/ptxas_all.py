#!/usr/bin/env python3
"""Assembles every .ptx file under a folder with ptxas, once per GPU
architecture given, and fails on the first that ptxas refuses.

    ptxas_all.py --ptxas PATH --arch sm_90 --arch sm_80 FOLDER

Prints "N modules assembled for sm_90, sm_80"; a module refused prints its
path and ptxas's message. Counting them makes an empty folder a failure: a
test that finds nothing to assemble must not pass.
"""

import argparse
import os
import subprocess
import sys


def module_target(path):
    """The architecture of the module's .target line."""
    with open(path) as module:
        for line in module:
            if line.startswith(".target"):
                return line.split()[1].rstrip(",;")
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ptxas", required=True)
    parser.add_argument("--arch", action="append", required=True)
    parser.add_argument("folder")
    args = parser.parse_args()
    modules = sorted(os.path.join(top, name)
                     for top, _, names in os.walk(args.folder)
                     for name in names if name.endswith(".ptx"))
    if not modules:
        print("no .ptx file under %s" % args.folder)
        return 1
    failed = 0
    for module in modules:
        target = module_target(module)
        for arch in args.arch:
            # PTX for an architecture's own features ("sm_90a": wgmma) is
            # assembled for that variant of it, the only one that runs it.
            if target == arch + "a":
                arch = target
            proc = subprocess.run([args.ptxas, "--gpu-name", arch, module,
                                   "-o", os.devnull],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                failed += 1
                print("FAIL %s (%s): %s" % (module, arch,
                                            (proc.stdout + proc.stderr).strip()))
    print("%d modules assembled for %s, %d refused" % (
        len(modules), ", ".join(args.arch), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
