"""Run rule cases written for an old nnsight (`# target-version: 0.3` / `0.4`) on that nnsight, and
say how each ended, one JSON line a case:

    python tests/old_case_runner.py WEIGHTS OUT.jsonl CASE [CASE ...]

Runs in the old-nnsight venvs (stdlib, torch, transformers, nnsight only): the tiny GPT-2 is the one
of `migration_runner.py`, a model of its own per case. Each case runs from its real path (0.4 reads
an `if`/`for` back from the file to turn it into a graph condition or loop). A case is stopped after
a time limit (on 0.3 a `for` over a proxy never ends): that ends as "timeout".
"""
import json
import os
import signal
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from migration_runner import tiny_model  # noqa: E402

LIMIT = 60  # seconds a case may take


class Timeout(BaseException):
    pass


def _stop(signum, frame):
    raise Timeout(f"still running after {LIMIT}s")


def run(path: str, weights: str) -> dict:
    namespace = {"__name__": "__main__", "__file__": path, "model": tiny_model(weights)}
    with open(path, encoding="utf-8") as handle:
        code = compile(handle.read(), path, "exec")
    signal.signal(signal.SIGALRM, _stop)
    signal.alarm(LIMIT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)
    except BaseException as error:  # noqa: BLE001
        return {"path": path, "error": type(error).__name__, "text": str(error)[:2000]}
    finally:
        signal.alarm(0)
    return {"path": path, "error": None, "text": ""}


if __name__ == "__main__":
    weights, out, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(out, "w", encoding="utf-8") as handle:
        for case in cases:
            handle.write(json.dumps(run(case, weights)) + "\n")
            handle.flush()
