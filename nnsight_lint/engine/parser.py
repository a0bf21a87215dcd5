"""libcst's parser, without the checks libcst runs on every node it builds.

A libcst node checks its fields as it is built (`CSTNode.__post_init__` calls `_validate`): for a
tree a program puts together, that catches a node no source could spell. A tree the parser builds
from source passes every check by construction, and the checks cost a tenth to a sixth of the
parse (benchmarks/RESULTS.md, seventh session); libcst's own comment there says as much ("avoid validating the tree
when parsing a file"). So while a parse runs, nodes are built unchecked, and the check is back
the moment no parse is running (in a run over many files, `parsing_many`, once the run ends).

Building a node is most of the rest of a parse that runs in Python: a node is a frozen dataclass
with slots, whose generated `__init__` stores each field through `object.__setattr__` (the frozen
class refuses plain stores) and then calls the check. While a parse runs, each node class has an
`__init__` of the same signature that stores each field through its slot's own setter and calls
nothing: a parse takes 0.90-0.95x the time (RESULTS.md, eighth session). They are built from
the installed libcst's dataclass fields at the second parse of a process (3 ms); a class they
could not stand in for exactly (a field that is not a slot, not set by `__init__`, keyword-only,
or a check of its own) keeps its own `__init__`, so it is only built more slowly.

While they are off they are off for the process: a node another thread builds meanwhile goes unchecked
too. Only an invalid node would notice (it is not refused), and the linter builds none: a fix is
text, re-parsed before it is kept (`fixing`).
"""
from __future__ import annotations

import threading
import types
from contextlib import contextmanager
from typing import Iterator, Optional, Union

_lock = threading.Lock()
_running = 0  # parses under way, in every thread
_runs = 0  # runs over many texts under way (`parsing_many`)
_opened = 0  # parses begun in this process
_installed: list = []  # (class, attribute, libcst's own, unchecked): what is replaced now
# The same with the plain `__init__`s, built at a process's second parse: a process that parses
# one text (a pre-commit run on one file) would not earn back their 3 ms.
_swaps: Optional[list] = None


def parse_module(source: Union[str, bytes]):
    """`libcst.parse_module(source)`: the same tree, built without the per-node checks."""
    import libcst as cst

    with unchecked_nodes():
        return cst.parse_module(source)


@contextmanager
def unchecked_nodes() -> Iterator[None]:
    """While it is open (in any thread), libcst's nodes are built unchecked."""
    global _running, _opened
    with _lock:
        _opened += 1
        _running += 1
        if not _installed:
            _install()
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            _restore_when_idle()


@contextmanager
def parsing_many() -> Iterator[None]:
    """A run over many texts (the files of a check): from its first parse to its end, nodes stay
    unchecked between the parses too, and the plain `__init__`s are in from the first parse on.
    Putting libcst's 174 classes' `__init__`s in and taking them out costs 0.2 ms a parse. A run
    that parses nothing (the pre-filter answered) imports nothing."""
    global _runs
    with _lock:
        _runs += 1
    try:
        yield
    finally:
        with _lock:
            _runs -= 1
            _restore_when_idle()


def _install() -> None:
    global _installed
    if _swaps is not None:
        _installed = _swaps
    else:
        _installed = _only_checks() if _opened == 1 and not _runs else _built_swaps()
    for owner, name, _, unchecked in _installed:
        setattr(owner, name, unchecked)


def _restore_when_idle() -> None:
    """libcst's own back, once no parse and no run over many texts is under way (under `_lock`)."""
    global _installed
    if _running or _runs:
        return
    for owner, name, checked, _ in _installed:
        setattr(owner, name, checked)
    _installed = []


def _only_checks() -> list:
    import libcst as cst

    node = cst.CSTNode
    checks = node.__dict__.get("__post_init__")
    return [] if checks is None else [(node, "__post_init__", checks, _unchecked)]  # None: checked some other way


def _built_swaps() -> list:
    import libcst as cst

    global _swaps
    node = cst.CSTNode
    _swaps = _only_checks()
    if _swaps:
        # By the MRO: `issubclass` would ask abc's machinery, which caches a verdict per class pair (5 ms).
        classes = [c for c in vars(cst).values() if isinstance(c, type) and node in c.__mro__]
        inits = _unchecked_inits(classes, _swaps[0][2])
        _swaps += [(c, "__init__", c.__dict__["__init__"], init) for c, init in inits.items()]
    return _swaps


def _unchecked(self) -> None:
    pass


def _unchecked_inits(classes, checks) -> dict:
    """For each class it can stand in for, an `__init__` that stores the fields and checks nothing."""
    import dataclasses

    plans = {}
    for cls in classes:
        fields = _plain_fields(cls, checks)
        if fields is not None:
            plans[cls] = fields
    makers = _makers({len(fields) for fields in plans.values()})
    inits = {}
    for cls, fields in plans.items():
        setters = [cls.__dict__[f.name].__set__ for f in fields]
        factories = [f.default_factory for f in fields]
        init = makers[len(fields)](*setters, *factories, dataclasses.MISSING)
        names = ("self",) + tuple(f.name for f in fields)
        code = init.__code__
        renamed = {"co_qualname": f"{cls.__qualname__}.__init__"} if hasattr(code, "co_qualname") else {}
        init.__code__ = code.replace(co_varnames=names, **renamed)
        missing = dataclasses.MISSING  # also what a left-out field with a default factory is given
        init.__defaults__ = tuple(
            f.default for f in fields if f.default is not missing or f.default_factory is not missing
        ) or None
        inits[cls] = init
    return inits


def _plain_fields(cls, checks):
    """The fields the generated `__init__` of `cls` takes, in order, if a plain one can replace it."""
    import dataclasses

    init = cls.__dict__.get("__init__")
    params = cls.__dict__.get("__dataclass_params__")
    if init is None or params is None or not params.init or not params.frozen or cls.__post_init__ is not checks:
        return None
    fields = dataclasses.fields(cls)
    for field in fields:
        slot = cls.__dict__.get(field.name)
        if not field.init or getattr(field, "kw_only", False) or type(slot) is not types.MemberDescriptorType:
            return None
    code = init.__code__
    if code.co_varnames[: code.co_argcount] != ("self",) + tuple(f.name for f in fields) or code.co_kwonlyargcount:
        return None  # not the __init__ dataclasses generates for these fields
    return fields


def _makers(arities) -> dict:
    """For each arity, a function of (setters, default factories, MISSING) that makes an `__init__`.

    The parameters are renamed per class afterwards (`code.replace`); one compile serves every class.
    A field with a default factory defaults to MISSING, which calls the factory (dataclasses does
    the same with a sentinel of its own).
    """
    source = []
    for n in sorted(arities):
        setters = [f"_s{i}" for i in range(n)]
        factories = [f"_f{i}" for i in range(n)]
        stores = [f"        _s{i}(self, _f{i}() if a{i} is _missing else a{i})" for i in range(n)] or ["        pass"]
        params = "".join(f", a{i}" for i in range(n))
        source.append(f"def make_{n}({', '.join(setters + factories + ['_missing'])}):\n"
                      f"    def __init__(self{params}):\n" + "\n".join(stores) + "\n    return __init__\n")
    namespace: dict = {}
    exec(compile("\n".join(source), "<nnsight_lint.engine.parser>", "exec"), namespace)
    return {n: namespace[f"make_{n}"] for n in arities}
