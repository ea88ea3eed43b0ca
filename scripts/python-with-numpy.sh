# Sourced by scripts: sets TILEC_PYTHON to a Python that can import numpy
# (the system one that scripts/setup.sh equips, /usr/bin/python3, before
# whatever `python3` on PATH is: a pyenv or venv interpreter often lacks it).
# An explicit TILEC_PYTHON is kept. Fails, naming what it tried, otherwise.
if [[ -z "${TILEC_PYTHON:-}" ]]; then
  for candidate in /usr/bin/python3 "$(command -v python3 || true)"; do
    if [[ -x "$candidate" ]] && "$candidate" -c "import numpy" 2>/dev/null; then
      TILEC_PYTHON="$candidate"
      break
    fi
  done
fi
if [[ -z "${TILEC_PYTHON:-}" ]]; then
  echo "no python3 with numpy (tried /usr/bin/python3 and python3 on PATH);" \
       "run scripts/setup.sh or set TILEC_PYTHON" >&2
  return 1 2>/dev/null || exit 1
fi
export TILEC_PYTHON
