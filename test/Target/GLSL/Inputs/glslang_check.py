"""Validates every shader of tilec's GLSL output with glslangValidator (as
the Khronos reference compiler reads GLSL 4.30), so that a shader Mesa
happens to accept but the language forbids fails here, not on a user's
GPU. Prints one line per file, "ok FILE: N shaders" or the shader's name and
glslang's errors, and a summary line.

    glslang_check.py FILE.glsl|BUNDLE_DIR ...    (a folder: every .glsl in it)
    glslang_check.py --tilec T [--args="..."] PROGRAM.tile ...   (compiles each)
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^//--- shader (\S+)\n", re.M)


def shaders(text):
    """(name, source) of each shader of a glsl artefact."""
    parts = MARKER.split(text)
    return list(zip(parts[1::2], parts[2::2]))


def check(label, text, folder, counts):
    found = shaders(text)
    if not found:
        return ["%s: no shader" % label]
    counts[0] += 1
    counts[1] += len(found)
    problems = []
    for name, source in found:
        path = os.path.join(folder, name + ".comp")
        with open(path, "w") as file:
            file.write(source)
        proc = subprocess.run(["glslangValidator", path], capture_output=True, text=True)
        if proc.returncode != 0:
            problems.append("%s: shader %s:\n%s" % (label, name, proc.stdout.strip()))
    if not problems:
        print("ok %s: %d shaders" % (label, len(found)))
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tilec")
    parser.add_argument("--args", default="")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    problems = []
    counts = [0, 0]  # files, shaders
    paths = []
    for path in args.files:
        if os.path.isdir(path):
            paths += sorted(os.path.join(d, f) for d, _, files in os.walk(path)
                            for f in files if f.endswith(".glsl"))
        else:
            paths.append(path)
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            label = os.path.relpath(path, os.path.commonpath(paths)) if len(paths) > 1 \
                else os.path.basename(path)
            if args.tilec:
                proc = subprocess.run([args.tilec, path, "--target=glsl", "--emit=glsl"] +
                                      shlex.split(args.args), capture_output=True, text=True)
                if proc.returncode != 0:
                    problems.append("%s: tilec failed: %s" % (label, proc.stderr.strip()))
                    continue
                text = proc.stdout
            else:
                with open(path) as file:
                    text = file.read()
            problems += check(label, text, folder, counts)
    for problem in problems:
        print("FAILED " + problem)
    print("%d files, %d shaders valid, %d refused" % (counts[0], counts[1], len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
