"""Which autograd graphs a value may carry (`Origin`s), whether a backward call keeps the graph
(`retain_graph`, `create_graph`), and which grad mode a block runs in."""
from __future__ import annotations

import builtins
from typing import Dict, FrozenSet, List, Optional

import libcst as cst

from nnsight_lint.analysis.calls import call_attr
from nnsight_lint.analysis.model import TRACE, CallKind, Origin, Retains, Retention
from nnsight_lint.analysis.paths import ACCESS_KIND
from nnsight_lint.analysis.scope import Scope, dotted_name, target_names
from nnsight_lint.analysis.tree import children

BUILTINS = frozenset(dir(builtins))


NO_GRAPH_NODES = frozenset(
    {cst.Lambda, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary}
)


NO_GRAPH: FrozenSet[Origin] = frozenset()


TRACE_ONLY = frozenset({TRACE})


Env = Dict[str, FrozenSet[Origin]]


def grad_mode(node: cst.CSTNode, scope: Scope) -> Optional[str]:
    """"no_grad" / "inference_mode" for a call or decorator that turns gradients off, "enable_grad"
    for one that turns them back on (`torch.enable_grad()`, `torch.set_grad_enabled(True)`)."""
    call = node if type(node) is cst.Call else None
    name = scope.qualified(call.func if call else node) or ""
    if disables_grad(node, scope):
        return "inference_mode" if name.endswith("inference_mode") else "no_grad"
    if name == "torch.enable_grad" or (
        name == "torch.set_grad_enabled" and call is not None and call.args
        and truth(call.args[0].value, scope) is True
    ):
        return "enable_grad"
    return None


def innermost_disabled(modes: List[str]) -> Optional[str]:
    """The grad mode a trace opened inside these blocks runs in: None when gradients are on."""
    return modes[-1] if modes and modes[-1] != "enable_grad" else None


def graphs_of(node: cst.CSTNode, env: Env, scope: Scope, call_results) -> FrozenSet[Origin]:
    """The autograd graphs a value may carry."""
    kind = type(node)  # exact-type tests: isinstance against libcst's ABCs is slow
    if kind is cst.Name:
        name = node.value
        if name in env:
            return env[name]
        if name in ("True", "False", "None") or name in BUILTINS or scope.is_import(name):
            return NO_GRAPH
        # A parameter or a name bound elsewhere: inside a trace, assume the model's graph.
        return TRACE_ONLY
    if kind is cst.Attribute:
        if node.attr.value in ACCESS_KIND:
            return TRACE_ONLY
        return graphs_of(node.value, env, scope, call_results)
    if kind in NO_GRAPH_NODES:
        return NO_GRAPH
    if kind is cst.Call:
        if call_attr(node) in ("detach", "detach_"):
            return NO_GRAPH  # `.detach()` cuts the graph
        if id(node) in call_results:
            return call_results[id(node)].union(*(graphs_of(a.value, env, scope, call_results) for a in node.args))
    parts = [graphs_of(child, env, scope, call_results) for child in children(node)]
    return NO_GRAPH.union(*parts) if parts else NO_GRAPH


def bind(env: Env, target: cst.CSTNode, value: cst.CSTNode, origins, loops) -> None:
    """Record what graph the names in `target` now carry."""
    names = target_names(target)
    if not names:
        return
    if makes_leaf(value):
        bound = frozenset({Origin(names[0], id(value), leaf=True, loops=loops)})
    elif origins:
        bound = origins | {Origin(names[0], id(value), loops=loops)}
    else:
        bound = NO_GRAPH
    for name in names:
        env[name] = bound


def makes_leaf(value: cst.CSTNode) -> bool:
    """`x.detach().requires_grad_()`, `torch.ones(..., requires_grad=True)`, `nn.Parameter(...)`."""
    if type(value) is not cst.Call:
        return False
    if call_attr(value) in ("requires_grad_", "Parameter"):
        return True
    return any(
        arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in value.args
    )


def disables_grad(node: cst.CSTNode, scope: Scope) -> bool:
    """`torch.no_grad()`, `torch.inference_mode()`, `torch.set_grad_enabled(False)` (or undecorated)."""
    call = node if type(node) is cst.Call else None
    name = scope.qualified(call.func if call else node)
    if name == "torch.no_grad":
        return True
    if name == "torch.inference_mode":  # `inference_mode(False)` turns it off; a flag may be either
        mode = call.args[0].value if call is not None and call.args else None
        return mode is None or truth(mode, scope) is True
    if name == "torch.set_grad_enabled" and call is not None and call.args:
        return truth(call.args[0].value, scope) is False
    return False


def loss_expression(call: cst.Call, kind: CallKind) -> Optional[cst.BaseExpression]:
    if kind is CallKind.TENSOR_BACKWARD:
        return call.func.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == kind.loss_keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None and not a.star]
    return positional[0].value if positional else None


MISSING = object()


def retention(call: cst.Call, kind: CallKind, scope: Scope) -> Retention:
    """Does this call keep the graph? `retain_graph`, else torch's default: `create_graph`."""
    retain = create = MISSING
    unknown_kwargs = False
    position = 0
    for arg in call.args:
        if arg.star == "*":
            return Retention(Retains.UNKNOWN)
        if arg.star == "**":
            mapping = literal_kwargs(arg.value, scope)
            if mapping is None:
                unknown_kwargs = True
                continue
            retain = mapping.get("retain_graph", retain)
            create = mapping.get("create_graph", create)
        elif arg.keyword is not None:
            if arg.keyword.value == "retain_graph":
                retain = arg.value
            elif arg.keyword.value == "create_graph":
                create = arg.value
        else:
            if position == kind.retain_position:
                retain = arg.value
            elif position == kind.retain_position + 1:
                create = arg.value
            position += 1
    retain_value = truth(retain, scope)
    if retain_value is True:
        return Retention(Retains.YES, retain)
    node = retain if retain is not MISSING else None
    if retain_value is MISSING and unknown_kwargs or retain_value == "unknown":
        return Retention(Retains.UNKNOWN, node)
    if retain_value is False:
        return Retention(Retains.NO, node)
    # retain_graph missing or None: torch retains exactly when create_graph is true.
    create_value = truth(create, scope)
    if create_value is True:
        return Retention(Retains.YES, node)
    if create_value == "unknown" or unknown_kwargs:
        return Retention(Retains.UNKNOWN, node)
    return Retention(Retains.NO, node)


def truth(node, scope: Scope, depth: int = 0):
    """True/False for a literal (or a name bound once to one), None for None, MISSING, or "unknown"."""
    if node is MISSING:
        return MISSING
    if type(node) is cst.Name:
        if node.value in ("True", "False"):
            return node.value == "True"
        if node.value == "None":
            return None
        bound = scope.literal(node.value)
        return truth(bound, scope, depth + 1) if bound is not None and depth < 4 else "unknown"
    if type(node) is cst.Integer:
        return int(node.value, 0) != 0
    return "unknown"


def literal_kwargs(node: cst.BaseExpression, scope: Scope) -> Optional[Dict[str, cst.BaseExpression]]:
    """`**kw` where `kw` is a dict literal or `dict(...)` call (bound once in scope): its items."""
    if type(node) is cst.Name:
        node = scope.literal(node.value)
    if type(node) is cst.Dict:
        items = {}
        for element in node.elements:
            if type(element) is not cst.DictElement or type(element.key) is not cst.SimpleString:
                return None
            items[element.key.evaluated_value] = element.value
        return items
    if type(node) is cst.Call and dotted_name(node.func) == "dict":
        if any(arg.keyword is None for arg in node.args):
            return None
        return {arg.keyword.value: arg.value for arg in node.args}
    return None
