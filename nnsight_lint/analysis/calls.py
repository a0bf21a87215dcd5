"""What a call that opens a trace, an invoke or an iter loop says: whether it passes an input, whether
the iteration is bounded, whether a `.trace()` is a look-alike the file defines, which helper it calls."""
from __future__ import annotations

from typing import FrozenSet, Optional, Tuple

import libcst as cst

from nnsight_lint.analysis.model import Trace, Tri
from nnsight_lint.analysis.scope import Scope, dotted_name
from nnsight_lint.analysis.tree import body_of, children

# Keywords of a trace or invoke call that are its input, and ones that certainly are not.
INPUT_KEYWORDS = frozenset(
    {"input", "inputs", "input_ids", "inputs_embeds", "prompt", "prompts", "text", "texts", "images",
     "pixel_values", "input_values", "input_features", "x"}
)


NON_INPUT_KEYWORDS = frozenset(
    {"max_new_tokens", "max_length", "min_new_tokens", "do_sample", "remote", "scan", "validate", "debug",
     "backend", "blocking", "trace", "invoker_args", "use_cache", "output_attentions", "output_hidden_states",
     "return_dict", "num_beams", "pad_token_id", "eos_token_id", "top_k", "top_p"}
)


def lookalike_classes(module: cst.Module, trace_names: FrozenSet[str]) -> FrozenSet[str]:
    """Top-level classes of the file whose `trace` method is a context manager of the file's own:
    a plain `contextlib.contextmanager`, or a method that returns `self` (the class defines
    `__enter__`) or an instance of a class of the file that defines `__enter__`."""
    classes = {s.name.value: s for s in module.body if type(s) is cst.ClassDef}
    managers = {name for name, c in classes.items() if any(
        type(m) is cst.FunctionDef and m.name.value == "__enter__" for m in body_of(c))}
    found = set()
    for name, statement in classes.items():
        for method in body_of(statement):
            if type(method) is not cst.FunctionDef or method.name.value not in trace_names:
                continue
            if any((dotted_name(d.decorator) or "").endswith("contextmanager") for d in method.decorators):
                found.add(name)
            elif _returns_only(method, lambda value: (
                    type(value) is cst.Name and value.value == "self" and name in managers
                    or type(value) is cst.Call and dotted_name(value.func) in managers)):
                found.add(name)
    return frozenset(found)


def _returns_only(method: cst.FunctionDef, test) -> bool:
    """Does every `return` of the method's own body (not of nested functions) pass `test`?"""
    returns = []
    stack = list(body_of(method))
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if type(node) is cst.Return:
            returns.append(node.value)
        stack.extend(children(node))
    return bool(returns) and all(value is not None and test(value) for value in returns)


def has_input(call: cst.Call) -> Tri:
    """Does a trace or invoke call pass the model an input? Unfamiliar keywords are UNKNOWN."""
    answer = Tri.NO
    for arg in call.args:
        if arg.star:
            answer = Tri.UNKNOWN
        elif arg.keyword is None or arg.keyword.value in INPUT_KEYWORDS:
            return Tri.YES
        elif arg.keyword.value not in NON_INPUT_KEYWORDS:
            answer = Tri.UNKNOWN
    return answer


def iter_bound(node: cst.CSTNode, trace: Optional[Trace]) -> Optional[Tri]:
    """For `tracer.iter[...]` / `tracer.all()`: is the iteration bounded? None: not an iter loop."""
    if trace is None:
        return None
    kind = type(node)
    if kind is cst.Subscript and type(node.value) is cst.Attribute and node.value.attr.value == "iter":
        if len(node.slice) != 1:
            return Tri.UNKNOWN
        index = node.slice[0].slice
        if type(index) is cst.Slice:
            return Tri.NO if index.upper is None else Tri.YES
        return Tri.YES
    if kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "all" and not node.args:
        owner = dotted_name(node.func.value)
        if owner is not None and (owner == trace.tracer or owner.endswith("tracer")):
            return Tri.NO
    return None


def call_attr(node: cst.CSTNode) -> Optional[str]:
    """`name` for a call `<anything>.name(...)` or `name(...)`."""
    if type(node) is not cst.Call:
        return None
    if type(node.func) is cst.Attribute:
        return node.func.attr.value
    if type(node.func) is cst.Name:
        return node.func.value
    return None


def helper_for(call: cst.Call, scope: Scope) -> Optional[cst.FunctionDef]:
    if type(call.func) is cst.Name:
        return scope.function(call.func.value)
    if type(call.func) is cst.Attribute and dotted_name(call.func.value) == "self":
        scope_ = scope
        while scope_ is not None:
            if call.func.attr.value in scope_.methods:
                return scope_.methods[call.func.attr.value]
            scope_ = scope_.parent
    return None


def empty_input(call: cst.Call) -> Optional[cst.BaseExpression]:
    """The input argument of a trace, generate or invoke call when it is certainly empty: `""`,
    `[]`, `()`, or a list or tuple of nothing but `""` (the tokenizer makes no token of it)."""
    first = next((arg for arg in call.args if arg.keyword is None and not arg.star), None)
    if first is None:
        first = next((arg for arg in call.args if arg.keyword is not None and arg.keyword.value in
                      ("input", "inputs", "prompt", "prompts", "text", "texts")), None)
    if first is None:
        return None
    value = first.value
    if _empty_string(value):
        return value
    if isinstance(value, (cst.List, cst.Tuple)) and all(
        type(e) is not cst.StarredElement and _empty_string(e.value) for e in value.elements
    ):
        return value
    return None


def _empty_string(node: cst.CSTNode) -> bool:
    return type(node) is cst.SimpleString and node.evaluated_value in ("", b"")


def literal_int(node: Optional[cst.CSTNode]) -> Optional[int]:
    """`3` -> 3; None for anything but a non-negative integer literal."""
    if type(node) is cst.Integer:
        return int(node.value, 0)
    return None


def keyword_int(call: Optional[cst.Call], keyword: str) -> Optional[int]:
    """The literal integer a call passes as `keyword=` (`max_new_tokens=3` -> 3)."""
    if call is None:
        return None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return literal_int(arg.value)
    return None


def iter_first_step(node: cst.CSTNode) -> Optional[Tuple[int, cst.CSTNode]]:
    """For `tracer.iter[k]` / `tracer.iter[k:...]` with a literal k: (k, the subscript's index or slice).
    None for anything else (`[:]`, `[i]`, a call)."""
    if type(node) is not cst.Subscript or type(node.value) is not cst.Attribute or node.value.attr.value != "iter":
        return None
    if len(node.slice) != 1:
        return None
    index = node.slice[0].slice
    if type(index) is cst.Slice:
        start = literal_int(index.lower)
        return None if start is None else (start, index)
    start = literal_int(index.value) if type(index) is cst.Index else None
    return None if start is None else (start, index)
