#!/usr/bin/env bash
# Installs what gdlab needs and is missing: Go modules always; on Debian or
# Ubuntu the Jupyter packages and a JDK (for ggp-base's reference prover and
# Sancho's propnet in ../shared/tools, which tests and speed comparisons run)
# through apt (as root, or with sudo). Elsewhere it says what to install.
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
if [ -x "$PY" ] && "$PY" -c 'import jupyter_client, nbclient, nbconvert, jupyter_kernel_test' 2>/dev/null && command -v javac >/dev/null 2>&1; then
  exit 0
fi
PKGS="jupyter-client jupyter-nbconvert python3-nbclient python3-jupyter-kernel-test jupyter-notebook default-jdk-headless"
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
      echo "gdlab needs the apt packages: $PKGS (run as root or install sudo)" >&2
      exit 1
    fi
  fi
  echo "installing Jupyter and a JDK from apt: $PKGS"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $PKGS >/dev/null
  exit 0
fi
echo "gdlab needs Jupyter with nbconvert, nbclient, jupyter_client and jupyter_kernel_test for /usr/bin/python3, and a JDK;" >&2
echo "with conda: 'conda env create -f environment.yml'; on Debian/Ubuntu: apt-get install $PKGS" >&2
exit 1
