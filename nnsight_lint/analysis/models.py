"""Which model a trace runs on: the receiver of `.trace` / `.generate` / `.scan` / `.session`
resolved, statically, to the nnsight construction that made it.

A `ModelRef` says what the source says about that construction: the nnsight wrapper
(`LanguageModel`, `NNsight`, `VLLM`; other wrappers, subclasses and TransformerLens-style libraries
are not looked at), the hub id or path when it is a literal, the config class and literal keyword
arguments for a model built from a config (`LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2)))`,
`AutoModelForCausalLM.from_config(...)`), the construction call with its keyword arguments
(`dispatch=`, `device_map=`, `rename=`, `tokenizer=`) and the name it is bound to.

A receiver is followed through assignments (the last one before the use; assignments that
disagree in branches give up), `self.x = ...` in the class's methods, module globals, function
parameter defaults, pytest fixtures (in the file or a `conftest.py` above it), the call sites of a
helper that takes the model as a parameter, functions whose `return` is a construction, and names
imported from the project's own modules. Files read besides the linted one are parsed once per
process (keyed by path, size and mtime), only when a name is imported from them, and bounded.

What the construction IS (a schema) is the knowledge's business (`knowledge/models.py`); nothing
here guesses an architecture from module names.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Mapping, Optional

import libcst as cst

from nnsight_lint.analysis.bindings import (Index, fixture_name, method_class, params_of, returns_of, self_name,
                                            binding_of)
from nnsight_lint.analysis.constructions import DEPTH, WRAPPERS, model_facts, wrapper_of
from nnsight_lint.analysis.literals import NOT_LITERAL, code_of, literal
from nnsight_lint.analysis.project_files import conftests, index_of_file, module_file
from nnsight_lint.analysis.tree import body_of

__all__ = ["ModelRef", "NOT_LITERAL", "WRAPPERS", "resolve_models"]


@dataclass(frozen=True, eq=False)
class ModelRef:
    """One nnsight model construction, as the source writes it.

    `call` belongs to the tree of `file` (None: the linted file itself). `config_kwargs` holds the
    literal keyword arguments of the config class; `opaque` names those that are not literal (and
    "**" for unpacked ones): a table built from the literal ones alone may be wrong there."""

    wrapper: str
    call: cst.Call
    keywords: Mapping[str, cst.BaseExpression] = field(default_factory=dict)
    name: Optional[str] = None  # "model", "self.model": what the construction is bound to
    ref: Optional[str] = None  # hub id or local path, when literal
    model_class: Optional[str] = None  # the torch model wrapped: "GPT2LMHeadModel", "AutoModelForCausalLM"
    loader: Optional[str] = None  # how it was made: "from_pretrained", "from_config", "init", "id"
    config_class: Optional[str] = None  # "GPT2Config"
    config_kwargs: Mapping[str, object] = field(default_factory=dict)
    opaque: FrozenSet[str] = frozenset()
    rename: Mapping[str, str] = field(default_factory=dict)  # literal `rename=` aliases
    file: Optional[str] = None

    @property
    def known(self) -> bool:
        """Does the source say which model this is (an id, a path, or a config class)?"""
        return self.ref is not None or self.config_class is not None

    @functools.cached_property
    def _identity(self) -> tuple:
        keywords = tuple((k, code_of(v)) for k, v in sorted(self.keywords.items()) if k not in ("tokenizer", "dispatch"))
        return (self.wrapper, self.ref, self.model_class, self.config_class,
                repr(sorted(self.config_kwargs.items(), key=repr)), self.opaque, keywords)

    def identity(self) -> tuple:
        """What two constructions must share to build the same model (helpers' call sites must agree)."""
        return self._identity

    def keyword(self, name: str) -> object:
        """The literal value of a keyword argument of the construction; `None` when absent;
        `NOT_LITERAL` when it is there but not a literal."""
        node = self.keywords.get(name)
        return None if node is None else literal(node)


class _Resolver:
    def __init__(self, index: Index) -> None:
        self.index = index
        self.found: Dict[int, ModelRef] = {}  # id(construction call) -> its ModelRef
        # What `value` gave for the same arguments: every trace on `model` follows the name to the same
        # binding and construction, and building its ModelRef again (literals, `identity`) costs more
        # than the walk there. The indexes are read-only and the nodes live as long as the resolver.
        self._values: Dict[tuple, object] = {}

    # An expression, in the context where it is evaluated.
    def value(self, index: Index, node: cst.CSTNode, stack, order: int, depth: int, name: Optional[str] = None):
        if depth > DEPTH or node is None:
            return None
        key = (id(index), id(node), tuple(map(id, stack)), order, depth, name)
        if key in self._values:
            return self._values[key]
        found = self._values[key] = self._value(index, node, stack, order, depth, name)
        return found

    def _value(self, index: Index, node: cst.CSTNode, stack, order: int, depth: int, name: Optional[str]):
        kind = type(node)
        if kind is cst.Name:
            return self.name(index, node.value, stack, order, depth + 1)
        if kind is cst.Attribute and type(node.value) is cst.Name and node.value.value == self_name(stack):
            owner = method_class(stack)
            return self.attribute(index, owner, node.attr.value, depth + 1) if owner is not None else None
        if kind is cst.Await:
            return self.value(index, node.expression, stack, order, depth + 1, name)
        if kind is cst.Call:
            wrapper = wrapper_of(index, node.func)
            if wrapper is not None:
                return self.construction(index, wrapper, node, stack, order, depth, name)
            # `LanguageModel(...).to("cuda")`, `model.eval()`: the same object.
            if type(node.func) is cst.Attribute and node.func.attr.value in ("to", "eval", "cuda", "cpu", "requires_grad_"):
                inner = self.value(index, node.func.value, stack, order, depth + 1, name)
                if isinstance(inner, ModelRef):
                    return inner
            return self.returned(index, node, stack, order, depth + 1)
        return None

    def construction(self, index: Index, wrapper: str, call: cst.Call, stack, order, depth, name) -> ModelRef:
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        facts: dict = {}
        first = positional[0] if positional else keywords.get("model_key") or keywords.get("repo_id")
        if first is not None:
            facts = model_facts(index, first, stack, order, depth + 1)
        rename = literal(keywords["rename"]) if "rename" in keywords else {}
        if not isinstance(rename, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in rename.items()):
            rename = {}
        ref = ModelRef(wrapper, call, keywords, name=name, rename=rename,
                       file=index.path if index is not self.index else None, **facts)
        self.found.setdefault(id(call), ref)
        return ref

    def name(self, index: Index, name: str, stack, order: int, depth: int):
        functions = [node for node in reversed(stack) if type(node) is cst.FunctionDef]
        for function in functions:  # a parameter of an enclosing def
            if name in {p.name.value for p in params_of(function)}:
                if index.names.get((id(function), name)):
                    break  # rebound in the body: the binding decides
                return self.parameter(index, function, name, depth)
        bound = binding_of(index, name, stack, order)
        if bound is not None:
            where, binding = bound
            return self.value(where, binding.value, binding.stack, binding.order, depth + 1, name)
        if name in index.imports:
            module, level, attr = index.imports[name]
            if attr:
                return self.imported(index, module, level, attr, depth + 1)
        return None

    def parameter(self, index: Index, function: cst.FunctionDef, name: str, depth: int):
        stack = index.parents.get(id(function), ()) + (function,)
        param = next(p for p in params_of(function) if p.name.value == name)
        if param.default is not None:
            return self.value(index, param.default, index.parents.get(id(function), ()), 0, depth + 1, name)
        fixture = self.fixture(index, name, depth + 1)
        if fixture is not None:
            return fixture
        # a helper given the model: every call site in the file that passes it must agree
        position = [p.name.value for p in list(function.params.posonly_params) + list(function.params.params)]
        if method_class(stack) is not None and position:
            position = position[1:]
        seen = []
        for call, call_stack, order in index.calls.get(function.name.value, ()):
            arg = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == name), None)
            if arg is None and name in position:
                positional = [a for a in call.args if a.keyword is None]
                at = position.index(name)
                arg = positional[at].value if at < len(positional) and not positional[at].star else None
            if arg is None:
                return None
            seen.append(self.value(index, arg, call_stack, order, depth + 1))
        return _agreed(seen)

    def fixture(self, index: Index, name: str, depth: int):
        for where in [index, *conftests(index)]:
            for (scope, _), function in where.functions.items():
                if scope == 0 and fixture_name(function, where) == name:
                    return self.returned_by(where, function, depth + 1)
        return None

    def attribute(self, index: Index, owner: cst.ClassDef, attr: str, depth: int):
        bindings = index.attributes.get((id(owner), attr), [])
        seen = [self.value(index, b.value, b.stack, b.order, depth + 1, f"self.{attr}") for b in bindings]
        if not bindings:  # a class attribute
            for statement in body_of(owner):
                if type(statement) is cst.SimpleStatementLine:
                    for small in statement.body:
                        if type(small) is cst.Assign and any(type(t.target) is cst.Name and t.target.value == attr for t in small.targets):
                            seen.append(self.value(index, small.value, index.parents.get(id(owner), ()) + (owner,), 0, depth + 1, attr))
        return _agreed(seen)

    # Calls of functions and imports.
    def returned(self, index: Index, call: cst.Call, stack, order: int, depth: int):
        func = call.func
        if type(func) is cst.Name:
            function = None
            for node in reversed(stack):
                if type(node) is cst.FunctionDef:
                    function = index.functions.get((id(node), func.value))
                    if function is not None:
                        break
            function = function or index.functions.get((0, func.value))
            if function is not None:
                return self.returned_by(index, function, depth + 1)
            if func.value in index.imports:
                module, level, attr = index.imports[func.value]
                if attr:
                    return self.imported(index, module, level, attr, depth + 1, called=True)
        elif type(func) is cst.Attribute and type(func.value) is cst.Name:
            owner = method_class(stack)
            if owner is not None and func.value.value == self_name(stack):
                method = index.functions.get((id(owner), func.attr.value))
                return self.returned_by(index, method, depth + 1) if method is not None else None
            if func.value.value in index.imports:  # `loaders.load_model()` after `import mypkg.loaders as loaders`
                module, level, attr = index.imports[func.value.value]
                target = f"{module}.{attr}" if attr else module
                return self.imported(index, target, level, func.attr.value, depth + 1, called=True)
        return None

    def returned_by(self, index: Index, function: cst.FunctionDef, depth: int):
        """What a function returns (or a fixture yields), when every `return` agrees."""
        stack = index.parents.get(id(function), ()) + (function,)
        seen = []
        for statement, order in returns_of(function):
            seen.append(self.value(index, statement.value, stack, order, depth + 1))
        return _agreed(seen)

    def imported(self, index: Index, module: str, level: int, attr: str, depth: int, called: bool = False):
        if depth > DEPTH:
            return None
        path = module_file(index, module, level)
        if path is None:  # not the project's, or `from pkg import submodule`: no model
            return None
        other = index_of_file(path)
        if other is None:
            return None
        if called:
            function = other.functions.get((0, attr))
            if function is not None:
                return self.returned_by(other, function, depth + 1)
            return None
        return self.name(other, attr, (), 1 << 30, depth + 1)


def _agreed(seen: List[object]) -> Optional[ModelRef]:
    refs = [s for s in seen if isinstance(s, ModelRef)]
    if not refs or len(refs) != len(seen):
        return None
    if len({r.identity() for r in refs}) != 1:
        return None
    return refs[0]


# -- the entry point -------------------------------------------------------------------------------


def resolve_models(module: cst.Module, path: Optional[str] = None):
    """(every construction of the file, {id(trace-like call): the ModelRef its receiver resolves to})."""
    index = Index(module, path)
    resolver = _Resolver(index)
    receivers: Dict[int, ModelRef] = {}
    for call, stack, order in index.uses:
        ref = resolver.value(index, call.func.value, stack, order, 0)
        if isinstance(ref, ModelRef):
            receivers[id(call)] = ref
    # constructions no trace uses are models of the file too
    order: Dict[int, int] = {}
    for wrapper in WRAPPERS:
        for call, stack, at in index.calls.get(wrapper, ()):
            order[id(call)] = at
            if id(call) not in resolver.found and wrapper_of(index, call.func) is not None:
                resolver.construction(index, wrapper_of(index, call.func), call, stack, at, 0,
                                      _bound_name(index, call))
    found = sorted((r for r in resolver.found.values() if r.file is None), key=lambda r: order.get(id(r.call), 0))
    return found, receivers


def _bound_name(index: Index, call: cst.Call) -> Optional[str]:
    for (_, name), bindings in index.names.items():
        if any(b.value is call for b in bindings):
            return name
    for (_, attr), bindings in index.attributes.items():
        if any(b.value is call for b in bindings):
            return f"self.{attr}"
    return None
