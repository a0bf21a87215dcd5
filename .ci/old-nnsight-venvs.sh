#!/usr/bin/env bash
# Build the venvs of nnsight 0.3.7 and 0.4.11 that tests/test_migration_runtime.py runs old-era
# programs in (before their migration to 0.8): `.venv-nnsight-0.3`, `.venv-nnsight-0.4`.
#
# Idempotent, and small: each holds nnsight (--no-deps) and what that release needs to import
# (scripts/gen_api_table.py PINS: transformers 4.46, ...), and reuses torch and the rest from
# .venv through a .pth line listed after its own site-packages.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
for release in 0.3.7 0.4.11; do
  minor="${release%.*}"
  .venv/bin/python scripts/gen_api_table.py venv "$release" --path ".venv-nnsight-$minor" >/dev/null
  ".venv-nnsight-$minor/bin/python" -c "import importlib.metadata as m; assert m.version('nnsight') == '$release'"
done
