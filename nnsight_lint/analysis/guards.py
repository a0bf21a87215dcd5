"""Version guards: code that reads an attribute only where the object has it, written to run on
several nnsight versions (`x.value if hasattr(x, "value") else x`). Such a read cannot raise on
the version that lacks the attribute, so the rules that know an attribute was removed skip it.

The forms read: `B.attr if hasattr(B, "attr") else ...` (and `... if not hasattr(B, "attr") else
B.attr`), the body of `if hasattr(B, "attr"):` (the `else:` of `if not hasattr(...)`), where B
is a name or a dotted name, and the attribute reads of a `try:` body whose handler names
`AttributeError`. `getattr(B, "attr", default)` reads no attribute node at all.

Version branches: both arms of an `if` (or conditional expression) whose test reads a version
(`transformers.__version__`, `TRANSFORMERS_VERSION`, `version.parse(...)`, or a name bound to such
a test: `is_old = parse(TRANSFORMERS_VERSION) < parse("4.54")`) are each written for the releases
their test picks, so what a module returns in the targeted release says nothing about them
(`in_version_branch`).

Computed on first use, in one walk of the tree.
"""
from __future__ import annotations

import re
from typing import Iterator, Optional, Set, Tuple

import libcst as cst

from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import children


class Guards:
    def __init__(self, module: cst.Module) -> None:
        self._module = module
        self._guarded: Optional[Set[int]] = None
        self._branched: Optional[Set[int]] = None

    def in_version_branch(self, node: cst.CSTNode) -> bool:
        """Is `node` in an arm of an `if` that tests a version?"""
        if self._branched is None:
            self._branched = _version_branches(self._module)
        return id(node) in self._branched

    def guarded(self, node: cst.Attribute) -> bool:
        """Is the attribute read `node` (`B.attr`) only evaluated where `hasattr(B, "attr")` holds?"""
        if self._guarded is None:
            self._guarded = _guarded_reads(self._module)
        return id(node) in self._guarded


def _hasattr(test: cst.BaseExpression) -> Tuple[Optional[Tuple[str, str]], bool]:
    """((B, attr), True) for `hasattr(B, "attr")`, ((B, attr), False) for `not hasattr(...)`."""
    positive = True
    while type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        test, positive = test.expression, not positive
    if not (type(test) is cst.Call and type(test.func) is cst.Name and test.func.value == "hasattr"):
        return None, positive
    if len(test.args) != 2 or type(test.args[1].value) is not cst.SimpleString:
        return None, positive
    base = dotted_name(test.args[0].value)
    attr = test.args[1].value.evaluated_value
    return ((base, attr) if base and isinstance(attr, str) else None), positive


def _reads(node: cst.CSTNode, base: str, attr: str) -> Iterator[cst.Attribute]:
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) is cst.Attribute and current.attr.value == attr and dotted_name(current.value) == base:
            yield current
        stack.extend(children(current))


def _names_attribute_error(kind: Optional[cst.BaseExpression]) -> bool:
    if type(kind) is cst.Tuple:
        return any(_names_attribute_error(element.value) for element in kind.elements)
    return kind is not None and (dotted_name(kind) or "").rsplit(".", 1)[-1] == "AttributeError"


def _attribute_reads(node: cst.CSTNode) -> Iterator[cst.Attribute]:
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue  # defined here, run elsewhere: not guarded by this `try`
        if type(current) is cst.Attribute:
            yield current
        stack.extend(children(current))


def _guarded_reads(module: cst.Module) -> Set[int]:
    found: Set[int] = set()
    stack = [module]
    while stack:  # iterative: deep code must not hit the recursion limit here
        node = stack.pop()
        if type(node) is cst.Try and any(_names_attribute_error(h.type) for h in node.handlers):
            found.update(id(read) for read in _attribute_reads(node.body))
        elif isinstance(node, (cst.IfExp, cst.If)):
            guard, positive = _hasattr(node.test)
            if guard is not None:
                arm = (node.body if positive else node.orelse)
                if arm is not None:
                    found.update(id(read) for read in _reads(arm, *guard))
        stack.extend(children(node))
    return found


def mentions_version(node: cst.CSTNode) -> bool:
    """A name or attribute that says it is a version (`__version__`, `TRANSFORMERS_VERSION`,
    `version.parse`, `nnsightVersion`), as a word: `conversion` is not one."""
    if type(node) is cst.Name:
        return _VERSION_WORD.search(node.value) is not None
    return type(node) is cst.Attribute and _VERSION_WORD.search(node.attr.value) is not None


_VERSION_WORD = re.compile(r"(?:^|_)(?:version|VERSION)(?:$|_|s)|Version")


def _reads_version(node: cst.CSTNode, names: Set[str]) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if mentions_version(current) or (type(current) is cst.Name and current.value in names):
            return True
        stack.extend(children(current))
    return False


def _version_branches(module: cst.Module) -> Set[int]:
    """The ids of every node in an arm of an `if` / conditional expression that tests a version."""
    names: Set[str] = set()  # bound to a version test: `is_old = parse(__version__) < parse("4.54")`
    tests = []
    stack = [module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Assign) and _reads_version(node.value, set()):
            names.update(t.target.value for t in node.targets if type(t.target) is cst.Name)
        elif isinstance(node, (cst.If, cst.IfExp)):
            tests.append(node)
        stack.extend(children(node))
    found: Set[int] = set()
    for node in tests:
        if not _reads_version(node.test, names):
            continue
        stack = [arm for arm in (node.body, node.orelse) if arm is not None]
        while stack:
            current = stack.pop()
            if id(current) in found:
                continue
            found.add(id(current))
            stack.extend(children(current))
    return found

