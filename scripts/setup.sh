#!/usr/bin/env bash
# Create .venv and install nnsight-lint with its test extras. Safe to run again: when .venv was set
# up from the same pyproject.toml, constraints and this script (and its packages are there), it says so and
# installs nothing (the package is installed editable: code changes need no reinstall).
# torch is pinned first: 2.13.0's CPU wheel is on this machine; an unpinned torch pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "scripts/setup.sh: $*" >&2; }
stamp=.venv/.nnsight-lint-setup
wanted="$(cat pyproject.toml requirements/test-constraints.txt scripts/setup.sh | sha256sum | cut -d' ' -f1)"
if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ] \
   && .venv/bin/python -c "import importlib.util as u, sys; sys.exit(not all(map(u.find_spec, ('nnsight_lint', 'nnsight', 'torch', 'pytest'))))" 2>/dev/null; then
  say "already set up (.venv matches pyproject.toml and requirements/test-constraints.txt); nothing to install"
  exit 0
fi
# Neovim drives the language server in tests/test_editor_neovim.py (Debian's 0.7 is enough); that
# test is skipped without it. Installed only as root on a machine with apt-get.
if ! command -v nvim >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  say "installing neovim with apt-get: tests/test_editor_neovim.py drives the language server in it"
  apt-get install -y -q neovim >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q neovim >/dev/null; }
fi
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || { say "creating .venv with $PYTHON"; "$PYTHON" -m venv .venv; }
pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
say "installing into .venv: pip, torch==2.13.0 (CPU, first: an unpinned torch pulls a CUDA build),"
say "  then nnsight-lint editable with its test extras (nnsight, transformers, pygls, flake8, pre-commit, ...)"
say "  under requirements/test-constraints.txt"
"${pip[@]}" --upgrade pip
"${pip[@]}" "torch==2.13.0"
"${pip[@]}" -c requirements/test-constraints.txt -e ".[test]"
echo "$wanted" > "$stamp"
