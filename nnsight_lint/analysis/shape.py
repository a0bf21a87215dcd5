"""Facts about the shape of a trace that the NNL2xx rules share: which statements ask the model for
something, where a statement is reported, loops left by `break`, which names alias the same model,
and the order of named submodules that the file itself defines.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Sequence

import libcst as cst

from nnsight_lint.analysis.model import Event, EventKind, FileModel, Trace
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import body_of, children, subtree_ids

_LOOPS = (cst.For, cst.While)


def anchor(statement: cst.CSTNode) -> cst.CSTNode:
    """A node on the statement's first line: its first small statement, or the compound's header."""
    if type(statement) is cst.SimpleStatementLine:
        return statement.body[0]
    for header in ("target", "test", "items", "subject"):
        value = getattr(statement, header, None)
        if isinstance(value, Sequence) and value:
            return value[0]
        if isinstance(value, cst.CSTNode):
            return value
    return statement


def statement_events(model: FileModel, trace: Trace, statement: cst.CSTNode) -> Iterator[Event]:
    """The events of `trace` that a statement runs, also inside helpers it calls."""
    inside = subtree_ids(statement)
    for event in model.trace_events(trace):
        if id(event.node) in inside or any(id(call) in inside for call in event.where.helper):
            yield event


def is_request(event: Event) -> bool:
    """Does the event ask the running model for a value (a module's output/input, the result)?"""
    if event.kind is EventKind.ACCESS:
        return event.rooted
    return event.kind is EventKind.ATTRIBUTE and event.node.attr.value == "result"


def breaks_out(loop: cst.CSTNode) -> bool:
    """Can the loop's own body leave it by `break` (not a break of a loop nested in it)?"""
    stack = list(body_of(loop)) if isinstance(loop, _LOOPS) else []
    while stack:
        node = stack.pop()
        if type(node) is cst.Break:
            return True
        if not isinstance(node, (*_LOOPS, cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(children(node))
    return False


def model_aliases(model: FileModel) -> Dict[str, str]:
    """Names bound once, outside traces, to another dotted name (`lm = model`): name -> target."""
    bound: Dict[str, Optional[str]] = {}
    for event in model.events:
        if event.kind is EventKind.BIND and event.where.trace is None:
            target = dotted_name(event.value) if event.value is not None else None
            bound[event.name] = None if event.name in bound else target
    return {name: target for name, target in bound.items() if target is not None}


def resolve(name: Optional[str], aliases: Dict[str, str]) -> Optional[str]:
    seen = set()
    while name is not None and name in aliases and name not in seen:
        seen.add(name)
        name = aliases[name]
    return name


def sibling_orders(module: cst.Module) -> List[List[str]]:
    """Orders of named submodules this file defines: the keys of `OrderedDict(...)` given to a
    `Sequential`, and the `self.<name>(...)` calls of a class's `forward` in evaluation order."""
    orders: List[List[str]] = []
    stack: List[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        if type(node) is cst.Call and (dotted_name(node.func) or "").endswith("OrderedDict"):
            names = _ordered_dict_keys(node)
            if len(names) > 1:
                orders.append(names)
        elif type(node) is cst.FunctionDef and node.name.value == "forward":
            calls: List[str] = []
            _self_calls(node.body, calls)
            if len(calls) > 1 and len(set(calls)) == len(calls):
                orders.append(calls)
        stack.extend(children(node))
    return orders


def _ordered_dict_keys(call: cst.Call) -> List[str]:
    if all(arg.keyword is not None for arg in call.args):
        return [arg.keyword.value for arg in call.args]
    if len(call.args) == 1 and isinstance(call.args[0].value, (cst.List, cst.Tuple)):
        keys = []
        for element in call.args[0].value.elements:
            pair = element.value
            if not (type(pair) is cst.Tuple and pair.elements and type(pair.elements[0].value) is cst.SimpleString):
                return []
            keys.append(pair.elements[0].value.evaluated_value)
        return keys
    return []


def _self_calls(node: cst.CSTNode, calls: List[str]) -> None:
    """`self.<name>(...)` calls in evaluation order: arguments before the call they feed."""
    for child in children(node):
        _self_calls(child, calls)
    if type(node) is cst.Call and type(node.func) is cst.Attribute and dotted_name(node.func.value) == "self":
        calls.append(node.func.attr.value)


def sibling_compare(a: Sequence[object], b: Sequence[object], orders: List[List[str]]) -> str:
    """"<" / ">" when the first segments where two paths differ are siblings the file orders."""
    for x, y in zip(a, b):
        if x == y:
            continue
        verdicts = {
            ("<" if order.index(x) < order.index(y) else ">")
            for order in orders
            if x in order and y in order
        }
        return verdicts.pop() if len(verdicts) == 1 else "?"
    return "?"
