"""Whether a model is dispatched (its real weights loaded) at a point of the file.

`LanguageModel("id")` (or a path) loads lazily: the torch model is built on the meta device, with
no weights, until the first trace or generation runs it, or `dispatch=True` / `model.dispatch()`
(`dispatch_model()` before 0.5) loads it. A wrapper over a torch model built in the program is
dispatched from the start. The facts here are what the source says, on the `ModelRef` of
`analysis/models.py`: the construction's keywords, the traces and dispatch calls before a point
(in evaluation order), and `if model.dispatched:` guards around it.
"""
from __future__ import annotations

from typing import Optional, Set

import libcst as cst

from nnsight_lint.analysis.flow import last_binding
from nnsight_lint.analysis.model import Event, EventKind, FileModel
from nnsight_lint.analysis.scope import dotted_name

LAZY_WRAPPERS = frozenset({"LanguageModel", "TransformersModel"})
DISPATCH_METHODS = frozenset({"dispatch", "dispatch_model"})


def loads_lazily(ref) -> bool:
    """Does the construction load by id or path, with nothing saying it dispatches at once?"""
    if ref.wrapper not in LAZY_WRAPPERS or ref.loader != "id" or ref.file is not None:
        return False
    return "dispatch" not in ref.keywords and not any(arg.star == "**" for arg in ref.call.args)


def construction_of(model: FileModel, name: str, order: int):
    """The ModelRef a module-level name is bound to at `order` (its last binding before), or None."""
    binding = last_binding(model, name, order)
    if binding is None or binding.value is None or binding.where.trace is not None:
        return None
    return next((ref for ref in model.models if ref.call is binding.value), None)


def dispatched_before(model: FileModel, name: str, order: int) -> bool:
    """Has a trace or generation of `name` started, or a dispatch call run, before `order`?"""
    for trace in model.traces:
        if trace.model == name and trace.start < order:
            return True
    for method in DISPATCH_METHODS:
        for event in model.named(EventKind.CALL, method):
            if event.order < order and dotted_name(event.base.value) == name:
                return True
    return False


def guarded(model: FileModel, event: Event) -> bool:
    """Is the event in an arm of an `if` (or a conditional expression's statement) that tests
    `.dispatched`?"""
    if not event.where.branches:
        return False
    tests = _dispatched_tests(model.module)
    return any(statement in tests for statement, _ in event.where.branches)


_TESTS: dict = {}


def _dispatched_tests(module: cst.Module) -> Set[int]:
    key = id(module)
    cached = _TESTS.get(key)
    if cached is not None and cached[0] is module:
        return cached[1]
    found: Set[int] = set()

    class Visitor(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            if "dispatched" in cst.Module([]).code_for_node(node.test):
                found.add(id(node))

    module.visit(Visitor())
    _TESTS.clear()
    _TESTS[key] = (module, found)
    return found


def root_name(node: cst.CSTNode) -> Optional[str]:
    """The name a chain of attributes, subscripts and method calls starts at (`model.lm_head.weight
    .sum()` -> "model")."""
    while True:
        kind = type(node)
        if kind is cst.Attribute or kind is cst.Subscript:
            node = node.value
        elif kind is cst.Call:
            node = node.func
        else:
            return node.value if kind is cst.Name else None
