#!/usr/bin/env bash
# Runs the kernel's Jupyter tests: the jupyter_kernel_test conformance suite
# (test_kernel.py), the end-to-end tests (test_e2e.py), those of charts,
# tables and engine calls from cells (test_display.py) and those of comms
# and widgets (test_widgets.py) and the real-browser test of a slider
# (test_browser.py, skipped where no browser is installed). It builds gdlab
# into a temporary directory and installs the kernelspec under a temporary
# prefix, so the user's own Jupyter setup is neither read nor changed.
# Needs Debian's jupyter-client and python3-jupyter-kernel-test, driven by
# /usr/bin/python3. Ends with "N passed, M failed" and a non-zero exit on
# any failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python=/usr/bin/python3

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/bin/gdlab" ./cmd/gdlab)
"$tmp/bin/gdlab" kernel install --prefix "$tmp/prefix" >/dev/null

export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_DATA_DIR="$tmp/data"
export JUPYTER_RUNTIME_DIR="$tmp/runtime"
export JUPYTER_CONFIG_DIR="$tmp/config"
export JUPYTER_PLATFORM_DIRS=1
export PYTHONDONTWRITEBYTECODE=1

cd "$here"
exec "$python" - "$@" <<'PY'
import sys
import unittest

names = sys.argv[1:] or ["test_kernel", "test_e2e", "test_display", "test_widgets", "test_browser"]
suite = unittest.defaultTestLoader.loadTestsFromNames(names)


class Result(unittest.TextTestResult):
    """Counts subtests one by one, as jupyter_kernel_test uses them."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passed = 0
        self.failed_subtests = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


result = unittest.TextTestRunner(verbosity=2, resultclass=Result).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
print("%d passed, %d failed, %d skipped" % (result.passed, failed, len(result.skipped)))
sys.exit(0 if result.wasSuccessful() else 1)
PY
