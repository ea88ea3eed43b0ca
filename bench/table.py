#!/usr/bin/env python3
"""tilec's default and tuned schedules against the libraries, as one table.

  table.py cpu --tilec PATH --cpu-bench PATH [--target=T] [--device=D]
               [--repeat=N] [--tune [--budget=S]] [--results DIR]
  table.py gpu --bundle DIR --tilec-run PATH --torch FILE --data DIR
               [--repeat=N] [--only CASE ...]

cpu: times every case of bench/cases.json with `tilec bench --json` (the
cost model's schedules), with `--schedule` on the device's schedule file in
--results when there is one (`--tune` first writes it with `tilec
autotune`), and the OpenBLAS and oneDNN baselines with bench/cpu/cpu-bench,
all in this one run, every column of a case right after the other.

gpu (on the H200, from bench/gpu/run.sh): runs the artefacts of
bench/gpu/bundle.sh with `tilec-run` on the inputs that
bench/gpu/torch_baselines.py wrote and timed, and checks the outputs against
PyTorch's; its table also gives the times, TFLOP/s on the H200, and for the
memory-bound cases the share of the copy bandwidth that torch_baselines.py
measured. Either way it prints one markdown table (bench/README.md explains
the columns).
"""

import argparse
import datetime
import json
import os
import sys

from cases import CaseError, add_case_arguments, load_cases
from measure import (MeasureError, cpu_baselines, device_slug, tilec_autotune,
                     tilec_bench, tilec_run)

# Relative error (largest difference over the largest reference value) above
# which an output is reported as wrong: tilec's own check bounds every element
# by the error of what made it (README, --check); this only has to catch a
# wrong result, not rounding.
TOLERANCE = 1e-3


def log(message):
    print("table.py: " + message, file=sys.stderr, flush=True)


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")


class Row:
    """One case's line: seconds per implementation (None: not run) and what
    went wrong."""

    def __init__(self, case):
        self.case = case
        self.default = None
        self.tuned = None
        self.tuned_note = ""
        self.baselines = {}
        self.copy_gbps = None  # the H200's copy bandwidth (memory-bound)
        self.failures = []  # checks that failed
        self.errors = []  # measurements that could not be made

    def rate(self, seconds, tera=False):
        """GFLOP/s (TFLOP/s with `tera`) or GB/s: whole numbers from 100
        up, else 3 digits."""
        if not seconds:
            return "—"
        value = self.case.work / seconds * (
            1e-12 if tera and self.case.flops is not None else 1e-9)
        return number(value)

    def share_of_copy(self, seconds):
        """The case's least traffic per second against the copy bandwidth,
        for the memory-bound cases whose copy was measured."""
        if not seconds or not self.copy_gbps:
            return "—"
        return "%.0f%%" % (100 * self.case.bytes / seconds * 1e-9
                           / self.copy_gbps)

    def best_tilec(self):
        """The tuned time when there is one, else the default's."""
        return self.tuned or self.default


def number(value):
    """Whole numbers from 100 up, else 3 significant digits."""
    return "%.0f" % value if value >= 100 else "%.3g" % value


def ratio(numerator, denominator):
    return "%.2f" % (numerator / denominator) if numerator and denominator \
        else "—"


def milliseconds(seconds):
    return number(seconds * 1e3) if seconds else "—"


def check_cell(row):
    return ("FAIL: " + ", ".join(row.failures) if row.failures
            else "ok" if row.default or row.tuned else "—")


def print_notes(rows):
    notes = ["%s: %s" % (row.case.name, e) for row in rows for e in row.errors]
    if notes:
        print()
        for note in notes:
            print("- " + note)


def print_table(rows, baseline_names, header_lines):
    """The CPU's markdown table, its header lines and the footnotes."""
    for line in header_lines:
        print(line)
    print()
    columns = (["case", "shape", "unit", "tilec default", "tilec tuned"] +
               baseline_names + ["tuned/default"] +
               ["tilec/" + name for name in baseline_names] + ["check"])
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        cells = [row.case.name, row.case.shape(), row.case.unit,
                 row.rate(row.default), row.rate(row.tuned) + row.tuned_note]
        cells += [row.rate(row.baselines.get(name)) for name in baseline_names]
        cells.append(ratio(row.default, row.tuned))
        cells += [ratio(row.baselines.get(name), row.best_tilec())
                  for name in baseline_names]
        cells.append(check_cell(row))
        print("| " + " | ".join(cells) + " |")
    print_notes(rows)


GPU_COLUMNS = ["case", "shape", "unit", "tilec ms", "tilec default",
               "tilec tuned", "PyTorch ms", "PyTorch", "tuned/default",
               "tilec/PyTorch", "copy GB/s", "tilec % of copy",
               "PyTorch % of copy", "check"]


def print_gpu_table(rows, header_lines):
    """The H200's markdown table: times (tilec's best, PyTorch's), rates in
    TFLOP/s or GB/s, the ratios and, for the memory-bound cases, the share
    of the copy bandwidth each reaches."""
    for line in header_lines:
        print(line)
    print()
    print("| " + " | ".join(GPU_COLUMNS) + " |")
    print("|" + "---|" * len(GPU_COLUMNS))
    for row in rows:
        torch = row.baselines.get("PyTorch")
        unit = "TFLOP/s" if row.case.flops is not None else row.case.unit
        cells = [row.case.name, row.case.shape(), unit,
                 milliseconds(row.best_tilec()),
                 row.rate(row.default, tera=True),
                 row.rate(row.tuned, tera=True) + row.tuned_note,
                 milliseconds(torch), row.rate(torch, tera=True),
                 ratio(row.default, row.tuned),
                 ratio(torch, row.best_tilec()),
                 number(row.copy_gbps) if row.copy_gbps else "—",
                 row.share_of_copy(row.best_tilec()),
                 row.share_of_copy(torch), check_cell(row)]
        print("| " + " | ".join(cells) + " |")
    print_notes(rows)


def bench_seconds(report, row, what):
    """The kernel time of a `tilec bench` report; records a failed check."""
    check = report.get("check", {})
    if check and not check.get("ok", False):
        row.failures.append("tilec %s (abs %.2g, rel %.2g)" % (
            what, check.get("max_abs_error", float("nan")),
            check.get("max_rel_error", float("nan"))))
    return report["total"]["median_seconds"]


def bench_one(args, row, variant, schedules=None):
    """`tilec bench` of one row, into row.default or row.tuned; returns the
    raw report (None on failure)."""
    try:
        report = tilec_bench(args.tilec, row.case, args.target, args.device,
                             args.repeat, schedules, log)
        seconds = bench_seconds(report, row, variant)
        kernels = report.get("kernels", [])
        from_file = [k for k in kernels if k.get("schedule_source") == "file"]
        if schedules and len(from_file) < len(kernels):
            row.tuned_note = " (%d/%d tuned)" % (len(from_file), len(kernels))
        # With no kernel tuned, the "tuned" run timed the default code
        # again: a second sample of it, not a tuned time, so the ratios
        # against the baselines stay the default's.
        if not (schedules and not from_file):
            setattr(row, variant, seconds)
        return report
    except (MeasureError, KeyError, TypeError) as e:
        row.errors.append("tilec %s: %s" % (variant, e))
        return None


def tune_all(args, rows, schedules):
    """`tilec autotune` of every row into `schedules`."""
    os.makedirs(os.path.dirname(schedules), exist_ok=True)
    for row in rows:
        try:
            tilec_autotune(args.tilec, row.case, args.target, args.device,
                           schedules, args.budget, log)
        except MeasureError as e:
            row.errors.append("autotune: %s" % e)


CPU_LIBRARIES = {"openblas": "OpenBLAS", "onednn": "oneDNN"}


def baselines_one(args, row):
    """cpu-bench on one row, if it knows the row's kernel (else its cells
    stay empty); returns its raw report (None on failure or no such
    kernel)."""
    if not row.case.cpu_bench:
        return None
    try:
        report, by_case = cpu_baselines(args.cpu_bench, [row.case],
                                        args.repeat, log)
    except (MeasureError, KeyError, TypeError) as e:
        row.errors.append("baselines: %s" % e)
        return None
    for key, name in CPU_LIBRARIES.items():
        result = by_case[row.case.name].get(key)
        if result:
            row.baselines[name] = result["seconds"]
            if not result["error"] < TOLERANCE:
                row.failures.append(name)
    return report


def measure_cpu(args, cases):
    """Runs tilec and the CPU baselines; returns the rows, the baselines'
    names and the header lines. The columns of a case run one after
    another, case by case: on a shared machine the clock and the load drift
    over minutes, and a whole column measured before the next had put that
    drift between the cells of one ratio (10-25% on 2026-12-05)."""
    raw = {"tilec_default": {}, "tilec_tuned": {}, "baselines": None}
    # The first default run that succeeds names the device, and so its
    # schedule file, which --tune writes before the table is timed. Without
    # --tune those runs are the table's; with it they are thrown away, rows
    # and all, and every case is timed again after the tuning.
    probed, device = {}, None
    for case in cases:
        row = Row(case)
        report = bench_one(args, row, "default")
        probed[case.name] = (row, report)
        device = report.get("device") if report else None
        if device:
            break
    schedules = None
    rows = [Row(case) for case in cases]
    if device:
        schedules = os.path.join(args.results,
                                 device_slug(device) + ".schedules.json")
        if args.tune:
            tune_all(args, rows, schedules)
        if not os.path.exists(schedules):
            schedules = None
    elif args.tune and rows:
        rows[0].errors.append("autotune: no run of tilec bench named the "
                              "device, so nothing was tuned")
    for i, case in enumerate(cases):
        if not args.tune and case.name in probed:
            rows[i], report = probed[case.name]
        else:
            report = bench_one(args, rows[i], "default")
        row = rows[i]
        if report:
            raw["tilec_default"][row.case.name] = report
        if schedules:
            report = bench_one(args, row, "tuned", schedules)
            if report:
                raw["tilec_tuned"][row.case.name] = report
        report = baselines_one(args, row)
        if report:
            if raw["baselines"] is None:
                raw["baselines"] = dict(report, cases=[])
            raw["baselines"]["cases"] += report["cases"]
    library = ("OpenBLAS %s; oneDNN %s" % (raw["baselines"]["openblas"],
                                           raw["baselines"]["onednn"])
               if raw["baselines"] else "no baselines")
    if device:
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, "%s.%s.json"
                            % (device_slug(device), args.target))
        with open(path, "w") as f:
            json.dump(raw, f, indent=1, sort_keys=True)
    header = [
        "tilec `--target=%s` on `%s`, %s; median of %d runs, the columns "
        "of each case one after another (%s, load average %.2f)."
        % (args.target, device or "?", library, args.repeat, now(),
           os.getloadavg()[0]),
        "tuned: %s." % (schedules or "no schedule file for this device (run "
                        "with --tune)")]
    return rows, list(CPU_LIBRARIES.values()), header


def relative_error(got_path, ref_path):
    import numpy  # only the H200 side needs it

    got = numpy.load(got_path).astype(numpy.float64)
    ref = numpy.load(ref_path).astype(numpy.float64)
    if got.shape != ref.shape:
        return float("inf")
    scale = numpy.abs(ref).max()
    diff = numpy.abs(got - ref).max()
    return diff / scale if scale else diff


def compiled_for(bundle):
    """What bundle.sh says the artefacts were compiled for."""
    try:
        with open(os.path.join(bundle, "compiled_for.txt")) as f:
            return f.read().strip()
    except OSError:
        return "?"


def tuned_kernels(bundle, manifest_path):
    """(kernels with an entry in the bundle's schedule file, kernels) of a
    tuned artefact, by the fingerprints its manifest lists for its device;
    None when the bundle has no copy of the schedule file (bundle.sh puts
    it in tuned/schedules.json) or the manifest cannot be read."""
    try:
        with open(os.path.join(bundle, "tuned", "schedules.json")) as f:
            entries = json.load(f)["devices"]
        with open(manifest_path) as f:
            manifest = json.load(f)
        known = entries.get(manifest["device"], {})
        prints = [k["fingerprint"] for k in manifest["kernels"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return sum(1 for p in prints if p in known), len(prints)


def measure_gpu(args, cases):
    """Runs the bundle's artefacts on the torch script's inputs. A tuned
    artefact none of whose kernels has an entry in the schedule file is the
    default one again, and is not run."""
    with open(args.torch) as f:
        torch_report = json.load(f)
    rows = [Row(case) for case in cases]
    device = "?"
    for row in rows:
        name = row.case.name
        baseline = torch_report["cases"].get(name)
        if baseline:
            row.baselines["PyTorch"] = baseline["seconds"]
            row.copy_gbps = baseline.get("copy", {}).get("gb_per_s")
        folder = os.path.join(args.data, name)
        inputs = {i: os.path.join(folder, i + ".npy") for i in row.case.inputs}
        for variant in ("default", "tuned"):
            manifest = os.path.join(args.bundle, variant, name + ".cl.json")
            if not os.path.exists(manifest):
                continue
            if variant == "tuned":
                counted = tuned_kernels(args.bundle, manifest)
                if counted and counted[0] < counted[1]:
                    row.tuned_note = " (%d/%d tuned)" % counted
                if counted and counted[0] == 0:
                    continue
            out = os.path.join(folder, variant)
            try:
                report = tilec_run(args.tilec_run, manifest, inputs,
                                   args.repeat, out, log)
                device = report.get("device", device)
                setattr(row, variant, report["total"]["median_s"])
                output = report["outputs"][0]["name"]
                error = relative_error(os.path.join(out, output + ".npy"),
                                       os.path.join(folder, "reference.npy"))
                if not error < TOLERANCE:
                    row.failures.append("tilec %s (error %.2g)"
                                        % (variant, error))
            except (MeasureError, KeyError, IndexError, OSError) as e:
                row.errors.append("tilec %s: %s" % (variant, e))
    header = [
        "tilec-run `%s` against PyTorch %s on `%s` (%s); median of %d runs "
        "each, one run of every column (%s)."
        % (device, torch_report.get("torch", "?"),
           torch_report.get("device", "?"), torch_report.get("libraries", ""),
           args.repeat, now()),
        "compiled for: %s." % compiled_for(args.bundle),
        "tuned: %s." % ("the bundle's tuned/ artefacts"
                        if os.path.isdir(os.path.join(args.bundle, "tuned"))
                        else "none in the bundle"),
        "copy: torch.clone of the case's largest input, 2 x its bytes over "
        "its time; % of copy: the case's least traffic (inputs read once, "
        "the output written once) over its time, against that rate."]
    return rows, ["PyTorch"], header


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    modes = parser.add_subparsers(dest="mode", required=True)
    cpu = modes.add_parser("cpu", help="tilec bench and the CPU libraries")
    add_case_arguments(cpu)
    cpu.add_argument("--tilec", required=True)
    cpu.add_argument("--cpu-bench", required=True,
                     help="the baselines binary bench/run.sh builds")
    cpu.add_argument("--target", default="llvm-x86",
                     choices=["llvm-x86", "opencl", "spirv"])
    cpu.add_argument("--device", default="",
                     help="opencl/spirv: the device (tilec devices)")
    cpu.add_argument("--repeat", type=int, default=10)
    cpu.add_argument("--tune", action="store_true",
                     help="run tilec autotune first, into --results")
    cpu.add_argument("--budget", type=float, default=30,
                     help="autotune's budget per case, in seconds")
    cpu.add_argument("--results", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results"))
    gpu = modes.add_parser("gpu", help="tilec-run and PyTorch on the H200")
    gpu.add_argument("--bundle", required=True)
    gpu.add_argument("--tilec-run", required=True)
    gpu.add_argument("--torch", required=True,
                     help="torch_baselines.py's JSON report")
    gpu.add_argument("--data", required=True,
                     help="the folder of inputs and reference outputs")
    gpu.add_argument("--repeat", type=int, default=20)
    gpu.add_argument("--only", action="append", default=[], metavar="CASE",
                     help="run only this case of the bundle (repeatable)")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be positive")
    try:
        if args.mode == "cpu":
            cases = load_cases(args.cases, False, args.overrides, args.only)
            rows, baselines, header = measure_cpu(args, cases)
        else:
            cases = load_cases(os.path.join(args.bundle, "cases.json"),
                               only=args.only)
            rows, baselines, header = measure_gpu(args, cases)
    except (CaseError, OSError, ValueError, KeyError) as e:
        sys.exit("table.py: %s" % e)
    if args.mode == "cpu":
        print_table(rows, baselines, header)
    else:
        print_gpu_table(rows, header)
    if any(row.failures for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
