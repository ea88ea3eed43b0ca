#!/usr/bin/env python3
"""Writes a schedule file that gives every kernel of a program one schedule
on the H200's CUDA device (its fingerprints from `tilec --emit=loops`), for
tests of the schedules the mapping refuses.

    schedule_for.py PROGRAM OUT.json SCHEDULE-JSON
"""

import json
import re
import subprocess
import sys


def main():
    program, out, schedule = sys.argv[1:4]
    loops = subprocess.run(["tilec", program, "--emit=loops"], check=True,
                           capture_output=True, text=True).stdout
    fingerprints = re.findall(r'tilec\.fingerprint = "([0-9a-f]+)"', loops)
    if not fingerprints:
        print("no kernel in %s" % program)
        return 1
    entries = {fp: {"schedule": json.loads(schedule)} for fp in fingerprints}
    with open(out, "w") as f:
        json.dump({"devices": {"cuda:nvidia:nvidia-h200:0": entries},
                   "format": "tilec-schedules", "version": 1}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
