"""Generate the model knowledge bundled in nnsight_lint/knowledge/models/ from REAL transformers.

    python scripts/gen_model_schemas.py --measure OUT.json   # the installed transformers -> one measurement
    python scripts/gen_model_schemas.py --releases 4.40.0 5.3.0 ...  # each release in a scratch venv
    python scripts/gen_model_schemas.py --write              # measurements -> schemas.json, configs.json, docs

Each architecture is built from its config class at tiny widths (hidden 16, 2 heads of 8, 3 layers, vocab
96), run once on CPU with a batch of 3 prompts of 5 tokens (the sizes name the dims: 3 = batch, 5 = seq,
16 = hidden, ...) with a forward hook and a forward pre-hook on every module. What is recorded per module:
its type, its parameter / buffer / public attribute names, what its output and its input (nnsight's
`.input`: the first positional argument, else the first keyword argument) are, and the order its output
hook fired in. The decoder-layer list is stored once (layer 0 as the template) with its length taken from
the config's layer count; the loader rebuilds the tree for any layer count.

Per transformers release: `--releases` installs each release into /tmp/models-knowledge/venvs/<release>
(`python3 -m venv`, `pip install --no-deps transformers==X` and the huggingface_hub / tokenizers /
safetensors that release needs; torch, numpy, ... come from this project's .venv through a .pth placed
after the scratch site-packages) and runs `--measure` there. `--write` merges the measurements into ranges
of releases with one schema each.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "nnsight_lint", "knowledge", "models")
SCRATCH = "/tmp/models-knowledge"
MEASURED = os.path.join(SCRATCH, "measured")  # one JSON per measured release

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
                 "intermediate_size", "vocab_size", "max_position_embeddings", "tie_word_embeddings"]


# The most used hub ids: model_type, the config-class keyword arguments of the published config.json (only the
# fields the schemas read), and where the numbers were read. configs.json is built from these through the real
# config class, so every other field is that class's default.
HUB_CONFIGS: Dict[str, Tuple[str, Dict[str, Any], str]] = {
    "openai-community/gpt2": ("gpt2", dict(n_layer=12, n_embd=768, n_head=12, vocab_size=50257, n_positions=1024,
                                           architectures=["GPT2LMHeadModel"]),
                              "GPT2Config's defaults (documented as the gpt2 checkpoint's)"),
    "openai-community/gpt2-medium": ("gpt2", dict(n_layer=24, n_embd=1024, n_head=16, vocab_size=50257,
                                                  n_positions=1024, architectures=["GPT2LMHeadModel"]), "TBD"),
    "openai-community/gpt2-large": ("gpt2", dict(n_layer=36, n_embd=1280, n_head=20, vocab_size=50257,
                                                 n_positions=1024, architectures=["GPT2LMHeadModel"]), "TBD"),
    "openai-community/gpt2-xl": ("gpt2", dict(n_layer=48, n_embd=1600, n_head=25, vocab_size=50257,
                                              n_positions=1024, architectures=["GPT2LMHeadModel"]), "TBD"),
    "distilbert/distilgpt2": ("gpt2", dict(n_layer=6, n_embd=768, n_head=12, vocab_size=50257, n_positions=1024,
                                           architectures=["GPT2LMHeadModel"]), "TBD"),
    "meta-llama/Llama-2-7b-hf": ("llama", dict(num_hidden_layers=32, hidden_size=4096, num_attention_heads=32,
                                               num_key_value_heads=32, intermediate_size=11008, vocab_size=32000,
                                               max_position_embeddings=4096, architectures=["LlamaForCausalLM"]),
                                 "TBD"),
    "meta-llama/Meta-Llama-3-8B": ("llama", dict(num_hidden_layers=32, hidden_size=4096, num_attention_heads=32,
                                                 num_key_value_heads=8, intermediate_size=14336, vocab_size=128256,
                                                 max_position_embeddings=8192, architectures=["LlamaForCausalLM"]),
                                   "TBD"),
}
# Legacy ids the hub redirects to their organisation's id.
LEGACY_IDS = {"gpt2": "openai-community/gpt2", "gpt2-medium": "openai-community/gpt2-medium",
              "gpt2-large": "openai-community/gpt2-large", "gpt2-xl": "openai-community/gpt2-xl",
              "distilgpt2": "distilbert/distilgpt2"}


# ---------------------------------------------------------------- measuring the installed transformers

def config_class(model_type: str):
    from transformers import CONFIG_MAPPING
    return CONFIG_MAPPING[model_type]


def real_name(cls, name: str) -> str:
    return dict(getattr(cls, "attribute_map", {}) or {}).get(name, name)


def tiny_config(model_type: str):
    cls = config_class(model_type)
    default = cls()
    kwargs: Dict[str, Any] = {}
    for name, value in GENERIC.items():
        real = real_name(cls, name)
        if isinstance(getattr(cls, real, None), property):
            continue  # derived (falcon's head_dim)
        if hasattr(default, real) or name in ("num_hidden_layers", "hidden_size", "vocab_size"):
            kwargs[real] = value
    kwargs.update(ARCHITECTURES[model_type])
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


def measure_architecture(model_type: str) -> Dict[str, Any]:
    """One architecture under the installed transformers: {"layers": path, "nodes": {path: node}, ...}."""
    import torch
    from transformers import AutoModelForCausalLM

    config = tiny_config(model_type)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(config).eval()
    names = {id(m): name for name, m in model.named_modules(remove_duplicate=False)}
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
    del names

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


# ---------------------------------------------------------------- running releases in scratch venvs

def _version_key(version: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def release_venv(release: str) -> str:
    """A venv with transformers==release whose other packages come from this project's .venv."""
    venv = os.path.join(SCRATCH, "venvs", release)
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable.replace("python", "python"), "-m", "venv", "--without-pip", venv],
                       check=True)
    site = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    base = os.path.join(ROOT, ".venv", "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
    with open(os.path.join(site, "zz_project_venv.pth"), "w") as handle:
        handle.write(base + "\n")  # .pth paths go AFTER the venv's own site-packages: the scratch transformers wins
    pip = [os.path.join(ROOT, ".venv", "bin", "python"), "-m", "pip", "--python", python, "install", "--quiet",
           "--no-deps", "--disable-pip-version-check", "--no-warn-conflicts"]
    probe = ("import importlib.metadata as m, json; print(json.dumps([r for r in m.requires('transformers') or []"
             " if 'extra' not in r]))")
    have = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('transformers'))"],
                          capture_output=True, text=True, env=_clean_env(site)).stdout.strip()
    if have != release:
        subprocess.run(pip + [f"transformers=={release}"], check=True)
    requires = json.loads(subprocess.run([python, "-c", probe], check=True, capture_output=True, text=True,
                                         env=_clean_env(site)).stdout)
    needed = []
    for requirement in requires:
        name = re.split(r"[<>=!~ ;\[]", requirement, 1)[0].strip()
        if name.lower().replace("_", "-") not in ("huggingface-hub", "tokenizers", "safetensors"):
            continue
        check = (f"import importlib.metadata as m, sys; from packaging.requirements import Requirement; "
                 f"r = Requirement({requirement!r});\n"
                 f"try: v = m.version(r.name)\nexcept m.PackageNotFoundError: sys.exit(1)\n"
                 f"sys.exit(0 if r.specifier.contains(v, prereleases=True) else 1)")
        if subprocess.run([python, "-c", check], env=_clean_env(site)).returncode != 0:
            needed.append(requirement.split(";")[0].replace(" ", ""))
    if needed:
        subprocess.run(pip + needed, check=True)
    return python


def _clean_env(site: str) -> Dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def run_release(release: str) -> str:
    os.makedirs(MEASURED, exist_ok=True)
    out = os.path.join(MEASURED, f"{release}.json")
    try:
        python = release_venv(release)
    except subprocess.CalledProcessError as error:
        _record_failure(out, release, f"install failed: {error}")
        return out
    done = subprocess.run([python, os.path.abspath(__file__), "--measure", out], capture_output=True, text=True,
                          env=_clean_env(""), timeout=1800)
    if done.returncode != 0:
        _record_failure(out, release, "measure failed: " + done.stderr.strip().splitlines()[-1:][0]
                        if done.stderr.strip() else "measure failed")
    return out


def _record_failure(out: str, release: str, why: str) -> None:
    with open(out, "w") as handle:
        json.dump({"transformers": release, "error": why[:500]}, handle, indent=1)


# ---------------------------------------------------------------- writing the bundled tables

def load_measurements() -> List[Dict[str, Any]]:
    found = []
    for name in os.listdir(MEASURED) if os.path.isdir(MEASURED) else []:
        if name.endswith(".json"):
            with open(os.path.join(MEASURED, name)) as handle:
                try:
                    found.append(json.load(handle))
                except ValueError:  # being written
                    continue
    return sorted(found, key=lambda m: _version_key(m["transformers"]))


def _range(start: str, until: Optional[str]) -> str:
    return f">={start}" + (f",<{until}" if until else "")


def build_schemas(measurements: List[Dict[str, Any]]) -> Dict[str, Any]:
    """Per architecture: ranges of consecutive measured releases with one schema. The newest range is stored
    whole ("nodes"); every older one as its differences from the next newer ("changes": path -> node or null)."""
    good = [m for m in measurements if "error" not in m]
    table: Dict[str, Any] = {}
    for model_type in ARCHITECTURES:
        groups: List[Tuple[str, Dict[str, Any]]] = []
        for m in good:
            entry = m["architectures"].get(model_type)
            if entry is None:
                continue
            if groups and groups[-1][1] == entry:
                continue
            groups.append((m["transformers"], entry))
        if not groups:
            continue
        ranges = []
        for i, (start, entry) in enumerate(groups):
            until = groups[i + 1][0] if i + 1 < len(groups) else None
            ranges.append({"transformers": _range(start, until), "since": start, "entry": entry})
        newest = ranges[-1]["entry"]
        stored = [{"transformers": ranges[-1]["transformers"], "since": ranges[-1]["since"], **newest}]
        for i in range(len(ranges) - 2, -1, -1):
            entry, newer = ranges[i]["entry"], ranges[i + 1]["entry"]
            changes = {p: n for p, n in entry["nodes"].items() if newer["nodes"].get(p) != n}
            changes.update({p: None for p in newer["nodes"] if p not in entry["nodes"]})
            item = {"transformers": ranges[i]["transformers"], "since": ranges[i]["since"], "changes": changes}
            item.update({k: v for k, v in entry.items() if k != "nodes" and newer.get(k) != v})
            stored.append(item)
        table[model_type] = {"ranges": stored}
    return table


def build_configs(classes: Dict[str, Any]) -> Dict[str, Any]:
    """configs.json: per hub id the schema fields its config class gives with the published sizes
    (HUB_CONFIGS, with where each number was read), legacy aliases, and per config class its defaults."""
    models = {}
    for hub_id, (model_type, kwargs, _source) in HUB_CONFIGS.items():
        cls = config_class(model_type)
        made = cls(**kwargs).to_dict()
        entry = {"model_type": model_type}
        for name in SCHEMA_FIELDS:
            real = real_name(cls, name)
            if real in made and made[real] is not None:
                entry[real] = made[real]
        entry["architectures"] = made.get("architectures") or kwargs.get("architectures")
        models[hub_id.lower()] = entry
    return {"generated_by": "scripts/gen_model_schemas.py", "models": models,
            "aliases": {legacy.lower(): canonical for legacy, canonical in LEGACY_IDS.items()},
            "classes": {entry["class"]: entry for entry in classes.values()}}


def write(measurements: List[Dict[str, Any]]) -> None:
    """schemas.json and configs.json from the measurements (configs: the newest measured release)."""
    good = [m for m in measurements if "error" not in m]
    schemas = {
        "generated_by": "scripts/gen_model_schemas.py",
        "measured": [m["transformers"] for m in good],
        "not_measured": {m["transformers"]: m["error"] for m in measurements if "error" in m},
        "architectures": build_schemas(measurements),
    }
    os.makedirs(DATA, exist_ok=True)
    _dump(os.path.join(DATA, "schemas.json"), schemas)
    classes: Dict[str, Any] = {}
    for m in good:  # the newest release that knows a class wins
        classes.update(m.get("classes", {}))
    _dump(os.path.join(DATA, "configs.json"), build_configs(classes))


def _dump(path: str, data: Any) -> None:
    """Write whole or not at all: a temp file renamed over the old one."""
    with open(path + ".tmp", "w") as handle:
        json.dump(data, handle, separators=(",", ":"), sort_keys=True)
        handle.write("\n")
    os.replace(path + ".tmp", path)


DOC = os.path.join(ROOT, "docs", "models.md")
DOC_MARKERS = ("<!-- transformers-table: generated by scripts/gen_model_schemas.py -->",
               "<!-- end of transformers-table -->")


def releases_table() -> str:
    """docs/models.md's table, from the bundled data: when each architecture's decoder block returns a tensor."""
    from nnsight_lint.knowledge import models

    measured = models.measured_releases()
    lines = ["| architecture | decoder layer's `.output` | since transformers | kinds by measured range |",
             "|---|---|---|---|"]
    for architecture in models.architectures():
        releases = models.transformers_releases(architecture)
        kind = releases[-1][1]
        first = releases[-1][0].split(",")[0][2:]
        if len(releases) == 1:
            since = f"every measured release (from {first})" if first != measured[0] else "every measured release"
        else:
            since = first
        ranges = "; ".join(f"`{r}` {k}" for r, k in releases)
        lines.append(f"| {architecture} | {'a tensor' if kind == 'tensor' else 'a ' + kind} | {since} | {ranges} |")
    lines.append("")
    lines.append(f"Measured releases ({len(measured)}): " + ", ".join(measured) + ".")
    return "\n".join(lines)


def write_doc() -> None:
    with open(DOC) as handle:
        text = handle.read()
    start, end = DOC_MARKERS
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    with open(DOC + ".tmp", "w") as handle:
        handle.write(head + start + "\n" + releases_table() + "\n" + end + tail)
    os.replace(DOC + ".tmp", DOC)


def coverage(measurements: List[Dict[str, Any]]) -> str:
    lines = []
    for m in measurements:
        if "error" in m:
            lines.append(f"{m['transformers']:>8}  NOT MEASURED: {m['error']}")
            continue
        lines.append(f"{m['transformers']:>8}  {len(m['architectures'])} measured"
                     + (f"; absent: {', '.join(sorted(m['absent']))}" if m["absent"] else "")
                     + (f"; failed: {', '.join(sorted(m['failed']))}" if m["failed"] else ""))
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--measure", metavar="OUT", help="measure the installed transformers into OUT")
    parser.add_argument("--releases", nargs="*", help="measure these transformers releases in scratch venvs")
    parser.add_argument("--write", action="store_true", help="write the bundled tables from the measurements")
    args = parser.parse_args(argv)
    if args.measure:
        result = measure()
        _dump(args.measure, result)
        print(f"transformers {result['transformers']}: {len(result['architectures'])} architectures"
              f"; failed: {result['failed'] or 'none'}")
    for release in args.releases or []:
        out = run_release(release)
        print(coverage([json.load(open(out))]), flush=True)
    if args.write:
        measurements = load_measurements()
        write(measurements)
        from nnsight_lint.knowledge import models
        models._schemas.cache_clear(), models._configs.cache_clear(), models._ranges.cache_clear()
        write_doc()
        print(coverage(measurements))
    return 0


if __name__ == "__main__":
    sys.exit(main())
