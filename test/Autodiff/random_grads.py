#!/usr/bin/env python3
"""Random gradient checks: `tilec grad --check` on generated programs.

    random_grads.py --tilec PATH --seed S --count N [--target T] [--jobs J]
                    [--keep DIR] [--timeout SEC] [--verbose]

Generates N programs with test/Differential/gen_programs.py (seed S; the
`// tilec-args:` line of each gives its -D flags) and, for each, takes its
float parameters (f16, bf16, f32, f64, as `tilec FILE --emit=ast` lists
them) as the wrts. A program with no float parameter or no float output is
skipped (--vjp differentiates the float outputs only). Otherwise it runs

    tilec grad FILE ARGS --vjp --wrt=X,Y --check --dirs=2 --seed=1 --eps=E

for E = 1e-6 and 1e-7: the same seed draws the same inputs and the same
directions, only the step of the central difference changes. The program is

  - "not differentiable" when tilec refuses it with one of the documented
    cannot-differentiate errors (a '*' aggregation, a '>'/'<' aggregation
    with a combination, a 'reverse_grad' scale that does not broadcast);
  - "ok" when both runs pass (every wrt within tilec's 1e-5);
  - "non-smooth" when a run reports a MISMATCH for some wrt but the
    finite differences cannot judge it:
      * a kink: the two finite differences of that wrt disagree with each
        other by more than 1e-3 relative (a kink, tie or discontinuity
        within the step, where a central difference is not a derivative);
      * step noise: they agree to 1e-3, but the analytic value is as close
        to one of them as they are to each other (rounding at the small
        step, truncation at the large one), or all three are below 1e-12
        (zero to f64 precision; tilec's relative error floors its scale
        at 1e-12, so an analytic 2e-17 against an exact 0 is a MISMATCH);
    the summary's second-to-last line says how many of each;
  - FAIL otherwise: a mismatch whose finite differences agree with each
    other and not with the analytic value (the gradient is wrong), a
    crash, a timeout, or any other error.

Relative disagreement is measured against the largest of the two finite
differences and the analytic value, as tilec measures its error, so two
tiny noisy differences cannot excuse a wrong non-zero gradient.

Two finite differences are compared at the same direction only: a run
prints its worst direction, and the analytic value it prints does not
depend on the step, so equal analytic values mean the same direction. When
the two runs printed different directions for a mismatching wrt, both steps
are run again on that wrt alone with --dirs=1 (one direction, the same in
both), and that pair decides (a FAIL if that direction passes at both
steps: the mismatch cannot be paired).

`reverse_grad(X, G)` makes the derivative flowing back to X -G times the
incoming one (docs/language.md 8.8), so finite differences of the identity
it computes disagree with tilec by design. The checks run on a copy of the
program (FILE_fd.tile) whose scales are replaced by -1s of G's shape,
`(G == G) ? -1 : -1`: the declared derivative is then the true one, a scale
that does not broadcast is still refused, and the rule still broadcasts a
tensor scale. The gradient program of the backend step comes from the
original program.

Every program that differentiated (ok or non-smooth) then has its gradient
program written with `tilec grad FILE ARGS --vjp --wrt=... -o GRAD.tile` and
run with `tilec run GRAD.tile --target=T --check --seed=1`, *without* the
program's -D flags (the gradient program has typed parameters, so it needs
none); a non-zero exit is a FAIL. --target none skips this step.

Each FAIL prints the program path, the commands and tilec's output, then the
program. The last line is

    random grads: N programs, K differentiated (ok O, non-smooth S), D not differentiable, F failed

and the exit status is 1 when F > 0 (or when no program differentiated, so a
broken harness cannot pass by checking nothing).
"""

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Differential"))

import gen_programs  # noqa: E402

FLOAT_TYPES = {"f16", "bf16", "f32", "f64"}
STEPS = ("1e-6", "1e-7")
# tilec's pass mark of --check (GradCommand.cpp, kCheckTolerance).
TOLERANCE = 1e-5
# Two finite differences further apart than this (relative) mean the step
# straddles something non-smooth.
DISAGREE = 1e-3
# Directional derivatives below this are zero for this check: the programs'
# values are O(1) and f64 rounds their sums at about 1e-16.
ZERO = 1e-12

# `tilec FILE --emit=ast`: "input A: f32[3, 6]", "output T2: i32[7, 7, 7]".
AST_PORT = re.compile(r"^(input|output) ([\w.]+): (\w+)\[([\d, ]*)\]\s*$", re.M)
# One wrt's line of `tilec grad --check`.
CHECK_LINE = re.compile(
    r"^D_(\S+): largest relative error (\S+) over (\d+) direction\(s\) "
    r"\(analytic (\S+), finite difference (\S+)\)(  MISMATCH)?$")
# The documented refusals (lib/Autodiff: ContractionRules.cpp,
# ElementwiseRules.cpp); any other error is a FAIL.
NOT_DIFFERENTIABLE = re.compile(
    r"error: cannot differentiate '[^']*' with respect to (?:'[^']*'|it): "
    r"(?:the path goes through a '\*' aggregation, which tilec cannot differentiate yet"
    r"|the path goes through a '[<>]' aggregation with a '[*+?]' combination, "
    r"which has no derivative"
    r"|the scale of 'reverse_grad' does not broadcast)")
# The one warning that is not a problem: a wrt the loss does not depend on
# (its gradient is zeros).
HARMLESS = re.compile(r"warning: '[^']*' does not depend on '[^']*'; its gradient is zero")
# The error line of a --check that found a mismatch (exit status 1).
MISMATCH_ERROR = "error: grad --check: a gradient differs from finite differences"


class Run:
    """One tilec command: argv, exit status (None: timed out), output."""

    def __init__(self, argv, code, out, err):
        self.argv, self.code, self.out, self.err = argv, code, out, err

    def text(self):
        status = "timed out" if self.code is None else "exit status %d" % self.code
        return "$ %s\n(%s)\n%s%s" % (" ".join(shlex.quote(a) for a in self.argv),
                                     status, self.out, self.err)


def run(argv, timeout):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        def s(b):
            return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return Run(argv, None, s(e.stdout), s(e.stderr))
    return Run(argv, proc.returncode, proc.stdout, proc.stderr)


class Result:
    """A program's verdict: kind is skip-input, skip-output, nd, ok,
    non-smooth or FAIL; runs are the commands that explain it; note says
    why in a few words."""

    def __init__(self, path, kind, note="", runs=()):
        self.path, self.kind, self.note, self.runs = path, kind, note, list(runs)
        # For a non-smooth one: True when only step noise excused it.
        self.noise = False
        # For an ok one: True when every gradient it checked was zero.
        self.trivial = False
        # The file the checks ran: the program or its reverse_grad copy.
        self.checked = path


def parse_check(r, wrts):
    """{wrt: (rel error, analytic, fd, mismatch)} from a --check run, or a
    string saying why the run is not a clean check (then a FAIL)."""
    if r.code is None:
        return "timed out"
    if r.code not in (0, 1):
        return "exit status %d" % r.code
    found = {}
    for line in r.out.splitlines():
        m = CHECK_LINE.match(line)
        if not m:
            return "unexpected output line: %s" % line
        found[m.group(1)] = (float(m.group(2)), float(m.group(4)),
                             float(m.group(5)), bool(m.group(6)))
    if sorted(found) != sorted(wrts):
        return "reported wrts %s, asked for %s" % (sorted(found), sorted(wrts))
    mismatch = any(v[3] for v in found.values())
    for line in r.err.splitlines():
        if mismatch and line.endswith(MISMATCH_ERROR):
            continue
        if "error" in line or ("warning" in line and not HARMLESS.search(line)):
            return "unexpected diagnostic: %s" % line.strip()
    # tilec's verdict and exit status must agree with the numbers it prints
    # (up to their printing: the error has 3 significant digits).
    for w, (rel, _, _, bad) in found.items():
        if (bad and rel < 0.99 * TOLERANCE) or (not bad and not rel < 1.01 * TOLERANCE):
            return "D_%s: error %g but MISMATCH=%s" % (w, rel, bad)
    if (r.code == 1) != mismatch:
        return "exit status %d with%s a MISMATCH" % (r.code, "" if mismatch else "out")
    return found


def disagree(f1, f2, analytic):
    """Whether two finite differences of one direction are further apart
    than DISAGREE, relative to the largest of them and the analytic value
    (the scale tilec's own relative error uses; including the analytic
    value keeps two tiny noisy differences from excusing a wrong gradient).
    A non-finite difference means the step left the function's domain."""
    if not (math.isfinite(f1) and math.isfinite(f2)):
        return True
    scale = max(abs(f1), abs(f2), abs(analytic) if math.isfinite(analytic) else 0, 1e-12)
    return abs(f1 - f2) / scale > DISAGREE


def split_call(text, start):
    """For the call whose '(' is at text[start]: (its top-level arguments,
    the index just past its ')')."""
    depth, args, begin = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                args.append(text[begin:i])
                return args, i + 1
        elif c == "," and depth == 1:
            args.append(text[begin:i])
            begin = i + 1
    raise ValueError("unbalanced call at %d" % start)


def true_derivative(text):
    """The program with every `reverse_grad(X, G)` made
    `reverse_grad(X, (G == G) ? -1 : -1)`: the derivative that flows back
    is then -(-1) = 1 times the one that reaches it, the true derivative of
    the identity it computes, so finite differences can check it (with G
    itself, tilec's gradient differs from them by design: docs/language.md
    8.8). The scale keeps G's shape, so a scale that does not broadcast is
    still refused, and the rule's broadcasting of the scale is still used."""
    out, i = [], 0
    for m in re.finditer(r"(?<![\w.])reverse_grad\s*\(", text):
        if m.start() < i:
            continue  # inside a call already rewritten
        open_paren = m.end() - 1
        args, end = split_call(text, open_paren)
        if len(args) != 2:
            raise ValueError("reverse_grad with %d arguments" % len(args))
        g = args[1].strip()
        out.append(text[i:m.start()])
        out.append("reverse_grad(%s, (%s == %s) ? -1 : -1)" % (
            true_derivative(args[0]), g, g))
        i = end
    out.append(text[i:])
    return "".join(out)


def check_command(tilec, path, flags, wrts, step, dirs=2):
    return [tilec, "grad", path] + flags + [
        "--vjp", "--wrt=" + ",".join(wrts), "--check", "--dirs=%d" % dirs,
        "--seed=1", "--eps=" + step]


def classify(tilec, path, flags, wrts, timeout):
    """The Result of the two --check runs of the program at `path` (and of
    the follow-up runs when their worst directions differ): nd, ok,
    non-smooth or FAIL."""
    runs = []
    first = run(check_command(tilec, path, flags, wrts, STEPS[0]), timeout)
    runs.append(first)
    if first.code == 1 and NOT_DIFFERENTIABLE.search(first.err):
        # Only the refusal and its notes may be printed.
        others = [l for l in first.err.splitlines()
                  if "error:" in l and not NOT_DIFFERENTIABLE.search(l)]
        if first.out.strip() or others:
            return Result(path, "FAIL", "refusal with other output", runs)
        return Result(path, "nd", "", runs)
    second = run(check_command(tilec, path, flags, wrts, STEPS[1]), timeout)
    runs.append(second)
    parsed = [parse_check(r, wrts) for r in (first, second)]
    for r, p in zip((first, second), parsed):
        if isinstance(p, str):
            return Result(path, "FAIL", p, runs)
    kinks, noise = [], []
    for w in wrts:
        a, b = parsed[0][w], parsed[1][w]
        if not (a[3] or b[3]):
            continue
        if a[1] == b[1] or (math.isnan(a[1]) and math.isnan(b[1])):
            pair = (a, b)
        else:
            # Different worst directions: pair one direction on its own.
            again = [run(check_command(tilec, path, flags, [w], s, dirs=1), timeout)
                     for s in STEPS]
            runs += again
            p = [parse_check(r, [w]) for r in again]
            for q in p:
                if isinstance(q, str):
                    return Result(path, "FAIL", "follow-up: " + q, runs)
            pair = (p[0][w], p[1][w])
            if not (pair[0][3] or pair[1][3]):
                # The single direction passes at both steps: the mismatch
                # is in a direction the pairing cannot reproduce.
                return Result(path, "FAIL", "D_%s mismatches in a direction that "
                              "cannot be paired" % w, runs)
        (_, analytic, f1, _), (_, _, f2, _) = pair
        what = "D_%s: analytic %r, finite differences %r (h=%s), %r (h=%s)" % (
            w, analytic, f1, STEPS[0], f2, STEPS[1])
        if disagree(f1, f2, analytic):
            kinks.append(what)
        elif min(abs(analytic - f1), abs(analytic - f2)) <= abs(f1 - f2):
            # The analytic value is as close to one difference as the two
            # differences are to each other: rounding at the small step or
            # truncation at the large one, not a wrong gradient.
            noise.append(what)
        elif max(abs(analytic), abs(f1), abs(f2)) < ZERO:
            # All three are zero to f64 precision (e.g. an analytic 2e-17
            # where the true derivative is exactly 0): tilec's relative
            # error floors its scale at 1e-12, so such rounding reads as a
            # mismatch.
            noise.append(what)
        else:
            return Result(path, "FAIL", what + ": the finite differences agree "
                          "with each other, not with the analytic value", runs)
    # Whether some wrt had a non-zero gradient along some direction: a
    # program whose every gradient is zero checks little.
    trivial = all(p[w][1] == 0 and p[w][2] == 0 for p in parsed for w in wrts)
    if kinks or noise:
        result = Result(path, "non-smooth", "; ".join(kinks + noise), runs)
        result.noise = not kinks
        return result
    result = Result(path, "ok", "", runs)
    result.trivial = trivial
    return result


def backend(tilec, target, path, flags, wrts, result, timeout):
    """Writes the gradient program and runs it on the target against the
    interpreter, without the program's flags; a failure turns the result
    into a FAIL."""
    grad = path[:-len(".tile")] + "_grad.tile"
    steps = [[tilec, "grad", path] + flags + ["--vjp", "--wrt=" + ",".join(wrts),
                                               "-o", grad],
             [tilec, "run", grad, "--target=" + target, "--check", "--seed=1"]]
    for argv in steps:
        r = run(argv, timeout)
        result.runs.append(r)
        bad = [l for l in r.err.splitlines()
               if ("error" in l or "warning" in l) and not HARMLESS.search(l)]
        if r.code != 0 or bad:
            result.kind = "FAIL"
            errors = [l.strip() for l in r.err.splitlines() if "error" in l]
            result.note = "%s: %s" % ("gradient program" if argv[1] == "grad"
                                      else "on " + target,
                                      errors[0] if errors else "exit status %s" % r.code)
            return result
    return result


def ports(tilec, path, flags, timeout):
    """([float parameters], [float outputs]) of a program, or a Run that
    failed."""
    r = run([tilec, path, "--emit=ast"] + flags, timeout)
    if r.code != 0:
        return r
    inputs, outputs = [], []
    for kind, name, dtype, _ in AST_PORT.findall(r.out):
        if dtype in FLOAT_TYPES:
            (inputs if kind == "input" else outputs).append(name)
    return inputs, outputs


def one(args, folder, index):
    """The Result of program `index`; a Python error in the harness is a
    FAIL of that program rather than the end of the run."""
    path = os.path.join(folder, "gen_%d_%04d.tile" % (args.seed, index))
    try:
        return one_program(args, folder, index)
    except Exception as error:  # noqa: BLE001
        return Result(path, "FAIL", "harness error: %r" % error)


def one_program(args, folder, index):
    path, flags, _ = gen_programs.write_program(args.seed, index, folder)
    p = ports(args.tilec, path, flags, args.timeout)
    if isinstance(p, Run):
        return Result(path, "FAIL", "tilec --emit=ast fails on a valid program", [p])
    wrts, outs = p
    if not wrts:
        return Result(path, "skip-input")
    if not outs:
        return Result(path, "skip-output")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    checked = path
    if "reverse_grad" in text:
        checked = path[:-len(".tile")] + "_fd.tile"
        with open(checked, "w", encoding="utf-8") as f:
            f.write(true_derivative(text))
    result = classify(args.tilec, checked, flags, wrts, args.timeout)
    result.path, result.checked = path, checked
    if result.kind in ("ok", "non-smooth") and args.target != "none":
        result = backend(args.tilec, args.target, path, flags, wrts, result, args.timeout)
    return result


def report(result):
    print("FAIL %s: %s" % (result.path, result.note))
    for r in result.runs:
        print("    " + r.text().rstrip().replace("\n", "\n    "))
    # The program, and the copy the checks ran when reverse_grad made one.
    shown_files = [result.path] + ([result.checked] if result.checked != result.path else [])
    for shown in filter(os.path.exists, shown_files):
        print("    program %s:" % shown)
        with open(shown, encoding="utf-8", errors="replace") as f:
            print("    " + f.read().rstrip().replace("\n", "\n    "))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilec", default="tilec")
    parser.add_argument("--seed", type=int, default=1, help="generator seed")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--start", type=int, default=0,
                        help="first program index (to rerun one program)")
    parser.add_argument("--target", default="llvm-x86",
                        help="backend for the gradient programs, or 'none'")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per tilec command")
    parser.add_argument("--keep", help="write programs here (default: a temporary folder)")
    parser.add_argument("--verbose", action="store_true",
                        help="also print each non-smooth program and why")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tilec-grads-") as workdir:
        folder = args.keep or workdir
        os.makedirs(folder, exist_ok=True)
        indices = range(args.start, args.start + args.count)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda k: one(args, folder, k), indices))
        counts = {}
        for result in results:
            counts[result.kind] = counts.get(result.kind, 0) + 1
            if result.kind == "FAIL":
                report(result)
            elif result.kind == "non-smooth" and args.verbose:
                print("non-smooth (%s) %s: %s" % ("noise" if result.noise else "kink",
                                                  result.path, result.note))
    c = counts.get
    differentiated = c("ok", 0) + c("non-smooth", 0)
    noisy = sum(1 for r in results if r.kind == "non-smooth" and r.noise)
    zeros = sum(1 for r in results if r.kind == "ok" and r.trivial)
    print("skipped: %d without a float parameter, %d without a float output; "
          "ok: %d with every gradient zero; non-smooth: %d kinks, %d step noise" % (
              c("skip-input", 0), c("skip-output", 0), zeros,
              c("non-smooth", 0) - noisy, noisy))
    print("random grads: %d programs, %d differentiated (ok %d, non-smooth %d), "
          "%d not differentiable, %d failed" % (
              len(results), differentiated, c("ok", 0), c("non-smooth", 0),
              c("nd", 0), c("FAIL", 0)))
    return 1 if c("FAIL", 0) or not differentiated else 0


if __name__ == "__main__":
    sys.exit(main())
