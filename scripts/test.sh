#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run the whole test suite: the runtime-hook tests on an older
# nnsight (a second virtualenv, .ci/runtime-old-nnsight.sh), then everything on nnsight 0.8.1.
# Extra arguments go to the main pytest run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bash .ci/runtime-old-nnsight.sh
.venv/bin/python -m pytest -q "$@"
