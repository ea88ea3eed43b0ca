#!/usr/bin/env python3
"""The benchmark cases (bench/cases.json) as the scripts of bench/ use them.

A case is a kernel of bench/kernels/ at given sizes. This module resolves the
sizes (the CPU's or the H200's, with -D overrides), and says what each case
computes: the -D arguments for tilec, the spec of bench/cpu/cpu-bench, the
names and shapes of the program's inputs, and the work it does (flops, or
bytes for softmax, layer norm and GELU, which do a handful of operations
per element) so every implementation's rate uses the same count, and whether
memory rather than arithmetic limits it. A case without CPU `sizes` runs only
on the H200.

As a script it prints one line per case for shell scripts, or with --json
the resolved cases as a cases file (what bench/gpu/bundle.sh ships):
    NAME KERNEL -D NAME=VALUE ...
    python3 bench/cases.py [--gpu] [--json] [--cases FILE] [--only CASE]
                           [-D [CASE.]NAME=VALUE ...]
"""

import argparse
import json
import os
import sys

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = os.path.join(BENCH_DIR, "cases.json")

# Per kernel: the size names (in the .tile header's order), the inputs (in
# parameter order) and their shapes, the output's shape, the flops of one run
# (None where the kernel does only a handful of operations per element: its
# limit is memory) and whether bench/cpu/cpu-bench has baselines for it.
KERNELS = {
    "matmul": {"sizes": ["M", "K", "N"], "inputs": ["A", "B"],
               "shapes": lambda s: [(s["M"], s["K"]), (s["K"], s["N"])],
               "output": lambda s: (s["M"], s["N"]),
               "flops": lambda s: 2 * s["M"] * s["K"] * s["N"],
               "cpu_bench": True},
    "batched_matmul": {"sizes": ["BATCH", "M", "K", "N"], "inputs": ["A", "B"],
                       "shapes": lambda s: [(s["BATCH"], s["M"], s["K"]),
                                            (s["BATCH"], s["K"], s["N"])],
                       "output": lambda s: (s["BATCH"], s["M"], s["N"]),
                       "flops": lambda s: 2 * s["BATCH"] * s["M"] * s["K"]
                       * s["N"],
                       "cpu_bench": False},
    "conv1x1": {"sizes": ["N", "H", "W", "CI", "CO"], "inputs": ["I", "F"],
                "shapes": lambda s: [(s["N"], s["H"], s["W"], s["CI"]),
                                     (s["CI"], s["CO"])],
                "output": lambda s: (s["N"], s["H"], s["W"], s["CO"]),
                "flops": lambda s: 2 * s["N"] * s["H"] * s["W"] * s["CO"]
                * s["CI"],
                "cpu_bench": True},
    "conv3x3": {"sizes": ["N", "H", "W", "CI", "CO"], "inputs": ["I", "F"],
                "shapes": lambda s: [(s["N"], s["H"], s["W"], s["CI"]),
                                     (3, 3, s["CI"], s["CO"])],
                "output": lambda s: (s["N"], s["H"], s["W"], s["CO"]),
                "flops": lambda s: 2 * s["N"] * s["H"] * s["W"] * s["CO"] * 9
                * s["CI"],
                "cpu_bench": True},
    "depthwise3x3": {"sizes": ["N", "H", "W", "C"], "inputs": ["I", "F"],
                     "shapes": lambda s: [(s["N"], s["H"], s["W"], s["C"]),
                                          (3, 3, s["C"])],
                     "output": lambda s: (s["N"], s["H"], s["W"], s["C"]),
                     "flops": lambda s: 2 * s["N"] * s["H"] * s["W"] * s["C"]
                     * 9,
                     "cpu_bench": True},
    "softmax": {"sizes": ["R", "C"], "inputs": ["L"],
                "shapes": lambda s: [(s["R"], s["C"])],
                "output": lambda s: (s["R"], s["C"]),
                "flops": None, "cpu_bench": True},
    "layer_norm": {"sizes": ["R", "C"], "inputs": ["X", "Gamma", "Beta"],
                   "shapes": lambda s: [(s["R"], s["C"]), (s["C"],),
                                        (s["C"],)],
                   "output": lambda s: (s["R"], s["C"]),
                   "flops": None, "cpu_bench": True},
    "gelu": {"sizes": ["R", "C"], "inputs": ["X"],
             "shapes": lambda s: [(s["R"], s["C"])],
             "output": lambda s: (s["R"], s["C"]),
             "flops": None, "cpu_bench": True},
}

# Below this many flops per byte of least traffic a case is limited by
# memory, not arithmetic: the H200 does about 14 f32 flops (67 TFLOP/s) per
# byte it reads (4.8 TB/s). gemv (0.5) and the depthwise convolution (2.25)
# are below, every other contraction of cases.json far above (25 and up).
MEMORY_BOUND_FLOPS_PER_BYTE = 8


def _elements(shape):
    count = 1
    for extent in shape:
        count *= extent
    return count


class CaseError(Exception):
    """A cases file or an override that is wrong; the message says where."""


class Case:
    """One benchmark case: a kernel of bench/kernels at resolved sizes."""

    def __init__(self, name, kernel, sizes):
        self.name = name
        self.kernel = kernel
        self.sizes = sizes

    @property
    def tile_file(self):
        return os.path.join(BENCH_DIR, "kernels", self.kernel + ".tile")

    @property
    def inputs(self):
        return KERNELS[self.kernel]["inputs"]

    @property
    def input_shapes(self):
        """The shapes of `inputs`, as the .tile file declares them."""
        return KERNELS[self.kernel]["shapes"](self.sizes)

    @property
    def output_shape(self):
        return KERNELS[self.kernel]["output"](self.sizes)

    @property
    def flops(self):
        """Flops of one run (2 per multiply-add), or None for the kernels
        whose rate is counted in bytes (softmax, layer norm, GELU)."""
        flops = KERNELS[self.kernel]["flops"]
        return flops(self.sizes) if flops else None

    @property
    def bytes(self):
        """The least traffic of one run: every input read once and the
        output written once, f32 (the same count for every implementation)."""
        return 4 * sum(_elements(shape) for shape in
                       self.input_shapes + [self.output_shape])

    @property
    def memory_bound(self):
        """Whether memory, not arithmetic, limits the case: no flops
        counted, or fewer than MEMORY_BOUND_FLOPS_PER_BYTE per byte."""
        return (self.flops is None or
                self.flops < MEMORY_BOUND_FLOPS_PER_BYTE * self.bytes)

    @property
    def cpu_bench(self):
        """Whether bench/cpu/cpu-bench has baselines for the kernel."""
        return KERNELS[self.kernel]["cpu_bench"]

    @property
    def unit(self):
        """GFLOP/s, or GB/s for the kernels whose flops are not counted."""
        return "GB/s" if self.flops is None else "GFLOP/s"

    @property
    def work(self):
        """Flops of one run, or bytes when the unit is GB/s."""
        return self.bytes if self.flops is None else self.flops

    def defines(self):
        """tilec's arguments binding the sizes: ['-D', 'M=1024', ...]."""
        args = []
        for name in KERNELS[self.kernel]["sizes"]:
            args += ["-D", "%s=%d" % (name, self.sizes[name])]
        return args

    def spec(self):
        """The case as bench/cpu/cpu-bench takes it: matmul:M=1,K=2,N=3."""
        return self.kernel + ":" + ",".join(
            "%s=%d" % (n, self.sizes[n]) for n in KERNELS[self.kernel]["sizes"])

    def shape(self):
        """For the table: 'M=1024 K=1024 N=1024'."""
        return " ".join("%s=%d" % (n, self.sizes[n])
                        for n in KERNELS[self.kernel]["sizes"])

    def to_json(self):
        return {"name": self.name, "kernel": self.kernel, "sizes": self.sizes}


def _apply_overrides(cases, overrides):
    """Applies -D [CASE.]NAME=VALUE: one case's size, or every case's NAME."""
    for text in overrides:
        key, _, value = text.partition("=")
        target, _, size = key.rpartition(".")
        try:
            number = int(value)
        except ValueError:
            number = 0
        if number < 1:
            raise CaseError("-D %s: the value must be a positive integer" % text)
        hits = [c for c in cases if (not target or c.name == target)
                and size in KERNELS[c.kernel]["sizes"]]
        if not hits:
            raise CaseError("-D %s: no case has a size %s" % (text, key))
        for case in hits:
            case.sizes[size] = number


def load_cases(path=DEFAULT_CASES, gpu=False, overrides=(), only=()):
    """The cases of `path`, with the H200's sizes when `gpu` (else only the
    cases that have CPU sizes), then -D `overrides`, keeping only the names
    in `only` when it is not empty."""
    try:
        with open(path) as f:
            data = json.load(f)
        entries = data["cases"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CaseError("%s: cannot read the cases: %s" % (path, e))
    cases = []
    for i, entry in enumerate(entries):
        where = "%s: cases[%d]" % (path, i)
        kernel = entry.get("kernel") if isinstance(entry, dict) else None
        if kernel not in KERNELS:
            raise CaseError("%s: unknown kernel %r (%s)"
                            % (where, kernel, ", ".join(sorted(KERNELS))))
        if not gpu and "sizes" not in entry:
            continue  # an H200-only case
        sizes = dict(entry.get("sizes", {}))
        if gpu:
            sizes.update(entry.get("gpu_sizes", {}))
        wanted = KERNELS[kernel]["sizes"]
        if sorted(sizes) != sorted(wanted) or not all(
                isinstance(v, int) and v >= 1 for v in sizes.values()):
            raise CaseError("%s: %s needs the positive sizes %s, has %s"
                            % (where, kernel, ", ".join(wanted), sizes))
        cases.append(Case(str(entry.get("name", "case%d" % i)), kernel, sizes))
    unknown = set(only) - {c.name for c in cases}
    if unknown:
        gpu_only = {str(e.get("name")) for e in entries
                    if isinstance(e, dict) and "sizes" not in e}
        raise CaseError("no case named %s in %s%s" % (
            ", ".join(sorted(unknown)), path,
            " (%s: only on the H200, no CPU sizes)"
            % ", ".join(sorted(unknown & gpu_only)) if unknown & gpu_only
            else ""))
    if only:
        cases = [c for c in cases if c.name in only]
    _apply_overrides(cases, overrides)
    return cases


def add_case_arguments(parser):
    """The options every script of bench/ takes to choose its cases."""
    parser.add_argument("--cases", default=DEFAULT_CASES,
                        help="the cases file (default: bench/cases.json)")
    parser.add_argument("-D", dest="overrides", action="append", default=[],
                        metavar="[CASE.]NAME=VALUE",
                        help="set a size of one case, or of every case that "
                        "has it (repeatable)")
    parser.add_argument("--only", action="append", default=[], metavar="CASE",
                        help="run only this case (repeatable)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_case_arguments(parser)
    parser.add_argument("--gpu", action="store_true",
                        help="the H200's sizes (gpu_sizes)")
    parser.add_argument("--json", action="store_true",
                        help="print the resolved cases as a cases file")
    args = parser.parse_args()
    try:
        cases = load_cases(args.cases, args.gpu, args.overrides, args.only)
    except CaseError as e:
        sys.exit("cases.py: %s" % e)
    if args.json:
        json.dump({"cases": [c.to_json() for c in cases]}, sys.stdout,
                  indent=1, sort_keys=True)
        print()
        return
    for case in cases:
        print(" ".join([case.name, case.kernel] + case.defines()))


if __name__ == "__main__":
    main()
