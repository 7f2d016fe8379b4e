#!/usr/bin/env bash
# Executes notebooks headless with the gdlab kernel and renders them:
#   out/notebooks/NAME.ipynb  the executed notebook, outputs included
#   out/NAME.html             its HTML rendering (charts live, SVG fallbacks,
#                             widgets as static controls; nothing from a CDN)
# The notebooks in notebooks/ are left as they are; with --update the
# executed copies replace them, to commit notebooks with their outputs.
#
# Usage: scripts/notebooks.sh [--update] [notebooks/NAME.ipynb ...]
#   (no names: every notebooks/*.ipynb)
#
# It uses the kernelspec under out/jupyter (make kernel-install; installed
# here if missing) and Jupyter from Debian's packages through /usr/bin/python3,
# with Jupyter's config, data and runtime directories in a temporary
# directory, so the user's own Jupyter setup is neither read nor changed.
# GDLAB_QUICK=1 in the environment reaches the kernel, and notebooks read
# it to do less. Each cell may take NOTEBOOK_TIMEOUT seconds: by default 600
# in quick mode and 10800 in full mode, where one cell plays a whole
# experiment (notebook 10's self-play cell, 2,280 matches, took over an
# hour at load 4-6 on two cores).
# After a notebook runs, scripts/check_claims.py compares the verdicts it
# decides from the results ledger with those the committed notebook shows:
# a notebook whose claims no longer match fails (with --update, the check
# only reports, since the executed copy becomes the committed one).
# Full runs hold a machine-wide lock (scripts/corelock.sh): notebooks whose
# metadata says "gdlab": {"alone": true} (01, 06 and 07, whose claims
# compare players at equal time on a core per thread, and 11, whose figures
# are timed) run with no other notebook beside them.
# Ends with "N passed, M failed"; the exit status is non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

python=/usr/bin/python3
[ -n "${CONDA_PREFIX:-}" ] && [ -x "$CONDA_PREFIX/bin/python" ] && python="$CONDA_PREFIX/bin/python"
kernel="${GDLAB_KERNEL:-gdlab}"
default_timeout=10800
[ -n "${GDLAB_QUICK:-}" ] && default_timeout=600
timeout="${NOTEBOOK_TIMEOUT:-$default_timeout}"
prefix="$root/out/jupyter"

update=0
if [ "${1:-}" = "--update" ]; then
  update=1
  shift
fi
if [ $# -gt 0 ]; then
  books=("$@")
else
  shopt -s nullglob
  books=(notebooks/*.ipynb)
fi
if [ ${#books[@]} -eq 0 ]; then
  echo "notebooks.sh: no notebooks in notebooks/" >&2
  echo "0 passed, 0 failed"
  exit 0
fi

if ! "$python" -c 'import nbconvert, nbclient' 2>/dev/null; then
  echo "notebooks.sh: $python lacks nbconvert and nbclient (apt-get install jupyter-nbconvert python3-nbclient; or make deps)" >&2
  exit 1
fi
# The kernel runs bin/gdlab, and the ledger pins the sources' version when
# the kernel starts: build it from those sources every time (go build does
# nothing when it is up to date), or a record could name code that did not run.
export PATH="$PATH:/usr/local/go/bin"
go build -o bin/gdlab ./cmd/gdlab
if [ ! -f "$prefix/share/jupyter/kernels/$kernel/kernel.json" ]; then
  echo "notebooks.sh: installing the $kernel kernelspec under out/jupyter"
  bin/gdlab kernel install --prefix "$prefix" --name "$kernel" >/dev/null
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/kernel"
export JUPYTER_PATH="$prefix/share/jupyter"
export JUPYTER_DATA_DIR="$tmp/data"
export JUPYTER_RUNTIME_DIR="$tmp/runtime"
export JUPYTER_CONFIG_DIR="$tmp/config"
export JUPYTER_PLATFORM_DIRS=1
export PYTHONDONTWRITEBYTECODE=1

. scripts/corelock.sh
full=true
if [ -n "${GDLAB_QUICK:-}" ]; then full=false; fi

mkdir -p out/notebooks
passed=0
failed=0
failures=()
for book in "${books[@]}"; do
  name="$(basename "$book" .ipynb)"
  echo "=== $book (GDLAB_QUICK=${GDLAB_QUICK:-})"
  if $full; then lock_cores "$book"; fi
  start=$SECONDS
  # Execute into out/notebooks (the source stays untouched), then render
  # the executed copy, so that each notebook runs once. No timings are
  # recorded in the cells' metadata, so a re-run changes only the outputs.
  # The HTML is rendered without the widgets' saved state: with it,
  # nbconvert's page fetches a widget renderer from a CDN (unpkg); without
  # it, each widget shows its static HTML (disabled controls at the values
  # of the run), the same online and offline.
  # The execution closes the lock's descriptors (8, 9), so that a kernel
  # outliving it cannot hold the machine-wide lock. Its TMPDIR is removed
  # at exit: Beam's loopback runner leaves an empty file there for every
  # sweep a notebook runs. (The lock itself stays in the shared TMPDIR.)
  if TMPDIR="$tmp/kernel" "$python" -m nbconvert --to notebook --execute \
      --ExecutePreprocessor.kernel_name="$kernel" \
      --ExecutePreprocessor.timeout="$timeout" \
      --ExecutePreprocessor.record_timing=False \
      --output-dir out/notebooks --output "$name.ipynb" "$book" 8<&- 9<&- \
    && "$python" scripts/strip_widget_state.py "out/notebooks/$name.ipynb" "$tmp/$name.ipynb" \
    && "$python" -m nbconvert --to html --output-dir out --output "$name.html" "$tmp/$name.ipynb" \
    && { "$python" scripts/check_claims.py "$book" "out/notebooks/$name.ipynb" || [ "$update" = 1 ]; }; then
    passed=$((passed + 1))
    echo "--- ok   $book ($((SECONDS - start)) s): out/$name.html"
    if [ "$update" = 1 ]; then
      cp "out/notebooks/$name.ipynb" "$book"
      echo "    updated $book with its outputs"
    fi
  else
    failed=$((failed + 1))
    failures+=("$book")
    echo "--- FAIL $book ($((SECONDS - start)) s)"
  fi
  if $full; then unlock_cores; fi
done

for f in "${failures[@]}"; do
  echo "failed: $f"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
