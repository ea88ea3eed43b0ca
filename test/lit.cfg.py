# -*- Python -*-
# lit configuration for tilec: .tile and .mlir files under test/ are tests.
import os
import shutil
import subprocess
import lit.formats
from lit.llvm import llvm_config

config.name = "TILEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".tile", ".mlir", ".test"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "corpus"]
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
llvm_config.add_tool_substitutions(["tilec", "tilec-opt", "FileCheck", "not", "count"], tool_dirs)
config.environment["PATH"] = os.pathsep.join(tool_dirs + [config.environment.get("PATH", "")])

# Tests that compare with numpy need it; CI installs it.
try:
    import numpy  # noqa: F401
    config.available_features.add("numpy")
except ImportError:
    pass

# Tests of the native CPU target (REQUIRES: llvm-x86) need a tilec whose
# llvm-x86 target runs: probe it once with a one-line program.
def llvm_x86_runs():
    tilec = os.path.join(config.tilec_obj_root, "bin", "tilec")
    probe = "function main(A: f32[2]) -> (B) { B = A + 1; }\n"
    try:
        proc = subprocess.run([tilec, "run", "-", "--target=llvm-x86"], input=probe,
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


if llvm_x86_runs():
    config.available_features.add("llvm-x86")
else:
    lit_config.note("tilec run --target=llvm-x86 does not work: llvm-x86 tests skipped")
if os.path.isdir(os.path.join(config.conformance_dir, "plaidml-tile")):
    config.available_features.add("conformance")
else:
    lit_config.note("conformance folder %s not found: conformance tests skipped"
                    % config.conformance_dir)

# Tests that run kernels on OpenCL (REQUIRES: opencl) or Vulkan
# (REQUIRES: vulkan) need a device: probe what tilec-run sees, at test time,
# so a machine without a driver skips them. scripts/test.sh sets
# TILEC_REQUIRE_DEVICES=opencl,vulkan, so CI fails instead of skipping.
def device_runtimes():
    tilec_run = os.path.join(config.tilec_obj_root, "bin", "tilec-run")
    try:
        proc = subprocess.run([tilec_run, "--devices", "--json"],
                              capture_output=True, text=True, timeout=120)
        import json
        devices = json.loads(proc.stdout)["devices"]
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return set()
    return {d.get("runtime") for d in devices}


present = device_runtimes()
required = [r for r in os.environ.get("TILEC_REQUIRE_DEVICES", "").split(",")
            if r]
for runtime in ("opencl", "vulkan"):
    if runtime in present:
        config.available_features.add(runtime)
    elif runtime in required:
        lit_config.fatal("TILEC_REQUIRE_DEVICES names %s, but tilec-run lists "
                         "no %s device" % (runtime, runtime))
    else:
        lit_config.note("tilec-run lists no %s device: %s tests skipped"
                        % (runtime, runtime))

# SPIR-V modules are validated with spirv-val (Debian: spirv-tools), which
# scripts/setup.sh installs; without it, those tests are skipped.
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
elif "vulkan" in required:
    lit_config.fatal("TILEC_REQUIRE_DEVICES names vulkan, but spirv-val "
                     "(spirv-tools) is not installed")
else:
    lit_config.note("spirv-val not found: SPIR-V validation tests skipped")
