#!/usr/bin/env python3
"""Runs `tilec autotune ... --wrong-candidate=K` with K the candidate the
fake timer made fastest for the first kernel of FAKE_LOG, so that the test
does not depend on this CPU's candidate list (the fake times follow the
schedules' text, and the candidates follow the CPU's caches and vectors).

    autotune-wrong-fastest.py FAKE_LOG PREFIX -- TILEC AUTOTUNE-ARGS...

Writes the run's stdout to PREFIX.log and K to PREFIX.k.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
kept_best = __import__("autotune-kept-best")

fake_log, prefix = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
kernels = list(kept_best.parse_log(fake_log).values())
times = kernels[0]["times"]
fastest = min(times, key=lambda c: (times[c], c))
with open(prefix + ".k", "w") as f:
    f.write("%d\n" % fastest)
with open(prefix + ".log", "w") as out:
    sys.exit(subprocess.call(command + ["--wrong-candidate=%d" % fastest], stdout=out))
