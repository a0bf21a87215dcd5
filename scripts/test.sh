#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run the whole test suite: the runtime-hook tests on an older
# nnsight (a second virtualenv, .ci/runtime-old-nnsight.sh), the nnsight 0.3/0.4 venvs the migration
# tests run old programs in (.ci/old-nnsight-venvs.sh), then everything on nnsight 0.8.1.
# Extra arguments go to the main pytest run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bash .ci/runtime-old-nnsight.sh
bash .ci/old-nnsight-venvs.sh   # nnsight 0.3 / 0.4 for the migration tests (tests/test_migration_runtime.py)
.venv/bin/python -m pytest -q "$@"
