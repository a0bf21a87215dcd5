#!/usr/bin/env bash
# Set up (scripts/setup.sh) and run the tests.
#
#   scripts/test.sh                      # the whole suite: the runtime-hook tests on an older nnsight
#                                        # (a second virtualenv, .ci/runtime-old-nnsight.sh), the nnsight
#                                        # 0.3/0.4 venvs the migration tests run old programs in
#                                        # (.ci/old-nnsight-venvs.sh), then everything on nnsight 0.8.1
#                                        # (what .ci/run runs)
#   scripts/test.sh tests/test_cli.py    # just those tests (any pytest arguments), on 0.8.1 only
#
# Setting up is quick when nothing changed: setup.sh says "already set up" and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "$#" -eq 0 ]; then
  echo "scripts/test.sh: the whole suite: first the runtime-hook tests on an older nnsight (.venv-old)," >&2
  echo "  and the nnsight 0.3/0.4 venvs of the migration tests" >&2
  bash .ci/runtime-old-nnsight.sh
  bash .ci/old-nnsight-venvs.sh   # nnsight 0.3 / 0.4 for the migration tests (tests/test_migration_runtime.py)
else
  echo "scripts/test.sh: only pytest $* (no arguments: the whole suite, with the older-nnsight runs)" >&2
fi
.venv/bin/python -m pytest -q "$@"
