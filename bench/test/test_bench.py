#!/usr/bin/env python3
"""Tests of bench/'s scripts, with stand-ins for tilec, cpu-bench and
tilec-run so they need no build and no library:
    python3 -m unittest discover -s bench/test -v
"""

import importlib.util
import json
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH)

from cases import CaseError, load_cases  # noqa: E402

# A `tilec` that answers `bench --json` in docs/bench.md's schema (10 ms, or
# 5 ms with --schedule) and writes an empty schedule file for `autotune`.
FAKE_TILEC = """\
import json, sys
args = sys.argv[1:]
OK = True
FROM_FILE = True
if args[0] == "autotune":
    open(args[args.index("-o") + 1], "w").write("{}")
    sys.exit(0)
tuned = any(a.startswith("--schedule=") for a in args)
seconds = 0.005 if tuned else 0.01
print(json.dumps({"device": "cpu:host:test:0", "kernels": [
    {"name": "k",
     "schedule_source": "file" if tuned and FROM_FILE else "cost-model",
     "median_seconds": seconds}],
    "total": {"median_seconds": seconds}, "check": {"ok": OK}}))
sys.exit(0 if OK else 1)
"""

# A cpu-bench answering every case: OpenBLAS 20 ms, oneDNN 10 ms; like the
# real one, it rejects a kind it does not know (here: layer_norm).
FAKE_CPU_BENCH = """\
import json, sys
cases = [a for a in sys.argv[1:] if not a.startswith("--")]
if any(c.startswith("layer_norm:") for c in cases):
    sys.exit("cpu-bench: unknown kind 'layer_norm'")
print(json.dumps({"openblas": "fake", "onednn": "0.0", "cases": [
    {"case": c, "openblas": {"seconds": 0.02, "error": 0},
     "onednn": {"seconds": 0.01, "error": 0}} for c in cases]}))
"""


# A tilec-run whose output is the reference times FACTOR, 2 ms per run.
FAKE_TILEC_RUN = """\
import json, os, shutil, sys
import numpy
args = sys.argv[1:]
out = args[args.index("--output-dir") + 1]
data = os.path.dirname(args[args.index("--input") + 1].split("=", 1)[1])
os.makedirs(out, exist_ok=True)
numpy.save(os.path.join(out, "P.npy"),
           numpy.load(os.path.join(data, "reference.npy")) * FACTOR)
print(json.dumps({"device": "opencl:test:0", "total": {"median_s": 0.002},
                  "outputs": [{"name": "P"}]}))
"""


def write_script(folder, name, body):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!%s\n%s" % (sys.executable, body))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def write_cases(folder, cases):
    path = os.path.join(folder, "cases.json")
    with open(path, "w") as f:
        json.dump({"cases": cases}, f)
    return path


# The H200 sizes issue 15 asks for, case by case.
H200_SIZES = {
    "matmul-square-1024": {"M": 1024, "K": 1024, "N": 1024},
    "matmul-square-2048": {"M": 2048, "K": 2048, "N": 2048},
    "matmul-square": {"M": 4096, "K": 4096, "N": 4096},
    "matmul-square-8192": {"M": 8192, "K": 8192, "N": 8192},
    "matmul-gemv": {"M": 1, "K": 8192, "N": 8192},
    "matmul-small-k": {"M": 8192, "K": 64, "N": 8192},
    "matmul-large-k": {"M": 256, "K": 16384, "N": 256},
    "matmul-skinny": {"M": 8192, "K": 2048, "N": 64},
    "batched-matmul": {"BATCH": 32, "M": 512, "K": 512, "N": 512},
    "conv1x1-resnet": {"N": 32, "H": 56, "W": 56, "CI": 256, "CO": 64},
    "conv3x3-resnet": {"N": 32, "H": 56, "W": 56, "CI": 64, "CO": 64},
    "conv3x3-256": {"N": 32, "H": 56, "W": 56, "CI": 256, "CO": 256},
    "depthwise3x3-mobilenet": {"N": 32, "H": 112, "W": 112, "C": 32},
    "softmax": {"R": 4096, "C": 4096},
    "softmax-1024": {"R": 16384, "C": 1024},
    "softmax-16384": {"R": 4096, "C": 16384},
    "layer-norm": {"R": 4096, "C": 4096},
    "layer-norm-1024": {"R": 16384, "C": 1024},
    "gelu": {"R": 4096, "C": 4096},
}

# The CPU's cases: small enough for a 2-core machine, and only kinds
# bench/cpu/cpu-bench has baselines for.
CPU_CASES = ["matmul-square-2048", "matmul-square", "matmul-gemv",
             "matmul-small-k", "matmul-large-k", "matmul-skinny",
             "conv1x1-resnet", "conv3x3-resnet", "depthwise3x3-mobilenet",
             "softmax", "layer-norm", "gelu"]


class CasesTest(unittest.TestCase):
    def test_default_cases_are_valid(self):
        for gpu in (False, True):
            cases = load_cases(gpu=gpu)
            self.assertGreaterEqual(len(cases), 8)
            for case in cases:
                self.assertTrue(os.path.exists(case.tile_file), case.tile_file)
                self.assertEqual(len(case.inputs), len(case.input_shapes))
                self.assertGreater(case.work, 0)
                self.assertGreater(case.bytes, 0)

    def test_h200_sizes_are_the_issues(self):
        cases = load_cases(gpu=True)
        self.assertEqual({c.name: c.sizes for c in cases}, H200_SIZES)

    def test_cpu_cases(self):
        cases = load_cases()
        self.assertEqual([c.name for c in cases], CPU_CASES)
        for case in cases:
            self.assertTrue(case.cpu_bench, case.name)
            # Every CPU case stays under 20 GFLOP (the 2048^3 matmul, whose
            # interpreter check in `tilec bench` takes about a minute) and
            # 128 MB of traffic.
            self.assertLess(case.flops or 0, 20e9, case.name)
            self.assertLess(case.bytes, 128e6, case.name)
        with self.assertRaisesRegex(CaseError,
                                    "layer-norm-1024: only on the H200"):
            load_cases(only=["layer-norm-1024"])

    def test_work_bytes_and_memory_bound(self):
        cases = {c.name: c for c in load_cases(gpu=True)}
        gemv = cases["matmul-gemv"]
        self.assertEqual(gemv.flops, 2 * 8192 * 8192)
        self.assertEqual(gemv.bytes, 4 * (8192 + 8192 * 8192 + 8192))
        self.assertEqual(gemv.unit, "GFLOP/s")
        norm = cases["layer-norm"]
        self.assertIsNone(norm.flops)
        self.assertEqual(norm.unit, "GB/s")
        self.assertEqual(norm.inputs, ["X", "Gamma", "Beta"])
        self.assertEqual(norm.work, 4 * (2 * 4096 * 4096 + 2 * 4096))
        self.assertEqual(cases["batched-matmul"].input_shapes,
                         [(32, 512, 512), (32, 512, 512)])
        self.assertEqual(cases["conv1x1-resnet"].input_shapes,
                         [(32, 56, 56, 256), (256, 64)])
        self.assertEqual(cases["conv1x1-resnet"].work,
                         2 * 32 * 56 * 56 * 256 * 64)
        self.assertEqual(
            sorted(n for n, c in cases.items() if c.memory_bound),
            ["depthwise3x3-mobilenet", "gelu", "layer-norm", "layer-norm-1024",
             "matmul-gemv", "softmax", "softmax-1024", "softmax-16384"])

    def test_overrides(self):
        cases = load_cases(overrides=["matmul-square.M=8", "R=3"],
                           only=["matmul-square", "softmax"])
        self.assertEqual([c.name for c in cases], ["matmul-square", "softmax"])
        self.assertEqual(cases[0].defines(),
                         ["-D", "M=8", "-D", "K=1024", "-D", "N=1024"])
        self.assertEqual(cases[0].spec(), "matmul:M=8,K=1024,N=1024")
        self.assertEqual(cases[0].work, 2 * 8 * 1024 * 1024)
        self.assertEqual(cases[1].sizes["R"], 3)
        self.assertEqual(cases[1].unit, "GB/s")

    def test_errors_name_the_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad_kernel = write_cases(tmp, [{"name": "x", "kernel": "fft",
                                            "sizes": {}}])
            with self.assertRaisesRegex(CaseError, r"cases\[0\].*'fft'"):
                load_cases(bad_kernel)
            missing = write_cases(tmp, [{"name": "x", "kernel": "softmax",
                                         "sizes": {"R": 2}}])
            with self.assertRaisesRegex(CaseError, "needs the positive sizes"):
                load_cases(missing)
        with self.assertRaisesRegex(CaseError, "no case has a size Q"):
            load_cases(overrides=["Q=2"])
        with self.assertRaisesRegex(CaseError, "positive integer"):
            load_cases(overrides=["M=-1"])
        with self.assertRaisesRegex(CaseError, "no case named nope"):
            load_cases(only=["nope"])
        with self.assertRaisesRegex(CaseError, "cannot read"):
            load_cases("/nonexistent/cases.json")


class CpuTableTest(unittest.TestCase):
    def run_table(self, tmp, *extra, tilec_body=FAKE_TILEC, tilec=None,
                  bench_body=FAKE_CPU_BENCH):
        """table.py cpu on two small cases with the stand-ins."""
        tilec = tilec or write_script(tmp, "tilec", tilec_body)
        bench = write_script(tmp, "cpu-bench", bench_body)
        cases = write_cases(tmp, [
            {"name": "mm", "kernel": "matmul",
             "sizes": {"M": 100, "K": 100, "N": 100}},
            {"name": "sm", "kernel": "softmax", "sizes": {"R": 10, "C": 1000}}])
        return subprocess.run(
            [sys.executable, os.path.join(BENCH, "table.py"), "cpu",
             "--tilec", tilec, "--cpu-bench", bench, "--cases", cases,
             "--results", os.path.join(tmp, "results"), "--repeat=3"] +
            list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)

    def test_default_tuned_and_ratios(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp, "--tune")
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = result.stdout.splitlines()
            self.assertIn("| case | shape | unit | tilec default | tilec tuned "
                          "| OpenBLAS | oneDNN | tuned/default | "
                          "tilec/OpenBLAS | tilec/oneDNN | check |", lines)
            # 2e6 flops: 0.2 GFLOP/s default (10 ms), 0.4 tuned (5 ms);
            # OpenBLAS 20 ms, oneDNN 10 ms, against tuned tilec's 5 ms.
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | 0.2 | 0.4 | "
                          "0.1 | 0.2 | 2.00 | 4.00 | 2.00 | ok |", lines)
            self.assertIn("| sm | R=10 C=1000 | GB/s | 0.008 | 0.016 | 0.004 | "
                          "0.008 | 2.00 | 4.00 | 2.00 | ok |", lines)
            self.assertTrue(os.path.exists(os.path.join(
                tmp, "results", "cpu_host_test_0.schedules.json")))
            self.assertTrue(os.path.exists(os.path.join(
                tmp, "results", "cpu_host_test_0.llvm-x86.json")))

    def test_untuned_kernels_are_not_a_tuned_time(self):
        with tempfile.TemporaryDirectory() as tmp:
            # The file has no entry for the kernel: the second run timed the
            # default's code (5 ms here), which must not stand in for a tuned
            # time, nor set the ratios against the baselines.
            result = self.run_table(tmp, "--tune", tilec_body=FAKE_TILEC.replace(
                "FROM_FILE = True", "FROM_FILE = False"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | 0.2 | — "
                          "(0/1 tuned) | 0.1 | 0.2 | — | 2.00 | 1.00 | ok |",
                          result.stdout.splitlines())

    def test_without_schedule_file_tuned_is_empty(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | 0.2 | — | 0.1 | "
                          "0.2 | — | 2.00 | 1.00 | ok |",
                          result.stdout.splitlines())
            self.assertIn("no schedule file for this device", result.stdout)

    def test_failed_check_fails_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp, tilec_body=FAKE_TILEC.replace(
                "OK = True", "OK = False"))
            self.assertEqual(result.returncode, 1)
            self.assertIn("| 0.2 | — | 0.1 | 0.2 | — | 2.00 | 1.00 | "
                          "FAIL: tilec default (abs nan, rel nan) |",
                          result.stdout)

    def test_kinds_without_cpu_baselines_are_not_asked(self):
        with tempfile.TemporaryDirectory() as tmp:
            tilec = write_script(tmp, "tilec", FAKE_TILEC)
            bench = write_script(tmp, "cpu-bench", FAKE_CPU_BENCH)
            cases = write_cases(tmp, [
                {"name": "mm", "kernel": "matmul",
                 "sizes": {"M": 100, "K": 100, "N": 100}},
                {"name": "bm", "kernel": "batched_matmul",
                 "sizes": {"BATCH": 2, "M": 100, "K": 100, "N": 100}},
                {"name": "gpu-only", "kernel": "matmul",
                 "gpu_sizes": {"M": 1, "K": 2, "N": 3}}])
            result = subprocess.run(
                [sys.executable, os.path.join(BENCH, "table.py"), "cpu",
                 "--tilec", tilec, "--cpu-bench", bench, "--cases", cases,
                 "--results", os.path.join(tmp, "results"), "--repeat=3"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = result.stdout.splitlines()
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | 0.2 | — | 0.1 | "
                          "0.2 | — | 2.00 | 1.00 | ok |", lines)
            # 4,000,000 flops in 10 ms; no library cells.
            self.assertIn("| bm | BATCH=2 M=100 K=100 N=100 | GFLOP/s | 0.4 | — "
                          "| — | — | — | — | — | ok |", lines)
            self.assertNotIn("gpu-only", result.stdout)

    def test_columns_run_case_by_case(self):
        # Every column of one case runs before the next case's, so that the
        # machine's drift over the run falls between ratios, not inside one.
        with tempfile.TemporaryDirectory() as tmp:
            calls = os.path.join(tmp, "calls")
            # Each stand-in logs what it was asked: tilec autotune, a tuned
            # or a default bench; cpu-bench the kind of its case.
            logging = (
                "import sys\n"
                "a = sys.argv[1:]\n"
                "what = ('autotune' if a[0] == 'autotune' else 'tuned' if "
                "any(x.startswith('--schedule') for x in a) else 'default' "
                "if 'bench' in a else a[-1].split(':')[0])\n"
                "open(%r, 'a').write(what + '\\n')\n" % calls)
            result = self.run_table(tmp, "--tune",
                                    tilec_body=logging + FAKE_TILEC,
                                    bench_body=logging + FAKE_CPU_BENCH)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(calls) as f:
                order = f.read().split()
            self.assertEqual(order, [
                "default",  # the first case's, which names the device
                "autotune", "autotune",
                "default", "tuned", "matmul",
                "default", "tuned", "softmax"])

    def test_device_from_the_first_case_that_runs(self):
        # The first case's default run fails: the second names the device,
        # the tuning still happens, and the failure is reported once.
        with tempfile.TemporaryDirectory() as tmp:
            failing = ("import sys\n"
                       "if 'M=100' in sys.argv and sys.argv[1] == 'bench' and "
                       "not any(a.startswith('--schedule') for a in sys.argv)"
                       ":\n    sys.exit('boom')\n")
            result = self.run_table(tmp, "--tune",
                                    tilec_body=failing + FAKE_TILEC)
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = result.stdout.splitlines()
            self.assertIn("| sm | R=10 C=1000 | GB/s | 0.008 | 0.016 | 0.004 | "
                          "0.008 | 2.00 | 4.00 | 2.00 | ok |", lines)
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | — | 0.4 | 0.1 | "
                          "0.2 | — | 4.00 | 2.00 | ok |", lines)
            self.assertEqual(result.stdout.count("- mm: tilec default:"), 1)

    def test_missing_tool_is_reported_in_the_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(
                tmp, tilec=os.path.join(tmp, "no-tilec"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("- mm: tilec default:", result.stdout)
            self.assertIn("| mm | M=100 K=100 N=100 | GFLOP/s | — | — | 0.1 | "
                          "0.2 | — | — | — | — |", result.stdout.splitlines())



@unittest.skipUnless(importlib.util.find_spec("numpy"), "needs numpy")
class GpuTableTest(unittest.TestCase):
    def run_table(self, tmp, factor, copy=None, tuned=None, extra=()):
        """table.py gpu on a bundle of one softmax case, default only, or
        with `tuned` (the schedule file's fingerprints, the manifest's) a
        tuned artefact too; `copy` is the copy bandwidth in GB/s."""
        import numpy

        bundle = os.path.join(tmp, "bundle")
        os.makedirs(os.path.join(bundle, "default"))
        write_cases(bundle, [{"name": "sm", "kernel": "softmax",
                              "sizes": {"R": 2, "C": 3}},
                             {"name": "other", "kernel": "softmax",
                              "sizes": {"R": 2, "C": 3}}])
        open(os.path.join(bundle, "default", "sm.cl.json"), "w").close()
        if tuned is not None:
            known, kernels = tuned
            device = "opencl:nvidia:test:0"
            os.makedirs(os.path.join(bundle, "tuned"))
            with open(os.path.join(bundle, "tuned", "schedules.json"),
                      "w") as f:
                json.dump({"devices": {device: {k: {"schedule": {}}
                                                for k in known}}}, f)
            with open(os.path.join(bundle, "tuned", "sm.cl.json"), "w") as f:
                json.dump({"device": device, "kernels": [
                    {"fingerprint": k} for k in kernels]}, f)
        data = os.path.join(tmp, "data")
        os.makedirs(os.path.join(data, "sm"))
        numpy.save(os.path.join(data, "sm", "L.npy"), numpy.zeros((2, 3)))
        numpy.save(os.path.join(data, "sm", "reference.npy"),
                   numpy.full((2, 3), 1 / 3))
        torch = os.path.join(tmp, "torch.json")
        entry = {"seconds": 0.001}
        if copy:
            entry["copy"] = {"input": "L", "bytes": 24, "seconds": 5e-7,
                             "gb_per_s": copy}
        with open(torch, "w") as f:
            json.dump({"torch": "2.x", "device": "H200", "cases": {
                "sm": entry}}, f)
        tilec_run = write_script(tmp, "tilec-run", FAKE_TILEC_RUN.replace(
            "FACTOR", repr(factor)))
        return subprocess.run(
            [sys.executable, os.path.join(BENCH, "table.py"), "gpu",
             "--bundle", bundle, "--tilec-run", tilec_run, "--torch", torch,
             "--data", data, "--repeat=2", "--only", "sm"] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def test_outputs_checked_against_pytorch(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp, 1.0)
            self.assertEqual(result.returncode, 0, result.stderr)
            lines = result.stdout.splitlines()
            self.assertIn("| case | shape | unit | tilec ms | tilec default | "
                          "tilec tuned | PyTorch ms | PyTorch | tuned/default "
                          "| tilec/PyTorch | copy GB/s | tilec % of copy | "
                          "PyTorch % of copy | check |", lines)
            # 48 bytes: 2.4e-5 GB/s in 2 ms, 4.8e-5 for PyTorch's 1 ms;
            # no copy measured, so no share of it.
            self.assertIn("| sm | R=2 C=3 | GB/s | 2 | 2.4e-05 | — | 1 | "
                          "4.8e-05 | — | 0.50 | — | — | — | ok |", lines)
            self.assertNotIn("| other |", result.stdout)

    def test_share_of_copy_bandwidth(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp, 1.0, copy=9.6e-05)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| sm | R=2 C=3 | GB/s | 2 | 2.4e-05 | — | 1 | "
                          "4.8e-05 | — | 0.50 | 9.6e-05 | 25% | 50% | ok |",
                          result.stdout.splitlines())

    def test_tuned_kernels_counted(self):
        with tempfile.TemporaryDirectory() as tmp:
            # One of two kernels tuned: run, and the cell says so.
            result = self.run_table(tmp, 1.0, tuned=(["a"], ["a", "b"]))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| sm | R=2 C=3 | GB/s | 2 | 2.4e-05 | 2.4e-05 "
                          "(1/2 tuned) | 1 | 4.8e-05 | 1.00 | 0.50 |",
                          result.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            # None tuned: the same code as the default, not run.
            result = self.run_table(tmp, 1.0, tuned=(["c"], ["a", "b"]))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("| sm | R=2 C=3 | GB/s | 2 | 2.4e-05 | — "
                          "(0/2 tuned) | 1 | 4.8e-05 | — | 0.50 |",
                          result.stdout)

    def test_wrong_output_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            result = self.run_table(tmp, 1.01)
            self.assertEqual(result.returncode, 1)
            self.assertIn("FAIL: tilec default (error 0.01)", result.stdout)


if __name__ == "__main__":
    unittest.main()
