#!/usr/bin/env python3
"""Checks that `tilec autotune` kept the fastest verified candidate.

    autotune-kept-best.py LOG SCHEDULES.json [--wrong K | --wrong-file F]

LOG is autotune's output. For every kernel it tuned, the candidate the log
calls best must be the one with the least time among those it verified, and
the schedule file's entry for the kernel must hold that candidate's schedule
with `seconds` equal to that least time (to the log's 0.1 us). With --wrong
K, candidate K of every kernel must be reported WRONG and not kept. Prints
one line per kernel and "kept the fastest verified candidate of N kernel(s)";
exits 1 with the reason otherwise.
"""

import argparse
import json
import re
import sys

KERNEL = re.compile(r"^autotune: kernel \d+/\d+ (\S+) \(([0-9a-f]+)\): (\d+) candidate")
MEASURED = re.compile(r"^  \[(\d+)/\d+\] ([0-9.]+) ms  (block=\S+ thread=\S+ vector=\d+ "
                      r"unroll=\d+ stage=\S+ order=\S+)")
WRONG = re.compile(r"^  \[(\d+)/\d+\] WRONG, discarded")
BEST = re.compile(r"^autotune: kernel \d+/\d+ (\S+): best ([0-9.]+) ms \(candidate (\d+) of")


def schedule_text(schedule):
    """KernelSchedule::str() of a schedule file's schedule object."""
    def items(key, values):
        return "%s=[%s]" % (key, ",".join(str(int(v)) for v in values))
    return " ".join([items("block", schedule["block"]), items("thread", schedule["thread"]),
                     "vector=%d" % schedule["vector"], "unroll=%d" % schedule["unroll"],
                     items("stage", schedule["stage"]), items("order", schedule["order"])])


def parse_log(path):
    """{fingerprint: {name, times {c: ms}, schedules {c: text}, wrong set, best, best_ms}}"""
    kernels, current = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if KERNEL.match(line):
                name, fingerprint, _ = KERNEL.match(line).groups()
                current = kernels.setdefault(fingerprint, {
                    "name": name, "times": {}, "schedules": {}, "wrong": set(),
                    "best": None})
            elif current and MEASURED.match(line):
                c, ms, text = MEASURED.match(line).groups()
                current["times"][int(c)] = float(ms)
                current["schedules"][int(c)] = text
            elif current and WRONG.match(line):
                current["wrong"].add(int(WRONG.match(line).group(1)))
            elif current and BEST.match(line):
                _, ms, c = BEST.match(line).groups()
                current["best"], current["best_ms"] = int(c), float(ms)
    return kernels


def check(kernels, entries, wrong):
    problems = []
    for fingerprint, k in kernels.items():
        name = k["name"]
        if not k["times"] or k["best"] is None:
            problems.append("%s: the log shows no verified candidate" % name)
            continue
        least = min(k["times"].values())
        fastest = [c for c, ms in k["times"].items() if ms == least]
        if k["best"] not in fastest:
            problems.append("%s: best is candidate %d (%.4f ms), the fastest is %s (%.4f ms)"
                            % (name, k["best"], k["best_ms"], fastest, least))
        if wrong and (wrong not in k["wrong"] or k["best"] == wrong):
            problems.append("%s: candidate %d was to be discarded as wrong" % (name, wrong))
        entry = entries.get(fingerprint)
        if entry is None:
            problems.append("%s: no entry in the schedule file" % name)
            continue
        if abs(entry["seconds"] * 1e3 - least) > 6e-5:  # the log rounds to 0.1 us
            problems.append("%s: the file keeps %.7f s, the fastest took %.4f ms"
                            % (name, entry["seconds"], least))
        if schedule_text(entry["schedule"]) != k["schedules"][k["best"]]:
            problems.append("%s: the file keeps %s, not the fastest candidate's %s"
                            % (name, schedule_text(entry["schedule"]),
                               k["schedules"][k["best"]]))
        print("%s: kept candidate %d of %d verified, %.4f ms" % (
            name, k["best"], len(k["times"]), least))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log")
    parser.add_argument("schedules")
    parser.add_argument("--wrong", type=int, default=0)
    parser.add_argument("--wrong-file", help="read --wrong's K from this file")
    args = parser.parse_args()
    if args.wrong_file:
        with open(args.wrong_file, encoding="utf-8") as f:
            args.wrong = int(f.read())
    kernels = parse_log(args.log)
    with open(args.schedules, encoding="utf-8") as f:
        devices = json.load(f)["devices"]
    if len(devices) != 1:
        sys.exit("expected the schedules of one device, found %d" % len(devices))
    entries = next(iter(devices.values()))
    problems = check(kernels, entries, args.wrong) if kernels else ["the log tuned no kernel"]
    if problems:
        print("\n".join(problems))
        return 1
    print("kept the fastest verified candidate of %d kernel(s)" % len(kernels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
