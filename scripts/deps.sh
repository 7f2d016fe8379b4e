#!/usr/bin/env bash
# Installs what gdlab needs and is missing: Go modules always; on Debian or
# Ubuntu a C compiler (cgo, which package native's plugins need), the
# Jupyter packages (with ipywidgets), a JDK (for ggp-base's
# reference prover and Sancho's propnet in ../shared/tools, which tests and
# speed comparisons run) and Chromium with its driver and Selenium (for the
# widgets' browser test) through apt (as root, or with sudo). Elsewhere it
# says what to install.
# Safe to run again: it does nothing when all is there.
set -euo pipefail

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    export PATH="/usr/local/go/bin:$PATH"
  else
    echo "gdlab needs Go 1.26 or later: install it from https://go.dev/dl/ (or 'conda env create -f environment.yml')" >&2
    exit 1
  fi
fi
go mod download

# Jupyter is driven by /usr/bin/python3: the Debian packages install there.
PY=/usr/bin/python3
[ -n "${CONDA_PREFIX:-}" ] && PY="$CONDA_PREFIX/bin/python"
if [ -x "$PY" ] && "$PY" -c 'import jupyter_client, nbclient, nbconvert, jupyter_kernel_test, ipywidgets, selenium' 2>/dev/null &&
  command -v gcc >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
PKGS="gcc jupyter-client jupyter-nbconvert python3-nbclient python3-jupyter-kernel-test jupyter-notebook python3-ipywidgets python3-widgetsnbextension default-jdk-headless chromium chromium-driver python3-selenium"
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "gdlab needs the apt packages: $PKGS (run as root or install sudo)" >&2
      exit 1
    fi
  fi
  echo "installing a C compiler, Jupyter, a JDK and Chromium from apt: $PKGS"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $PKGS >/dev/null
  exit 0
fi
echo "gdlab needs a C compiler (gcc), Jupyter with nbconvert, nbclient, jupyter_client, jupyter_kernel_test and ipywidgets for /usr/bin/python3, a JDK, and Chromium with chromedriver and Selenium;" >&2
echo "with conda: 'conda env create -f environment.yml'; on Debian/Ubuntu: apt-get install $PKGS" >&2
exit 1
