"""Running the measuring programs of bench/ and reading their JSON.

Each function runs one program and returns its parsed report; a failure
raises MeasureError with the command and the end of its stderr, so the table
can say which cell failed instead of stopping the whole run.
"""

import json
import os
import re
import subprocess


class MeasureError(Exception):
    """A measuring program failed or printed something that is not JSON."""


def failure(command, result):
    """A MeasureError for a failed run: its first error line (a compiler
    may print pages of IR after it), else its last line, kept short."""
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if "error" in line]
    reason = (errors or lines or ["no message"])[0].strip()
    if len(reason) > 200:
        reason = reason[:200] + "..."
    return MeasureError("%s exited with %d: %s" % (
        os.path.basename(command[0]), result.returncode, reason))


def run_json(command, log=None, failed_check_ok=False):
    """Runs `command` (a list) and parses its stdout as JSON. With
    `failed_check_ok`, a report whose "check" failed is returned despite the
    non-zero exit it comes with (`tilec bench` exits 1 then), so the table
    can show the failed check rather than no time at all."""
    if log:
        log(" ".join(command))
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise MeasureError("%s: %s" % (command[0], e))
    try:
        report = json.loads(result.stdout)
    except ValueError as e:
        report = None
        error = e
    failed_check = (failed_check_ok and isinstance(report, dict) and
                    report.get("check", {}).get("ok") is False)
    if result.returncode != 0 and not failed_check:
        raise failure(command, result)
    if report is None:
        raise MeasureError("%s printed no JSON: %s" % (
            os.path.basename(command[0]), error))
    return report


def device_slug(device_id):
    """A device id as a file name: opencl:pocl:cpu-x:0 -> opencl_pocl_cpu-x_0."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", device_id)


def tilec_bench(tilec, case, target, device, repeat, schedule=None, log=None):
    """`tilec bench --json` of one case (schema: docs/bench.md)."""
    command = [tilec, "bench", case.tile_file] + case.defines() + [
        "--target=" + target, "--repeat=%d" % repeat, "--json"]
    if device:
        command.append("--device=" + device)
    if schedule:
        command.append("--schedule=" + schedule)
    return run_json(command, log, failed_check_ok=True)


def tilec_autotune(tilec, case, target, device, output, budget, log=None):
    """`tilec autotune` of one case, merging its winners into `output`."""
    command = [tilec, "autotune", case.tile_file] + case.defines() + [
        "--target=" + target, "-o", output, "--budget=%g" % budget]
    if device:
        command.append("--device=" + device)
    if log:
        log(" ".join(command))
    result = subprocess.run(command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        raise failure(command, result)


def cpu_baselines(cpu_bench, cases, repeat, log=None):
    """bench/cpu/cpu-bench on every case, in one process: the report of each
    case by name ({"openblas": {...} or None, "onednn": ...})."""
    report = run_json([cpu_bench, "--repeat=%d" % repeat] +
                      [case.spec() for case in cases], log)
    by_spec = {entry["case"]: entry for entry in report["cases"]}
    return report, {case.name: by_spec[case.spec()] for case in cases}


def tilec_run(tilec_run_path, manifest, inputs, repeat, output_dir, log=None):
    """`tilec-run --json` of a manifest with the given input files."""
    command = [tilec_run_path, manifest, "--repeat=%d" % repeat, "--json",
               "--output-dir", output_dir]
    for name, path in inputs.items():
        command += ["--input", "%s=%s" % (name, path)]
    return run_json(command, log)
