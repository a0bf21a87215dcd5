"""Which expressions in a trace stand for a plain torch module rather than nnsight's envoy of it.

An envoy (`model.transformer.h[0]`, the items of `model.modules()` / `model.named_modules()`) has
`.output`/`.input`; the torch module behind it does not. Torch modules come from `._module` (the
envoy's wrapped module) and from the torch methods an envoy hands straight through to its module:
`.children()` / `.named_children()` (and `.modules()` / `.named_modules()` of a torch module)."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from nnsight_lint.analysis.flow import last_binding
from nnsight_lint.analysis.model import Event, FileModel

# Methods of an envoy that return its torch module's own children, not envoys.
_PASSED_THROUGH = frozenset({"children", "named_children"})
_TORCH_ITERATORS = frozenset({"modules", "named_modules", "children", "named_children"})
_NAMED = frozenset({"named_modules", "named_children"})


def torch_module_reason(model: FileModel, event: Event) -> Optional[str]:
    """For an ACCESS in a trace: why its object is a torch module ("via `._module`", "an item of
    `x.children()`"), or None when it is not known to be one."""
    base = event.base
    if _through_module(base):
        return "reached through `._module`"
    root = base
    while type(root) in (cst.Attribute, cst.Subscript):
        root = root.value
    if type(root) is not cst.Name:
        return None
    binding = last_binding(model, root.value, event.order)
    if binding is None or binding.where.trace is None and event.where.trace is None:
        return None
    statement = binding.statement
    iterated = getattr(statement, "iter", None) if type(statement) in (cst.For, cst.CompFor) else None
    if iterated is not None:
        return _iterator_reason(iterated, statement.target, binding.node)
    if binding.value is not None and type(statement) in (cst.Assign, cst.AnnAssign) and _through_module(binding.value):
        return "reached through `._module`"
    return None


def _through_module(node: cst.CSTNode) -> bool:
    while type(node) in (cst.Attribute, cst.Subscript):
        if type(node) is cst.Attribute and node.attr.value == "_module":
            return True
        node = node.value
    return False


def _iterator_reason(iterated: cst.BaseExpression, target: cst.CSTNode, name: cst.Name) -> Optional[str]:
    if type(iterated) is not cst.Call or type(iterated.func) is not cst.Attribute:
        return None
    method = iterated.func.attr.value
    owner = iterated.func.value
    if method in _PASSED_THROUGH or (method in _TORCH_ITERATORS and _through_module(owner)):
        if method in _NAMED:  # `for name, m in x.named_modules()`: the module is the second item
            if not (type(target) is cst.Tuple and len(target.elements) == 2 and target.elements[1].value is name):
                return None
        elif target is not name:
            return None
        return f"an item of `{cst.Module([]).code_for_node(iterated)}`"
    return None
