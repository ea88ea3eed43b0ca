"""Copies the module's #tilec.gpu_target from one MLIR file into another.

    copy-gpu-target.py FROM INTO OUT

FROM is a gpu-level module `tilec --emit=gpu` printed for some device; INTO
is a loop-level module without a target. OUT is INTO with FROM's
`tilec.gpu_target` on its module, so that `tilec-opt --tilec-pipeline-gpu`
compiles it for the same device.
"""
import re
import sys

source, into, out = sys.argv[1:4]
target = re.search(r"tilec\.gpu_target = #tilec\.gpu_target<[^>]*>",
                   open(source).read())
if not target:
    sys.exit(f"{source}: no tilec.gpu_target on the module")
text = open(into).read()
marked, count = re.subn(r"^module \{", "module attributes {%s} {" % target.group(0),
                        text, count=1, flags=re.M)
if count != 1:
    sys.exit(f"{into}: no plain 'module {{' line to mark")
open(out, "w").write(marked)
