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
safetensors / numpy that release needs; torch, numpy, ... come from this project's .venv through a .pth placed
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
sys.path.insert(0, ROOT)  # the scratch venvs see this checkout's package through here, not an install

from nnsight_lint.knowledge.extract import (  # noqa: E402  (the measuring, shared with live_schema)
    ARCHITECTURES, SCHEMA_FIELDS, config_class, measure, measure_architecture, real_name, tiny_config,  # noqa: F401
)

# The most used hub ids: model_type, the config-class keyword arguments of the published config.json (only the
# fields the schemas read), and where the numbers were read (public code vendoring the config, read with the
# project's search tool; no hub access here). configs.json is built from these through the real config class,
# so every other field is that class's default. Left out on purpose: ids whose module TREE depends on config
# fields the schemas do not vary (facebook/opt-350m has project_in/out; falcon-40b's new decoder architecture;
# Gemma 3 4b+ is multimodal, model_type gemma3).
MLC = "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py"
PYTHIA = "EleutherAI/pythia README size table (layers, model dim, heads); vocab from printed module trees"
GPT2_SIZES = "urmi22/LLM-sebastian ch04/GPT_CONFIG_124M.py (GPT-2 small/medium/large/xl sizes)"
FLEXGEN = ("FMInference/FlexiGen flexgen/opt_config.py get_opt_config (from alpa's OPT configs; vocab 50272, "
           "ffn 4 x hidden)")
NEO = "EleutherAI/gpt-neo configs/"


def _gpt2(layers, hidden, heads):
    return dict(n_layer=layers, n_embd=hidden, n_head=heads, vocab_size=50257, architectures=["GPT2LMHeadModel"])


def _llama(layers, hidden, heads, kv, inter, vocab, tie=False, head_dim=None):
    extra = {"head_dim": head_dim} if head_dim else {}
    return dict(num_hidden_layers=layers, hidden_size=hidden, num_attention_heads=heads, num_key_value_heads=kv,
                intermediate_size=inter, vocab_size=vocab, tie_word_embeddings=tie, **extra)


def _neox(layers, hidden, heads, vocab):
    return dict(num_hidden_layers=layers, hidden_size=hidden, num_attention_heads=heads,
                intermediate_size=4 * hidden, vocab_size=vocab, architectures=["GPTNeoXForCausalLM"])


def _neo(layers, hidden, heads):
    return dict(num_layers=layers, hidden_size=hidden, num_heads=heads, vocab_size=50257,
                attention_types=[[["global", "local"], layers // 2]], architectures=["GPTNeoForCausalLM"])


def _opt(layers, hidden, heads):
    return dict(num_hidden_layers=layers, hidden_size=hidden, word_embed_proj_dim=hidden, num_attention_heads=heads,
                ffn_dim=4 * hidden, vocab_size=50272, architectures=["OPTForCausalLM"])


LLAMA = ["LlamaForCausalLM"]
QWEN2 = ["Qwen2ForCausalLM"]
QWEN3 = ["Qwen3ForCausalLM"]
HUB_CONFIGS: Dict[str, Tuple[str, Dict[str, Any], str]] = {
    "openai-community/gpt2": ("gpt2", _gpt2(12, 768, 12), MLC + ' "gpt2"'),
    "openai-community/gpt2-medium": ("gpt2", _gpt2(24, 1024, 16), MLC + ' "gpt2_medium"'),
    "openai-community/gpt2-large": ("gpt2", _gpt2(36, 1280, 20), GPT2_SIZES),
    "openai-community/gpt2-xl": ("gpt2", _gpt2(48, 1600, 25), GPT2_SIZES),
    "distilbert/distilgpt2": ("gpt2", _gpt2(6, 768, 12), "huggingface/transformers examples/research_projects/"
                              "distillation/training_configs/distilgpt2.json (n_layer 6, n_embd 768, n_head 12, "
                              "vocab 50257)"),
    "meta-llama/Llama-2-7b-hf": ("llama", dict(_llama(32, 4096, 32, 32, 11008, 32000), architectures=LLAMA),
                                 MLC + ' "llama2_7b"'),
    "meta-llama/Llama-2-13b-hf": ("llama", dict(_llama(40, 5120, 40, 40, 13824, 32000), architectures=LLAMA),
                                  MLC + ' "llama2_13b"'),
    "meta-llama/Llama-2-70b-hf": ("llama", dict(_llama(80, 8192, 64, 8, 28672, 32000), architectures=LLAMA),
                                  MLC + ' "llama2_70b"'),
    "meta-llama/Meta-Llama-3-8B": ("llama", dict(_llama(32, 4096, 32, 8, 14336, 128256), architectures=LLAMA),
                                   MLC + ' "llama3_8b" (commented out there)'),
    "meta-llama/Meta-Llama-3-8B-Instruct": ("llama", dict(_llama(32, 4096, 32, 8, 14336, 128256),
                                                          architectures=LLAMA), MLC + ' "llama3_8b"'),
    "meta-llama/Llama-3.1-8B": ("llama", dict(_llama(32, 4096, 32, 8, 14336, 128256), architectures=LLAMA),
                                MLC + ' "llama3_1_8b"'),
    "meta-llama/Llama-3.1-8B-Instruct": ("llama", dict(_llama(32, 4096, 32, 8, 14336, 128256), architectures=LLAMA),
                                         MLC + ' "llama3_1_8b"'),
    "meta-llama/Llama-3.1-70B": ("llama", dict(_llama(80, 8192, 64, 8, 28672, 128256), architectures=LLAMA),
                                 MLC + ' "llama3_1_70b"'),
    "meta-llama/Llama-3.2-1B": ("llama", dict(_llama(16, 2048, 32, 8, 8192, 128256, True, 64), architectures=LLAMA),
                                MLC + ' "llama3_2_1b"; kevinstephano/thunder_model_blocks hf_llama/llama_config.py'),
    "meta-llama/Llama-3.2-1B-Instruct": ("llama", dict(_llama(16, 2048, 32, 8, 8192, 128256, True, 64),
                                                       architectures=LLAMA),
                                         "kevinstephano/thunder_model_blocks hf_llama/llama_config.py"),
    "meta-llama/Llama-3.2-3B": ("llama", dict(_llama(28, 3072, 24, 8, 8192, 128256, True, 128), architectures=LLAMA),
                                MLC + ' "llama3_2_3b"'),
    "meta-llama/Llama-3.2-3B-Instruct": ("llama", dict(_llama(28, 3072, 24, 8, 8192, 128256, True, 128),
                                                       architectures=LLAMA), MLC + ' "llama3_2_3b"'),
    "mistralai/Mistral-7B-v0.1": ("mistral", dict(_llama(32, 4096, 32, 8, 14336, 32000),
                                                  architectures=["MistralForCausalLM"]), MLC + ' "mistral_7b"'),
    "mistralai/Mistral-7B-Instruct-v0.3": ("mistral", dict(_llama(32, 4096, 32, 8, 14336, 32768),
                                                           architectures=["MistralForCausalLM"]),
                                           MLC + ' "mistral_7b_v03"'),
    "mistralai/Mixtral-8x7B-v0.1": ("mixtral", dict(_llama(32, 4096, 32, 8, 14336, 32000), num_local_experts=8,
                                                    num_experts_per_tok=2, architectures=["MixtralForCausalLM"]),
                                    MLC + ' "Mixtral-8x7B-v0.1"'),
    "Qwen/Qwen2-0.5B": ("qwen2", dict(_llama(24, 896, 14, 2, 4864, 151936, True), architectures=QWEN2),
                        MLC + ' "qwen2_0_5b"'),
    "Qwen/Qwen2-1.5B": ("qwen2", dict(_llama(28, 1536, 12, 2, 8960, 151936, True), architectures=QWEN2),
                        MLC + ' "qwen2_1_5b"'),
    "Qwen/Qwen2-7B": ("qwen2", dict(_llama(28, 3584, 28, 4, 18944, 152064), architectures=QWEN2),
                      MLC + ' "qwen2_7b"'),
    "Qwen/Qwen2.5-3B": ("qwen2", dict(_llama(36, 2048, 16, 2, 11008, 151936, True), architectures=QWEN2),
                        MLC + ' "qwen2.5_3b"'),
    "Qwen/Qwen3-0.6B": ("qwen3", dict(_llama(28, 1024, 16, 8, 3072, 151936, True, 128), architectures=QWEN3),
                        MLC + ' "qwen3_0.6b"'),
    "Qwen/Qwen3-1.7B": ("qwen3", dict(_llama(28, 2048, 16, 8, 6144, 151936, True, 128), architectures=QWEN3),
                        MLC + ' "qwen3_1.7b"'),
    "Qwen/Qwen3-4B": ("qwen3", dict(_llama(36, 2560, 32, 8, 9728, 151936, True, 128), architectures=QWEN3),
                      MLC + ' "qwen3_4b" (commented out there)'),
    "Qwen/Qwen3-8B": ("qwen3", dict(_llama(36, 4096, 32, 8, 12288, 151936, False, 128), architectures=QWEN3),
                      MLC + ' "qwen3_8b" (commented out there)'),
    "google/gemma-2b": ("gemma", dict(_llama(18, 2048, 8, 1, 16384, 256000, True, 256),
                                      architectures=["GemmaForCausalLM"]), MLC + ' "gemma_2b"'),
    "google/gemma-7b": ("gemma", dict(_llama(28, 3072, 16, 16, 24576, 256000, True, 256),
                                      architectures=["GemmaForCausalLM"]),
                        "UbiquitousLearning/mllm src/models/gemma/README.md (7B)"),
    "google/gemma-2-2b": ("gemma2", dict(_llama(26, 2304, 8, 4, 9216, 256000, True, 256),
                                         architectures=["Gemma2ForCausalLM"]), MLC + ' "gemma2_2b"'),
    "google/gemma-2-9b": ("gemma2", dict(_llama(42, 3584, 16, 8, 14336, 256000, True, 256),
                                         architectures=["Gemma2ForCausalLM"]), MLC + ' "gemma2_9b"'),
    "google/gemma-2-27b": ("gemma2", dict(_llama(46, 4608, 32, 16, 36864, 256000, True, 128),
                                          architectures=["Gemma2ForCausalLM"]), MLC + ' "gemma2_27b"'),
    "google/gemma-3-1b-it": ("gemma3_text", dict(_llama(26, 1152, 4, 1, 6912, 262144, True, 256),
                                                 architectures=["Gemma3ForCausalLM"]), MLC + ' "gemma3_1b_it"'),
    "google/gemma-3-1b-pt": ("gemma3_text", dict(_llama(26, 1152, 4, 1, 6912, 262144, True, 256),
                                                 architectures=["Gemma3ForCausalLM"]),
                             MLC + ' "gemma3_1b_it" (the same model before instruction tuning)'),
    "microsoft/phi-2": ("phi", dict(num_hidden_layers=32, hidden_size=2560, num_attention_heads=32,
                                    intermediate_size=10240, vocab_size=51200, architectures=["PhiForCausalLM"]),
                        MLC + ' "phi-2" (its older phi-msft names n_layer/n_embd/n_head)'),
    "microsoft/Phi-3-mini-4k-instruct": ("phi3", dict(_llama(32, 3072, 32, 32, 8192, 32064),
                                                      architectures=["Phi3ForCausalLM"]),
                                         MLC + ' "phi-3" (commented out there)'),
    "microsoft/Phi-3.5-mini-instruct": ("phi3", dict(_llama(32, 3072, 32, 32, 8192, 32064),
                                                     architectures=["Phi3ForCausalLM"]), MLC + ' "phi-3_5"'),
    "EleutherAI/pythia-70m": ("gpt_neox", _neox(6, 512, 8, 50304), PYTHIA),
    "EleutherAI/pythia-160m": ("gpt_neox", _neox(12, 768, 12, 50304), PYTHIA),
    "EleutherAI/pythia-410m": ("gpt_neox", _neox(24, 1024, 16, 50304), PYTHIA),
    "EleutherAI/pythia-1b": ("gpt_neox", _neox(16, 2048, 8, 50304), PYTHIA),
    "EleutherAI/pythia-1.4b": ("gpt_neox", _neox(24, 2048, 16, 50304), PYTHIA),
    "EleutherAI/pythia-2.8b": ("gpt_neox", _neox(32, 2560, 32, 50304), PYTHIA),
    "EleutherAI/pythia-6.9b": ("gpt_neox", _neox(32, 4096, 32, 50432), PYTHIA + " (Retruth/deontic README: 50432)"),
    "EleutherAI/pythia-12b": ("gpt_neox", _neox(36, 5120, 40, 50688), PYTHIA + " (Retruth/deontic README: 50688)"),
    "EleutherAI/gpt-j-6b": ("gptj", dict(n_layer=28, n_embd=4096, n_head=16, rotary_dim=64, vocab_size=50400,
                                         architectures=["GPTJForCausalLM"]), MLC + ' "gpt_j"'),
    "EleutherAI/gpt-neo-125m": ("gpt_neo", _neo(12, 768, 12), NEO + "gpt3_small_256.json (the GPT3_SMALL run: 12 "
                                "layers, n_embd 768, 12 heads; its training vocab 50304, the hub's 50257); the hub "
                                "config.json as quoted in a search excerpt (code corpus, repository not named): "
                                "num_layers 12, hidden_size 768, num_heads 12, vocab 50257, [[global, local], 6]"),
    "EleutherAI/gpt-neo-1.3B": ("gpt_neo", _neo(24, 2048, 16), NEO + "GPT3_XL_pretrained.json (the released 1.3B: "
                                "24 layers, 2048, 16 heads, [[global, local], 12]); GPTNeoConfig's defaults"),
    "EleutherAI/gpt-neo-2.7B": ("gpt_neo", _neo(32, 2560, 20), NEO + "GPT3_2-7B_pretrained.json (the released 2.7B: "
                                "32 layers, 2560, 20 heads, [[global, local], 16], vocab 50257)"),
    "facebook/opt-125m": ("opt", _opt(12, 768, 12), FLEXGEN + ' "opt-125m"'),
    "facebook/opt-1.3b": ("opt", _opt(24, 2048, 32), FLEXGEN + ' "opt-1.3b"'),
    "facebook/opt-2.7b": ("opt", _opt(32, 2560, 32), FLEXGEN + ' "opt-2.7b" (Salesforce/blip2-opt-2.7b\'s text_config '
                          "says the same: 32 layers, 2560, 32 heads, ffn 10240)"),
    "facebook/opt-6.7b": ("opt", _opt(32, 4096, 32), FLEXGEN + ' "opt-6.7b"'),
    "tiiuae/falcon-7b": ("falcon", dict(num_hidden_layers=32, hidden_size=4544, num_attention_heads=71,
                                        vocab_size=65024, architectures=["FalconForCausalLM"]),
                         "FalconConfig's defaults are falcon-7b's (its docstring); 32 layers per the model card"),
}
# Legacy ids the hub redirects to their organisation's id.
LEGACY_IDS = {"gpt2": "openai-community/gpt2", "gpt2-medium": "openai-community/gpt2-medium",
              "gpt2-large": "openai-community/gpt2-large", "gpt2-xl": "openai-community/gpt2-xl",
              "distilgpt2": "distilbert/distilgpt2"}


# ---------------------------------------------------------------- running releases in scratch venvs

def _version_key(version: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def release_venv(release: str) -> str:
    """A venv with transformers==release whose other packages come from this project's .venv."""
    venv = os.path.join(SCRATCH, "venvs", release)
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
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
        if name.lower().replace("_", "-") not in ("huggingface-hub", "tokenizers", "safetensors", "numpy"):
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


def run_release(release: str, again: bool = False) -> str:
    os.makedirs(MEASURED, exist_ok=True)
    out = os.path.join(MEASURED, f"{release}.json")
    if not again and os.path.exists(out):
        try:
            with open(out) as handle:
                if "error" not in json.load(handle):
                    return out  # measured already
        except ValueError:
            pass
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


def published_releases() -> List[str]:
    """Every final transformers release on the package index (pip's own listing)."""
    done = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "transformers"],
                          capture_output=True, text=True, check=True)
    line = next(l for l in done.stdout.splitlines() if l.startswith("Available versions:"))
    return sorted((v.strip() for v in line.split(":", 1)[1].split(",") if re.fullmatch(r"[\d.]+", v.strip())),
                  key=_version_key)


def _signature(measurement: Dict[str, Any]) -> Dict[str, Any]:
    """What a release says modules return (and which exist), the facts a change point is searched for."""
    return {arch: {path: (node.get("out"), node.get("in")) for path, node in entry["nodes"].items()}
            for arch, entry in measurement.get("architectures", {}).items()}


def bisect(low: str, high: str) -> None:
    """Between measured releases whose outputs differ, measure the release halfway, until every change
    point is pinned to the first release that shows it."""
    listed = published_releases()
    while True:
        measured = {m["transformers"]: m for m in load_measurements() if "error" not in m}
        # a yanked release (4.57.0) is not listed but may be measured
        releases = sorted({r for r in [*listed, *measured] if _version_key(low) <= _version_key(r) <= _version_key(high)},
                          key=_version_key)
        done = [r for r in releases if r in measured]
        todo = None
        for a, b in zip(done, done[1:]):
            between = [r for r in releases if _version_key(a) < _version_key(r) < _version_key(b)
                       and not os.path.exists(os.path.join(MEASURED, f"{r}.json"))]
            if between and _signature(measured[a]) != _signature(measured[b]):
                todo = between[len(between) // 2]
                break
        if todo is None:
            return
        print(coverage([json.load(open(run_release(todo)))]), flush=True)


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
    parser.add_argument("--bisect", nargs=2, metavar=("LOW", "HIGH"),
                        help="measure releases between LOW and HIGH until each output change has its first release")
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
    if args.bisect:
        bisect(*args.bisect)
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
