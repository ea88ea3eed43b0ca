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
binds it with. A generated program (one with a `// tilec-types:` header) is
valid by construction: it first goes through `tilec --emit=ast`, and a
rejection, a crash or a value typed otherwise than the generator predicts
fails it (program_check.py). Then, for every program, the command is

    tilec run FILE --target=T --check --seed=S [flags]

and a program fails when tilec exits non-zero (a mismatch, a crash, a compile
error) or runs past --timeout. Programs run in a small process pool (--jobs).
Nothing is minimised: each failure prints the command, tilec's output and the
program text. The last line is "N passed, N failed"; the exit status is 1 if
anything failed. `--expect-fail NAME=TEXT` names a known bug's program (by the
name the report gives it) and the diagnostic it prints: it is an expected
failure (XFAIL) only when tilec exits with a clean error (1 to 3) whose output
contains TEXT; a crash, a timeout or another error is a FAIL, and so is a pass
(XPASS: the bug is gone, the entry must go), as is a NAME no program has.

`--bundle DIR` runs nothing on the target: for a machine without the compiler
(the GPU machine of scripts/gpu-device-check.sh) it compiles every program's
kernels into DIR/<job>/ (tilec FILE --target=T -o ...), copies the job's
input files there, writes the interpreter's outputs into DIR/<job>/ref, and
lists the jobs in DIR/jobs.txt; scripts/device_check.py then runs each with
`tilec-run MANIFEST --seed=S --input ... --expect ref` there. A program that
does not compile (or whose generated types tilec disagrees with) is a FAIL
and the exit status is 1, unless it is an expected failure showing its TEXT:
a bundle never quietly holds a subset. `--compile-only` leaves out the
interpreter's outputs: a bundle that is only assembled (ptxas), never run.
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

import program_check  # noqa: E402


class Job:
    """One tilec run: a program, its extra arguments, a name to report, and
    for a generated program the types it predicts (program_check.py)."""

    def __init__(self, name, path, extra, predicted=None):
        self.name, self.path, self.extra, self.predicted = name, path, extra, predicted


def random_jobs(args, workdir):
    """Generates the programs (gen_programs.py); tilec has no say in which."""
    import gen_programs
    folder = args.keep or workdir
    os.makedirs(folder, exist_ok=True)
    jobs = []
    for index in range(args.count):
        path, flags, predicted = gen_programs.write_program(args.seed, index, folder)
        jobs.append(Job(os.path.basename(path), path, flags, predicted))
    print("generated %d programs (seed %d) in %s" % (args.count, args.seed, folder))
    return jobs


def file_jobs(args, workdir):
    """The given programs, with the flags and type predictions of their
    headers when they have them."""
    jobs = []
    for path in args.programs:
        flags, predicted = program_check.read_headers(path)
        jobs.append(Job(os.path.basename(path), path, flags, predicted))
    return jobs


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


def type_problems(tilec, job):
    """For a generated program, why tilec does not bind it as the generator
    predicts (program_check.py); "" when it does or the job is no such
    program."""
    if job.predicted is None:
        return ""
    return "\n".join(program_check.check_types(tilec, job.path, job.extra, job.predicted))


def run_job(tilec, target, seed, timeout, job, program_args=()):
    """(job, command, exit status or None for a timeout, output). A generated
    program is first checked to bind as the generator predicts: a rejection
    or a type-model mismatch is a failure of its own (exit status None)."""
    problems = type_problems(tilec, job)
    if problems:
        return job, [tilec, job.path, "--emit=ast"] + job.extra, None, problems
    cmd = [tilec, "run", job.path, "--target=%s" % target, "--check",
           "--seed=%d" % seed] + job.extra + list(program_args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return job, cmd, None, "timed out after %d s" % timeout
    return job, cmd, proc.returncode, proc.stdout + proc.stderr


NUMPY_TO_TILE = {"bool": "bool", "int8": "i8", "int16": "i16", "int32": "i32",
                 "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
                 "uint64": "u64", "float16": "f16", "float32": "f32",
                 "float64": "f64"}


# The file a bundle's job compiles its kernels to, per target.
KERNEL_FILES = {"opencl": "kernel.cl", "spirv": "model.spv", "ptx": "model.ptx",
                "glsl": "model.glsl"}


def bundle_job(tilec, target, seed, bundle, job, compile_args=(),
               compile_only=False, program_args=()):
    """Compiles one job's kernels and reference outputs into the bundle;
    returns (its jobs.txt line, 0, None) or (None, the exit status or None,
    what went wrong)."""
    import shutil
    problems = type_problems(tilec, job)
    if problems:
        return None, None, problems
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
    kernels = KERNEL_FILES[target]
    steps = [[tilec, job.path, "--target=%s" % target, "-o",
              os.path.join(folder, kernels)] + defines + list(program_args) +
             list(compile_args),
             [tilec, "run", job.path, "--target=interp", "--seed=%d" % seed,
              "--output-dir", os.path.join(folder, "ref")] + job.extra +
             list(program_args)]
    if compile_only:
        steps = steps[:1]
    for cmd in steps:
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return None, None, "%s: timed out after 300 s" % " ".join(cmd)
        if proc.returncode != 0:
            return None, proc.returncode, "%s: %s" % (
                " ".join(cmd), (proc.stdout + proc.stderr).strip())
    rel = os.path.relpath(folder, bundle)
    return "\t".join([rel, kernels + ".json", str(seed)] + inputs), 0, None


def write_bundle(args, jobs, expect):
    """Bundles every job; a job that does not compile fails the command
    (exit status 1) unless it is an expected failure showing its text, so
    the GPU run's "N passed" counts every program, not those that compiled."""
    os.makedirs(args.bundle, exist_ok=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: bundle_job(
            args.tilec, args.target, args.seed, args.bundle, j,
            args.compile_arg, args.compile_only, args.program_arg), jobs))
    lines = [line for line, _, _ in results if line]
    failed, expected = [], []
    for job, (_, code, error) in zip(jobs, results):
        result = verdict(code, error or "", expect.get(job.name))
        if result == "XFAIL":
            expected.append(job.name)
            print("XFAIL %s (not bundled: %s)" % (job.name, expect[job.name]))
        elif result != "PASS":
            failed.append(job.name)
            print("FAIL %s (%s): %s" % (job.name, "bundled, expected to fail"
                                        if result == "XPASS" else "not bundled",
                                        error or "remove its --expect-fail"))
    with open(os.path.join(args.bundle, "jobs.txt"), "a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    print("%d bundled, %d failed%s%s" % (
        len(lines),
        len(failed), ", %d expected failures" % len(expected) if expected else "",
        (": " + " ".join(failed)) if failed else ""))
    return 1 if failed or not lines else 0


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
    parser.add_argument("--compile-arg", action="append", default=[], metavar="ARG",
                        help="with --bundle: one more argument of the compile "
                             "(e.g. --devices-from=FILE, for a device's schedules)")
    parser.add_argument("--program-arg", action="append", default=[],
                        metavar="ARG",
                        help="one more argument of every program, given to "
                             "the compile and to the interpreter alike (-D, "
                             "--default-type, --allow-tf32, whose bounds the "
                             "reference must allow)")
    parser.add_argument("--compile-only", action="store_true",
                        help="with --bundle: the kernels alone, without the "
                             "interpreter's outputs (for ptxas, not a device)")
    parser.add_argument("--expect-fail", action="append", default=[], metavar="NAME=TEXT",
                        help="program NAME fails because of a known bug, with a clean "
                             "error whose output contains TEXT")
    sub = parser.add_subparsers(dest="mode", required=True)
    rand = sub.add_parser("random", help="generated programs")
    rand.add_argument("--count", type=int, default=200)
    rand.add_argument("--keep", help="write the programs here (default: a temporary folder)")
    files = sub.add_parser("files", help="the given programs")
    files.add_argument("programs", nargs="+")
    conf = sub.add_parser("conformance", help="the PlaidML corpus")
    conf.add_argument("--corpus", required=True)
    args = parser.parse_args()
    if (args.compile_only or args.compile_arg) and not args.bundle:
        parser.error("--compile-only and --compile-arg need --bundle")

    try:
        expect = parse_expected_failures(args.expect_fail)
    except ValueError as error:
        parser.error(str(error))
    with tempfile.TemporaryDirectory(prefix="tilec-diff-") as workdir:
        make = {"random": random_jobs, "files": file_jobs,
                "conformance": conformance_jobs}[args.mode]
        jobs = make(args, workdir)
        unknown = sorted(set(expect) - {j.name for j in jobs})
        if unknown:
            print("FAIL --expect-fail names no program of this run: %s" % " ".join(unknown))
            return 1
        if args.bundle:
            return write_bundle(args, jobs, expect)
        return run_all(args, jobs, expect)


def parse_expected_failures(items):
    """{program name: the text its failure must show} from NAME=TEXT items."""
    expect = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not text.strip():
            raise ValueError("--expect-fail %s: give NAME=TEXT, the text of the "
                             "diagnostic the known bug prints" % item)
        expect[name] = text
    return expect


def verdict(code, output, text):
    """PASS, FAIL, XFAIL or XPASS of one run; `text` is the diagnostic an
    expected failure must print (None when none is expected). A timeout or a
    crash never counts as the expected failure: only a clean error exit (1 to
    3, docs/cli.md) showing the expected text does."""
    if text is None:
        return "PASS" if code == 0 else "FAIL"
    if code == 0:
        return "XPASS"
    if code in (1, 2, 3) and text in output:
        return "XFAIL"
    return "FAIL"


def describe(code):
    return "exit status %d" % code if code is not None else "no run"


def run_all(args, jobs, expect):
    """Runs every job and prints the report; the exit status is 1 if any
    failed, if an expected failure passed, or if there was nothing to run."""
    failed, expected, fixed = [], [], []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        # A known failure need not hold a worker for the full timeout.
        results = pool.map(lambda j: run_job(
            args.tilec, args.target, args.seed,
            min(args.timeout, 20) if j.name in expect else args.timeout, j,
            args.program_arg), jobs)
        for job, cmd, code, output in results:
            text = expect.get(job.name)
            result = verdict(code, output, text)
            if result == "PASS":
                continue
            if result == "XFAIL":
                expected.append(job.name)
                print("XFAIL %s (%s: %s)" % (job.name, describe(code), text))
                continue
            if result == "XPASS":
                fixed.append(job.name)
                print("XPASS %s: expected to fail with '%s' but passes; remove its "
                      "--expect-fail" % (job.name, text))
                continue
            failed.append(job.name)
            print("FAIL %s (%s)" % (job.name, describe(code)))
            if text is not None:
                print("    expected a clean error showing '%s'" % text)
            print("    command: %s" % " ".join(shlex.quote(c) for c in cmd))
            print("    " + output.rstrip().replace("\n", "\n    "))
            print("    program %s:" % job.path)
            with open(job.path, encoding="utf-8", errors="replace") as f:
                print("    " + f.read().rstrip().replace("\n", "\n    "))
    passed = len(jobs) - len(failed) - len(expected) - len(fixed)
    extra = ""
    if expected:
        extra += ", %d expected failures" % len(expected)
    if fixed:
        extra += ", %d unexpectedly passed (%s)" % (len(fixed), " ".join(fixed))
    print("%d passed, %d failed%s%s" % (passed, len(failed), extra,
                                        (": " + " ".join(failed)) if failed else ""))
    return 1 if failed or fixed or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
