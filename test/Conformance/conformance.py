#!/usr/bin/env python3
"""Runs tilec's interpreter over the PlaidML Tile corpus (plaidml-tile/).

The corpus is read in place. For every program the `// inputs:` header gives the
shapes and dtypes of its tensors and the values of its scalar constants; tensors
are written as .npy files (random data from a fixed seed, or the literal values
the header lists) and passed with --input, constants with -D NAME=VALUE. Then

    tilec run FILE --target=interp --input ... -D ... --output-dir DIR

Three groups, chosen with --select:

  golden    programs whose header carries literal inputs (the tutorial tests
            001-015, and 113-116, 119, plus 030 with the true Winograd
            matrices): the outputs must equal the values the header or INDEX.md
            states, or numpy's result for the op the header names (conv1d,
            dilated conv2d, a transposed conv, a 3x3 conv for Winograd).
  run       every other program: it must run (exit 0) and its outputs must have
            the shapes and dtypes the header declares, where tilec's rules give
            those (the exceptions are listed in OUTPUT_OVERRIDES, with reasons),
            and the values of the numpy reference in references.py, for the
            programs that have one.
  rejected  programs that are invalid in tilec: INDEX.md marks 111 and 115's
            second binding; others break a rule of docs/language.md (named in
            REJECTED). tilec must exit with 1 and report an error located at
            FILE:LINE:COL.

A summary line "N passed, M failed" ends the output; the exit status is 1 if
anything failed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from references import REFERENCES, conv_nhwc  # noqa: E402

NUMPY_DTYPES = {
    "float32": np.float32, "float64": np.float64, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint32": np.uint32, "boolean": np.bool_, "bool": np.bool_,
}

# ---------------------------------------------------------------------------
# Header parsing
# ---------------------------------------------------------------------------


def m(*shape):
    """tutorial_test.py's m(*s): arange(-2, prod(s) - 2) in shape s."""
    return np.arange(-2, int(np.prod(shape)) - 2).reshape(shape)


def literal_value(text):
    """Evaluates the literal after '=' in an inputs header, or returns None."""
    text = re.sub(r"\s+where .*$", "", text.strip())
    if text.startswith("["):
        return np.array(json.loads(text))
    match = re.fullmatch(r"m\(([\d,\s]+)\)\s*(?:([+-])\s*(\d+))?", text)
    if match:
        value = m(*[int(d) for d in match.group(1).split(",")])
        if match.group(2):
            value = value + int(match.group(3)) * (1 if match.group(2) == "+" else -1)
        return value
    match = re.fullmatch(r"(\d+)\.\.(\d+)", text)
    if match:
        return np.arange(int(match.group(1)), int(match.group(2)) + 1)
    match = re.fullmatch(r"arange\((\d+)\)\.reshape\(([\d,\s]+)\)", text)
    if match:
        return np.arange(int(match.group(1))).reshape(
            [int(d) for d in match.group(2).split(",")])
    return None


def parse_items(header):
    """Parses 'NAME: float32[2, 3] = LITERAL; NAME: scalar constant 0.5; ...'.

    Returns {name: ("tensor", dtype, shape, literal or None) | ("const", text)},
    or None when the header is not in this form (OVERRIDES handles those)."""
    items = {}
    for part in header.split(";"):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\w+):\s*(?:scalar\s+)?(?:float\s+)?constant\s+(-?[\d.]+)"
                             r"(?:\s*\(.*\))?", part)
        if match:
            items[match.group(1)] = ("const", match.group(2))
            continue
        match = re.fullmatch(r"(\w+):\s*(\w+)\[([\d,\s]*)\]\s*(?:=\s*(.*))?", part)
        if not match or match.group(2) not in NUMPY_DTYPES:
            return None
        shape = tuple(int(d) for d in match.group(3).split(",") if d.strip())
        literal = None
        if match.group(4) is not None:
            literal = literal_value(match.group(4))
            if literal is None:
                return None
        items[match.group(1)] = ("tensor", match.group(2), shape, literal)
    return items


def parse_outputs(header):
    """Parses '// outputs: O: float32[2, 3] (...)' into {name: (dtype, shape)}."""
    outputs = {}
    for name, dtype, dims in re.findall(r"(\w+):\s*(\w+)\[([\d,\s]*)\]", header):
        if dtype in NUMPY_DTYPES:
            outputs[name] = (dtype, tuple(int(d) for d in dims.split(",") if d.strip()))
    return outputs


def read_header(path):
    fields = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            match = re.match(r"//\s*(\w+):\s*(.*)", line)
            if match:
                fields[match.group(1)] = match.group(2).strip()
    return fields


# ---------------------------------------------------------------------------
# What the headers do not say in a parseable form
# ---------------------------------------------------------------------------

# Bindings for headers written in prose ("parse-only", "any shape", symbolic
# sizes), in the parse_items form. Symbolic sizes get small concrete values.
OVERRIDES = {
    "115": {"A": ("tensor", "float32", (5, 1), None), "B": ("tensor", "float32", (1, 5), None)},
    "120": {"A": ("tensor", "float32", (5,), None), "B": ("tensor", "float32", (5,), None)},
    "125": {"A": ("tensor", "float32", (3, 4), None), "B": ("tensor", "float32", (4, 5), None)},
    "128": {"X": ("tensor", "float32", (2, 3), None)},
    "130": {"X1": ("tensor", "float32", (4, 10), None), "X2": ("const", "4"),
            "X3": ("const", "10")},
    "131": {"X1": ("tensor", "float32", (4, 10), None), "X2": ("const", "4"),
            "X3": ("const", "10")},
    "132": {"X1": ("tensor", "float32", (2, 3), None)},
    "133": {"X1": ("tensor", "float32", (4, 10), None), "X2": ("const", "4"),
            "X3": ("const", "10"), "Y": ("tensor", "float32", (4, 10), None),
            "DY": ("tensor", "float32", (4, 10), None)},
    # scatter(DY, X2, X1): DY's shape begins with X2's; the result is shaped like X1.
    "134": {"X1": ("tensor", "float32", (10, 4), None), "X2": ("tensor", "int32", (3,), None),
            "Y": ("tensor", "float32", (3, 4), None), "DY": ("tensor", "float32", (3, 4), None)},
}

# Winograd F(4x4, 3x3): Y = A^T [(G g G^T) * (B^T d B)] A for a 6x6 tile d and a
# 3x3 filter g gives the 4x4 correlation of d with g.
WINOGRAD_BT = np.array([[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
                        [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]])
WINOGRAD_G = np.array([[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
                       [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]])
WINOGRAD_AT = np.array([[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0],
                        [0, 1, -1, 8, -8, 1]])

# Second bindings of one file, run as cases of their own.
EXTRA_CASES = {
    # INDEX.md: with A[1, 5] and B[5, 1] the '=' aggregation writes each cell 5 times.
    "115_invalid": ("115", {"A": ("tensor", "float32", (1, 5), None),
                            "B": ("tensor", "float32", (5, 1), None)}),
    # 030's assertion BI - CI + 1 == BO holds only when CI = 3 (= S); see REJECTED.
    # A, B and G are the Winograd F(4x4, 3x3) transforms (Lavin and Gray), so the
    # result must be the 3x3 convolution with SAME padding.
    "030_ci3": ("030", {"I": ("tensor", "float32", (1, 32, 32, 3), None),
                        "K": ("tensor", "float32", (3, 3, 3, 16), None),
                        "A": ("tensor", "float32", (6, 4), WINOGRAD_AT.T),
                        "B": ("tensor", "float32", (6, 6), WINOGRAD_BT.T),
                        "G": ("tensor", "float32", (6, 3), WINOGRAD_G)}),
}

# Inputs that need particular values: log() needs positive data, indices must
# be in range, one_hot's Count is 0 .. C-1.
DATA_KINDS = {
    ("073", "O"): "unit", ("073", "T"): "unit",
    ("084", "O"): "unit", ("084", "T"): "unit",
    ("127", "Y"): "unit",
    ("069", "I"): "index10",
    ("092", "Idx"): "index10", ("092", "Count"): "arange",
    ("134", "X2"): "index10",
}

# Programs tilec must reject: the error message must match the regex given.
REJECTED = {
    # INDEX.md: 'C' is both a size of I and a tensor ("Reassignment to C"); §4.2.
    "111": r"'C'",
    # INDEX.md: 115 with A[1, 5], B[5, 1] breaks the '=' aggregation rule; §7.6.
    "115_invalid": r"more than once|'='",
    # With the header's shapes BI - CI + 1 = 6 - 16 + 1 is not BO = 4: §8.7 assert_.
    "030": r"assert_winograd_valid",
    # prng_step gives a handle, which cannot be an output and must go to exactly one
    # prng_value and one prng_state (§4.5, §8.6); prng_state and prng_value take a
    # handle, not a u32 tensor (§8.6). PlaidML split dropout into these pieces only
    # inside its runtime.
    "085": r"handle", "086": r"handle", "087": r"handle", "088": r"handle",
    "089": r"handle",
}

# Expected output (dtype, shape) where tilec's rules differ from what the Python
# wrapper declared in the header.
OUTPUT_OVERRIDES = {
    "063": {"O": ("uint32", (4,))},        # as_uint(AM, 32) is u32 (header: int64)
    "064": {"O": ("boolean", (4, 10))},    # MAX [4, 1] == I [4, 10] broadcasts (INDEX.md)
    "092": {"O": ("boolean", (4, 10))},    # the == combination gives bool (§7.4)
    "101": {"O": ("int32", (4, 5))},       # only weak branches: i32 (§6.3)
    "119": {"O": ("float32", (4, 3))},     # the code says O[i, j : N, M]
    "115": {"O": ("float32", (5, 5))},
    "120": {"THREE": ("float32", ())},
    "125": {"O": ("float32", (3, 5))},
    "128": {"Y": ("float32", (2, 3))},
    "130": {"Y": ("float32", (4, 10))},
    "131": {"Y": ("float32", (4, 10))},
    "132": {"Y": ("float32", (2, 3))},
    "133": {"DX1": ("float32", (4, 10)), "DX2": ("int32", ()), "DX3": ("int32", ())},
    "134": {"DX1": ("float32", (10, 4)), "DX2": ("int32", ())},
    "030_ci3": {"O": ("float32", (1, 32, 32, 16))},
}

# ---------------------------------------------------------------------------
# Expected values for the programs with literal inputs
# ---------------------------------------------------------------------------


def conv_valid(inp, kernel, dilation):
    """Keras' conv1d/conv2d with padding='valid': cross-correlation, channels last.
    inp [N, *spatial, CI], kernel [*window, CI, CO]."""
    spatial = inp.shape[1:-1]
    window = kernel.shape[:-2]
    out_shape = [s - d * (k - 1) for s, k, d in zip(spatial, window, dilation)]
    out = np.zeros([inp.shape[0]] + out_shape + [kernel.shape[-1]])
    for tap in np.ndindex(*window):
        region = tuple(slice(t * d, t * d + o) for t, d, o in zip(tap, dilation, out_shape))
        out += np.tensordot(inp[(slice(None),) + region], kernel[tap], axes=([-1], [0]))
    return out


def transposed_conv1d(inp, kernel, stride, pad, size):
    """Every input i and tap k add inp[i] * kernel[k] at position stride*i + k - pad."""
    out = np.zeros(size)
    for i, a in enumerate(inp):
        for k, b in enumerate(kernel):
            pos = stride * i + k - pad
            if 0 <= pos < size:
                out[pos] += a * b
    return out


def expected_114(inp, kernel):
    """O[x0, x1] = sum of I[(x0 + k0 - 1)/2, (x1 + k1 - 1)/2] * K[2 - k0, 2 - k1] over
    the taps whose indices are integers inside both tensors (single channel)."""
    # K is [LK0, LK1, CO, CI] = [1, 3, 3, 1]: only k0 = 2 fits, and O keeps co = 0.
    img, ker = inp[0, :, :, 0], kernel[:, :, 0, 0]
    out = np.zeros((5, 5))
    for x0 in range(5):
        for x1 in range(5):
            for k0 in range(3):
                for k1 in range(3):
                    if (x0 + k0 - 1) % 2 or (x1 + k1 - 1) % 2:
                        continue
                    i0, i1, j0, j1 = (x0 + k0 - 1) // 2, (x1 + k1 - 1) // 2, 2 - k0, 2 - k1
                    if 0 <= i0 < 3 and 0 <= i1 < 3 and 0 <= j0 < 1 and 0 <= j1 < 3:
                        out[x0, x1] += img[i0, i1] * ker[j0, j1]
    return out.reshape(1, 5, 5, 1)


def golden_expectations(program, inputs):
    """The expected {output: array} of a golden program, from its literal inputs
    ({name: array}); None for a program without golden values."""
    i = lambda name: inputs[name].astype(np.float64)  # noqa: E731
    cumsum = np.cumsum(np.arange(1, 7))
    a119 = np.zeros((4, 3))
    a119[0, 1], a119[1, 0] = 1 + 1, 3 + 0  # only i + j = 1 satisfies the constraint
    table = {
        "001": lambda: {"O": [5, 7, 9]},
        "002": lambda: {"C": [[10, -12], [19, -24]]},
        "003": lambda: {"O": [4, 5, 6]},
        "004": lambda: {"O": 1.0},
        "005": lambda: {"O": [2.5, 3.5, 4.5]},
        "006": lambda: {"O": 3.5},
        "007": lambda: {"O": 3.5},
        "008": lambda: {"O": [5, 5]},
        "009": lambda: {"O": [2, 4]},
        "010": lambda: {"O": [2, 4, 5]},
        "011": lambda: {"O": [3, 0, 1, 0, 2]},
        "012": lambda: {"O": cumsum},
        "013": lambda: {"O": cumsum},
        "014": lambda: {"O": conv_valid(i("I"), i("K"), (1,))},
        "015": lambda: {"O": conv_valid(i("I"), i("K"), (2, 3))},
        "113": lambda: {"O": transposed_conv1d(i("I"), i("K"), 2, 1, 5)},
        "114": lambda: {"O": expected_114(i("I"), i("K"))},
        # A[5, 1] and B[1, 5]: '=' is valid because j has one value; O = A x B.
        "115": lambda: {"O": i("A") @ i("B")},
        "116": lambda: {"O": np.arange(1, 13).reshape(6, 2)},
        # Winograd with the true transforms: the convolution, SAME padding (1 before).
        "030_ci3": lambda: {"O": conv_nhwc(i("I"), i("K"), 1, 1, (32, 32))},
        "119": lambda: {"O": a119},
    }
    return table[program]() if program in table else None


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


class Case:
    """One run of one program: its inputs (parse_items form) and expected outputs
    ({name: (dtype, shape)}). `key` names the case, `program` the file's number."""

    def __init__(self, key, program, path, items, outputs):
        self.key, self.program, self.path = key, program, path
        self.items, self.outputs = items, outputs
        self.note = None  # for a rejected program: the error tilec gave


def make_data(program, name, dtype, shape, literal, rng):
    np_dtype = NUMPY_DTYPES[dtype]
    if literal is not None:  # e.g. 116's "1..12" fills a [4, 3] input
        return np.ascontiguousarray(np.asarray(literal).astype(np_dtype).reshape(shape))
    kind = DATA_KINDS.get((program, name))
    if kind == "unit":
        return rng.uniform(0.05, 0.95, shape).astype(np_dtype)
    if kind == "index10":
        return rng.integers(0, 10, shape).astype(np_dtype)
    if kind == "arange":
        return np.arange(int(np.prod(shape))).reshape(shape).astype(np_dtype)
    if np_dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(np_dtype, np.integer):
        return rng.integers(0, 100, shape).astype(np_dtype)
    return rng.standard_normal(shape).astype(np_dtype)


def run_tilec(tilec, case, tmp, seed):
    """Writes the inputs and runs tilec; returns (process, inputs, command)."""
    rng = np.random.default_rng(seed)
    cmd = [tilec, "run", case.path, "--target=interp", "--output-dir", tmp]
    inputs = {}
    for name, item in case.items.items():
        if item[0] == "const":
            cmd += ["-D", "%s=%s" % (name, item[1])]
            inputs[name] = float(item[1])
            continue
        _, dtype, shape, literal = item
        value = make_data(case.program, name, dtype, shape, literal, rng)
        inputs[name] = value
        path = os.path.join(tmp, "in_%s.npy" % name)
        np.save(path, value)
        cmd += ["--input", "%s=%s" % (name, path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return proc, inputs, cmd


def check_outputs(tmp, expected_types, expected_values, tol=1e-4):
    problems = []
    for name, (dtype, shape) in expected_types.items():
        path = os.path.join(tmp, name + ".npy")
        if not os.path.exists(path):
            problems.append("no output %s.npy" % name)
            continue
        got = np.load(path)
        if got.shape != tuple(shape):
            problems.append("%s has shape %s, expected %s" % (name, got.shape, tuple(shape)))
        if got.dtype != np.dtype(NUMPY_DTYPES[dtype]):
            problems.append("%s has dtype %s, expected %s" % (name, got.dtype, dtype))
        if name in expected_values:
            want = np.asarray(expected_values[name], dtype=np.float64)
            if got.shape == want.shape and not np.allclose(
                    got.astype(np.float64), want, rtol=tol, atol=tol, equal_nan=True):
                problems.append("%s = %s, expected %s"
                                % (name, np.array2string(got, threshold=50),
                                   np.array2string(want, threshold=50)))
    return problems


def run_case(tilec, case, group, seed):
    """Returns a list of problems; empty means the case passed."""
    with tempfile.TemporaryDirectory(prefix="conf-%s-" % case.key) as tmp:
        try:
            proc, inputs, cmd = run_tilec(tilec, case, tmp, seed)
        except subprocess.TimeoutExpired:
            return ["tilec did not finish within 300 s"]
        shown = " ".join(cmd)
        if group == "rejected":
            located = re.compile(r"^\S*%s:\d+:\d+: error: " % re.escape(
                os.path.basename(case.path)), re.M)
            problems = []
            if proc.returncode != 1:
                problems.append("expected exit status 1, got %d" % proc.returncode)
            if not located.search(proc.stderr):
                problems.append("no error located at FILE:LINE:COL")
            elif not re.search(REJECTED[case.key], proc.stderr):
                problems.append("the error does not match /%s/" % REJECTED[case.key])
            if problems:
                problems.append("command: %s\n%s" % (shown, proc.stderr.rstrip()))
            else:
                case.note = proc.stderr.splitlines()[0]
            return problems
        if proc.returncode != 0:
            return ["exit status %d\n    command: %s\n%s"
                    % (proc.returncode, shown, proc.stderr.rstrip())]
        if group == "golden":
            values = golden_expectations(case.key, inputs)
            if values is None:
                return ["no golden values for this program"]
        else:
            reference = REFERENCES.get(case.key)
            values = reference(inputs) if reference else {}
        # Winograd's transforms lose a few more bits in f32 than a direct sum.
        tol = 1e-3 if case.key == "030_ci3" else 1e-4
        problems = check_outputs(tmp, case.outputs, values, tol)
        if problems:
            problems.append("command: %s" % shown)
        return problems


def collect_cases(corpus):
    """All cases, keyed by case name, each with its group."""
    cases = {}
    for fname in sorted(os.listdir(corpus)):
        match = re.match(r"(\d{3})_.*\.tile$", fname)
        if not match:
            continue
        program, path = match.group(1), os.path.join(corpus, fname)
        header = read_header(path)
        items = OVERRIDES.get(program) or parse_items(header.get("inputs", ""))
        if items is None:
            raise SystemExit("cannot read the inputs header of %s; add it to OVERRIDES"
                             % fname)
        outputs = OUTPUT_OVERRIDES.get(program) or parse_outputs(header.get("outputs", ""))
        cases[program] = Case(program, program, path, items, outputs)
    for key, (program, items) in EXTRA_CASES.items():
        base = cases[program]
        cases[key] = Case(key, program, base.path, items, OUTPUT_OVERRIDES.get(key, {}))
    return cases


def group_of(case):
    """'rejected', 'golden' (literal inputs, or 115 whose expected value is A x B)
    or 'run'."""
    if case.key in REJECTED:
        return "rejected"
    literal = any(item[0] == "tensor" and item[3] is not None for item in case.items.values())
    return "golden" if literal or case.key == "115" else "run"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilec", default="tilec", help="the tilec binary")
    parser.add_argument("--corpus", required=True,
                        help="the plaidml-tile folder, or the folder that holds it")
    parser.add_argument("--select", choices=["golden", "run", "rejected", "all"],
                        default="all")
    parser.add_argument("--only", nargs="*", default=[],
                        help="case names to run (e.g. 014 115_invalid)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    corpus = args.corpus
    if os.path.isdir(os.path.join(corpus, "plaidml-tile")):
        corpus = os.path.join(corpus, "plaidml-tile")
    cases = collect_cases(corpus)
    chosen = [c for c in cases.values()
              if (args.select == "all" or group_of(c) == args.select)
              and (not args.only or c.key in args.only)]
    passed, failed = 0, []
    for case in chosen:
        group = group_of(case)
        problems = run_case(args.tilec, case, group, args.seed)
        if problems:
            failed.append(case.key)
            print("FAIL %s (%s) %s" % (case.key, group, os.path.basename(case.path)))
            for problem in problems:
                print("    " + problem.replace("\n", "\n    "))
        else:
            passed += 1
            print("PASS %s (%s)" % (case.key, group))
            if case.note:
                print("    " + case.note)
    print("%d passed, %d failed%s" % (passed, len(failed),
                                      (": " + " ".join(failed)) if failed else ""))
    return 1 if failed or not chosen else 0


if __name__ == "__main__":
    sys.exit(main())
