#!/usr/bin/env python3
"""Differential testing: runs programs on a target with --check, which compares
every output with the reference interpreter on the same inputs.

    differential.py --tilec PATH --target T random --seed S --count N
    differential.py --tilec PATH --target T files FILE.tile ...
    differential.py --tilec PATH --target T conformance --corpus DIR

`random` generates N programs with gen_programs.py (seed S; the `// tilec-args:`
line of each gives its -D flags); `files` runs the given programs as they are
(the examples bind without flags); `conformance` runs every valid program of the
PlaidML corpus with the inputs and constants test/Conformance/conformance.py
binds it with. For every program the command is

    tilec run FILE --target=T --check --seed=S [flags]

and a program fails when tilec exits non-zero (a mismatch, a crash, a compile
error) or runs past --timeout. Programs run in a small process pool (--jobs).
Nothing is minimised: each failure prints the command, tilec's output and the
program text. The last line is "N passed, N failed"; the exit status is 1 if
anything failed. `--expect-fail NAME` lists a known bug's programs (by the
name the report gives them): their failures are counted apart and do not fail
the run, and one that passes is reported so that it can leave the list.

`--bundle DIR` runs nothing on the target: for a machine without the compiler
(the GPU machine of scripts/gpu-device-check.sh) it compiles every program's
kernels into DIR/<job>/ (tilec FILE --target=T -o ...), copies the job's
input files there, writes the interpreter's outputs into DIR/<job>/ref, and
lists the jobs in DIR/jobs.txt; scripts/device_check.py then runs each with
`tilec-run MANIFEST --seed=S --input ... --expect ref` there.
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class Job:
    """One tilec run: a program, its extra arguments and a name to report."""

    def __init__(self, name, path, extra, prepare=None):
        self.name, self.path, self.extra, self.prepare = name, path, extra, prepare


def header_args(path):
    """The flags of a generated program's `// tilec-args:` line."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("// tilec-args:"):
                return shlex.split(line[len("// tilec-args:"):])
    return []


def random_jobs(args, workdir):
    """Generates the programs, each checked to bind (gen_programs.py)."""
    import gen_programs
    folder = args.keep or workdir
    os.makedirs(folder, exist_ok=True)
    jobs, invalid = [], 0
    for index in range(args.count):
        path, flags, bad, _ = gen_programs.write_program(args.seed, index, folder,
                                                         args.tilec)
        invalid += bad
        jobs.append(Job(os.path.basename(path), path, flags))
    print("generated %d programs (seed %d) in %s; %d invalid draws redrawn"
          % (args.count, args.seed, folder, invalid))
    return jobs


def file_jobs(args, workdir):
    return [Job(os.path.basename(p), p, header_args(p)) for p in args.programs]


def conformance_jobs(args, workdir):
    """Every conformance case except the rejected ones, with inputs written as
    .npy files exactly as conformance.py makes them."""
    sys.path.insert(0, os.path.join(HERE, "..", "Conformance"))
    import numpy as np
    import conformance
    corpus = args.corpus
    if os.path.isdir(os.path.join(corpus, "plaidml-tile")):
        corpus = os.path.join(corpus, "plaidml-tile")
    jobs = []
    for key, case in sorted(conformance.collect_cases(corpus).items()):
        if conformance.group_of(case) == "rejected":
            continue
        rng = np.random.default_rng(args.seed)
        extra = []
        folder = os.path.join(workdir, key)
        os.makedirs(folder, exist_ok=True)
        for name, item in case.items.items():
            if item[0] == "const":
                extra += ["-D", "%s=%s" % (name, item[1])]
                continue
            _, dtype, shape, literal = item
            value = conformance.make_data(case.program, name, dtype, shape, literal, rng)
            path = os.path.join(folder, "%s.npy" % name)
            np.save(path, value)
            extra += ["--input", "%s=%s" % (name, path)]
        jobs.append(Job(key, case.path, extra))
    return jobs


def run_job(tilec, target, seed, timeout, job):
    cmd = [tilec, "run", job.path, "--target=%s" % target, "--check",
           "--seed=%d" % seed] + job.extra
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return job, cmd, None, "timed out after %d s" % timeout
    return job, cmd, proc.returncode, proc.stdout + proc.stderr


NUMPY_TO_TILE = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32",
                 "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
                 "uint64": "u64", "float16": "f16", "float32": "f32",
                 "float64": "f64"}


def bundle_job(tilec, target, seed, bundle, job):
    """Compiles one job's kernels and reference outputs into the bundle;
    returns its jobs.txt line, or an error text."""
    import shutil
    folder = os.path.join(bundle, job.name.replace(".tile", ""))
    os.makedirs(folder, exist_ok=True)
    defines, inputs, i = [], [], 0
    while i < len(job.extra):
        flag = job.extra[i]
        if flag in ("-D", "--input"):
            value = job.extra[i + 1]
            if flag == "-D":
                defines += ["-D", value]
            else:
                # The compile binds the input's type and shape with -D, as
                # `tilec run` binds them from the file.
                import numpy as np
                name, path = value.split("=", 1)
                array = np.load(path)
                dtype = NUMPY_TO_TILE[array.dtype.name]
                defines += ["-D", "%s=%s[%s]" % (name, dtype, ",".join(
                    str(d) for d in array.shape))]
                shutil.copy(path, os.path.join(folder, name + ".npy"))
                inputs.append("%s=%s.npy" % (name, name))
            i += 2
        else:
            i += 1
    kernels = "kernel.cl" if target == "opencl" else "model.spv"
    steps = [[tilec, job.path, "--target=%s" % target, "-o",
              os.path.join(folder, kernels)] + defines,
             [tilec, "run", job.path, "--target=interp", "--seed=%d" % seed,
              "--output-dir", os.path.join(folder, "ref")] + job.extra]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            return None, "%s: %s" % (" ".join(cmd), (proc.stdout + proc.stderr).strip())
    rel = os.path.relpath(folder, bundle)
    return "\t".join([rel, kernels + ".json", str(seed)] + inputs), None


def write_bundle(args, jobs):
    os.makedirs(args.bundle, exist_ok=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: bundle_job(
            args.tilec, args.target, args.seed, args.bundle, j), jobs))
    lines = [line for line, _ in results if line]
    for job, (_, error) in zip(jobs, results):
        if error:
            print("NOT BUNDLED %s: %s" % (job.name, error))
    with open(os.path.join(args.bundle, "jobs.txt"), "a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    print("%d bundled, %d not bundled" % (len(lines), len(jobs) - len(lines)))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--target", default="llvm-x86")
    parser.add_argument("--seed", type=int, default=1,
                        help="generator seed (random) and input seed (all modes)")
    parser.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--bundle", metavar="DIR",
                        help="compile for another machine instead of running")
    parser.add_argument("--expect-fail", action="append", default=[], metavar="NAME",
                        help="a program that fails because of a known bug")
    sub = parser.add_subparsers(dest="mode", required=True)
    rand = sub.add_parser("random", help="generated programs")
    rand.add_argument("--count", type=int, default=200)
    rand.add_argument("--keep", help="write the programs here (default: a temporary folder)")
    files = sub.add_parser("files", help="the given programs")
    files.add_argument("programs", nargs="+")
    conf = sub.add_parser("conformance", help="the PlaidML corpus")
    conf.add_argument("--corpus", required=True)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tilec-diff-") as workdir:
        make = {"random": random_jobs, "files": file_jobs,
                "conformance": conformance_jobs}[args.mode]
        jobs = make(args, workdir)
        if args.bundle:
            return write_bundle(args, jobs)
        failed, expected, fixed = [], [], []
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            # A known hang need not hold a worker for the full timeout.
            results = pool.map(lambda j: run_job(
                args.tilec, args.target, args.seed,
                min(args.timeout, 20) if j.name in args.expect_fail else args.timeout,
                j), jobs)
            for job, cmd, code, output in results:
                known = job.name in args.expect_fail
                if code == 0:
                    if known:
                        fixed.append(job.name)
                        print("XPASS %s: passes now; remove its --expect-fail" % job.name)
                    continue
                if known:
                    expected.append(job.name)
                    print("XFAIL %s (%s)" % (job.name, "exit status %d" % code
                                             if code is not None else "timeout"))
                    continue
                failed.append(job.name)
                print("FAIL %s (%s)" % (job.name, "exit status %d" % code
                                        if code is not None else "timeout"))
                print("    command: %s" % " ".join(shlex.quote(c) for c in cmd))
                print("    " + output.rstrip().replace("\n", "\n    "))
                print("    program %s:" % job.path)
                with open(job.path, encoding="utf-8", errors="replace") as f:
                    print("    " + f.read().rstrip().replace("\n", "\n    "))
        passed = len(jobs) - len(failed) - len(expected)
        extra = ""
        if expected:
            extra += ", %d expected failures" % len(expected)
        if fixed:
            extra += ", %d unexpectedly passed (%s)" % (len(fixed), " ".join(fixed))
        print("%d passed, %d failed%s%s" % (passed, len(failed), extra,
                                            (": " + " ".join(failed)) if failed else ""))
        return 1 if failed or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
