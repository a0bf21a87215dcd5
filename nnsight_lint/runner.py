"""Checking many files fast: cache lookups first, the raw-text pre-filter next, and only the files
that can hold a finding are parsed, across processes when there are enough of them. Results come
back in the order the paths were given, identical to a serial run."""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Dict, List, Optional, Sequence, Tuple

from nnsight_lint.api import FileResult, lint_text, read_source
from nnsight_lint.cache import Cache, content_hash
from nnsight_lint.discovery import NOTEBOOK_SUFFIXES
from nnsight_lint.engine import DEFAULT_OPTIONS, LintOptions, could_have_findings

# Below this many files to parse, starting worker processes costs more than it saves.
PARALLEL_THRESHOLD = 6


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def check_paths(
    paths: Sequence[str],
    options: LintOptions = DEFAULT_OPTIONS,
    jobs: Optional[int] = None,
    cache: Optional[Cache] = None,
) -> List[FileResult]:
    done: Dict[str, FileResult] = {}
    to_parse: List[Tuple[str, bytes, Optional[str]]] = []
    for path in paths:
        cached = cache.lookup_by_stat(path) if cache else None
        if cached is not None:
            done[path] = FileResult(path, cached)
            continue
        data, error = read_source(path)
        if error is not None:
            done[path] = FileResult(path, error=error)
            continue
        digest = content_hash(data) if cache else None
        cached = cache.lookup_by_content(path, digest) if cache else None
        if cached is not None:
            done[path] = FileResult(path, cached)
        elif path.endswith(NOTEBOOK_SUFFIXES) or could_have_findings(data, options):
            # A notebook is always read: its JSON is cheap to check, and invalid JSON is NNL000.
            to_parse.append((path, data, digest))
        else:
            done[path] = FileResult(path, [])
            if cache:
                cache.store(path, digest, [])

    for (path, _, digest), result in zip(to_parse, _lint_all(to_parse, options, jobs)):
        done[path] = result
        if cache and result.error is None:
            cache.store(path, digest, result.diagnostics)
    if cache:
        cache.save()
    return [done[path] for path in paths]


def _lint_all(to_parse, options: LintOptions, jobs: Optional[int]) -> List[FileResult]:
    sources, paths = [data for _, data, _ in to_parse], [path for path, _, _ in to_parse]
    jobs = jobs or default_jobs()
    if jobs == 1 or len(paths) < PARALLEL_THRESHOLD:
        return [lint_text(source, path, options) for source, path in zip(sources, paths)]
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    workers = min(jobs, len(paths))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        chunk = max(1, len(paths) // (workers * 4))
        return list(pool.map(lint_text, sources, paths, [options] * len(paths), chunksize=chunk))
