"""What a generated program's header promises, and whether tilec agrees.

gen_programs.py writes two header lines above every program:

    // tilec-args: -D N=5 ...             the flags that bind its named sizes
    // tilec-types: T1=f32[3,4] T2=i32[]  the element type and shape it
                                          predicts for every value that
                                          --emit=ast names, and every output

The generator decides validity itself (it follows docs/language.md), so a
program with these headers is valid by construction: tilec rejecting it, or
crashing on it, or giving a value another type than the prediction, is a
bug in tilec or in the generator's model of the language, and either way a
failure, never a reason to draw another program.
"""

import re
import shlex
import subprocess

ARGS_HEADER = "// tilec-args:"
TYPES_HEADER = "// tilec-types:"
# A value of --emit=ast: "T3: f32[7, 4] = ...", after attributes if any
# ("[[hot]] T3: ..."), or an output line ("output T3: f32[7, 4]").
AST_VALUE = re.compile(r"^(?:\[\[.*?\]\] |output )?([\w.]+): (\w+)\[([\d, ]*)\](?: = |$)", re.M)
TYPE_ITEM = re.compile(r"^([\w.]+)=(\w+)\[([\d,]*)\]$")


def format_types(predicted):
    """The tilec-types header's text for {name: (dtype, shape)}."""
    return " ".join("%s=%s[%s]" % (name, dtype, ",".join(str(d) for d in shape))
                    for name, (dtype, shape) in predicted.items())


def parse_shape(dims):
    return tuple(int(d) for d in dims.split(",") if d.strip())


def read_headers(path):
    """(tilec flags, predicted {name: (dtype, shape)} or None) of a program."""
    flags, predicted = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("//"):
                break
            if line.startswith(ARGS_HEADER):
                flags = shlex.split(line[len(ARGS_HEADER):])
            elif line.startswith(TYPES_HEADER):
                predicted = {}
                for item in line[len(TYPES_HEADER):].split():
                    match = TYPE_ITEM.match(item)
                    if not match:
                        raise ValueError("%s: bad tilec-types item '%s'" % (path, item))
                    predicted[match.group(1)] = (match.group(2),
                                                 parse_shape(match.group(3)))
    return flags, predicted


def check_types(tilec, path, flags, predicted, timeout=60):
    """The problems of a generated program under `tilec --emit=ast`: a
    rejection or crash (with tilec's message), and every value whose type
    or shape differs from the prediction or which tilec does not report.
    An empty list means tilec agrees with the generator."""
    cmd = [tilec, path, "--emit=ast"] + flags
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ["tilec --emit=ast timed out after %d s on a valid program" % timeout]
    if proc.returncode != 0:
        what = "crashes on" if proc.returncode < 0 or proc.returncode > 3 else "rejects"
        return ["tilec --emit=ast %s a valid program (exit status %d): %s" % (
            what, proc.returncode, proc.stderr.strip() or "no message")]
    found = {name: (dtype, parse_shape(dims))
             for name, dtype, dims in AST_VALUE.findall(proc.stdout)}
    problems = []
    for name, (dtype, shape) in predicted.items():
        if name not in found:
            problems.append("type model: %s is not in tilec's --emit=ast" % name)
        elif found[name] != (dtype, shape):
            problems.append("type model: %s is %s%s for tilec, %s%s for the generator" % (
                name, found[name][0], list(found[name][1]), dtype, list(shape)))
    return problems
