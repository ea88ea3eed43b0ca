"""The comparison table of bench/models: one row per case and system.

A row holds a system's median latency, or why it did not run, and the
largest absolute difference between each of its outputs and tilec's. The
table is markdown; README.md in this folder explains its columns.
"""

import os

import numpy as np

import zoo

# An output whose largest difference from tilec's exceeds this fraction of
# its largest value is marked MISMATCH: the systems order their sums
# differently, so rounding differs, but not by this much.
TOLERANCE = 1e-3


class Row:
    """One system's result on one case."""

    def __init__(self, case, system, reference=False):
        self.case = case
        self.system = system  # the label in the table
        self.reference = reference  # tilec's primary row: the ratios' base
        self.seconds = None  # median latency
        self.min_seconds = None
        self.errors = {}  # output name -> (max abs error, largest |tilec|)
        self.error_note = ""  # what the error column says instead
        self.not_run = None  # why the system did not run
        self.failed = False  # tilec did not run or disagreed with interp
        self.note = ""

    def fail(self, reason):
        self.not_run = reason


def compare_outputs(row, reference_files, files):
    """Fills row.errors: each output against tilec's (both .npy files)."""
    for name, path in reference_files.items():
        if name not in files:
            continue
        want = zoo.load_array(path).astype(np.float64)
        got = zoo.load_array(files[name]).astype(np.float64)
        if want.shape != got.shape:
            row.errors[name] = None
            continue
        row.errors[name] = (float(np.max(np.abs(want - got))) if want.size
                            else 0.0,
                            float(np.max(np.abs(want))) if want.size else 0.0)


def milliseconds(seconds):
    if seconds is None:
        return "—"
    ms = seconds * 1e3
    return "%.0f" % ms if ms >= 100 else "%.3g" % ms


def error_cell(row):
    if row.error_note:
        return row.error_note
    if not row.errors:
        return "—"
    cells = []
    for name, value in row.errors.items():
        if value is None:
            cells.append("%s: wrong shape" % name)
            continue
        error, scale = value
        relative = " (%.1g of max)" % (error / scale) if scale else ""
        wrong = " MISMATCH" if error > TOLERANCE * scale else ""
        cells.append("%s %.2g%s%s" % (name, error, relative, wrong))
    return "; ".join(cells)


def ratio(seconds, reference):
    """A system's time over tilec's: two decimals, or two digits when
    small."""
    if not seconds or not reference:
        return "—"
    value = seconds / reference
    return "%.2f" % value if value >= 0.1 else "%.2g" % value


def markdown(rows, header_lines):
    """The table as a list of lines; GFLOP/s from the model's own count
    (zoo.Case.flops), the same for every system."""
    lines = list(header_lines) + [""]
    columns = ["case", "sizes", "system", "median ms", "GFLOP/s",
               "time / tilec's", "max abs error vs tilec", "notes"]
    lines.append("| " + " | ".join(columns) + " |")
    lines.append("|" + "---|" * len(columns))
    base = {row.case.name: row.seconds for row in rows if row.reference}
    for row in rows:
        if row.not_run:
            cells = ["—", "—", "not run: " + row.not_run.replace("|", "/"),
                     row.note]
        else:
            rate = ("%.3g" % (row.case.flops() / row.seconds * 1e-9)
                    if row.seconds else "—")
            cells = [milliseconds(row.seconds), rate,
                     ratio(row.seconds, base.get(row.case.name)),
                     error_cell(row), row.note]
        lines.append("| " + " | ".join(
            [row.case.name, row.case.shape(), row.system] + cells) + " |")
    return lines


def write(lines, path):
    """Writes the table (a temporary file, then a rename)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(temporary, path)
