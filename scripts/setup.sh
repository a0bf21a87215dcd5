#!/usr/bin/env bash
# Create .venv and install nnsight-lint with its test extras. Safe to run again.
# torch is pinned first: 2.13.0's CPU wheel is on this machine; an unpinned torch pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
# Neovim drives the language server in tests/test_editor_neovim.py (Debian's 0.7 is enough).
if ! command -v nvim >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get install -y -q neovim >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q neovim >/dev/null; }
fi
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" --upgrade pip
"${pip[@]}" "torch==2.13.0"
"${pip[@]}" -c requirements/test-constraints.txt -e ".[test]"
