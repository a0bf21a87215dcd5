"""What the linter knows about the models a trace runs on, without importing torch or transformers.

Two bundled tables, generated from the real packages by `scripts/gen_model_schemas.py`:
- `models/configs.json`: the config fields the schemas read for the most used hub ids (and legacy ids
  such as `gpt2`), and, per config class, its defaults and `attribute_map` (`n_layer` is GPT-2's
  `num_hidden_layers`);
- `models/schemas.json`: per architecture (`config["model_type"]`) and range of transformers releases,
  the module tree one tiny build of it had (one decoder layer as the template of all), what each
  module's output and input were in one real forward, and the order the output hooks fired in.

`find_config` finds a model's config.json (setting, local path, Hugging Face cache, bundled table);
`schema_for` turns a config into the module tree of the model it builds (the layer count taken from
the config). Data is read once, on first use. docs/models.md says more.
"""
from __future__ import annotations

import functools
import glob
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, Union

from nnsight_lint.sources import reads

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


@dataclass(frozen=True)
class Value:
    """What a module's .output / .input is."""
    kind: str                                  # "tensor" | "tuple" | "model_output" | "none" | "other"
    ndim: Optional[int] = None                 # tensors
    dims: Tuple[str, ...] = ()                 # tensors: e.g. ("batch", "seq", "hidden"); "?" when unnamed
    items: Tuple["Value", ...] = ()            # tuples
    fields: Tuple[str, ...] = ()               # ModelOutput fields that were not None, e.g. ("logits", ...)
    type: str = ""                             # the class name of a ModelOutput or of an "other" value


@dataclass(frozen=True)
class Module:
    path: str                                  # "transformer.h.0.attn" ("" for the root)
    type: str                                  # "GPT2Attention"
    children: Mapping[str, "Module"] = field(compare=False, repr=False)  # ModuleList children "0", "1", ...
    length: Optional[int]                      # len() of a ModuleList / Sequential / ModuleDict, else None
    attributes: FrozenSet[str]                 # parameters, buffers and other non-module attributes
    output: Optional[Value]                    # None: its forward did not run in the measured forward
    input: Optional[Value]                     # nnsight's .input: the first positional argument (or first kwarg)
    rank: Optional[int]                        # forward (hook) order of the module's output, 0 = first


@dataclass(frozen=True)
class Schema:
    architecture: str                          # config["model_type"], e.g. "gpt2"
    transformers: str                          # the release range this entry holds for, e.g. ">=5.3.0"
    root: Module
    layers: str = ""                           # the path of the decoder-layer list, e.g. "transformer.h"
    layer_count: int = 0

    def module(self, path: Union[str, Sequence[Union[str, int]]]) -> Optional[Module]:
        """("transformer", "h", 0, "attn") or "transformer.h.0.attn"; negative ints index from the end."""
        node = self.root
        for part in _parts(path):
            if isinstance(part, int) or (isinstance(part, str) and re.fullmatch(r"-?\d+", part)):
                index = int(part)
                if node.length is None or not node.children:
                    return None
                if index < 0:
                    index += node.length
                if not 0 <= index < node.length:
                    return None
                part = str(index)
            node = node.children.get(part)
            if node is None:
                return None
        return node

    def output_since(self, path: Union[str, Sequence[Union[str, int]]]) -> Optional[str]:
        """The first measured transformers release in which this module's output took its current kind
        ("5.3.0": a tensor since transformers 5.3.0), or None when it had that kind in every measured
        release the architecture existed in (or the module is unknown)."""
        module = self.module(path)
        if module is None or module.output is None:
            return None
        template = _template_path(module.path, self.layers)
        ranges = _ranges(self.architecture)
        index = next((i for i, r in enumerate(ranges) if r.range == self.transformers), None)
        if index is None:
            return None
        since = None
        for older in range(index, -1, -1):
            node = ranges[older].nodes.get(template)
            if node is None or _kind(node.get("out")) != module.output.kind:
                return since
            since = ranges[older].since
        return None


# ---------------------------------------------------------------- finding a model's config

def find_config(model_ref: str, *, configured: Mapping[str, str] = {}, hf_home: Optional[str] = None
                ) -> Optional[Mapping]:
    """config.json (as a dict) for a hub id ("openai-community/gpt2", legacy "gpt2"), or a local directory /
    config.json path, from, in order: `configured` (the `[tool.nnsight-lint.models]` setting: name or id ->
    hub id or config.json path), a local path, the Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub,
    ~/.cache/huggingface/hub/models--org--name/snapshots/*/config.json; read as JSON), the bundled configs
    table. None when unknown. Never touches the network."""
    if not isinstance(model_ref, str) or not model_ref:
        return None
    target = configured.get(model_ref) if configured else None
    if target:
        found = _from_path(target)
        if found is not None:
            return found
        model_ref = target
    found = _from_path(model_ref)
    if found is not None:
        return found
    for ref in _hub_ids(model_ref):
        found = _from_cache(ref, hf_home)
        if found is not None:
            return found
    for ref in _hub_ids(model_ref):
        bundled = _configs()["models"].get(ref.lower())
        if bundled is not None:
            return dict(bundled)
    return None


def _from_path(ref: str) -> Optional[Dict[str, Any]]:
    path = os.path.expanduser(ref)
    if os.path.isdir(path):
        path = os.path.join(path, "config.json")
    elif not path.endswith(".json"):
        return None
    return _read_json(path)


def _read_json(path: str, noted: bool = True) -> Optional[Dict[str, Any]]:
    if noted:
        reads.note(path)  # the lint being run depends on it, there or not (`sources/reads.py`)
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _hub_ids(ref: str) -> List[str]:
    """The ids a reference may be cached or bundled under: itself, and its legacy / canonical twin."""
    ids = [ref]
    aliases = _configs()["aliases"]
    twin = aliases.get(ref.lower())
    if twin:
        ids.append(twin)
    ids += [legacy for legacy, canonical in aliases.items() if canonical.lower() == ref.lower()]
    return ids


def _cache_dirs(hf_home: Optional[str]) -> List[str]:
    dirs = []
    if hf_home:
        dirs += [os.path.join(hf_home, "hub"), hf_home]
    if os.environ.get("HF_HUB_CACHE"):
        dirs.append(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HUGGINGFACE_HUB_CACHE"):
        dirs.append(os.environ["HUGGINGFACE_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        dirs.append(os.path.join(os.environ["HF_HOME"], "hub"))
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    dirs.append(os.path.join(cache, "huggingface", "hub"))
    return list(dict.fromkeys(dirs))


def _from_cache(ref: str, hf_home: Optional[str]) -> Optional[Dict[str, Any]]:
    name = "models--" + ref.replace("/", "--")
    for cache in _cache_dirs(hf_home):
        repo = os.path.join(cache, name)
        reads.note(repo)  # a model downloaded later is found here
        if not os.path.isdir(repo):
            continue
        reads.note(os.path.join(repo, "refs", "main"))
        reads.note(os.path.join(repo, "snapshots"))  # a snapshot added changes its mtime
        try:
            with open(os.path.join(repo, "refs", "main"), encoding="utf-8") as handle:
                main = handle.read().strip()
        except OSError:
            main = ""
        candidates = [os.path.join(repo, "snapshots", main, "config.json")] if main else []
        candidates += sorted(glob.glob(os.path.join(repo, "snapshots", "*", "config.json")),
                             key=_mtime, reverse=True)
        for candidate in candidates:
            found = _read_json(candidate)
            if found is not None:
                return found
    return None


def _mtime(path: str) -> float:
    try:
        return os.path.getmtime(path)
    except OSError:
        return 0.0


def config_from_class(class_name: str, kwargs: Mapping[str, object]) -> Optional[Mapping]:
    """For `from_config(GPT2Config(n_layer=2))` / `LlamaConfig(num_hidden_layers=4)` with literal kwargs:
    the config dict that class would produce (its defaults, generated from transformers, plus kwargs,
    with attribute_map aliases such as n_layer/num_hidden_layers applied)."""
    entry = _configs()["classes"].get(class_name)
    if entry is None:
        return None
    config: Dict[str, Any] = {"model_type": entry["model_type"], **entry["defaults"]}
    aliases = entry["attribute_map"]
    for key, value in kwargs.items():
        config[aliases.get(key, key)] = value
    return config


def layer_count(config: Mapping) -> Optional[int]:
    """The config's decoder-layer count, read under its class's own name (`n_layer`, `num_layers`, ...)."""
    names = ["num_hidden_layers"]
    entry = _class_for(config.get("model_type"))
    if entry is not None:
        names.insert(0, entry["attribute_map"].get("num_hidden_layers", "num_hidden_layers"))
    for name in names:
        if name in config:
            value = config[name]
            return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
    if entry is not None:
        value = entry["defaults"].get(names[0])
        if isinstance(value, int):
            return value
    return None


def _class_for(model_type: Any) -> Optional[Dict[str, Any]]:
    for entry in _configs()["classes"].values():
        if entry["model_type"] == model_type:
            return entry
    return None


# ---------------------------------------------------------------- schemas

@dataclass(frozen=True)
class _Range:
    range: str
    since: str
    layers: str
    layer_start: int
    layer_span: int
    layer_key: str
    nodes: Mapping[str, Mapping[str, Any]]

    def entry(self) -> Dict[str, Any]:
        """As the generator writes one measurement of an architecture (for the tests)."""
        return {"layers": self.layers, "layer_key": self.layer_key, "layer_start": self.layer_start,
                "layer_span": self.layer_span, "nodes": dict(self.nodes)}


def schema_for(config: Mapping, transformers_version: Optional[str] = None) -> Optional[Schema]:
    """The module tree of the model that config builds under that transformers release (None = the newest
    measured), or None when the architecture (config["model_type"]) is not in the table."""
    architecture = config.get("model_type") if isinstance(config, Mapping) else None
    if not isinstance(architecture, str):
        return None
    chosen = _range_for(architecture, transformers_version)
    if chosen is None:
        return None
    count = layer_count(config)
    if count is None:
        return None
    return _build(architecture, chosen.range, count)


def _range_for(architecture: str, transformers_version: Optional[str]) -> Optional[_Range]:
    """The measured range a release falls in: the newest for None, the oldest for a release before it."""
    ranges = _ranges(architecture)
    if not ranges:
        return None
    if not transformers_version:
        return ranges[-1]
    wanted, chosen = _version_key(transformers_version), ranges[0]
    for candidate in ranges:
        if _version_key(candidate.since) <= wanted:
            chosen = candidate
    return chosen


def transformers_releases(architecture: str) -> List[Tuple[str, str]]:
    """(range, output kind of the decoder block) per range of measured releases, oldest first; neighbouring
    ranges with the same kind are merged."""
    merged: List[Tuple[str, str, str]] = []  # (since, kind, range)
    for item in _ranges(architecture):
        kind = _kind(item.nodes.get(item.layers + ".0", {}).get("out")) or "unknown"
        if merged and merged[-1][1] == kind:
            continue
        merged.append((item.since, kind, item.range))
    result = []
    for i, (since, kind, _) in enumerate(merged):
        until = merged[i + 1][0] if i + 1 < len(merged) else None
        result.append((f">={since}" + (f",<{until}" if until else ""), kind))
    return result


def architectures() -> List[str]:
    return sorted(_schemas()["architectures"])


def measured_releases() -> List[str]:
    return list(_schemas()["measured"])


@functools.lru_cache(maxsize=None)
def _names(names: Tuple[str, ...]) -> FrozenSet[str]:
    return frozenset(names)


@functools.lru_cache(maxsize=4096)
def parse_value(text: Optional[str]) -> Optional[Value]:
    """The bundled table's compact value strings: "tensor(batch,seq,hidden)", "tuple(tensor(...),none)",
    "model_output[CausalLMOutputWithPast](logits,past_key_values)", "other[DynamicCache]", "none"."""
    if text is None:
        return None
    value, rest = _parse(text)
    if rest:
        raise ValueError(f"bad value string {text!r}")
    return value


def _parse(text: str) -> Tuple[Value, str]:
    if text.startswith("none"):
        return Value("none"), text[4:]
    if text.startswith("tensor("):
        end = text.index(")")
        dims = tuple(d for d in text[7:end].split(",")) if end > 7 else ()
        return Value("tensor", ndim=len(dims), dims=dims), text[end + 1:]
    if text.startswith("tuple(...)"):
        return Value("tuple"), text[10:]
    if text.startswith("tuple("):
        rest, items = text[6:], []
        while not rest.startswith(")"):
            item, rest = _parse(rest)
            items.append(item)
            if rest.startswith(","):
                rest = rest[1:]
        return Value("tuple", items=tuple(items)), rest[1:]
    if text.startswith("model_output["):
        close = text.index("]")
        end = text.index(")", close)
        fields = tuple(f for f in text[close + 2:end].split(",") if f)
        return Value("model_output", fields=fields, type=text[13:close]), text[end + 1:]
    if text.startswith("other["):
        close = text.index("]")
        return Value("other", type=text[6:close]), text[close + 1:]
    raise ValueError(f"bad value string {text!r}")


def _kind(text: Optional[str]) -> Optional[str]:
    return None if text is None else parse_value(text).kind


def _parts(path: Union[str, Sequence[Union[str, int]]]) -> List[Union[str, int]]:
    if isinstance(path, str):
        return [p for p in path.split(".") if p]
    return list(path)


def _template_path(path: str, layers: str) -> str:
    if layers and path.startswith(layers + "."):
        index, _, rest = path[len(layers) + 1:].partition(".")
        return f"{layers}.0" + (f".{rest}" if rest else "")
    return path


def _version_key(version: str) -> Tuple[int, ...]:
    numbers = [int(p) for p in re.findall(r"\d+", str(version))[:3]]
    return tuple(numbers + [0] * (3 - len(numbers)))


@functools.lru_cache(maxsize=None)
def _ranges(architecture: str) -> Tuple[_Range, ...]:
    entry = _schemas()["architectures"].get(architecture)
    return tuple(_expand_ranges(entry)) if entry else ()


def _expand_ranges(entry: Mapping[str, Any]) -> List[_Range]:
    """The stored ranges (newest whole, each older one as its changes from the next newer) made whole,
    oldest first."""
    stored = entry["ranges"]
    newest = stored[0]
    current = dict(newest)
    nodes = dict(newest["nodes"])
    result = [_Range(newest["transformers"], newest["since"], current["layers"], current["layer_start"],
                     current["layer_span"], current["layer_key"], nodes)]
    for item in stored[1:]:
        current = {**current, **{k: v for k, v in item.items() if k not in ("changes", "nodes")}}
        nodes = dict(nodes)
        for path, node in item["changes"].items():
            if node is None:
                nodes.pop(path, None)
            else:
                nodes[path] = node
        result.append(_Range(item["transformers"], item["since"], current["layers"], current["layer_start"],
                             current["layer_span"], current["layer_key"], nodes))
    result.reverse()
    return result


def schema_from_entry(architecture: str, range_: str, entry: Mapping[str, Any], count: int) -> Schema:
    """A schema from one measurement in the generator's format (extract.live_schema's cached ones)."""
    item = _Range(range_, range_.lstrip("=<>"), entry["layers"], entry["layer_start"], entry["layer_span"],
                  entry["layer_key"], entry["nodes"])
    return _tree(architecture, item, count)


@functools.lru_cache(maxsize=256)
def _build(architecture: str, range_: str, count: int) -> Schema:
    return _tree(architecture, next(r for r in _ranges(architecture) if r.range == range_), count)


def _tree(architecture: str, item: _Range, count: int) -> Schema:
    layers, start, span = item.layers, item.layer_start, item.layer_span
    made: Dict[str, Dict[str, Any]] = {}
    for path, node in item.nodes.items():
        if path.startswith(layers + ".0.") or path == layers + ".0":
            rest = path[len(layers) + 2:]
            for i in range(count):
                real = f"{layers}.{i}" + rest
                rank = node.get("rank")
                made[real] = {**node, "rank": None if rank is None else rank + i * span}
        else:
            rank = node.get("rank")
            if rank is not None and rank >= start + span:
                rank += (count - 1) * span
            made[path] = {**node, "rank": rank}
            if path == layers:
                made[path]["length"] = count

    children: Dict[str, List[str]] = {}
    for path in made:
        if path:
            parent, _, name = path.rpartition(".")
            children.setdefault(parent, []).append(name)

    def make(path: str) -> Module:
        node = made[path]
        prefix = path + "." if path else ""
        names = sorted(children.get(path, ()), key=lambda n: (0, int(n), "") if n.isdigit() else (1, 0, n))
        length = node.get("length")
        return Module(
            path=path, type=node["type"], children={n: make(prefix + n) for n in names},
            length=length if isinstance(length, int) else None, attributes=_names(tuple(node.get("attrs", ()))),
            output=parse_value(node.get("out")), input=parse_value(node.get("in")), rank=node.get("rank"),
        )

    return Schema(architecture=architecture, transformers=item.range, root=make(""), layers=layers,
                  layer_count=count)


@functools.lru_cache(maxsize=None)
def _schemas() -> Dict[str, Any]:
    return _load("schemas.json", {"measured": [], "architectures": {}})


@functools.lru_cache(maxsize=None)
def _configs() -> Dict[str, Any]:
    return _load("configs.json", {"models": {}, "aliases": {}, "classes": {}})


def _load(name: str, empty: Dict[str, Any]) -> Dict[str, Any]:
    # Not a read the cache keys entries by: the bundled tables come with the linter, whose version
    # keys the cache; and read once per process, they would be noted by whichever lint came first.
    data = _read_json(os.path.join(_DATA, name), noted=False)
    return {**empty, **data} if data else dict(empty)
