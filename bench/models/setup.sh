#!/usr/bin/env bash
# Installs the systems compare.py compares tilec with into a virtual
# environment (none of them is needed to build or test tilec):
#   bash bench/models/setup.sh [VENV]     (default /tmp/tilec-models-venv)
# then: VENV/bin/python bench/models/compare.py cpu
# PyTorch (PyPI's wheel; its CUDA libraries come along but stay unused on a
# CPU), onnxruntime and onnx for the export; PlaidML 0.7.0 with what it uses
# (cffi, numpy, six) but not the enum34 it also declares, a backport of the
# enum module for Python 2 that Python 3 never imports.
set -euo pipefail
venv="${1:-/tmp/tilec-models-venv}"
python3 -m venv "$venv"
"$venv/bin/pip" install -q numpy torch onnxruntime onnx onnxscript cffi six
"$venv/bin/pip" install -q --no-deps plaidml==0.7.0
"$venv/bin/python" - <<'PY'
import importlib.metadata as m
for name in ("torch", "onnxruntime", "onnx", "plaidml", "numpy"):
    print("%s %s" % (name, m.version(name)))
PY
