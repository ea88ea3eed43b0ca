#!/usr/bin/env python3
"""Runs Tile programs on inputs shaped like a trained network's, for the model
zoo tests (test/Examples/models*.test) and the --emit=plaidml round trip
(test/Driver/emit-plaidml-roundtrip.test).

    models_check.py --tilec PATH check --target T FILE [-D NAME=VALUE ...]
    models_check.py --tilec PATH roundtrip FILE... [-D NAME=VALUE ...]

`check` runs `tilec run FILE --target=T --check` on the inputs below, so the
target's outputs are compared with the interpreter's. `roundtrip` prints each
FILE with `tilec --emit=plaidml` (plus the -D flags of its `// tilec-args:`
line, if any), runs both texts on the interpreter with the same inputs (the
printed program takes its sizes and types from the .npy files, as PlaidML
would) and requires bit-identical outputs.

Why not `tilec run`'s own generator: it draws every input uniformly from
[-1, 1), and a deep network with such weights either explodes (ResNet-18's
logits reach 1e17) or saturates every ReLU6, so that tiny rounding differences
between backends are amplified layer after layer. Here, as after training, the
first input (the data) is uniform in [-1, 1); a weight of rank 2 or more is
He-uniform, in +-sqrt(6 / fan_in) with fan_in the product of all dimensions
but the last (KH*KW for a rank-3 depthwise filter [KH, KW, C]); a vector (a
bias, a folded batch-norm scale, a layer-norm gain) is uniform in [0.5, 1.5).
Integer inputs are small integers, bools fair coins. The draw is seeded, so a
run is reproducible.
"""

import argparse
import ast
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

INPUT_LINE = re.compile(r"^input (\S+): (\w+)\[([0-9, ]*)\]$")
OUTPUT_LINE = re.compile(r"^output (\S+): ")


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        sys.stderr.write("command failed (%d): %s\n%s%s" % (
            proc.returncode, " ".join(cmd), proc.stdout, proc.stderr))
        sys.exit(1)
    return proc.stdout


def signature(tilec, path, flags):
    """The entry's inputs [(name, dtype, shape)] and output names, from the
    bound program that --emit=ast prints."""
    text = run([tilec, path, "--emit=ast"] + flags)
    inputs, outputs = [], []
    for line in text.splitlines():
        m = INPUT_LINE.match(line)
        if m:
            dims = [int(d) for d in m.group(3).split(",") if d.strip()]
            inputs.append((m.group(1), m.group(2), dims))
        m = OUTPUT_LINE.match(line)
        if m:
            outputs.append(m.group(1))
    return inputs, outputs


def draw(rng, position, dtype, shape):
    """One input, as the module docstring describes."""
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype[0] in "iu":
        low = 0 if dtype[0] == "u" else -4
        return rng.integers(low, 5, size=shape).astype(np.dtype(
            {"i": "int", "u": "uint"}[dtype[0]] + dtype[1:]))
    npdtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
               "bf16": np.float32}[dtype]
    if position == 0 or len(shape) == 0:
        values = rng.uniform(-1.0, 1.0, size=shape)
    elif len(shape) == 1:
        values = rng.uniform(0.5, 1.5, size=shape)
    else:
        fan_in = int(np.prod(shape[:-1]))
        if len(shape) == 3:
            fan_in = shape[0] * shape[1]
        bound = np.sqrt(6.0 / fan_in)
        values = rng.uniform(-bound, bound, size=shape)
    return values.astype(npdtype)


def save_bf16(path, values):
    """A .npy of dtype 'bfloat16' (ml_dtypes' name, which tilec reads; numpy
    has no such type): the upper halves of the f32 values."""
    bits = (np.ascontiguousarray(values, np.float32).view(np.uint32) >> 16)
    header = "{'descr': 'bfloat16', 'fortran_order': False, 'shape': %s, }" % (
        repr(tuple(values.shape)))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        f.write(header.encode("latin1") + bits.astype("<u2").tobytes())


def load_array(path):
    """A .npy as numpy reads it, except a 'bfloat16' one (save_bf16's, and
    tilec's outputs), which numpy cannot: widened to f32."""
    with open(path, "rb") as f:
        magic = f.read(8)
        size = int.from_bytes(f.read(2 if magic[6] == 1 else 4), "little")
        header = f.read(size).decode("latin1")
        if "'descr': 'bfloat16'" not in header:
            return np.load(path)
        shape = ast.literal_eval(header)["shape"]
        bits = np.frombuffer(f.read(), dtype="<u2").astype(np.uint32) << 16
    return bits.view(np.float32).reshape(shape)


def header_args(path):
    """The flags of a `// tilec-args:` line (gen_programs.py writes one)."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("// tilec-args:"):
                return shlex.split(line[len("// tilec-args:"):])
    return []


def write_inputs(inputs, folder, seed):
    """in<K>.npy for input K; the paths in input order."""
    rng = np.random.default_rng(seed)
    files = []
    for position, (name, dtype, shape) in enumerate(inputs):
        path = os.path.join(folder, "in%d.npy" % position)
        values = draw(rng, position, dtype, shape)
        if dtype == "bf16":
            save_bf16(path, values)
        else:
            np.save(path, values)
        files.append(path)
    return files


def input_flags(inputs, files):
    flags = []
    for (name, _, _), path in zip(inputs, files):
        flags += ["--input", "%s=%s" % (name, path)]
    return flags


def check(args, flags, folder):
    inputs, _ = signature(args.tilec, args.file, flags)
    files = write_inputs(inputs, folder, args.seed)
    cmd = [args.tilec, "run", args.file, "--target=" + args.target, "--check"]
    print(run(cmd + flags + input_flags(inputs, files)), end="")


def roundtrip(args, flags, folder):
    inputs, outputs = signature(args.tilec, args.file, flags)
    files = write_inputs(inputs, folder, args.seed)
    printed = os.path.join(folder, "plaidml.tile")
    text = run([args.tilec, args.file, "--emit=plaidml"] + flags)
    with open(printed, "w", encoding="utf-8") as f:
        f.write(text)
    # The printed program may have renamed its inputs and outputs; it keeps
    # their order.
    input_names, printed_outputs = header_names(text)
    if len(input_names) != len(inputs) or len(printed_outputs) != len(outputs):
        sys.exit("roundtrip: %s: the printed program has %d inputs and %d "
                 "outputs, not %d and %d" % (args.file, len(input_names),
                                             len(printed_outputs), len(inputs),
                                             len(outputs)))
    printed_inputs = [(name,) + tuple(spec[1:])
                      for name, spec in zip(input_names, inputs)]
    original_dir = os.path.join(folder, "original")
    printed_dir = os.path.join(folder, "printed")
    run([args.tilec, "run", args.file, "--target=interp", "--output-dir",
         original_dir] + flags + input_flags(inputs, files))
    run([args.tilec, "run", printed, "--target=interp", "--output-dir",
         printed_dir] + input_flags(printed_inputs, files))
    # Both files come from the same writer, so equal outputs (dtype, shape
    # and every bit) are equal files.
    for name, printed_name in zip(outputs, printed_outputs):
        with open(os.path.join(original_dir, name + ".npy"), "rb") as f:
            want = f.read()
        with open(os.path.join(printed_dir, printed_name + ".npy"), "rb") as f:
            got = f.read()
        if want != got:
            sys.exit("roundtrip: %s: output %s differs; the printed program:\n%s"
                     % (args.file, name, text))
    print("roundtrip: %s: %d outputs identical" % (os.path.basename(args.file),
                                                   len(outputs)))


def header_names(text):
    """The input and output names in the header of a printed program:
    `function (A[D2, D3], B[D3]) -> (C) {`."""
    m = re.match(r"function \((.*?)\) -> \((.*?)\) \{", text, re.S)
    if not m:
        sys.exit("roundtrip: the printed program has no PlaidML header:\n" + text)
    params = re.findall(r"([A-Z][A-Za-z0-9_]*)\[[^]]*\]", m.group(1))
    return params, [o.strip() for o in m.group(2).split(",") if o.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--seed", type=int, default=1)
    sub = parser.add_subparsers(dest="mode", required=True)
    p_check = sub.add_parser("check")
    p_check.add_argument("--target", required=True)
    p_check.add_argument("file")
    p_roundtrip = sub.add_parser("roundtrip")
    p_roundtrip.add_argument("files", nargs="+")
    for p in (p_check, p_roundtrip):
        p.add_argument("-D", dest="defines", action="append", default=[])
        p.add_argument("--default-type", help="tilec's --default-type: the "
                       "inputs' element type (their files are drawn in it)")
    args = parser.parse_args()
    flags = [flag for d in args.defines for flag in ("-D", d)]
    if args.default_type:
        flags += ["--default-type", args.default_type]
    if args.mode == "check":
        with tempfile.TemporaryDirectory() as folder:
            check(args, flags, folder)
        return
    for path in args.files:
        args.file = path
        with tempfile.TemporaryDirectory() as folder:
            roundtrip(args, flags + header_args(path), folder)


if __name__ == "__main__":
    main()
