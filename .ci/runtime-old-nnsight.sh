#!/usr/bin/env bash
# Run the runtime-hook tests against an older nnsight in a second virtualenv.
#
#   bash .ci/runtime-old-nnsight.sh                # nnsight 0.5.15 in .venv-old
#   NNSIGHT_OLD=0.7.0 bash .ci/runtime-old-nnsight.sh
#
# Idempotent: the venv is made once and pip only installs what is missing or different.
# torch 2.13.0 goes in FIRST, from the CPU wheel on disk: an unpinned torch would pull a
# multi-GB CUDA build. Exits non-zero when the venv cannot be built or a test fails.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-old"
nnsight_version="${NNSIGHT_OLD:-0.5.15}"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null || python=python3

# Versions the hook tests passed with on nnsight 0.5.0, 0.5.15, 0.6.3 and 0.7.0.
pins=(
  "nnsight==$nnsight_version"
  "dill"                      # nnsight 0.5.0 imports it without declaring it
  "transformers==5.24.0"
  "tokenizers==0.23.3"
  "libcst>=1.0"               # nnsight_lint's own dependency (the linter comparison test)
  "pytest>=7"
  "ipython"
)
wheels=()
[ -d /opt/wheels ] && wheels=(--find-links /opt/wheels)

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" "${wheels[@]}" "torch==2.13.0"
"${pip[@]}" "${wheels[@]}" "torch==2.13.0" "${pins[@]}"

cd "$root"
"$venv/bin/python" - <<PY
import nnsight, torch
print(f"nnsight {nnsight.__version__}, torch {torch.__version__}")
assert nnsight.__version__ == "$nnsight_version", nnsight.__version__
PY
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_runtime_hook.py
