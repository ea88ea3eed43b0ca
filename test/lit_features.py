"""The optional features of tilec's lit suite (REQUIRES: NAME), for
lit.cfg.py and the lit.local.cfg files.

A missing feature turns its tests UNSUPPORTED on a developer's machine, but
is a fatal error naming it when TILEC_REQUIRE_FEATURES lists it or says
"all" (as scripts/test.sh, and so CI, sets it): a broken probe, driver or
install can never pass CI by skipping. TILEC_TEST_PRETEND_MISSING names
features to treat as absent; test/Harness uses it to test this.
"""
import os
import subprocess


def _names(variable):
    return set(filter(None, os.environ.get(variable, "").split(",")))


def offer(config, lit_config, feature, present, why_missing):
    """Adds `feature` when present; otherwise notes it, or fails when it is
    required."""
    if feature in _names("TILEC_TEST_PRETEND_MISSING"):
        present, why_missing = False, "TILEC_TEST_PRETEND_MISSING names it"
    if present:
        config.available_features.add(feature)
        return
    required = _names("TILEC_REQUIRE_FEATURES")
    if feature in required or "all" in required:
        lit_config.fatal("required test feature '%s' is missing: %s" % (feature, why_missing))
    lit_config.note("test feature '%s' is missing (%s): its tests are skipped"
                    % (feature, why_missing))


def run_quietly(argv):
    """The completed process of argv (output captured), or None when it
    cannot be run."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
