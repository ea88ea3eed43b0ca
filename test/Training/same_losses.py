#!/usr/bin/env python3
"""Checks that training logs (plain `epoch ... loss L` lines or --json
lines) report the same loss per epoch, to 1e-5 relative (float32 sums in
another order on another backend); with --falling LOG, that one log's loss
falls every epoch."""
import json
import re
import sys


def losses(path):
    values = []
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            values.append(json.loads(line)["loss"])
        elif line.startswith("epoch"):
            values.append(float(re.search(r"loss ([-0-9.e+]+)", line).group(1)))
    return values


if sys.argv[1] == "--falling":
    values = losses(sys.argv[2])
    if any(b >= a for a, b in zip(values, values[1:])):
        sys.exit("the loss rises or stalls: %s" % values)
    print("the loss falls over %d epochs" % len(values))
    sys.exit(0)

logs = [losses(p) for p in sys.argv[1:]]
first = logs[0]
for path, other in zip(sys.argv[2:], logs[1:]):
    if len(other) != len(first):
        sys.exit("%s has %d epochs, %s has %d" % (sys.argv[1], len(first), path, len(other)))
    for e, (a, b) in enumerate(zip(first, other), 1):
        if abs(a - b) > 1e-5 * max(abs(a), abs(b)):
            sys.exit("epoch %d: loss %r in %s but %r in %s" % (e, a, sys.argv[1], b, path))
print("same losses in %d logs over %d epochs" % (len(logs), len(first)))
