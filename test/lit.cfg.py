# -*- Python -*-
# lit configuration for tilec: .tile and .mlir files under test/ are tests.
import json
import os
import shutil
import sys
import lit.formats
from lit.llvm import llvm_config

config.name = "TILEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".tile", ".mlir", ".test"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "lit_features.py", "corpus"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "test")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
# The device-profile cache (`tilec devices --probe`) of the tests: empty
# unless a test fills it, so a developer's measured peaks never change what
# the cost model picks or what `tilec devices` prints in a test.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "xdg-cache")

config.substitutions.append(("%tilec_src", config.tilec_src_root))
config.substitutions.append(("%examples", os.path.join(config.tilec_src_root, "examples")))
config.substitutions.append(("%conformance", config.conformance_dir))
# Where libomp lives, for C programs linking tilec objects (-lomp).
config.substitutions.append(("%llvm_lib_dir", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

llvm_config.with_system_environment(["HOME", "PYTHONPATH"])
llvm_config.use_default_substitutions()
tool_dirs = [os.path.join(config.tilec_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["tilec", "tilec-opt", "tilec-translate",
                                    "tilec-test-backends", "FileCheck", "not",
                                    "count"], tool_dirs)
config.environment["PATH"] = os.pathsep.join(tool_dirs + [config.environment.get("PATH", "")])

# The optional features tests REQUIRE. Each is probed here; a missing one
# turns its tests UNSUPPORTED on a developer's machine, but is a fatal error
# naming it when TILEC_REQUIRE_FEATURES lists it or says "all" (as
# scripts/test.sh, and so CI, sets it), so a broken probe, driver or
# install can never pass CI by skipping. TILEC_TEST_PRETEND_MISSING names
# features to treat as absent: the tests of this mechanism use it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit_features import run_quietly, offer as offer_feature  # noqa: E402


def offer(feature, present, why_missing):
    offer_feature(config, lit_config, feature, present, why_missing)


# %python is the interpreter running lit; tests that use numpy need it there.
try:
    import numpy  # noqa: F401
    has_numpy = True
except ImportError:
    has_numpy = False
offer("numpy", has_numpy, "the python running lit (%s) cannot import numpy" % sys.executable)

# sklearn: scikit-learn's bundled 8x8 digits, which the training test
# converges on (Debian's python3-sklearn, installed by scripts/setup.sh).
try:
    import sklearn  # noqa: F401
    has_sklearn = True
except ImportError:
    has_sklearn = False
offer("sklearn", has_sklearn, "the python running lit (%s) cannot import sklearn" % sys.executable)

def write_probe(name, text):
    """The path of build/test/probe/NAME, written with `text`."""
    probe = os.path.join(config.test_exec_root, "probe", name)
    os.makedirs(os.path.dirname(probe), exist_ok=True)
    with open(probe, "w") as f:
        f.write(text)
    return probe


# llvm-x86: tilec's native target runs a one-line program (from a file, so
# a broken `tilec run -` does not hide here; test/Harness/required-features
# checks stdin on its own).
def llvm_x86_runs():
    probe = write_probe("llvm-x86.tile", "function main(A: f32[2]) -> (B) { B = A + 1; }\n")
    tilec = os.path.join(config.tilec_obj_root, "bin", "tilec")
    proc = run_quietly([tilec, "run", probe, "--target=llvm-x86"])
    if proc is None:
        return False, "tilec could not be run"
    if proc.returncode != 0:
        return False, "tilec run --target=llvm-x86 failed: " + proc.stderr.strip()[:300]
    return True, ""


offer("llvm-x86", *llvm_x86_runs())
offer("conformance", os.path.isdir(os.path.join(config.conformance_dir, "plaidml-tile")),
      "folder %s/plaidml-tile not found" % config.conformance_dir)

# %cc: the C compiler CMake was configured with, for tests that link
# tilec's artefacts into C programs.
config.substitutions.append(("%cc", config.c_compiler))
def c_compiler_works():
    probe = write_probe("cc.c", "int main(void) { return 0; }\n")
    proc = run_quietly([config.c_compiler, probe, "-o", probe + ".out"])
    return proc is not None and proc.returncode == 0


offer("cc", c_compiler_works(), "%s cannot compile a C program" % config.c_compiler)

# opencl, vulkan, gl: tilec-run lists a device of that runtime (PoCL,
# lavapipe and llvmpipe through EGL in CI: the CPU devices scripts/setup.sh
# installs).
def device_runtimes():
    proc = run_quietly([os.path.join(config.tilec_obj_root, "bin", "tilec-run"),
                        "--devices", "--json"])
    try:
        return {d.get("runtime") for d in json.loads(proc.stdout)["devices"]}
    except (AttributeError, ValueError, KeyError, TypeError):
        return set()


present = device_runtimes()
for runtime in ("opencl", "vulkan", "gl"):
    offer(runtime, runtime in present, "tilec-run --devices lists no %s device" % runtime)

# SPIR-V modules are validated with spirv-val (Debian: spirv-tools).
offer("spirv-val", shutil.which("spirv-val") is not None, "spirv-val is not on PATH")

# GLSL shaders are validated with glslangValidator (Debian: glslang-tools).
offer("glslang", shutil.which("glslangValidator") is not None,
      "glslangValidator is not on PATH")

# PTX is assembled with the CUDA toolkit's ptxas (CI has the toolkit, not a
# GPU): on PATH, else where the toolkit installs itself.
ptxas = shutil.which("ptxas") or shutil.which("ptxas", path="/usr/local/cuda/bin")
offer("ptxas", ptxas is not None, "ptxas is neither on PATH nor in /usr/local/cuda/bin")
config.substitutions.append(("%ptxas", ptxas or "ptxas"))

# %lit_self runs this suite's lit (test/Harness checks the suite itself).
config.substitutions.append(("%lit_self", "%s %s" % (sys.executable, config.lit_path)))
config.substitutions.append(("%tilec_obj", config.tilec_obj_root))

# Driver-level tests check exact exit codes (docs/cli.md: 0 ok, 1 bad input,
# 2 bad command line, 3 runtime failure), which `not` cannot tell apart:
#   RUN: %expect_exit 2 tilec --bogus 2>&1 | FileCheck %s
config.substitutions.insert(
    0, ("%expect_exit",
        "sh " + os.path.join(config.test_source_root, "Driver", "Inputs",
                             "expect-exit.sh")))
