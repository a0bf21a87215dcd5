"""What a construction call says: whether a callee is one of nnsight's wrappers (`wrapper_of`), and
what the wrapper's first argument names: a hub id or path, a torch model from an id
(`from_pretrained`) or from a config class with literal arguments (`model_facts`, `config_facts`)."""
from __future__ import annotations

from typing import Optional

import libcst as cst

from nnsight_lint.analysis.bindings import Index, binding_of, index_scope, param_default
from nnsight_lint.analysis.literals import NOT_LITERAL, literal
from nnsight_lint.analysis.scope import dotted_name

WRAPPERS = frozenset({"LanguageModel", "TransformersModel", "NNsight", "VLLM"})
DEPTH = 8  # how many hops (names, calls, files) a resolution may take


def wrapper_of(index: Index, func: cst.CSTNode) -> Optional[str]:
    name = dotted_name(func)
    if name is None:
        return None
    head = name.split(".")[0]
    qualified = index.qualified.get(head)
    if qualified is not None:
        name = qualified + name[len(head):]
    last = name.split(".")[-1]
    if last not in WRAPPERS:
        return None
    if "." in name:
        return last if name.split(".")[0] == "nnsight" else None
    # a bare name: nnsight's unless the file defines it (a subclass or its own class)
    return None if last in index.classes or (0, last) in index.functions else last


def model_facts(index: Index, node: cst.CSTNode, stack, order: int, depth: int) -> dict:
    """What the wrapper's first argument says: an id/path, or a torch model from an id or config."""
    if depth > DEPTH:
        return {}
    value = literal(node)
    if isinstance(value, str):
        return {"ref": value, "loader": "id"}
    kind = type(node)
    if kind is cst.Name:
        bound = binding_of(index, node.value, stack, order)
        if bound is not None and bound[1].value is not None:
            where, binding = bound
            return model_facts(where, binding.value, binding.stack, binding.order, depth + 1)
        default = param_default(index, node.value, stack)
        return {} if default is None else model_facts(index, default, stack, order, depth + 1)
    if kind is not cst.Call:
        return {}
    func = node.func
    method = func.attr.value if type(func) is cst.Attribute else None
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    if method == "from_pretrained":
        owner = dotted_name(func.value)
        first = positional[0] if positional else keywords.get("pretrained_model_name_or_path")
        facts = model_facts(index, first, stack, order, depth + 1) if first is not None else {}
        if "ref" not in facts:
            return {}
        return {"ref": facts["ref"], "model_class": owner.split(".")[-1] if owner else None, "loader": "from_pretrained"}
    if method in ("to", "eval", "cuda", "cpu", "half", "float", "bfloat16"):
        return model_facts(index, func.value, stack, order, depth + 1)
    config = None
    owner = dotted_name(func) if method != "from_config" else dotted_name(func.value)
    if method == "from_config":
        config = positional[0] if positional else keywords.get("config")
    elif owner is not None and owner.split(".")[-1][:1].isupper():  # `GPT2LMHeadModel(config)`
        config = positional[0] if positional else keywords.get("config")
    if config is None:
        return {}
    facts = config_facts(index, config, stack, order, depth + 1)
    if not facts:
        return {}
    return {**facts, "model_class": owner.split(".")[-1], "loader": "from_config" if method else "init"}


def config_facts(index: Index, node: cst.CSTNode, stack, order: int, depth: int) -> dict:
    if depth > DEPTH:
        return {}
    if type(node) is cst.Name:
        if (index_scope(index, node.value, stack), node.value) in index.mutated:
            return {}  # `config.n_layer = 4` after it was made: not what the call says
        bound = binding_of(index, node.value, stack, order)
        if bound is None or bound[1].value is None:
            return {}
        where, binding = bound
        return config_facts(where, binding.value, binding.stack, binding.order, depth + 1)
    if type(node) is not cst.Call:
        return {}
    func = node.func
    if type(func) is cst.Attribute and func.attr.value == "from_pretrained":
        args = [a.value for a in node.args if a.keyword is None and not a.star]
        facts = model_facts(index, args[0], stack, order, depth + 1) if args else {}
        return {"ref": facts["ref"]} if "ref" in facts else {}
    name = dotted_name(func)
    if name is None or not name.split(".")[-1].endswith("Config"):
        return {}
    kwargs, opaque = {}, set()
    for arg in node.args:
        if arg.star:
            opaque.add("**" if arg.star == "**" else "*")
        elif arg.keyword is None:
            opaque.add("*")
        else:
            value = literal(arg.value)
            if value is NOT_LITERAL and type(arg.value) is cst.Name:
                bound = binding_of(index, arg.value.value, stack, order)
                value = literal(bound[1].value) if bound is not None and bound[1].value is not None else NOT_LITERAL
            if value is NOT_LITERAL:
                opaque.add(arg.keyword.value)
            else:
                kwargs[arg.keyword.value] = value
    return {"config_class": name.split(".")[-1], "config_kwargs": kwargs, "opaque": frozenset(opaque)}
