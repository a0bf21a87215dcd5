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
import os
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple

import libcst as cst

from nnsight_lint.analysis.scope import dotted_name
from nnsight_lint.analysis.tree import body_of, children

WRAPPERS = frozenset({"LanguageModel", "TransformersModel", "NNsight", "VLLM"})
RECEIVER_CALLS = frozenset({"trace", "generate", "scan", "session"})
_FIXTURES = frozenset({"pytest.fixture", "fixture", "pytest_asyncio.fixture"})
_DEPTH = 8  # how many hops (names, calls, files) a resolution may take
_MAX_FILE = 512 * 1024  # a sibling module larger than this is not read
_NOT_LITERAL = object()


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
        keywords = tuple((k, _code(v)) for k, v in sorted(self.keywords.items()) if k not in ("tokenizer", "dispatch"))
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


NOT_LITERAL = _NOT_LITERAL
_EMPTY = cst.Module([])


def _code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


def literal(node: cst.CSTNode) -> object:
    """The Python value of a literal expression (numbers, strings, bools, None, tuples, lists,
    dicts of literals); `NOT_LITERAL` otherwise."""
    kind = type(node)
    if kind is cst.Integer:
        return int(node.value.replace("_", ""), 0)
    if kind is cst.Float:
        return float(node.value.replace("_", ""))
    if kind is cst.SimpleString:
        try:
            value = node.evaluated_value
        except Exception:  # noqa: BLE001 - a string libcst cannot evaluate is not a literal to us
            return _NOT_LITERAL
        return value if isinstance(value, str) else _NOT_LITERAL
    if kind is cst.ConcatenatedString:
        value = node.evaluated_value
        return value if isinstance(value, str) else _NOT_LITERAL
    if kind is cst.Name:
        return {"True": True, "False": False, "None": None}.get(node.value, _NOT_LITERAL)
    if kind is cst.UnaryOperation and isinstance(node.operator, cst.Minus):
        value = literal(node.expression)
        return -value if isinstance(value, (int, float)) and not isinstance(value, bool) else _NOT_LITERAL
    if kind in (cst.Tuple, cst.List):
        items = [literal(e.value) if type(e) is cst.Element else _NOT_LITERAL for e in node.elements]
        return _NOT_LITERAL if any(i is _NOT_LITERAL for i in items) else (tuple(items) if kind is cst.Tuple else items)
    if kind is cst.Dict:
        out = {}
        for element in node.elements:
            if type(element) is not cst.DictElement:
                return _NOT_LITERAL
            key, value = literal(element.key), literal(element.value)
            if key is _NOT_LITERAL or value is _NOT_LITERAL:
                return _NOT_LITERAL
            out[key] = value
        return out
    return _NOT_LITERAL


# -- one file's bindings ---------------------------------------------------------------------------


@dataclass
class _Binding:
    value: Optional[cst.BaseExpression]  # None: bound by something we do not follow (for, with, except)
    order: int
    conditional: bool  # inside an if / loop / try / match of its scope
    stack: Tuple[cst.CSTNode, ...]  # the defs and classes around it, outermost first


class _Index:
    """The bindings of one file: names per scope, `self.x` per class, functions, imports, and the
    receivers of trace-like calls with the defs around them."""

    def __init__(self, module: cst.Module, path: Optional[str]) -> None:
        self.module = module
        self.path = path
        self.names: Dict[Tuple[int, str], List[_Binding]] = {}  # (id(scope node) or 0, name)
        self.attributes: Dict[Tuple[int, str], List[_Binding]] = {}  # (id(class), attr)
        self.functions: Dict[Tuple[int, str], cst.FunctionDef] = {}
        self.imports: Dict[str, Tuple[str, int, str]] = {}  # local -> (module, level, name or "")
        self.qualified: Dict[str, str] = {}  # local -> qualified (absolute imports)
        self.classes: Dict[str, cst.ClassDef] = {}
        self.parents: Dict[int, Tuple[cst.CSTNode, ...]] = {}  # id(def) -> defs and classes around it
        self.uses: List[Tuple[cst.Call, Tuple[cst.CSTNode, ...], int]] = []  # trace-like calls
        self.calls: Dict[str, List[Tuple[cst.Call, Tuple[cst.CSTNode, ...], int]]] = {}  # callee name -> calls
        self.mutated: set = set()  # (id(scope), name) whose attributes are assigned (`config.n_layer = 4`)
        self._order = 0
        self._block(module.body, (), False)

    def _next(self) -> int:
        self._order += 1
        return self._order

    def _scope(self, stack) -> int:
        for node in reversed(stack):
            if type(node) is cst.FunctionDef:
                return id(node)
        return 0

    def _block(self, statements: Sequence[cst.CSTNode], stack, conditional: bool) -> None:
        for statement in statements:
            self._statement(statement, stack, conditional)

    def _statement(self, node: cst.CSTNode, stack, conditional: bool) -> None:
        kind = type(node)
        if kind is cst.SimpleStatementLine:
            for small in node.body:
                self._small(small, stack, conditional)
            return
        if kind is cst.FunctionDef or kind is cst.ClassDef:
            owner = id(stack[-1]) if stack and kind is cst.FunctionDef and type(stack[-1]) is cst.ClassDef else self._scope(stack)
            if kind is cst.FunctionDef:
                self.functions[(owner, node.name.value)] = node
                for decorator in node.decorators:
                    self._expr(decorator.decorator, stack)
                for param in node.params.params + node.params.kwonly_params + node.params.posonly_params:
                    if param.default is not None:
                        self._expr(param.default, stack)
            else:
                if not stack:
                    self.classes[node.name.value] = node
                self._bind(self._scope(stack), node.name.value, None, stack, conditional)
            self.parents[id(node)] = stack
            self._block(body_of(node), stack + (node,), False)
            return
        if kind is cst.With:
            for item in node.items:
                self._expr(item.item, stack)
                if item.asname is not None:
                    for name in _target_names(item.asname.name):
                        self._bind(self._scope(stack), name, None, stack, conditional)
            self._block(body_of(node), stack, conditional)
            return
        if kind is cst.If:
            self._expr(node.test, stack)
            self._block(body_of(node), stack, True)
            if node.orelse is not None:
                self._statement(node.orelse, stack, True) if type(node.orelse) is cst.If else self._block(
                    body_of(node.orelse), stack, True)
            return
        if kind is cst.Else:
            self._block(body_of(node), stack, True)
            return
        if kind is cst.For:
            self._expr(node.iter, stack)
            for name in _target_names(node.target):
                self._bind(self._scope(stack), name, None, stack, True)
        elif kind is cst.While:
            self._expr(node.test, stack)
        for child in children(node):
            if isinstance(child, (cst.IndentedBlock, cst.SimpleStatementSuite)):
                self._block(body_of(node), stack, True)
            elif isinstance(child, (cst.ExceptHandler, cst.ExceptStarHandler, cst.Else, cst.Finally, cst.MatchCase)):
                self._block(body_of(child), stack, True)
            elif type(child) is not cst.Name and isinstance(child, cst.BaseExpression) and kind not in (cst.For, cst.While):
                self._expr(child, stack)

    def _small(self, node: cst.CSTNode, stack, conditional: bool) -> None:
        kind = type(node)
        scope = self._scope(stack)
        if kind is cst.Assign or kind is cst.AnnAssign:
            if node.value is None:
                return
            self._expr(node.value, stack)
            targets = [t.target for t in node.targets] if kind is cst.Assign else [node.target]
            for target in targets:
                if type(target) is cst.Name:
                    self._bind(scope, target.value, node.value, stack, conditional)
                elif type(target) is cst.Attribute and type(target.value) is cst.Name:
                    owner = _method_class(stack)
                    if owner is not None and target.value.value == _self_name(stack):
                        key = (id(owner), target.attr.value)
                        self.attributes.setdefault(key, []).append(
                            _Binding(node.value, self._next(), conditional, stack))
                    else:
                        self.mutated.add((scope, target.value.value))
                else:
                    for name in _target_names(target):
                        self._bind(scope, name, None, stack, conditional)
        elif kind is cst.AugAssign:
            self._expr(node.value, stack)
            for name in _target_names(node.target):
                self._bind(scope, name, None, stack, conditional)
        elif kind is cst.Import:
            for alias in node.names:
                full = dotted_name(alias.name)
                local = alias.asname.name.value if alias.asname is not None else full.split(".")[0]
                self.qualified[local] = full if alias.asname is not None else local
                self.imports[local] = (full if alias.asname is not None else local, 0, "")
        elif kind is cst.ImportFrom:
            if isinstance(node.names, cst.ImportStar):
                return
            module = dotted_name(node.module) if node.module is not None else ""
            level = len(node.relative)
            for alias in node.names:
                name = dotted_name(alias.name)
                local = alias.asname.name.value if alias.asname is not None else name
                self.imports[local] = (module, level, name)
                if not level:
                    self.qualified[local] = f"{module}.{name}"
        else:
            self._expr(node, stack)

    def _bind(self, scope: int, name: str, value, stack, conditional: bool) -> None:
        self.names.setdefault((scope, name), []).append(_Binding(value, self._next(), conditional, stack))

    def _expr(self, node: cst.CSTNode, stack) -> None:
        """Record the trace-like calls and the calls by name (for call-site resolution). Only where a
        call can stand for a model or take one: a call's callee chain and arguments, containers,
        conditionals, `await`, `x = y = ...`; not inside subscripts, arithmetic or comprehensions."""
        todo = [node]
        while todo:
            current = todo.pop()
            kind = type(current)
            if kind is cst.Call:
                func = current.func
                if type(func) is cst.Attribute and func.attr.value in RECEIVER_CALLS:
                    self.uses.append((current, stack, self._next()))
                name = dotted_name(func)
                if name is not None:
                    self.calls.setdefault(name.split(".")[-1], []).append((current, stack, self._next()))
                todo.append(func)
                todo.extend(arg.value for arg in current.args)
            elif kind is cst.Attribute:
                todo.append(current.value)
            elif kind in _CONTAINERS:
                todo.extend(element.value for element in current.elements if hasattr(element, "value"))
            elif kind is cst.IfExp:
                todo.extend((current.body, current.orelse))
            elif kind is cst.Await:
                todo.append(current.expression)
            elif (kind is cst.NamedExpr or kind is cst.Expr or kind is cst.Return) and current.value is not None:
                todo.append(current.value)


_CONTAINERS = (cst.Tuple, cst.List, cst.Set, cst.Dict)


def _target_names(node: cst.CSTNode) -> List[str]:
    if type(node) is cst.Name:
        return [node.value]
    if type(node) in (cst.Tuple, cst.List):
        return [n for e in node.elements for n in _target_names(e.value)]
    if type(node) is cst.StarredElement:
        return _target_names(node.value)
    return []


def _method_class(stack) -> Optional[cst.ClassDef]:
    """The class whose method the innermost def is (`self.x = ...` in it binds an attribute)."""
    if len(stack) >= 2 and type(stack[-1]) is cst.FunctionDef and type(stack[-2]) is cst.ClassDef:
        return stack[-2]
    return None


def _self_name(stack) -> Optional[str]:
    function = stack[-1] if stack and type(stack[-1]) is cst.FunctionDef else None
    if function is None:
        return None
    params = list(function.params.posonly_params) + list(function.params.params)
    return params[0].name.value if params else None


# -- sibling files ---------------------------------------------------------------------------------

_FILES: Dict[str, Tuple[tuple, Optional[_Index]]] = {}
_MAX_FILES = 128


def _index_of_file(path: str) -> Optional[_Index]:
    """The bindings of another file of the project, parsed once per process (by size and mtime)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    key = (status.st_size, status.st_mtime_ns)
    cached = _FILES.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    index = None
    if status.st_size <= _MAX_FILE:
        try:
            with open(path, "rb") as handle:
                index = _Index(cst.parse_module(handle.read()), path)
        except (OSError, cst.ParserSyntaxError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            index = None
    if len(_FILES) >= _MAX_FILES:
        _FILES.clear()
    _FILES[path] = (key, index)
    return index


def _project_root(directory: str) -> str:
    """The nearest directory above (or at) `directory` that holds project markers, else `directory`."""
    current = directory
    for _ in range(8):
        if any(os.path.exists(os.path.join(current, marker)) for marker in ("pyproject.toml", "setup.cfg", "setup.py", ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return directory


def _module_file(index: _Index, module: str, level: int) -> Optional[str]:
    """The project file an import names (`mypkg.models`, `.models`), or None (not the project's)."""
    if index.path is None or not os.path.isfile(index.path):
        return None
    here = os.path.dirname(os.path.abspath(index.path))
    parts = [p for p in module.split(".") if p]
    if level:
        base = here
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases = [base]
    else:
        root = _project_root(here)
        bases, current = [], here
        while True:
            bases.append(current)
            if current == root or os.path.dirname(current) == current:
                break
            current = os.path.dirname(current)
        bases.append(os.path.join(root, "src"))
    for base in bases:
        target = os.path.join(base, *parts)
        for candidate in (target + ".py", os.path.join(target, "__init__.py")):
            if parts and os.path.isfile(candidate):
                return candidate
    return None


def _conftests(index: _Index) -> Iterator[_Index]:
    """The `conftest.py` files whose fixtures the linted file can use, nearest first."""
    if index.path is None or not os.path.isfile(index.path):
        return
    here = os.path.dirname(os.path.abspath(index.path))
    root = _project_root(here)
    current = here
    for _ in range(8):
        candidate = os.path.join(current, "conftest.py")
        if os.path.abspath(candidate) != os.path.abspath(index.path) and os.path.isfile(candidate):
            found = _index_of_file(candidate)
            if found is not None:
                yield found
        if current == root or os.path.dirname(current) == current:
            return
        current = os.path.dirname(current)


# -- resolution ------------------------------------------------------------------------------------


class _Resolver:
    def __init__(self, index: _Index) -> None:
        self.index = index
        self.found: Dict[int, ModelRef] = {}  # id(construction call) -> its ModelRef

    # An expression, in the context where it is evaluated.
    def value(self, index: _Index, node: cst.CSTNode, stack, order: int, depth: int, name: Optional[str] = None):
        if depth > _DEPTH or node is None:
            return None
        kind = type(node)
        if kind is cst.Name:
            return self.name(index, node.value, stack, order, depth + 1)
        if kind is cst.Attribute and type(node.value) is cst.Name and node.value.value == _self_name(stack):
            owner = _method_class(stack)
            return self.attribute(index, owner, node.attr.value, depth + 1) if owner is not None else None
        if kind is cst.Await:
            return self.value(index, node.expression, stack, order, depth + 1, name)
        if kind is cst.Call:
            wrapper = self.wrapper_of(index, node.func)
            if wrapper is not None:
                return self.construction(index, wrapper, node, stack, order, depth, name)
            # `LanguageModel(...).to("cuda")`, `model.eval()`: the same object.
            if type(node.func) is cst.Attribute and node.func.attr.value in ("to", "eval", "cuda", "cpu", "requires_grad_"):
                inner = self.value(index, node.func.value, stack, order, depth + 1, name)
                if isinstance(inner, ModelRef):
                    return inner
            return self.returned(index, node, stack, order, depth + 1)
        return None

    def wrapper_of(self, index: _Index, func: cst.CSTNode) -> Optional[str]:
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

    def construction(self, index: _Index, wrapper: str, call: cst.Call, stack, order, depth, name) -> ModelRef:
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        facts: dict = {}
        first = positional[0] if positional else keywords.get("model_key") or keywords.get("repo_id")
        if first is not None:
            facts = self.model_facts(index, first, stack, order, depth + 1)
        rename = literal(keywords["rename"]) if "rename" in keywords else {}
        if not isinstance(rename, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in rename.items()):
            rename = {}
        ref = ModelRef(wrapper, call, keywords, name=name, rename=rename,
                       file=index.path if index is not self.index else None, **facts)
        self.found.setdefault(id(call), ref)
        return ref

    def model_facts(self, index: _Index, node: cst.CSTNode, stack, order: int, depth: int) -> dict:
        """What the wrapper's first argument says: an id/path, or a torch model from an id or config."""
        if depth > _DEPTH:
            return {}
        value = literal(node)
        if isinstance(value, str):
            return {"ref": value, "loader": "id"}
        kind = type(node)
        if kind is cst.Name:
            bound = self.binding(index, node.value, stack, order)
            if bound is not None and bound[1].value is not None:
                where, binding = bound
                return self.model_facts(where, binding.value, binding.stack, binding.order, depth + 1)
            default = self.param_default(index, node.value, stack)
            return {} if default is None else self.model_facts(index, default, stack, order, depth + 1)
        if kind is not cst.Call:
            return {}
        func = node.func
        method = func.attr.value if type(func) is cst.Attribute else None
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if method == "from_pretrained":
            owner = dotted_name(func.value)
            first = positional[0] if positional else keywords.get("pretrained_model_name_or_path")
            facts = self.model_facts(index, first, stack, order, depth + 1) if first is not None else {}
            if "ref" not in facts:
                return {}
            return {"ref": facts["ref"], "model_class": owner.split(".")[-1] if owner else None, "loader": "from_pretrained"}
        if method in ("to", "eval", "cuda", "cpu", "half", "float", "bfloat16"):
            return self.model_facts(index, func.value, stack, order, depth + 1)
        config = None
        owner = dotted_name(func) if method != "from_config" else dotted_name(func.value)
        if method == "from_config":
            config = positional[0] if positional else keywords.get("config")
        elif owner is not None and owner.split(".")[-1][:1].isupper():  # `GPT2LMHeadModel(config)`
            config = positional[0] if positional else keywords.get("config")
        if config is None:
            return {}
        facts = self.config_facts(index, config, stack, order, depth + 1)
        if not facts:
            return {}
        return {**facts, "model_class": owner.split(".")[-1], "loader": "from_config" if method else "init"}

    def config_facts(self, index: _Index, node: cst.CSTNode, stack, order: int, depth: int) -> dict:
        if depth > _DEPTH:
            return {}
        if type(node) is cst.Name:
            if (index_scope(index, node.value, stack), node.value) in index.mutated:
                return {}  # `config.n_layer = 4` after it was made: not what the call says
            bound = self.binding(index, node.value, stack, order)
            if bound is None or bound[1].value is None:
                return {}
            where, binding = bound
            return self.config_facts(where, binding.value, binding.stack, binding.order, depth + 1)
        if type(node) is not cst.Call:
            return {}
        func = node.func
        if type(func) is cst.Attribute and func.attr.value == "from_pretrained":
            args = [a.value for a in node.args if a.keyword is None and not a.star]
            facts = self.model_facts(index, args[0], stack, order, depth + 1) if args else {}
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
                if value is _NOT_LITERAL and type(arg.value) is cst.Name:
                    bound = self.binding(index, arg.value.value, stack, order)
                    value = literal(bound[1].value) if bound is not None and bound[1].value is not None else _NOT_LITERAL
                if value is _NOT_LITERAL:
                    opaque.add(arg.keyword.value)
                else:
                    kwargs[arg.keyword.value] = value
        return {"config_class": name.split(".")[-1], "config_kwargs": kwargs, "opaque": frozenset(opaque)}

    # Names and attributes.
    def binding(self, index: _Index, name: str, stack, order: int) -> Optional[Tuple[_Index, _Binding]]:
        """The binding of `name` a use at (`stack`, `order`) sees, when the source decides it."""
        scopes = [id(node) for node in reversed(stack) if type(node) is cst.FunctionDef] + [0]
        for scope in scopes:
            bindings = index.names.get((scope, name))
            if not bindings:
                continue
            chosen = _choose(bindings, order if scope == (scopes[0] if stack else 0) else None)
            return None if chosen is None else (index, chosen)
        return None

    def name(self, index: _Index, name: str, stack, order: int, depth: int):
        functions = [node for node in reversed(stack) if type(node) is cst.FunctionDef]
        for function in functions:  # a parameter of an enclosing def
            if name in {p.name.value for p in _params(function)}:
                if index.names.get((id(function), name)):
                    break  # rebound in the body: the binding decides
                return self.parameter(index, function, name, depth)
        bound = self.binding(index, name, stack, order)
        if bound is not None:
            where, binding = bound
            return self.value(where, binding.value, binding.stack, binding.order, depth + 1, name)
        if name in index.imports:
            module, level, attr = index.imports[name]
            if attr:
                return self.imported(index, module, level, attr, depth + 1)
        return None

    def parameter(self, index: _Index, function: cst.FunctionDef, name: str, depth: int):
        stack = index.parents.get(id(function), ()) + (function,)
        param = next(p for p in _params(function) if p.name.value == name)
        if param.default is not None:
            return self.value(index, param.default, index.parents.get(id(function), ()), 0, depth + 1, name)
        fixture = self.fixture(index, name, depth + 1)
        if fixture is not None:
            return fixture
        # a helper given the model: every call site in the file that passes it must agree
        position = [p.name.value for p in list(function.params.posonly_params) + list(function.params.params)]
        if _method_class(stack) is not None and position:
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

    def param_default(self, index: _Index, name: str, stack) -> Optional[cst.BaseExpression]:
        for node in reversed(stack):
            if type(node) is cst.FunctionDef:
                for param in _params(node):
                    if param.name.value == name:
                        return param.default
        return None

    def fixture(self, index: _Index, name: str, depth: int):
        for where in [index, *_conftests(index)]:
            for (scope, _), function in where.functions.items():
                if scope == 0 and _fixture_name(function, where) == name:
                    return self.returned_by(where, function, depth + 1)
        return None

    def attribute(self, index: _Index, owner: cst.ClassDef, attr: str, depth: int):
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
    def returned(self, index: _Index, call: cst.Call, stack, order: int, depth: int):
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
            owner = _method_class(stack)
            if owner is not None and func.value.value == _self_name(stack):
                method = index.functions.get((id(owner), func.attr.value))
                return self.returned_by(index, method, depth + 1) if method is not None else None
            if func.value.value in index.imports:  # `loaders.load_model()` after `import mypkg.loaders as loaders`
                module, level, attr = index.imports[func.value.value]
                target = f"{module}.{attr}" if attr else module
                return self.imported(index, target, level, func.attr.value, depth + 1, called=True)
        return None

    def returned_by(self, index: _Index, function: cst.FunctionDef, depth: int):
        """What a function returns (or a fixture yields), when every `return` agrees."""
        stack = index.parents.get(id(function), ()) + (function,)
        seen = []
        for statement, order in _returns(function):
            seen.append(self.value(index, statement.value, stack, order, depth + 1))
        return _agreed(seen)

    def imported(self, index: _Index, module: str, level: int, attr: str, depth: int, called: bool = False):
        if depth > _DEPTH:
            return None
        path = _module_file(index, module, level)
        if path is None:  # not the project's, or `from pkg import submodule`: no model
            return None
        other = _index_of_file(path)
        if other is None:
            return None
        if called:
            function = other.functions.get((0, attr))
            if function is not None:
                return self.returned_by(other, function, depth + 1)
            return None
        return self.name(other, attr, (), 1 << 30, depth + 1)


def index_scope(index: _Index, name: str, stack) -> int:
    for node in reversed(stack):
        if type(node) is cst.FunctionDef and index.names.get((id(node), name)):
            return id(node)
    return 0


def _params(function: cst.FunctionDef) -> List[cst.Param]:
    params = function.params
    return list(params.posonly_params) + list(params.params) + list(params.kwonly_params)


def _fixture_name(function: cst.FunctionDef, index: _Index) -> Optional[str]:
    for decorator in function.decorators:
        node = decorator.decorator
        call = node if type(node) is cst.Call else None
        name = dotted_name(call.func if call is not None else node)
        if name is None:
            continue
        head = name.split(".")[0]
        qualified = index.qualified.get(head, head) + name[len(head):]
        if qualified in _FIXTURES or name in _FIXTURES:
            if call is not None:
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value == "name":
                        value = literal(arg.value)
                        return value if isinstance(value, str) else None
            return function.name.value
    return None


def _returns(function: cst.FunctionDef) -> Iterator[Tuple[cst.CSTNode, int]]:
    """The `return x` / `yield x` statements of a def (not of defs nested in it), in order."""
    todo = list(reversed(body_of(function)))
    order = 1 << 20
    while todo:
        node = todo.pop()
        order += 1
        if type(node) is cst.SimpleStatementLine:
            for small in node.body:
                if type(small) is cst.Return and small.value is not None:
                    yield small, order
                elif type(small) is cst.Expr and type(small.value) is cst.Yield and small.value.value is not None:
                    yield small.value, order
        elif type(node) not in (cst.FunctionDef, cst.ClassDef):
            todo.extend(reversed([c for c in children(node) if isinstance(c, (cst.BaseStatement, cst.BaseSuite,
                                                                               cst.ExceptHandler, cst.Else, cst.Finally,
                                                                               cst.MatchCase))]))
            if isinstance(node, cst.BaseSuite):
                todo.extend(reversed(list(node.body)))


def _choose(bindings: List[_Binding], order: Optional[int]) -> Optional[_Binding]:
    """The binding a use sees: the last one before it (`order`; None: the use runs later, e.g. in a
    function, so the last one), unless it is conditional and an earlier one disagrees."""
    before = [b for b in bindings if order is None or b.order < order] or bindings
    last = before[-1]
    if not last.conditional:
        return last
    values = {id(b.value) for b in before if b.value is not None}
    if len(before) == 1 or (len(values) == 1 and all(b.value is not None for b in before)):
        return last
    # several candidates in branches: only when they are the same code (`x = LanguageModel(ID)` twice)
    texts = {_code(b.value) if b.value is not None else None for b in before}
    return last if len(texts) == 1 and None not in texts else None


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
    index = _Index(module, path)
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
            if id(call) not in resolver.found and resolver.wrapper_of(index, call.func) is not None:
                resolver.construction(index, resolver.wrapper_of(index, call.func), call, stack, at, 0,
                                      _bound_name(index, call))
    found = sorted((r for r in resolver.found.values() if r.file is None), key=lambda r: order.get(id(r.call), 0))
    return found, receivers


def _bound_name(index: _Index, call: cst.Call) -> Optional[str]:
    for (_, name), bindings in index.names.items():
        if any(b.value is call for b in bindings):
            return name
    for (_, attr), bindings in index.attributes.items():
        if any(b.value is call for b in bindings):
            return f"self.{attr}"
    return None
