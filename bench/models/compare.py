#!/usr/bin/env python3
"""Whole networks: tilec against the systems users run them with today.

    compare.py cpu [--small] [--only CASE ...] [--targets T,...]
                   [--systems S,...] [--repeat N] [--threads N] [--results F]
    compare.py bundle [OUT] [--small] [--only CASE ...] [--device D]
                      [--devices-from FILE] [--target opencl|ptx]
                      [--default-type T]
    compare.py gpu [BUNDLE] [--tilec-run PATH] [--repeat N] [--results F]

cpu: for every zoo case (zoo.py) draws the weights once, times tilec
(`tilec bench --json`, which also checks it against the interpreter) and
keeps its outputs (`tilec run --output-dir`), then runs the same network with
the same weights in PyTorch, onnxruntime and PlaidML 0.7.0 (peer.py, one
process each) and prints one markdown table: latency, ratio to tilec, and the
largest difference of each system's outputs from tilec's. A system that
cannot run gets a "not run: <reason>" row.

bundle (here) and gpu (on the H200, which has no compiler): `bundle`
compiles every case to OpenCL (or `--target=ptx`: PTX for its CUDA device)
for the H200 from its `tilec-run --devices --json` facts, with each case's
signature; `--default-type=bf16` makes the networks bf16 (weights and
activations; tilec sums products in f32 on tensor cores). `gpu` draws the same
weights there, runs the artefacts with tilec-run and the PyTorch model on
CUDA in the same precision, and prints the same table. Run `bundle --device=pocl --devices-from=` and
`gpu --torch-device=cpu` for a dry run on this machine.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys

import report
import zoo

sys.path.insert(0, os.path.dirname(zoo.MODELS_DIR))
from measure import MeasureError, run_json  # noqa: E402  (bench/measure.py)

PEER = os.path.join(zoo.MODELS_DIR, "peer.py")
TARGET_LABELS = {"llvm-x86": "tilec llvm-x86", "opencl": "tilec opencl",
                 "spirv": "tilec spirv"}
H200_DEVICES = {"opencl": "opencl:nvidia:nvidia-h200:0",
                "ptx": "cuda:nvidia:nvidia-h200:0"}
H200_FACTS = os.path.join(zoo.ROOT, "bench", "gpu", "h200-devices.json")


def log(message):
    """Progress on stderr; a command's --input flags (one per weight)
    shortened to their count."""
    inputs = re.findall(r" --input \S+", message)
    if len(inputs) > 2:
        message = re.sub(r"( --input \S+)+", " --input ... (%d files)"
                         % len(inputs), message)
    print("compare.py: " + message, file=sys.stderr, flush=True)


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run_tool(command, what):
    """Runs a command that prints text; MeasureError with its first error
    line when it fails."""
    log(" ".join(command))
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or ["no message"]
        errors = [line for line in lines if "error" in line]
        raise MeasureError("%s exited with %d: %s" % (
            what, result.returncode, (errors or lines)[0][:200]))
    return result.stdout


def run_peer(args, system, folder, out, flags):
    """peer.py in its own process, its outputs into `out`: its JSON report,
    or MeasureError with the reason it gave."""
    command = [args.python, PEER, system, "--data", folder, "--out", out,
               "--repeat", str(args.repeat), "--warmup", str(args.warmup),
               "--threads", str(args.threads)] + list(flags)
    log(" ".join(command))
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise MeasureError("timed out after %d s" % args.timeout)
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines()
        reason = lines[-1] if lines else "exit status %d" % result.returncode
        if result.returncode < 0:
            reason = "crashed (signal %d)" % -result.returncode
        raise MeasureError(reason)
    return json.loads(result.stdout)


def peer_row(args, case, system, label, folder, reference_files,
             flags=()):
    """One peer's row; `flags` go to peer.py (--device, --cuda-graph)."""
    row = report.Row(case, label)
    out = os.path.join(folder, re.sub(r"[^a-z0-9.]+", "-", label.lower()))
    try:
        result = run_peer(args, system, folder, out, flags)
    except MeasureError as e:
        row.fail(str(e))
        return row
    row.seconds, row.min_seconds = result["median_seconds"], \
        result["min_seconds"]
    row.note = "%s %s; %s" % (system if system != "torch" else "PyTorch",
                              result["version"], result["note"])
    report.compare_outputs(row, reference_files, result["outputs"])
    return row


def kernel_work(kernels):
    """What tilec's kernels compute, in GFLOP, as they count it: above the
    model's count where a fused kernel recomputes what it reads."""
    return "kernels' work %.3g GFLOP" % (
        sum(k.get("flops", 0) for k in kernels) * 1e-9)


def tilec_bench_row(args, case, target, files, primary):
    """`tilec bench --json` on one target."""
    row = report.Row(case, TARGET_LABELS[target], reference=primary)
    command = [args.tilec, "bench", case.tile_file] + case.defines() + [
        "--target=" + target, "--repeat=%d" % args.repeat,
        "--warmup=%d" % args.warmup, "--json"] + zoo.input_flags(files)
    try:
        result = run_json(command, log, failed_check_ok=True)
        total = result["total"]
        row.seconds = total["wall_median_seconds"]
        row.min_seconds = total["min_seconds"]
        check = result["check"]
        row.error_note = "interp %.2g (rel %.2g)%s" % (
            check["max_abs_error"], check["max_rel_error"],
            "" if check["ok"] else " FAIL")
        row.failed = not check["ok"]
        row.note = "kernels %s ms, %d kernels, %s; compile %.1f s" % (
            report.milliseconds(total["median_seconds"]),
            len(result["kernels"]), kernel_work(result["kernels"]),
            result["compile_seconds"])
        if result.get("peak_temporary_bytes"):
            row.note += "; temporaries %.1f MiB" % (
                result["peak_temporary_bytes"] / 2**20)
        row.note += "; " + result["device"]
    except (MeasureError, KeyError, TypeError) as e:
        row.fail(str(e))
        row.failed = True
    return row


def tilec_outputs(args, case, target, files, folder):
    """tilec's outputs on the primary target: {name: path}."""
    out = os.path.join(folder, "tilec")
    run_tool([args.tilec, "run", case.tile_file] + case.defines() +
             ["--target=" + target, "--output-dir", out] +
             zoo.input_flags(files), "tilec run")
    signature = zoo.read_signature(folder)
    return {name: os.path.join(out, name + ".npy")
            for name in signature["outputs"]}


PEER_LABELS = {"torch": "PyTorch CPU", "onnxruntime": "onnxruntime CPU",
               "plaidml": "PlaidML 0.7.0"}


def measure_cpu_case(args, case):
    folder = os.path.join(args.data, case.name)
    signature = zoo.write_signature(args.tilec, case, folder)
    files = zoo.write_inputs(signature, folder, args.seed)
    rows = [tilec_bench_row(args, case, target, files, k == 0)
            for k, target in enumerate(args.targets)]
    try:
        reference = tilec_outputs(args, case, args.targets[0], files, folder)
    except MeasureError as e:
        rows[0].failed = True
        for system in args.systems:
            row = report.Row(case, PEER_LABELS[system])
            row.fail("no tilec output to compare with: %s" % e)
            rows.append(row)
        return rows
    for system in args.systems:
        if system == "plaidml":
            try:
                text = run_tool([args.tilec, case.tile_file] +
                                case.defines() + ["--emit=plaidml"],
                                "tilec --emit=plaidml")
            except MeasureError as e:
                row = report.Row(case, PEER_LABELS[system])
                row.fail(str(e))
                rows.append(row)
                continue
            with open(os.path.join(folder, "plaidml.tile"), "w") as f:
                f.write(text)
        rows.append(peer_row(args, case, system, PEER_LABELS[system], folder,
                             reference))
    return rows


def pin_threads(threads):
    """Keeps this process and its children (tilec, the peers) on `threads`
    cores: every system gets the same cores, also PlaidML, which has no
    thread setting, and a library's threads never outnumber its cores."""
    cores = sorted(os.sched_getaffinity(0))
    if threads < len(cores):
        os.sched_setaffinity(0, cores[:threads])
    os.environ["OMP_NUM_THREADS"] = str(threads)


def cpu(args):
    pin_threads(args.threads)
    load_before = os.getloadavg()[0]
    rows = []
    for case in zoo.select(args.small, args.only):
        rows += measure_cpu_case(args, case)
    header = [
        "CPU: %s, %d cores; %s; median of %d runs after %d warm-up, one "
        "process per system, each on the same %d core(s) with as many "
        "threads (OMP_NUM_THREADS, torch.set_num_threads, onnxruntime "
        "intra_op_num_threads; PlaidML sizes its own pool); load average "
        "%.2f before, %.2f after."
        % (cpu_name(), os.cpu_count(), now(), args.repeat, args.warmup,
           args.threads, load_before, os.getloadavg()[0])]
    return rows, header


def bundle(args):
    """Compiles every case for the GPU machine, with its signature."""
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    names = []
    device = args.device or H200_DEVICES[args.target]
    types = ["--default-type=" + args.default_type] if args.default_type \
        else []
    for case in zoo.select(args.small, args.only):
        folder = os.path.join(args.out, case.name)
        zoo.write_signature(args.tilec, case, folder, types)
        facts = ["--device=" + device]
        if args.devices_from:
            facts.append("--devices-from=" + args.devices_from)
        run_tool([args.tilec, case.tile_file] + case.defines() + types +
                 ["--target=" + args.target] + facts +
                 ["-o", os.path.join(folder, ARTEFACTS[args.target])],
                 "tilec")
        names.append(case.name)
    with open(os.path.join(args.out, "bundle.json"), "w") as f:
        json.dump({"cases": names, "small": args.small,
                   "device": device, "target": args.target,
                   "default_type": args.default_type,
                   "devices_from": args.devices_from or None,
                   "date": now()}, f, indent=1)
    log("bundle in %s" % args.out)


ARTEFACTS = {"opencl": "model.cl", "ptx": "model.ptx"}


def measure_gpu_case(args, case_name, target):
    source = os.path.join(args.bundle, case_name)
    folder = os.path.join(args.data, case_name)
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(source, "signature.json"), folder)
    signature = zoo.read_signature(folder)
    case = zoo.Case(case_name, signature["model"], signature["sizes"])
    files = zoo.write_inputs(signature, folder, args.seed)
    row = report.Row(case, "tilec %s (tilec-run)" % target, reference=True)
    out = os.path.join(folder, "tilec")
    command = [args.tilec_run,
               os.path.join(source, ARTEFACTS[target] + ".json"),
               "--repeat=%d" % args.repeat, "--json", "--output-dir", out]
    if args.device:
        command.append("--device=" + args.device)
    try:
        result = run_json(command + zoo.input_flags(files), log)
        row.seconds = result["total"]["median_s"]
        row.min_seconds = result["total"]["min_s"]
        row.note = "kernel time, %d kernels, %s; %s" % (
            len(result["kernels"]), kernel_work(result["kernels"]),
            result["device"])
    except (MeasureError, KeyError, TypeError) as e:
        row.fail(str(e))
        row.failed = True
        return [row]
    reference = {name: os.path.join(out, name + ".npy")
                 for name in signature["outputs"]}
    rows = [row]
    if args.torch_device == "cuda":
        rows.append(peer_row(args, case, "torch", "PyTorch CUDA", folder,
                             reference, ["--device=cuda"]))
        rows.append(peer_row(args, case, "torch", "PyTorch CUDA graph",
                             folder, reference,
                             ["--device=cuda", "--cuda-graph"]))
    else:
        rows.append(peer_row(args, case, "torch", "PyTorch CPU", folder,
                             reference))
    return rows


def gpu(args):
    path = os.path.join(args.bundle, "bundle.json")
    try:
        with open(path) as f:
            contents = json.load(f)
    except (OSError, ValueError) as e:
        raise MeasureError("no bundle from `compare.py bundle`: %s: %s"
                           % (path, e))
    rows = []
    target = contents.get("target", "opencl")
    for name in contents["cases"]:
        rows += measure_gpu_case(args, name, target)
    artefacts = "%s artefacts%s" % (
        {"opencl": "OpenCL", "ptx": "PTX"}[target],
        " in %s (`--default-type`)" % contents["default_type"]
        if contents.get("default_type") else "")
    header = [
        "GPU: tilec's %s compiled for `%s` (%s), run by "
        "tilec-run (sum of the kernels' profiled times) against PyTorch in "
        "the same precision, eager and replaying one CUDA graph (%s around "
        "one forward call); median of %d runs after %d warm-up; %s." % (
            artefacts, contents["device"], "facts from " + os.path.basename(
                contents["devices_from"]) if contents["devices_from"]
            else "a local device",
            "CUDA events" if args.torch_device == "cuda" else "wall time",
            args.repeat, args.warmup, now())]
    return rows, header


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    sub = parser.add_subparsers(dest="mode", required=True)
    p_cpu = sub.add_parser("cpu", help="everything on this machine's CPU")
    p_bundle = sub.add_parser("bundle", help="compile for the GPU machine")
    p_gpu = sub.add_parser("gpu", help="on the GPU machine: time the bundle")
    for p in (p_cpu, p_bundle):
        p.add_argument("--tilec",
                       default=os.path.join(zoo.ROOT, "build", "bin", "tilec"))
        p.add_argument("--small", action="store_true",
                       help="the reduced sizes of zoo.py, for a dry run")
        p.add_argument("--only", nargs="+", metavar="CASE")
    for p in (p_cpu, p_gpu):
        p.add_argument("--repeat", type=int, default=20)
        p.add_argument("--warmup", type=int, default=2)
        p.add_argument("--threads", type=int, default=os.cpu_count())
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--python", default=sys.executable,
                       help="the Python that runs peer.py (with the peers "
                       "installed: bench/models/setup.sh)")
        p.add_argument("--timeout", type=int, default=900,
                       help="seconds one peer may take")
        p.add_argument("--results", help="also write the table here")
    p_cpu.add_argument("--targets", default="llvm-x86",
                       help="tilec's targets, comma-separated; the first "
                       "is the ratios' base")
    p_cpu.add_argument("--systems", default="torch,onnxruntime,plaidml")
    p_cpu.add_argument("--data", default="/tmp/tilec-models")
    p_bundle.add_argument("out", nargs="?",
                          default=os.path.join(zoo.ROOT, "gpu-bundle",
                                               "models"))
    p_bundle.add_argument("--target", choices=sorted(ARTEFACTS),
                          default="opencl")
    p_bundle.add_argument("--device", help="default: the H200's device of "
                          "the target")
    p_bundle.add_argument("--default-type", choices=["f16", "bf16", "f32"],
                          help="tilec's --default-type: the networks' "
                          "precision (default f32)")
    p_bundle.add_argument("--devices-from", default=H200_FACTS,
                          help="the GPU machine's `tilec-run --devices "
                          "--json`; empty: a device of this machine")
    p_gpu.add_argument("bundle", nargs="?",
                       default=os.path.join(zoo.ROOT, "gpu-bundle", "models"))
    p_gpu.add_argument("--tilec-run", default=os.environ.get(
        "TILEC_RUN", os.path.join(zoo.ROOT, "build", "bin", "tilec-run")))
    p_gpu.add_argument("--device", help="tilec-run's device (default: the "
                       "manifest's)")
    p_gpu.add_argument("--torch-device", choices=["cuda", "cpu"],
                       default="cuda")
    p_gpu.add_argument("--data", default="/tmp/tilec-models-gpu")
    args = parser.parse_args()

    try:
        if args.mode == "bundle":
            bundle(args)
            return
        rows, header = measure(parser, args)
    except (MeasureError, OSError) as e:
        sys.exit("compare.py: %s" % e)
    lines = report.markdown(rows, header)
    print("\n".join(lines))
    if args.results:
        report.write(lines, args.results)
    # A peer that cannot run is a finding of the table; tilec failing to
    # run, or to match its interpreter, is an error.
    if any(row.failed for row in rows):
        sys.exit(1)


def measure(parser, args):
    """The rows and header lines of `cpu` or `gpu`."""
    if args.mode == "cpu":
        args.targets = [t for t in args.targets.split(",") if t]
        args.systems = [s for s in args.systems.split(",") if s]
        unknown = [t for t in args.targets if t not in TARGET_LABELS] + [
            s for s in args.systems if s not in PEER_LABELS]
        if unknown or not args.targets:
            parser.error("unknown or no target/system: %s" % ", ".join(
                unknown))
        return cpu(args)
    return gpu(args)


if __name__ == "__main__":
    main()
