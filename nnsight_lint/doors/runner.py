"""Checking many files fast: cache lookups first, the raw-text pre-filter next, and only the files
that can hold a finding are parsed, across processes when there are enough of them. Results come
back in the order the paths were given, identical to a serial run.

A worker process that dies (libcst's native parser can crash on a pathological file) breaks the
whole process pool; the files it had not answered for are then checked again, each in a process of
its own, so the crash is pinned to its file and every other file still reports. A serial run has no
such shield: a crash there ends the run (docs/reliability.md)."""
from __future__ import annotations

import os
import signal
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from nnsight_lint import messages
from nnsight_lint.doors.api import FileResult, lint_text
from nnsight_lint.doors.triage import look_at_all, settle
from nnsight_lint.sources.cache import Cache
from nnsight_lint.engine.lint import DEFAULT_OPTIONS, LintOptions, Screen
from nnsight_lint.engine.parser import parsing_many

# Below this many files to parse, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 6


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def check_paths(
    paths: Sequence[str],
    options: Union[LintOptions, Callable[[str], LintOptions]] = DEFAULT_OPTIONS,
    jobs: Optional[int] = None,
    cache: Union[None, Cache, Callable[[str, LintOptions], Optional[Cache]]] = None,
    screen: Optional[Callable[[str], Screen]] = None,
) -> List[FileResult]:
    """`options` and `cache`: one for every file, or a function of the file (the settings of its
    project, `config.Resolver`) and, for the cache, of the file's options. `screen`: what the
    pre-filter needs of a file's options, when that costs less than the options (the settings'
    rules and trace names, before the target versions are decided): without a cache, only the
    files the pre-filter passes get their options."""
    options_for = options if callable(options) else (lambda path: options)
    cache_for = cache if callable(cache) and not isinstance(cache, Cache) else (lambda path, options: cache)
    screen_for = screen or options_for

    caches_of: Dict[str, Optional[Cache]] = {}  # a path looked at here -> its cache

    def prepared(path: str) -> Tuple[Screen, Optional[Cache]]:
        if cache is None:
            return screen_for(path), None
        file_options = options_for(path)  # a cache is kept per options
        file_cache = caches_of[path] = cache_for(path, file_options)
        return file_options, file_cache

    jobs = jobs or default_jobs()
    done: Dict[str, FileResult] = {}
    to_parse: List[Tuple[str, bytes, Optional[str], Optional[os.stat_result], LintOptions, Optional[Cache]]] = []
    caches = []
    for path, found in zip(paths, look_at_all(paths, prepared, jobs)):
        file_cache = caches_of[path] if path in caches_of else prepared(path)[1]
        if file_cache is not None and all(c is not file_cache for c in caches):
            caches.append(file_cache)
        settled = settle(path, found, file_cache)
        if isinstance(settled, FileResult):
            done[path] = settled
        else:
            to_parse.append((path, *settled, options_for(path), file_cache))

    for (path, _, digest, status, _, file_cache), result in zip(to_parse, _lint_all(to_parse, jobs)):
        done[path] = result
        if file_cache and result.error is None:
            file_cache.store(path, digest, result.diagnostics, status, result.hidden, result.reads)
    for each in caches:
        each.save()
    return [done[path] for path in paths]


def _lint_all(to_parse, jobs: int) -> List[FileResult]:
    sources, paths, options = [item[1] for item in to_parse], [item[0] for item in to_parse], [item[4] for item in to_parse]
    if jobs == 1 or len(paths) < PARALLEL_THRESHOLD:
        from nnsight_lint.engine.parallel import allowed

        with allowed(jobs), parsing_many():  # a huge file's pieces may still use every core
            return [lint_text(source, path, each) for source, path, each in zip(sources, paths, options)]
    # Imported here: most runs (and every run the pre-filter answers) never start a process.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers = min(jobs, len(paths))
    results: List[Optional[FileResult]] = [None] * len(paths)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        chunks = _chunks([len(source) for source in sources], workers)
        futures = [pool.submit(_lint_chunk, [sources[i] for i in chunk], [paths[i] for i in chunk],
                               [options[i] for i in chunk]) for chunk in chunks]
        for chunk, future in zip(chunks, futures):
            try:
                for i, result in zip(chunk, future.result()):
                    results[i] = result
            except BrokenProcessPool:
                pass  # a worker died: this chunk is checked again below, one process per file
    unanswered = [i for i, result in enumerate(results) if result is None]
    isolated = _lint_isolated([(sources[i], paths[i], options[i]) for i in unanswered], workers, context)
    for i, result in zip(unanswered, isolated):
        results[i] = result
    return results


def _chunks(sizes: Sequence[int], workers: int) -> List[List[int]]:
    """The files' indices in chunks for `workers` processes, largest files first: the run ends
    when its last chunk does, so the chunks at the end are the small ones (a worker that draws a
    large file last keeps the other idle meanwhile). A chunk holds about a sixteenth of a worker's
    share of the bytes, and at least one file."""
    order = sorted(range(len(sizes)), key=lambda i: -sizes[i])
    share = max(1, sum(sizes) // (workers * 16))
    chunks: List[List[int]] = []
    held = share
    for i in order:
        if held >= share:
            chunks.append([])
            held = 0
        chunks[-1].append(i)
        held += sizes[i]
    return chunks


def _lint_chunk(sources: List[bytes], paths: List[str], options: List[LintOptions]) -> List[FileResult]:
    with parsing_many():
        return [lint_text(source, path, each) for source, path, each in zip(sources, paths, options)]


def _lint_isolated(items: List[Tuple[bytes, str, LintOptions]], workers: int, context) -> List[FileResult]:
    """Each file in a process of its own, `workers` at a time: a process that dies before it
    answers names the file that killed it."""
    import multiprocessing.connection

    results: List[Optional[FileResult]] = [None] * len(items)
    if items and context.get_start_method() == "fork":
        import libcst  # noqa: F401  once here, not once in every forked child

    waiting = list(reversed(range(len(items))))
    running: Dict["multiprocessing.connection.Connection", Tuple[int, "multiprocessing.process.BaseProcess"]] = {}
    while waiting or running:
        while waiting and len(running) < workers:
            index = waiting.pop()
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_lint_into, args=(sender, *items[index]), daemon=True)
            process.start()
            sender.close()  # ours: the receiver then sees end-of-file when the child dies
            running[receiver] = (index, process)
        for receiver in multiprocessing.connection.wait(list(running)):
            index, process = running.pop(receiver)
            try:
                results[index] = receiver.recv()
            except Exception:  # end-of-file or half a message: the process died before it answered
                pass
            receiver.close()
            process.join()
            if results[index] is None:
                how = messages.WORKER_CRASHED.format(how=_how_it_ended(process.exitcode))
                results[index] = FileResult(items[index][1], error=how)
    return results


def _lint_into(sender, source: bytes, path: str, options: LintOptions) -> None:
    sender.send(lint_text(source, path, options))
    sender.close()


def _how_it_ended(exitcode: Optional[int]) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"was killed by signal {-exitcode}"
    return f"exited with status {exitcode}"
