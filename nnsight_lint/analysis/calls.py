"""What a call that opens a trace, an invoke or an iter loop says: whether it passes an input, whether
the iteration is bounded, whether a `.trace()` is a look-alike the file defines, which helper it calls."""
from __future__ import annotations

from typing import FrozenSet, Optional

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
    classes = {s.name.value: s for s in module.body if isinstance(s, cst.ClassDef)}
    managers = {name for name, c in classes.items() if any(
        isinstance(m, cst.FunctionDef) and m.name.value == "__enter__" for m in body_of(c))}
    found = set()
    for name, statement in classes.items():
        for method in body_of(statement):
            if not isinstance(method, cst.FunctionDef) or method.name.value not in trace_names:
                continue
            if any((dotted_name(d.decorator) or "").endswith("contextmanager") for d in method.decorators):
                found.add(name)
            elif _returns_only(method, lambda value: (
                    isinstance(value, cst.Name) and value.value == "self" and name in managers
                    or isinstance(value, cst.Call) and dotted_name(value.func) in managers)):
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
        if isinstance(node, cst.Return):
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
        if isinstance(index, cst.Slice):
            return Tri.NO if index.upper is None else Tri.YES
        return Tri.YES
    if kind is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "all" and not node.args:
        owner = dotted_name(node.func.value)
        if owner is not None and (owner == trace.tracer or owner.endswith("tracer")):
            return Tri.NO
    return None


def call_attr(node: cst.CSTNode) -> Optional[str]:
    """`name` for a call `<anything>.name(...)` or `name(...)`."""
    if not isinstance(node, cst.Call):
        return None
    if isinstance(node.func, cst.Attribute):
        return node.func.attr.value
    if isinstance(node.func, cst.Name):
        return node.func.value
    return None


def helper_for(call: cst.Call, scope: Scope) -> Optional[cst.FunctionDef]:
    if isinstance(call.func, cst.Name):
        return scope.function(call.func.value)
    if isinstance(call.func, cst.Attribute) and dotted_name(call.func.value) == "self":
        scope_ = scope
        while scope_ is not None:
            if call.func.attr.value in scope_.methods:
                return scope_.methods[call.func.attr.value]
            scope_ = scope_.parent
    return None
