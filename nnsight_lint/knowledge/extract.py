"""Measuring a transformers architecture for the model knowledge (models.py reads what this measures).

Used by scripts/gen_model_schemas.py for the bundled tables, and, opt-in, by `live_schema` for a model the
tables lack. Importing this module is cheap: torch and transformers are imported inside the functions.

An architecture is built from its config class at tiny widths (hidden 16, 2 heads of 8, 3 layers, vocab
96), run once on CPU with a batch of 3 prompts of 5 tokens (the sizes name the dims: 3 = batch, 5 = seq,
16 = hidden, ...) with a forward hook and a forward pre-hook on every module. What is recorded per module:
its type, its parameter / buffer / public attribute names, what its output and its input (nnsight's
`.input`: the first positional argument, else the first keyword argument) are, and the order its output
hook fired in. The decoder-layer list is stored once (layer 0 as the template) with its length taken from
the config's layer count.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Tuple

from nnsight_lint.knowledge import models
from nnsight_lint.sources import reads

# model_type -> extra tiny-config keyword arguments (real attribute names) the generic ones do not cover.
ARCHITECTURES: Dict[str, Dict[str, Any]] = {
    "gpt2": {},
    "llama": {},
    "mistral": {},
    "mixtral": {"num_local_experts": 2, "num_experts_per_tok": 2},  # every expert sees every token: no routing luck
    "qwen2": {},
    "qwen3": {},
    "gemma": {},
    "gemma2": {},
    "gemma3_text": {},
    "phi": {},
    "phi3": {},
    "gpt_neox": {},
    "gptj": {"rotary_dim": 4},
    "gpt_neo": {"attention_types": [[["global", "local"], 1], [["global"], 1]], "window_size": 4},
    "opt": {"word_embed_proj_dim": 16, "ffn_dim": 24},
    "falcon": {},
    "bloom": {},
    "olmo": {},
    "olmo2": {},
    "starcoder2": {},
    "stablelm": {},
}

BATCH, SEQ, HIDDEN, HEADS, HEAD_DIM, LAYERS, VOCAB, INTERMEDIATE = 3, 5, 16, 2, 8, 3, 96, 24
DIM_NAMES = {BATCH: "batch", SEQ: "seq", HIDDEN: "hidden", HEADS: "heads", HEAD_DIM: "head_dim",
             VOCAB: "vocab", INTERMEDIATE: "intermediate", BATCH * SEQ: "tokens", 1: "1"}
# Standard config names (as PretrainedConfig's attribute_map speaks them) -> the tiny value.
GENERIC = {
    "hidden_size": HIDDEN, "num_attention_heads": HEADS, "num_key_value_heads": HEADS, "head_dim": HEAD_DIM,
    "num_hidden_layers": LAYERS, "vocab_size": VOCAB, "intermediate_size": INTERMEDIATE, "n_inner": INTERMEDIATE,
    "max_position_embeddings": 32, "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2,
}
# The config fields the schema (and the rules) read, in standard names; configs.json keeps only these.
SCHEMA_FIELDS = ["num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
                 "intermediate_size", "vocab_size", "tie_word_embeddings"]


def config_class(model_type: str):
    from transformers import CONFIG_MAPPING
    return CONFIG_MAPPING[model_type]


def real_name(cls, name: str) -> str:
    return dict(getattr(cls, "attribute_map", {}) or {}).get(name, name)


def tiny_config(model_type: str, extra: Optional[Mapping[str, Any]] = None):
    """The architecture's config class at the tiny sizes above (`extra`: more keyword arguments; the
    ARCHITECTURES entry by default)."""
    cls = config_class(model_type)
    default = cls()
    kwargs: Dict[str, Any] = {}
    for name, value in GENERIC.items():
        real = real_name(cls, name)
        if isinstance(getattr(cls, real, None), property):
            continue  # derived (falcon's head_dim)
        # the token ids always: transformers 5.0.0's PhiConfig lacks pad_token_id, which its model reads
        if hasattr(default, real) or name in ("num_hidden_layers", "hidden_size", "vocab_size", "pad_token_id",
                                              "bos_token_id", "eos_token_id"):
            kwargs[real] = value
    kwargs.update(ARCHITECTURES[model_type] if extra is None else extra)
    return cls(**kwargs)


def layer_key(cls) -> str:
    return real_name(cls, "num_hidden_layers")


def describe(value: Any, depth: int = 0) -> str:
    """A value as the compact string the bundled table stores: tensor(batch,seq,hidden), tuple(...), ..."""
    import torch
    from transformers.utils import ModelOutput

    if value is None:
        return "none"
    if isinstance(value, torch.Tensor):
        return "tensor(" + ",".join(DIM_NAMES.get(int(size), "?") for size in value.shape) + ")"
    if isinstance(value, ModelOutput):
        fields = [k for k, v in value.items() if v is not None]
        return f"model_output[{type(value).__name__}](" + ",".join(fields) + ")"
    if isinstance(value, (tuple, list)):
        if depth >= 2:
            return "tuple(...)"
        return "tuple(" + ",".join(describe(v, depth + 1) for v in value) + ")"
    return f"other[{type(value).__name__}]"


def public_attributes(module) -> List[str]:
    import torch

    names = set(name for name, _ in module.named_parameters(recurse=False))
    names |= set(name for name, _ in module.named_buffers(recurse=False))
    names |= set(getattr(module, "_non_persistent_buffers_set", ()))
    for name, value in vars(module).items():
        if name.startswith("_") or name == "training" or isinstance(value, torch.nn.Module):
            continue
        names.add(name)
    return sorted(names)


def measure_architecture(model_type: str, extra: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """One architecture under the installed transformers: {"layers": path, "nodes": {path: node}, ...}."""
    import torch
    from transformers import AutoModelForCausalLM

    config = tiny_config(model_type, extra)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config).eval()
    fired: List[str] = []
    outputs: Dict[str, str] = {}
    inputs: Dict[str, str] = {}

    def pre(name):
        def hook(module, args, kwargs):
            if name not in inputs:
                inputs[name] = describe(args[0] if args else next(iter(kwargs.values()), None))
        return hook

    def post(name):
        def hook(module, args, output):
            if name not in outputs:
                outputs[name] = describe(output)
                fired.append(name)
        return hook

    handles = []
    for name, module in model.named_modules():
        handles.append(module.register_forward_pre_hook(pre(name), with_kwargs=True))
        handles.append(module.register_forward_hook(post(name)))
    ids = torch.randint(3, VOCAB, (BATCH, SEQ))
    with torch.no_grad():
        model(input_ids=ids, attention_mask=torch.ones_like(ids))
    for handle in handles:
        handle.remove()

    count = getattr(config, layer_key(type(config)))
    lists = [name for name, m in model.named_modules()
             if isinstance(m, torch.nn.ModuleList) and len(m) == count and name]
    if len(lists) != 1:
        raise RuntimeError(f"{model_type}: expected one decoder-layer list of length {count}, found {lists}")
    layers = lists[0]
    rank = {name: i for i, name in enumerate(fired)}
    nodes: Dict[str, Dict[str, Any]] = {}
    for name, module in model.named_modules():
        node: Dict[str, Any] = {"type": type(module).__name__, "attrs": public_attributes(module)}
        if isinstance(module, (torch.nn.ModuleList, torch.nn.Sequential, torch.nn.ModuleDict)):
            node["length"] = len(module)
        if name in outputs:
            node["out"] = outputs[name]
        if name in inputs:
            node["in"] = inputs[name]
        if name in rank:
            node["rank"] = rank[name]
        nodes[name] = node
    return compress(model_type, nodes, layers, count)


def _in_layer(path: str, layers: str) -> Optional[Tuple[int, str]]:
    if not path.startswith(layers + "."):
        return None
    index, _, rest = path[len(layers) + 1:].partition(".")
    return int(index), rest


def compress(model_type: str, nodes: Dict[str, Dict[str, Any]], layers: str, count: int) -> Dict[str, Any]:
    """Keep layer 0 as the template of every layer, checking that every layer is the same and that the
    hook order repeats per layer: ranks outside the layers are before them (< start) or after them."""
    per_layer: List[Dict[str, Dict[str, Any]]] = [{} for _ in range(count)]
    outside: Dict[str, Dict[str, Any]] = {}
    for path, node in nodes.items():
        where = _in_layer(path, layers)
        if where is None:
            outside[path] = node
        else:
            per_layer[where[0]][where[1]] = node
    ranked = [n["rank"] for n in per_layer[0].values() if "rank" in n]
    start, span = (min(ranked), len(ranked)) if ranked else (0, 0)
    for i, layer in enumerate(per_layer):
        if set(layer) != set(per_layer[0]):
            raise RuntimeError(f"{model_type}: layer {i} has other modules than layer 0: "
                               f"{sorted(set(layer) ^ set(per_layer[0]))}")
        for rest, node in layer.items():
            template = dict(per_layer[0].get(rest, {}))
            if "rank" in template:
                template["rank"] += i * span
            if template != node:
                raise RuntimeError(f"{model_type}: layer {i} differs from layer 0 at {rest!r}: {node} vs {template}")
    for path, node in outside.items():
        if "rank" in node and start <= node["rank"] < start + count * span:
            raise RuntimeError(f"{model_type}: {path!r} runs between the decoder layers")
    template = {}
    for path, node in nodes.items():
        where = _in_layer(path, layers)
        if where is not None and where[0] != 0:
            continue
        node = dict(node)
        if "rank" in node and where is None and node["rank"] >= start + count * span:
            node["rank"] -= (count - 1) * span  # stored as if there were one layer
        if path == layers:
            node["length"] = "layers"
        template[path] = node
    cls = config_class(model_type)
    return {"layers": layers, "layer_key": layer_key(cls), "layer_start": start, "layer_span": span,
            "nodes": template}


def config_defaults(model_type: str) -> Dict[str, Any]:
    """The config class's name, attribute_map and defaults of the schema fields (real attribute names)."""
    cls = config_class(model_type)
    default = cls().to_dict()
    # A field the class derives from others (Llama's head_dim = hidden_size // heads) is no default.
    other = cls(**{real_name(cls, "hidden_size"): 64, real_name(cls, "num_attention_heads"): 2}).to_dict()
    fields = {}
    for name in SCHEMA_FIELDS:
        real = real_name(cls, name)
        if real in default and (other.get(real) == default[real] or name in ("hidden_size", "num_attention_heads")):
            fields[real] = default[real]
    return {"class": cls.__name__, "model_type": model_type,
            "attribute_map": dict(getattr(cls, "attribute_map", {}) or {}), "defaults": fields}


def measure(architectures: Optional[List[str]] = None) -> Dict[str, Any]:
    import transformers

    result: Dict[str, Any] = {"transformers": transformers.__version__, "architectures": {}, "absent": {},
                              "failed": {}, "classes": {}}
    for model_type in architectures or list(ARCHITECTURES):
        try:
            config_class(model_type)
        except KeyError:
            result["absent"][model_type] = "no such model_type in this release"
            continue
        try:
            result["architectures"][model_type] = measure_architecture(model_type)
            result["classes"][model_type] = config_defaults(model_type)
        except Exception as error:  # recorded, reported by --write
            result["failed"][model_type] = f"{type(error).__name__}: {error}"[:300]
    return result


# ---------------------------------------------------------------- opt-in: a model the tables lack

def cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nnsight-lint", "models")


def live_schema(config: Mapping, *, cache: Optional[str] = None,
                transformers_version: Optional[str] = None) -> Optional["models.Schema"]:
    """The schema of an architecture the bundled table lacks, measured on the INSTALLED torch + transformers
    (the bundled table answers first), and kept as JSON in `cache` (default ~/.cache/nnsight-lint/models)
    for the next run, which then needs neither. None when it cannot be built here: torch or transformers
    missing, an unknown model_type, a build that fails, or a `transformers_version` the code targets that is
    not the installed release (it cannot be measured here). Opt-in (the `live-schemas` setting): the default
    lint path never calls this."""
    schema = models.schema_for(config, transformers_version)
    if schema is not None:
        return schema
    architecture = config.get("model_type")
    count = models.layer_count(config)
    if not isinstance(architecture, str) or count is None:
        return None
    try:
        from importlib.metadata import version
        installed = version("transformers")
    except Exception:
        return None
    if transformers_version is not None and not _same_release(transformers_version, installed):
        return None
    folder = cache or cache_dir()
    path = os.path.join(folder, f"{architecture}-{installed}.json")
    reads.note(path)  # a lint that found none here measures it, and keeps it for the next
    entry = None
    try:
        with open(path, encoding="utf-8") as handle:
            entry = json.load(handle)
    except (OSError, ValueError):
        pass
    if not isinstance(entry, dict) or "nodes" not in entry:
        try:
            entry = measure_architecture(architecture, extra={})
        except Exception:
            return None
        os.makedirs(folder, exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(entry, handle)
        os.replace(path + ".tmp", path)
    return models.schema_from_entry(architecture, f"=={installed}", entry, count)


def _same_release(targeted: str, installed: str) -> bool:
    """Is the installed release the one the code targets ("5.24" targets 5.24.0 and 5.24.1)?"""
    wanted, have = targeted.split("."), installed.split(".")
    return have[:len(wanted)] == wanted or (len(wanted) > len(have) and wanted[:len(have)] == have
                                            and all(part == "0" for part in wanted[len(have):]))
