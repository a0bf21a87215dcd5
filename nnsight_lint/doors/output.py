"""Output formats. Each takes the diagnostics of a run and returns the text to print.

Every format has the same signature, `format(diagnostics, sources=None, hidden=None)`: `sources` maps
a path to its text when the file on disk is not what was checked (stdin); `full` reads the others
itself. `hidden` is how many findings the run did not show as deliberate error demos (None: not
counted, a `--fix` run): the payloads of `json`, `sarif` and `github` carry it, the text formats leave
it to the summary on stderr. Positions stay 1-based everywhere, as the diagnostics hold them.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Union
from urllib.parse import quote

from nnsight_lint import __version__, messages
from nnsight_lint.diagnostics import Diagnostic, Edit, Position

Sources = Optional[Mapping[str, Union[str, bytes]]]
REPOSITORY_URL = messages.DOCS_URL.split("/blob/")[0]


def location(diagnostic: Diagnostic) -> str:
    cell = f"cell {diagnostic.cell}:" if diagnostic.cell is not None else ""
    return f"{diagnostic.path}:{cell}{diagnostic.line}:{diagnostic.column}"


def rule_url(code: str) -> str:
    return messages.DOCS_URL.format(code=code)


def fixable(d: Diagnostic, unsafe: bool = False) -> bool:
    """Does `--fix` (with `--unsafe-fixes` when `unsafe`) apply this finding's fix? What `[*]`
    marks, as in ruff: an unsafe fix is "hidden" until `--unsafe-fixes` is given."""
    return d.fix is not None and bool(d.fix.edits) and (d.fix.safe or unsafe)


def _mark(d: Diagnostic, unsafe: bool) -> str:
    return " [*]" if fixable(d, unsafe) else ""


def concise(diagnostics: List[Diagnostic], sources: Sources = None, unsafe: bool = False, hidden=None) -> str:
    return "".join(f"{location(d)}: {d.code}{_mark(d, unsafe)} {d.message}\n" for d in diagnostics)


# --- full: the concise line, the source line with a caret, the fix, the explain pointer ---------


def full(diagnostics: List[Diagnostic], sources: Sources = None, unsafe: bool = False, hidden=None) -> str:
    stored = _Stored(sources)
    return "".join(_full_block(d, stored.lines(d), unsafe) for d in diagnostics)  # a notebook's: its cell's lines


def _full_block(d: Diagnostic, lines: Optional[List[str]], unsafe: bool = False) -> str:
    out = [f"{location(d)}: {d.code}{_mark(d, unsafe)} {d.message}"]
    fix_lines = _fix_preview(d, lines) if d.fix else None
    shown = [d.line] + [number for number, _, _ in fix_lines or ()]
    width = len(str(max(shown)))
    bar = " " * width + " |"
    if lines is not None and d.line <= len(lines):
        text = lines[d.line - 1].rstrip("\r\n")
        end = d.end.column if d.end.line == d.line else len(text) + 1
        carets = "^" * max(1, end - d.column)
        out += [bar, f"{d.line:>{width}} | {text}", f"{bar} {' ' * (d.column - 1)}{carets} {d.code}", bar]
    if d.detail:  # the story behind the short message
        out += _wrapped(d.detail, f"{' ' * width} = why: ", f"{' ' * width}        ")
    if d.fix:
        out.append(f"{' ' * width} = fix ({d.fix.applicability}):")
        if fix_lines is not None:
            out += [f"{number:>{width}} {sign} {text}" for number, sign, text in fix_lines]
        else:
            out += [f"{' ' * width}   {_describe_edit(edit)}" for edit in d.fix.edits]
    out.append(f"{' ' * width} = {messages.EXPLAIN_POINTER.format(code=d.code)}")
    return "\n".join(out) + "\n\n"


def _wrapped(text: str, first: str, rest: str) -> List[str]:
    import textwrap

    return textwrap.wrap(text, width=100, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=False) or [first.rstrip()]


def _fix_preview(d: Diagnostic, lines: Optional[List[str]]):
    """The lines the fix touches, before (-) and after (+), or None when the source is unknown."""
    if lines is None or not d.fix.edits:
        return None
    first = min(edit.start.line for edit in d.fix.edits)
    last = min(max(edit.end.line for edit in d.fix.edits), len(lines))
    if first < 1 or first > last:
        return None
    before = "".join(lines[first - 1 : last])
    after = before
    for edit in sorted(d.fix.edits, key=lambda e: e.start, reverse=True):
        start, end = _offset(lines, first, edit.start), _offset(lines, first, edit.end)
        after = after[:start] + edit.content + after[end:]
    return [(first + i, "-", text) for i, text in enumerate(before.splitlines())] + [
        (first + i, "+", text) for i, text in enumerate(after.splitlines())
    ]


def _offset(lines: List[str], first: int, position: Position) -> int:
    if position.line > len(lines):
        return sum(len(line) for line in lines[first - 1 :])
    return sum(len(line) for line in lines[first - 1 : position.line - 1]) + position.column - 1


def _describe_edit(edit: Edit) -> str:
    where = f"{edit.start.line}:{edit.start.column}"
    if edit.start == edit.end:
        return f"insert {edit.content!r} at {where}"
    span = f"{where}-{edit.end.line}:{edit.end.column}"
    return f"replace {span} with {edit.content!r}" if edit.content else f"delete {span}"


# --- json --------------------------------------------------------------------------------------


def _point(position: Position) -> dict:
    return {"row": position.line, "column": position.column}


def summary(diagnostics: Sequence[Diagnostic], hidden: Optional[int]) -> dict:
    """What the JSON payloads say besides the findings: how many, and how many were not shown
    because the code shows their error on purpose (None: not counted)."""
    return {"found": len(diagnostics), "deliberate_demos_not_shown": hidden}


def hidden_note(hidden: Optional[int]) -> Optional[str]:
    """The line that says how many findings were not shown, or None when none were."""
    return messages.HIDDEN_DEMOS.format(count=hidden, s="s" if hidden != 1 else "") if hidden else None


def as_json(diagnostics: List[Diagnostic], sources: Sources = None, hidden: Optional[int] = None) -> str:
    items = []
    for d in diagnostics:
        fix = None
        if d.fix:
            fix = {
                "applicability": d.fix.applicability,
                "edits": [
                    {"content": e.content, "location": _point(e.start), "end_location": _point(e.end)}
                    for e in d.fix.edits
                ],
            }
        item = {
            "code": d.code,
            "message": d.message,
            "filename": d.path,
            "location": _point(d.start),
            "end_location": _point(d.end),
            "fix": fix,
            "url": rule_url(d.code),
        }
        if d.cell is not None:
            item["cell"] = d.cell
        items.append(item)
    payload = {"findings": items, "summary": summary(diagnostics, hidden)}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


# --- github: workflow commands, which Actions turns into annotations ----------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(diagnostics: List[Diagnostic], sources: Sources = None, hidden: Optional[int] = None) -> str:
    out = []
    stored = _Stored(sources)
    for d in diagnostics:
        start, end = stored.locate(d)
        properties = [
            ("file", d.path), ("line", start.line), ("col", start.column),
            ("endLine", end.line), ("endColumn", end.column), ("title", d.code),
        ]
        props = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties)
        out.append(f"::error {props}::{_escape_data(stored.message(d))}\n")
    note = hidden_note(hidden)
    if note:  # a notice on the run: a clean log must not hide what was not shown
        out.append(f"::notice title=nnsight-lint::{_escape_data(note)}\n")
    return "".join(out)


class _Stored:
    """Where findings are in the files as stored (a notebook's JSON, not its cells), asked of
    each file's `source.Source`; files are read only when a finding's position needs mapping."""

    def __init__(self, sources: Sources):
        self.sources, self.documents = sources, {}

    def document(self, path: str):
        from nnsight_lint.sources import source

        if path not in self.documents:
            data = self.sources.get(path) if self.sources is not None else None
            if data is None:
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    data = None
            self.documents[path] = source.of(data, path) if data is not None else None
        return self.documents[path]

    def lines(self, d: Diagnostic):
        document = self.document(d.path)
        return None if document is None else document.lines(d)

    def locate(self, d: Diagnostic):
        document = self.document(d.path) if d.cell is not None else None
        return (d.start, d.end) if document is None else document.locate(d)

    def edits(self, d: Diagnostic):
        if d.fix is None:
            return ()
        document = self.document(d.path) if d.cell is not None else None
        if document is None:
            return () if d.cell is not None else d.fix.edits  # a cell's edits would corrupt the JSON
        return document.edits(d)

    def message(self, d: Diagnostic) -> str:
        document = self.document(d.path) if d.cell is not None else None
        place = document.place(d) if document is not None else (f"cell {d.cell}, line {d.line}" if d.cell else "")
        return f"{place}: {d.message}" if place else d.message


# --- sarif 2.1.0, what GitHub code scanning uploads -------------------------------------------

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _artifact(path: str) -> dict:
    """A path relative to the checkout root (the working directory) when it lies below it."""
    relative = os.path.relpath(os.path.abspath(path))
    if relative == ".." or relative.startswith(".." + os.sep):
        return {"uri": Path(os.path.abspath(path)).as_uri()}
    return {"uri": quote(relative.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}


def _region(start: Position, end: Position) -> dict:
    return {"startLine": start.line, "startColumn": start.column, "endLine": end.line, "endColumn": end.column}


def _sarif_rule(code: str) -> dict:
    from nnsight_lint import rules

    rule = rules.RULES[code]
    text = rules.explanation(code)
    cause = text.split("\n## Cause\n", 1)[1].split("\n\n", 1)[0] if "\n## Cause\n" in text else ""
    return {
        "id": code,
        "name": rule.NAME,
        "shortDescription": {"text": rule.SUMMARY},
        "fullDescription": {"text": " ".join(cause.split()) or rule.SUMMARY},
        "help": {"text": text, "markdown": text},
        "helpUri": rule_url(code),
        "defaultConfiguration": {"level": "error"},
    }


def _replacement(edit: Edit) -> dict:
    replacement = {"deletedRegion": _region(edit.start, edit.end)}
    if edit.content:  # a deletion has none (SARIF: insertedContent, if present, is non-empty text)
        replacement["insertedContent"] = {"text": edit.content}
    return replacement


def sarif(diagnostics: List[Diagnostic], sources: Sources = None, hidden: Optional[int] = None) -> str:
    from nnsight_lint import rules

    codes = list(rules.RULES)
    results = []
    stored = _Stored(sources)
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code),
            "level": "error",
            "message": {"text": stored.message(d)},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(d.path),
                        "region": _region(*stored.locate(d)),
                    }
                }
            ],
        }
        edits = stored.edits(d)
        if edits:  # on the stored text: a notebook's fix rewrites the strings of its JSON
            result["fixes"] = [
                {
                    "description": {"text": f"Apply the {d.fix.applicability} fix for {d.code}"},
                    "artifactChanges": [
                        {
                            "artifactLocation": _artifact(d.path),
                            "replacements": [_replacement(e) for e in edits],
                        }
                    ],
                }
            ]
        results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "nnsight-lint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY_URL,
                        "rules": [_sarif_rule(code) for code in codes],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    if hidden is not None:  # the run's property bag (SARIF 3.8): findings not shown as deliberate demos
        log["runs"][0]["properties"] = {"deliberateDemosNotShown": hidden}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


FORMATS = {"concise": concise, "full": full, "json": as_json, "github": github, "sarif": sarif}


def render(name: str, diagnostics: List[Diagnostic], sources: Sources = None, unsafe: bool = False,
           hidden: Optional[int] = None) -> str:
    """`unsafe`: `--unsafe-fixes` was given, so `[*]` marks unsafe fixes too (concise, full)."""
    if name in ("concise", "full"):
        return FORMATS[name](diagnostics, sources, unsafe)
    return FORMATS[name](diagnostics, sources, hidden)


# --- --statistics ------------------------------------------------------------------------------


def statistics(diagnostics: Sequence[Diagnostic], as_json_list: bool = False, unsafe: bool = False,
               hidden: Optional[int] = None) -> str:
    """How many findings per code, most frequent first; `[*]` when `--fix` fixes some of them. As
    JSON, with the run's summary (`hidden`: see the module's docstring)."""
    from nnsight_lint import rules

    counts = Counter(d.code for d in diagnostics)
    fixes = Counter(d.code for d in diagnostics if fixable(d, unsafe))
    order = sorted(counts, key=lambda code: (-counts[code], code))
    names = {code: getattr(rules.RULES.get(code), "NAME", "") for code in order}
    if as_json_list:
        items = [
            {"code": c, "name": names[c], "count": counts[c], "fixable": fixes[c]} for c in order
        ]
        return json.dumps({"statistics": items, "summary": summary(diagnostics, hidden)}, indent=2) + "\n"
    width = len(str(max(counts.values()))) if counts else 1
    return "".join(
        f"{counts[c]:>{width}}\t{c}\t{'[*]' if fixes[c] else '   '} {names[c]}\n" for c in order
    )
