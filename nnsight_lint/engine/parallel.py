"""A huge file's pieces linted across worker processes.

`slicing.pieces` cuts a huge file into pieces, each linted on its own (`lint._lint_pieces`), so
they give the same findings in any process. One file is one job for the command line's runner,
though: a 16 MB file would keep one core busy and leave the others idle. So where the caller says
worker processes are welcome (`allowed`: the runner, while it lints files in its own process),
the pieces go to that many forked workers, results taken in the pieces' order (and before them,
the reading of the file's statements that cuts the pieces: `dependencies.names_of_all`). Everywhere else
(the language server, the flake8 plugin, the API, a runner's own workers) they are linted in
the calling process, as before.

A worker tells the parent what the lint of its pieces read (`sources.reads`, for the cache) and
which findings it hid as deliberate demos (`lint.counting_hidden`). When a worker dies (libcst's
native parser can crash), the pieces not answered are linted in this process: a crash there ends
the run, as a serial run's does (docs/reliability.md).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Callable, Iterator, List, Sequence, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

_jobs = 1  # worker processes welcome for one file's pieces (`allowed`)
_work: list = []  # (function, items) of the pieces being linted: forked workers inherit it


@contextmanager
def allowed(jobs: int) -> Iterator[None]:
    """While the block runs, the pieces of one huge file may be linted in `jobs` processes."""
    global _jobs
    before, _jobs = _jobs, jobs
    try:
        yield
    finally:
        _jobs = before


def mapped(function: Callable[[Item], Result], items: Sequence[Item]) -> Iterator[Result]:
    """`function(item)` for each item, in order: across worker processes when they are welcome
    and there is more than one item. Stop iterating to stop the workers."""
    if _jobs < 2 or len(items) < 2 or not _can_fork():
        yield from map(function, items)
        return
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    import multiprocessing

    from nnsight_lint.engine.lint import hear_hidden
    from nnsight_lint.sources import reads

    _work[:] = [(function, items)]
    pool = ProcessPoolExecutor(max_workers=min(_jobs, len(items)), mp_context=multiprocessing.get_context("fork"))
    done = 0
    try:
        futures = [pool.submit(_in_worker, index) for index in range(len(items))]
        for future in futures:
            result, hidden, read = future.result()
            hear_hidden(hidden)
            reads.replay(read)
            done += 1
            yield result
    except BrokenProcessPool:
        pass  # a worker died: the rest are linted here
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _work.clear()
    yield from map(function, items[done:])


def _in_worker(index: int):
    from nnsight_lint.engine.lint import counting_hidden
    from nnsight_lint.sources import reads

    function, items = _work[0]
    with counting_hidden() as hidden, reads.recording() as read:
        result = function(items[index])
    return result, hidden, reads.frozen(read)


def _can_fork() -> bool:
    """Fork keeps the pieces in the workers' memory for free; elsewhere (Windows) they would be
    pickled whole. A runner's own worker (daemonic) may not start processes."""
    import multiprocessing

    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods() \
        and not multiprocessing.current_process().daemon
