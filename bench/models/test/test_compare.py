#!/usr/bin/env python3
"""Tests of bench/models:
    python3 -m unittest discover -s bench/models/test -v

The table and compare.py's flow run against stand-ins for tilec and for the
peers' Python, so they need no build and no library. The PyTorch models are
checked against tilec's interpreter at the reduced sizes when PyTorch and a
built tilec are there (TILEC, default build/bin/tilec), and skipped otherwise.
"""

import importlib.util
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

import numpy as np

MODELS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, MODELS)

import report  # noqa: E402
import zoo  # noqa: E402

COMPARE = os.path.join(MODELS, "compare.py")

# A tilec for a program Y = X W: the signature, the PlaidML text, a bench
# report (10 ms) and the outputs of `run`, whatever the file.
FAKE_TILEC = """\
import json, os, sys
import numpy as np
args = sys.argv[1:]
inputs = dict(args[k + 1].split("=", 1) for k, a in enumerate(args)
              if a == "--input")
if "--emit=ast" in args:
    print("input X: f32[2, 3]\\ninput W: f32[3, 2]\\noutput Y: f32[2, 2]")
elif "--emit=plaidml" in args:
    print("function (X[A, B], W[B, C]) -> (Y) { Y[a, c : A, C] = "
          "+(X[a, b] * W[b, c]); }")
elif args[0] == "bench":
    ok = "FAKE_CHECK_FAILS" not in os.environ
    print(json.dumps({"device": "cpu:host:test:0", "compile_seconds": 0.5,
        "kernels": [{"name": "k", "flops": 24e6}],
        "total": {"median_seconds": 0.009, "min_seconds": 0.008,
                  "wall_median_seconds": 0.01},
        "check": {"ok": ok, "max_abs_error": 1e-7,
                  "max_rel_error": 1e-6}}))
    sys.exit(0 if ok else 1)
elif args[0] == "run":
    out = args[args.index("--output-dir") + 1]
    os.makedirs(out, exist_ok=True)
    np.save(os.path.join(out, "Y.npy"),
            np.load(inputs["X"]) @ np.load(inputs["W"]))
"""

# The peers' Python: torch answers X W + 0.5 in 20 ms (a wrong output),
# onnxruntime hangs, plaidml is missing.
FAKE_PYTHON = """\
import json, os, sys, time
import numpy as np
system = sys.argv[2]
args = sys.argv[3:]
data, out = args[args.index("--data") + 1], args[args.index("--out") + 1]
if system == "plaidml":
    sys.exit("not installed: No module named 'plaidml'")
if system == "onnxruntime":
    time.sleep(30)
os.makedirs(out, exist_ok=True)
y = np.load(os.path.join(data, "in0.npy")) @ np.load(
    os.path.join(data, "in1.npy")) + 0.5
np.save(os.path.join(out, "Y.npy"), y)
print(json.dumps({"system": system, "version": "9.9", "median_seconds": 0.02,
                  "min_seconds": 0.019,
                  "outputs": {"Y": os.path.join(out, "Y.npy")},
                  "note": "fake"}))
"""


def executable(folder, name, body):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!%s\n%s" % (sys.executable, body))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class ReportTest(unittest.TestCase):
    def test_ratio_error_and_not_run(self):
        # 2 * 1 * (100 * 100 * 3) = 60 kFLOP
        case = zoo.Case("m", "mlp3", {"N": 1, "In": 100, "Hidden": 100,
                                      "Classes": 100})
        base = report.Row(case, "tilec", reference=True)
        base.seconds = 0.010
        peer = report.Row(case, "peer")
        peer.seconds = 0.025
        peer.errors = {"Y": (2e-3, 1.0), "P": (1e-7, 1.0)}
        missing = report.Row(case, "gone")
        missing.fail("not installed: x | y")
        lines = report.markdown([base, peer, missing], ["head"])
        self.assertEqual(lines[0], "head")
        self.assertIn("| peer | 25 | 0.0024 | 2.50 | "
                      "Y 0.002 (0.002 of max) MISMATCH; "
                      "P 1e-07 (1e-07 of max) |", lines[5])
        self.assertIn("not run: not installed: x / y", lines[6])

    def test_wrong_shape(self):
        with tempfile.TemporaryDirectory() as folder:
            np.save(os.path.join(folder, "a.npy"), np.zeros((2, 2)))
            np.save(os.path.join(folder, "b.npy"), np.zeros(4))
            row = report.Row(zoo.Case("m", "mlp3", {}), "peer")
            report.compare_outputs(row, {"Y": os.path.join(folder, "a.npy")},
                                   {"Y": os.path.join(folder, "b.npy")})
            self.assertEqual(report.error_cell(row), "Y: wrong shape")


def compare_cpu(folder, *extra, env=None):
    """compare.py cpu on mlp3 with the stand-ins."""
    tilec = executable(folder, "tilec", FAKE_TILEC)
    python = executable(folder, "python", FAKE_PYTHON)
    return subprocess.run(
        [sys.executable, COMPARE, "cpu", "--small", "--only", "mlp3",
         "--tilec", tilec, "--python", python, "--timeout", "2",
         "--repeat", "3", "--threads", "1", "--data",
         os.path.join(folder, "data")] + list(extra),
        capture_output=True, text=True, timeout=120,
        env=dict(os.environ, **(env or {})))


class CompareTest(unittest.TestCase):
    def test_cpu_table_with_failing_peers(self):
        with tempfile.TemporaryDirectory() as folder:
            results = os.path.join(folder, "results", "cpu.md")
            run = compare_cpu(folder, "--results", results)
            self.assertEqual(run.returncode, 0, run.stderr)
            rows = [line for line in run.stdout.splitlines()
                    if line.startswith("| mlp3")]
            self.assertEqual(len(rows), 4, run.stdout)
            self.assertIn("| tilec llvm-x86 | 10 | 0.000678 | 1.00 | "
                          "interp 1e-07 (rel 1e-06) | kernels 9 ms, "
                          "1 kernels, kernels' work 0.024 GFLOP;", rows[0])
            self.assertIn("| PyTorch CPU | 20 | 0.000339 | 2.00 | Y 0.5",
                          rows[1])
            self.assertIn("MISMATCH", rows[1])
            self.assertIn("not run: timed out after 2 s", rows[2])
            self.assertIn("not run: not installed: No module named "
                          "'plaidml'", rows[3])
            with open(results) as f:
                self.assertEqual(f.read(), run.stdout)
            # The weights are drawn once: a second run keeps the files.
            stamp = os.path.join(folder, "data", "mlp3", "in0.npy")
            before = os.stat(stamp).st_mtime_ns
            zoo.write_inputs(zoo.read_signature(os.path.dirname(stamp)),
                             os.path.dirname(stamp), 1)
            self.assertEqual(os.stat(stamp).st_mtime_ns, before)

    def test_bf16_files_read_back(self):
        """zoo.load_array reads the bf16 .npy files that the inputs are
        drawn into and tilec writes (numpy cannot), widened exactly."""
        import models_check
        values = np.array([[1.0, -2.5], [0.15625, 3e38]], np.float32)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "x.npy")
            models_check.save_bf16(path, values)
            read = zoo.load_array(path)
        self.assertEqual(read.dtype, np.float32)
        self.assertEqual(read.shape, (2, 2))
        # bf16 keeps the top 16 bits: exact for these, 3e38 truncated.
        self.assertEqual(read[0, 0], 1.0)
        self.assertEqual(read[0, 1], -2.5)
        self.assertEqual(read[1, 0], 0.15625)
        self.assertLess(abs(read[1, 1] - 3e38), 3e38 / 128)

    def test_ptx_bf16_bundle(self):
        """`bundle --target=ptx --default-type=bf16` compiles PTX for the
        H200's CUDA device with the flag, and says so in bundle.json."""
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "calls.txt")
            tilec = executable(folder, "tilec", FAKE_TILEC.replace(
                "args = sys.argv[1:]\n",
                "args = sys.argv[1:]\nopen(%r, 'a').write(' '.join(args) + "
                "'\\n')\n" % log))
            out = os.path.join(folder, "bundle")
            run = subprocess.run(
                [sys.executable, COMPARE, "bundle", out, "--tilec", tilec,
                 "--small", "--only", "mlp3", "--target=ptx",
                 "--default-type=bf16", "--devices-from="],
                capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(out, "bundle.json")) as f:
                contents = json.load(f)
            self.assertEqual(contents["target"], "ptx")
            self.assertEqual(contents["default_type"], "bf16")
            self.assertEqual(contents["device"], "cuda:nvidia:nvidia-h200:0")
            with open(log) as f:
                calls = f.read().splitlines()
            self.assertTrue(all("--default-type=bf16" in call
                                for call in calls), calls)
            compile_call = [c for c in calls if "--target=ptx" in c]
            self.assertEqual(len(compile_call), 1, calls)
            self.assertIn("--device=cuda:nvidia:nvidia-h200:0",
                          compile_call[0])
            self.assertIn(os.path.join(out, "mlp3", "model.ptx"),
                          compile_call[0])

    def test_failed_interpreter_check_exits_1(self):
        with tempfile.TemporaryDirectory() as folder:
            run = compare_cpu(folder, "--systems", "torch",
                              env={"FAKE_CHECK_FAILS": "1"})
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn("interp 1e-07 (rel 1e-06) FAIL", run.stdout)


def tilec_path():
    return os.environ.get("TILEC", os.path.join(zoo.ROOT, "build", "bin",
                                                "tilec"))


def torch_required():
    """PyTorch is a feature of its own (CI does not install it): the check
    below skips without it unless TILEC_REQUIRE_FEATURES names torch."""
    names = os.environ.get("TILEC_REQUIRE_FEATURES", "").split(",")
    return "torch" in names


class TorchModelsTest(unittest.TestCase):
    """Each PyTorch model computes what its .tile file does, on the same
    weights, as tilec's interpreter says."""

    def setUp(self):
        missing = [what for what, present in
                   (("PyTorch (bench/models/setup.sh)", importlib.util.find_spec("torch")),
                    ("a built tilec at " + tilec_path(), os.path.exists(tilec_path())))
                   if not present]
        if missing and torch_required():
            self.fail("TILEC_REQUIRE_FEATURES names torch, but this needs "
                      + " and ".join(missing))
        if missing:
            self.skipTest("needs " + " and ".join(missing))

    def test_models_match_the_interpreter(self):
        import torch
        import peer
        for case in zoo.SMALL:
            with self.subTest(case=case.name), \
                    tempfile.TemporaryDirectory() as folder:
                signature = zoo.write_signature(tilec_path(), case, folder)
                files = zoo.write_inputs(signature, folder, 1)
                out = os.path.join(folder, "interp")
                subprocess.run([tilec_path(), "run", case.tile_file] +
                               case.defines() + ["--target=interp",
                                                 "--output-dir", out] +
                               zoo.input_flags(files), check=True,
                               capture_output=True)
                arrays = peer.load_inputs(folder, signature)
                module, x = peer.torch_module(signature, arrays, "cpu")
                with torch.inference_mode():
                    outputs = module(x)
                for name, got in zip(signature["outputs"], outputs):
                    want = np.load(os.path.join(out, name + ".npy"))
                    scale = np.max(np.abs(want))
                    self.assertEqual(got.shape, want.shape)
                    self.assertLess(np.max(np.abs(got.numpy() - want)),
                                    1e-4 * scale, name)


if __name__ == "__main__":
    unittest.main()
