"""What the knowledge says about the model a trace runs on: its schema (module tree, output and
input structures, forward order) for the targeted transformers, and module paths of the file
walked on it.

`known_model(trace, settings)` gives a `Known` only when the model is resolved
(`analysis/models.py`) to something the bundled knowledge (`knowledge/models.py`) has a schema for:
an id or path with a config, a config class with literal arguments, or a receiver the
`[tool.nnsight-lint.models]` setting names. Everything else is unknown, and rules stay silent.
The knowledge is imported here, on first use: it is stdlib only.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from nnsight_lint.analysis.model import Trace
from nnsight_lint.analysis.models import ModelRef
from nnsight_lint.sources import reads

_CAUSAL_LM = ("AutoModelForCausalLM", None)
_TEXT_TASKS = (None, "text-generation")


@dataclass(frozen=True)
class Known:
    schema: object  # knowledge.models.Schema
    ref: Optional[ModelRef]
    prefix: Tuple[str, ...]  # receiver segments after its root name: ("model",) for `self.model`
    transformers: str  # the transformers release the schema is for, as the rules say it
    assumed: bool  # the transformers version is unknown: the newest measured release is assumed
    name: str  # how messages name the model: "GPT2LMHeadModel (gpt2)"

    @property
    def layers(self) -> Tuple[str, ...]:
        return tuple(self.schema.layers.split(".")) if self.schema.layers else ()

    def transformers_words(self) -> str:
        """"transformers 5.24" or "transformers 5.24 (assumed: the transformers version is unknown)"."""
        if self.assumed:
            return f"transformers {self.transformers} (assumed: the project's transformers version is unknown)"
        return f"transformers {self.transformers}"


# (what the receiver is, the setting, the release) -> (the Known, the files its config came from or
# was looked for in): reused only while those files are as they were (`sources/reads.py`).
_CACHE: Dict[tuple, Tuple[Optional[Known], reads.Reads]] = {}


def known_model(trace: Trace, asked=None) -> Optional[Known]:
    """The schema of the model `trace` runs on, or None when the source (and the settings) do not say.

    `asked` holds the settings the model knowledge reads (a `LintOptions` or a `RuleContext`, whose
    `known_models` keeps this lint's answers; None: the defaults): `models`
    (`[tool.nnsight-lint.models]`), `transformers_version`, and `live_schemas`: an architecture the
    bundled table lacks is measured on the installed torch + transformers (`knowledge/extract.py`),
    except in a pre-commit hook."""
    models = getattr(asked, "models", None) or {}
    transformers_version = getattr(asked, "transformers_version", None)
    live = getattr(asked, "live_schemas", False)
    ref = trace.model_ref
    receiver = trace.model
    if receiver is None:
        return None
    live = live and not os.environ.get("PRE_COMMIT")  # pre-commit sets it for its hooks: never there
    key = (ref.identity() if ref is not None else None, receiver, tuple(sorted(models.items())), transformers_version,
           live)
    # One lint asks once per trace and rule, and its traces mostly share a model: what this lint
    # already answered (the files it read checked then) is told again, not checked again.
    linted = getattr(asked, "known_models", None)
    cached = linted.get(key) if linted is not None else None
    if cached is not None:
        reads.replay(cached[1])
        return cached[0]
    cached = _CACHE.get(key)
    if cached is not None and reads.unchanged(cached[1]):
        reads.replay(cached[1])
    else:
        if len(_CACHE) > 256:
            _CACHE.clear()
        with reads.recording() as read:
            known = _known(ref, receiver, models, transformers_version, live)
        cached = _CACHE[key] = (known, reads.frozen(read))
    if linted is not None:
        linted[key] = cached
    return cached[0]


def _known(ref: Optional[ModelRef], receiver: str, models: Mapping[str, str], version: Optional[str],
           live: bool) -> Optional[Known]:
    from nnsight_lint.knowledge import models as knowledge

    config = None
    if ref is not None:
        if ref.wrapper == "VLLM" or ref.keyword("automodel") is not None:
            return None  # vLLM's modules are its own; another automodel is another head
        if ref.wrapper == "TransformersModel" and ref.keyword("task") not in _TEXT_TASKS:
            return None
        if ref.ref is not None:
            config = knowledge.find_config(ref.ref, configured=models)
        elif ref.config_class is not None and not ref.opaque:
            config = knowledge.config_from_class(ref.config_class, ref.config_kwargs)
        if config is not None and ref.model_class not in _CAUSAL_LM:
            architectures = config.get("architectures") or ()
            if ref.model_class not in architectures and not _is_causal_lm(ref.model_class):
                return None  # `NNsight(GPT2Model(...))`: a base model, not the one the table measured
    if config is None and receiver in models:
        config = knowledge.find_config(receiver, configured=models)
    if config is None:
        return None
    schema = knowledge.schema_for(config, version)
    if schema is None and live:
        from nnsight_lint.knowledge import extract  # torch and transformers, only when it measures

        schema = extract.live_schema(config, transformers_version=version)
    if schema is None:
        return None
    if ref is not None and ref.model_class not in _CAUSAL_LM and ref.model_class != schema.root.type:
        return None
    if ref is not None and not _rename_understood(ref.rename) and ref.keywords.get("rename") is not None:
        return None
    measured = knowledge.measured_releases()
    shown = version or (measured[-1] if measured else "?")
    prefix = tuple(receiver.split(".")[1:])
    return Known(schema, ref, prefix, _short(shown), version is None, f"{schema.root.type} ({schema.architecture})")


def _is_causal_lm(name: Optional[str]) -> bool:
    return name is not None and (name.endswith("ForCausalLM") or name.endswith("LMHeadModel"))


def _rename_understood(rename: Mapping[str, str]) -> bool:
    return bool(rename) and all("*" not in key for key in rename)


def _short(version: str) -> str:
    parts = version.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 and parts[2] == "0" else version


# -- paths on the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Walked:
    """A module path of the source walked on the schema.

    `module` is the module it names (None when it names none); on failure `at` is the index of the
    first segment the schema lacks, `parent` the module that lacks it, and `reason` one of
    "child" (no such child), "index" (an index past the list's end), "unknown" (the walk cannot
    tell: a rename alias, a `?` index into a list of unlike modules)."""

    module: Optional[object]
    at: int = -1
    parent: Optional[object] = None
    reason: str = ""
    path: Tuple[object, ...] = ()  # the path walked, with rename aliases replaced by what they name


def relative_path(known: Known, path: Sequence[object]) -> Optional[Tuple[object, ...]]:
    """An event's path (from the receiver's root name) relative to the model: `self.model.x` -> ("x",)."""
    if tuple(path[: len(known.prefix)]) != known.prefix:
        return None
    return tuple(path[len(known.prefix):])


def walk(known: Known, path: Sequence[object]) -> Walked:
    """`path` walked on the model's schema; kept on the `Known` (a pure function of the two): the
    model rules (NNL401-NNL404) and the forward order each walk every module access of a trace."""
    key = tuple(path)
    walks = known.__dict__.get("_walks")
    if walks is None:
        walks = known.__dict__["_walks"] = {}  # (frozen: its own __dict__, as NNL403's `_since`)
    found = walks.get(key)
    if found is None:
        found = walks[key] = _walk(known, key)
    return found


def _walk(known: Known, path: Sequence[object]) -> Walked:
    node = known.schema.root
    renames = _renames(known)
    out: List[object] = []
    parts = list(path)
    i = 0
    while i < len(parts):
        part = parts[i]
        if isinstance(part, int):
            if node.length is None or not node.children:
                return Walked(None, i, node, "child", tuple(out))
            index = part + node.length if part < 0 else part
            if not 0 <= index < node.length:
                return Walked(None, i, node, "index", tuple(out))
            node = node.children[str(index)]
        elif part == "?":
            if node.length is None or not node.children:
                return Walked(None, i, node, "unknown", tuple(out))
            node = node.children[min(node.children, key=lambda n: int(n) if n.isdigit() else 0)]
        elif isinstance(part, str) and part in node.children:
            node = node.children[part]
        elif isinstance(part, str) and part in renames:
            replacement = renames[part]
            parts[i:i + 1] = replacement
            continue
        else:
            return Walked(None, i, node, "child", tuple(out))
        out.append(part)
        i += 1
    return Walked(node, path=tuple(out))


def _renames(known: Known) -> Dict[str, Tuple[object, ...]]:
    """alias -> the path it names, for the `rename=` keys the walk understands (dotted paths, one
    name each); other aliases are left for the walk to fail on, and `known_model` refuses them."""
    found: Dict[str, Tuple[object, ...]] = {}
    if known.ref is None:
        return found
    for key, alias in known.ref.rename.items():
        if "." not in alias:
            found[alias] = tuple(int(p) if p.isdigit() else p for p in key.split(".") if p)
    return found


def display(path: Sequence[object]) -> str:
    """("transformer", "h", 0, "attn") as `transformer.h[0].attn`; "?" as `[i]`."""
    text = ""
    for part in path:
        if isinstance(part, int) or (isinstance(part, str) and part.isdigit()):
            text += f"[{part}]"
        elif part == "?":
            text += "[i]"
        else:
            text += f".{part}" if text else str(part)
    return text


def closest(known: Known, walked: Walked, path: Sequence[object]) -> Tuple[List[str], Optional[str]]:
    """(the children of the module that lacks the segment, the real path closest to what was
    meant, as `transformer.h[i].attn`, or None): the same name elsewhere in the tree, else a
    sibling of a like name, else the model's decoder layers when the path indexes a list there."""
    parent = walked.parent
    children = sorted(n for n in parent.children if not n.isdigit()) if parent is not None else []
    missing = path[walked.at]
    templates = _template_paths(known)
    if isinstance(missing, str):
        same = [t for t in templates if t[-1] == missing]
        if same:
            return children, display(min(same, key=len))
        ratio = lambda name: difflib.SequenceMatcher(None, missing, name).ratio()  # noqa: E731
        like = [c for c in children if c in missing or missing in c or ratio(c) >= 0.8]  # `attn`, a typo
        if like:
            return children, display(tuple(walked.path) + (max(like, key=ratio),))
    rest = list(path[walked.at:])
    indexed = next((i for i, p in enumerate(rest) if isinstance(p, int) or p == "?"), None)
    if indexed is not None and known.layers and not tuple(walked.path[: len(known.layers)]) == known.layers:
        tail = tuple(p for p in rest[indexed + 1:])
        layer = known.layers + ("?",)
        if tail and walk(known, layer + tail).module is None:
            tail = ()
        return children, display(layer + tail)
    return children, None


def _template_paths(known: Known) -> List[Tuple[object, ...]]:
    """Every module path with one `?` for the index into a list of like modules."""
    found: List[Tuple[object, ...]] = []

    def visit(module, path: Tuple[object, ...]) -> None:
        names = list(module.children)
        if module.length is not None and names and all(n.isdigit() for n in names):
            visit(module.children[names[0]], path + ("?",))
            return
        for name in names:
            child_path = path + (name,)
            found.append(child_path)
            visit(module.children[name], child_path)

    visit(known.schema.root, ())
    return found


def module_events(model, asked=None):
    """(event, known model, path relative to the model) for every module access (`.output`,
    `.input`, `.inputs`) and `.grad` read inside a trace whose model is known. Worked out once per
    file model and settings: every model rule asks."""
    remembered = model.module_events
    if remembered is None or remembered[0] is not asked:
        remembered = model.module_events = (asked, list(_module_events(model, asked)))
    return remembered[1]


def _module_events(model, asked):
    from nnsight_lint.analysis.model import EventKind

    known: Dict[int, Optional[Known]] = {}
    for event in model.events:
        if event.kind is not EventKind.ACCESS and event.kind is not EventKind.GRAD:
            continue
        trace = event.where.trace
        if trace is None or not event.rooted or event.path is None:
            continue
        if id(trace) not in known:
            known[id(trace)] = known_model(trace, asked)
        found = known[id(trace)]
        if found is None:
            continue
        path = relative_path(found, event.path)
        if path is not None:
            yield event, found, path


def forward_times(known: Known):
    """A `forward_order.compare` `times` function for a known model: an access's moment in the
    measured forward (a module's output at its hook's rank; its input just before the first
    output inside it). None for a module the measured forward did not run."""
    cache: Dict[int, Optional[float]] = {}

    def first_inside(module) -> Optional[int]:
        key = id(module)
        if key not in cache:
            ranks = [module.rank] if module.rank is not None else []
            for child in module.children.values():
                inner = first_inside(child)
                if inner is not None:
                    ranks.append(inner)
            cache[key] = min(ranks) if ranks else None
        return cache[key]

    def times(access) -> Optional[float]:
        path = relative_path(known, access.path)
        walked = walk(known, path) if path is not None and "?" not in path else None
        if walked is None or walked.module is None:
            return None
        if access.kind == "output":
            return walked.module.rank
        first = first_inside(walked.module)
        return None if first is None else first - 0.5

    return times
