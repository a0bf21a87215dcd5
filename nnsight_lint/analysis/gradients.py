"""What the gradient rules (NNL002-NNL007) ask of the model: which tensor a `.grad` is on, where in
the forward that tensor was captured, and whether a chain names a module or a tensor.

All answers come from the file model's events; "not known" is always an answer (None), and the
rules stay silent on it.
"""
from __future__ import annotations

from typing import Iterator, List, Optional

import libcst as cst

from nnsight_lint.analysis.forward_order import _RANKS
from nnsight_lint.analysis.model import Event, EventKind, FileModel, ModuleAccess
from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import subtree_ids

_ACCESSES = frozenset({"output", "outputs", "input", "inputs"})
# Names of modules in Hugging Face models (and the containers they sit in). A chain whose every
# named step is one of these names a module; any other name (`weight`, `layers_output`, a wrapper's
# own attribute) may be a tensor, so the chain is not taken for a module.
MODULE_NAMES = frozenset(_RANKS) | {
    "transformer", "model", "gpt_neox", "language_model", "decoder", "encoder", "base_model", "backbone",
    "text_model", "drop", "dropout", "attn_dropout", "resid_dropout", "act", "rotary_emb",
}


def root_name(node: cst.CSTNode) -> Optional[cst.Name]:
    """The name a chain of attributes and subscripts starts at."""
    while type(node) in (cst.Attribute, cst.Subscript):
        node = node.value
    return node if type(node) is cst.Name else None


def reads_access(node: cst.CSTNode) -> bool:
    """Does the chain (attributes and subscripts) step through a module's `.output`/`.input`?"""
    while type(node) in (cst.Attribute, cst.Subscript):
        if type(node) is cst.Attribute and node.attr.value in _ACCESSES:
            return True
        node = node.value
    return False


def names_module(path) -> bool:
    """Is a static module path (from an event) made of module names only?"""
    return path is not None and all(not isinstance(step, str) or step == "?" or step in MODULE_NAMES for step in path)


def accesses_in(model: FileModel, node: cst.CSTNode, trace) -> List[Event]:
    """The module accesses written inside `node` (once per node, in evaluation order)."""
    inside, seen, found = subtree_ids(node), set(), []
    for event in model.events:
        if event.kind is EventKind.ACCESS and event.where.trace is trace and id(event.node) in inside:
            if id(event.node) not in seen:
                seen.add(id(event.node))
                found.append(event)
    return found


def captured_at(model: FileModel, value: cst.CSTNode, trace) -> Optional[ModuleAccess]:
    """The one module access a bound value was read from, when it is static."""
    accesses = accesses_in(model, value, trace)
    if len(accesses) != 1 or not accesses[0].rooted or accesses[0].path is None or "?" in accesses[0].path:
        return None
    return ModuleAccess(accesses[0].path, "input" if accesses[0].access.startswith("input") else "output")


def calls_on(model: FileModel, name: str, method: str, trace) -> Iterator[Event]:
    """`<name>.<method>(...)` calls in a trace."""
    for event in model.named(EventKind.CALL, method):
        if event.where.trace is trace and dotted_name(event.base.value) == name:
            yield event
