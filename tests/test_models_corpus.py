"""Precision of the model rules on real code shapes (`tests/corpus_models/`, each with its source):
silent for the transformers release the code was written for; at the newest measured release
only what that release changed: NNL403 where a decoder block's `.output[0]` now selects batch row
0, NNL401 where a module was renamed (GPT-NeoX's `embed_out` is `lm_head` in transformers 5)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.knowledge import models as knowledge

CORPUS = sorted((Path(__file__).parent / "corpus_models").glob("*.py"))
_ERA = re.compile(r"^# transformers: (\S+)$", re.MULTILINE)


def model_findings(path: Path, version):
    source = path.read_text(encoding="utf-8")
    return [(d.line, d.code) for d in lint_source(source, str(path), LintOptions(transformers_version=version))
            if d.code.startswith("NNL4")]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_silent_for_the_transformers_it_was_written_for(path):
    era = _ERA.search(path.read_text(encoding="utf-8")).group(1)
    assert model_findings(path, era) == []


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_newest_release_reports_only_block_rows(path):
    newest = knowledge.measured_releases()[-1]
    lines = path.read_text(encoding="utf-8").splitlines()
    for line, code in model_findings(path, newest):
        if code == "NNL403":
            assert re.search(r"\.(output|input)\[0\]", lines[line - 1]), line
        else:
            assert code == "NNL401", (line, code)


def test_the_corpus_holds_block_indexing_the_newest_release_reports():
    newest = knowledge.measured_releases()[-1]
    assert sum(len(model_findings(path, newest)) for path in CORPUS) >= 3
