"""The model knowledge (nnsight_lint/knowledge/models.py and its bundled tables) against the real packages:
the bundled schema for the installed transformers is what the generator extracts from it now, what the
schema says a module returns is what nnsight 0.8 gives in a trace, configs are found where a user's
machine keeps them, and the loader imports neither torch nor transformers."""
from __future__ import annotations

import importlib.resources
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nnsight_lint.knowledge import models

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_model_schemas", ROOT / "scripts" / "gen_model_schemas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


# ---------------------------------------------------------------- the table is the installed transformers

def test_bundled_entry_for_installed_transformers_equals_a_fresh_extraction():
    import transformers

    installed = transformers.__version__
    assert installed in models.measured_releases(), f"transformers {installed} was never measured: regenerate"
    fresh = gen.measure(list(gen.ARCHITECTURES))
    assert not fresh["failed"], fresh["failed"]
    assert set(fresh["architectures"]) == set(models.architectures())
    for architecture, entry in fresh["architectures"].items():
        bundled = models._range_for(architecture, installed)
        assert bundled.entry() == entry, architecture
    # and the config classes: their defaults and aliases
    bundled_classes = models._configs()["classes"]
    for architecture, entry in fresh["classes"].items():
        assert bundled_classes[entry["class"]] == entry, architecture


def test_the_loader_never_imports_torch_or_transformers():
    code = (
        "import sys; from nnsight_lint.knowledge import models as m\n"
        "s = m.schema_for(m.find_config('gpt2'), '4.40.0'); s.module(('transformer', 'h', -1, 'attn'))\n"
        "s.output_since('transformer.h.0'); m.transformers_releases('llama')\n"
        "m.schema_for(m.config_from_class('LlamaConfig', {'num_hidden_layers': 4}))\n"
        "print(sorted(k for k in sys.modules if k.split('.')[0] in ('torch', 'transformers', 'numpy', 'nnsight')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_tables_install_with_the_package():
    data = importlib.resources.files("nnsight_lint.knowledge").joinpath("models")
    for name in ("schemas.json", "configs.json"):
        assert json.loads(data.joinpath(name).read_text())["generated_by"] == "scripts/gen_model_schemas.py"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'"nnsight_lint.knowledge" = \[[^\]]*"models/\*\.json"', pyproject)


# ---------------------------------------------------------------- layer counts scale from the config

@pytest.mark.parametrize("class_name, kwargs, path", [
    ("GPT2Config", {"n_layer": 7}, "transformer.h"),
    ("GPT2Config", {"num_hidden_layers": 7}, "transformer.h"),
    ("LlamaConfig", {"num_hidden_layers": 7}, "model.layers"),
    ("GPTNeoConfig", {"num_layers": 7}, "transformer.h"),
])
def test_a_layer_count_of_seven_gives_seven_layers(class_name, kwargs, path):
    schema = models.schema_for(models.config_from_class(class_name, kwargs))
    assert schema.module(path).length == 7
    assert schema.module(path + ".6") is not None and schema.module(path + ".7") is None
    assert schema.module((*path.split("."), -7)).path == f"{path}.0"
    assert schema.module((*path.split("."), -8)) is None


def test_ranks_follow_the_forward_order_at_any_layer_count():
    """The measured hook order at 3 layers, rebuilt for 12: every module of layer i fires before any of
    layer i + 1, and the final norm and lm_head after the last layer."""
    schema = models.schema_for(models.find_config("gpt2"))
    ranks = [schema.module(f"transformer.h.{i}").rank for i in range(12)]
    assert ranks == sorted(ranks) and len(set(ranks)) == 12
    assert schema.module("transformer.h.11.attn").rank > schema.module("transformer.h.10").rank
    assert schema.module("transformer.wte").rank < schema.module("transformer.h.0.ln_1").rank
    assert schema.module("transformer.ln_f").rank > ranks[-1]
    assert schema.root.rank == max(_all_ranks(schema.root))


def _all_ranks(module):
    yield from ([module.rank] if module.rank is not None else [])
    for child in module.children.values():
        yield from _all_ranks(child)


# ---------------------------------------------------------------- finding configs

def _hf_cache(root: Path, repo_id: str, config: dict) -> Path:
    """The layout huggingface_hub writes: blobs/, refs/main holding the commit, snapshots/<commit>/ links."""
    repo = root / ("models--" + repo_id.replace("/", "--"))
    (repo / "blobs").mkdir(parents=True)
    (repo / "refs").mkdir()
    commit = "0123456789abcdef0123456789abcdef01234567"
    (repo / "refs" / "main").write_text(commit)
    blob = repo / "blobs" / "c0ffee"
    blob.write_text(json.dumps(config))
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").symlink_to(os.path.relpath(blob, snapshot))
    old = repo / "snapshots" / "ffffffffffffffffffffffffffffffffffffffff"
    old.mkdir()
    (old / "config.json").write_text(json.dumps({**config, "n_layer": 99}))  # not refs/main: never read
    return repo


def test_find_config_reads_the_hugging_face_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    _hf_cache(tmp_path / "home" / "hub", "my-org/tiny-gpt", {"model_type": "gpt2", "n_layer": 3})
    assert models.find_config("my-org/tiny-gpt")["n_layer"] == 3
    # a cached gpt2 wins over the bundled one, under its legacy id and its organisation's id alike
    _hf_cache(tmp_path / "home" / "hub", "gpt2", {"model_type": "gpt2", "n_layer": 5})
    assert models.find_config("gpt2")["n_layer"] == 5
    assert models.find_config("openai-community/gpt2")["n_layer"] == 5
    # $HF_HUB_CACHE and the hf_home argument
    _hf_cache(tmp_path / "cache", "other/model", {"model_type": "llama", "num_hidden_layers": 2})
    assert models.find_config("other/model") is None
    assert models.find_config("other/model", hf_home=str(tmp_path / "nowhere")) is None
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    assert models.find_config("other/model")["num_hidden_layers"] == 2


def test_find_config_reads_a_saved_model_directory(tmp_path):
    from transformers import GPT2Config, GPT2LMHeadModel

    GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=16, n_head=2, vocab_size=32)).save_pretrained(tmp_path / "tiny")
    config = models.find_config(str(tmp_path / "tiny"))
    assert config["n_layer"] == 2 and config["model_type"] == "gpt2"
    assert models.find_config(str(tmp_path / "tiny" / "config.json")) == config
    assert models.schema_for(config).module("transformer.h").length == 2
    assert models.find_config(str(tmp_path / "missing")) is None


def test_find_config_honours_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty"))
    (tmp_path / "c.json").write_text(json.dumps({"model_type": "llama", "num_hidden_layers": 6}))
    configured = {"my-model": str(tmp_path / "c.json"), "alias": "meta-llama/Meta-Llama-3-8B"}
    assert models.find_config("my-model", configured=configured)["num_hidden_layers"] == 6
    assert models.find_config("alias", configured=configured)["num_key_value_heads"] == 8
    assert models.find_config("my-model") is None


def test_find_config_bundled_and_unknown(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty"))
    assert models.find_config("gpt2") == models.find_config("openai-community/gpt2")
    assert models.find_config("gpt2")["n_layer"] == 12
    assert models.find_config("openai-community/gpt2-xl")["n_layer"] == 48
    assert models.find_config("no-such-org/no-such-model") is None
    assert models.find_config("") is None
    (tmp_path / "bad.json").write_text("{not json")
    assert models.find_config(str(tmp_path / "bad.json")) is None


def test_bundled_configs_build_through_their_class():
    """Every bundled hub id's fields are its config class's, and its schema exists."""
    for hub_id, (model_type, kwargs, source) in gen.HUB_CONFIGS.items():
        config = models.find_config(hub_id)
        assert config is not None and config["model_type"] == model_type, hub_id
        assert source, hub_id
        assert models.schema_for(config) is not None, hub_id


# ---------------------------------------------------------------- the schema is what nnsight returns

def _tiny(architecture: str):
    import nnsight
    import torch
    from tests.tiny_model import tiny_model
    from transformers import AutoModelForCausalLM

    if architecture == "gpt2":
        return tiny_model()
    tokenizer = tiny_model().tokenizer
    config = gen.tiny_config(architecture)
    config.vocab_size = max(config.vocab_size, len(tokenizer))
    torch.manual_seed(0)
    return nnsight.LanguageModel(AutoModelForCausalLM.from_config(config).eval(), tokenizer=tokenizer)


@pytest.mark.parametrize("architecture, block, attention", [
    ("gpt2", "transformer.h", "attn"),
    ("llama", "model.layers", "self_attn"),
    ("gpt_neo", "transformer.h", "attn"),
])
def test_schema_says_what_nnsight_returns(architecture, block, attention):
    import torch

    model = _tiny(architecture)
    prompts = ["hello world the cat", "a dog ran on the mat"]
    layer = model
    for part in block.split("."):
        layer = getattr(layer, part)
    with model.trace(prompts):  # in forward order: the block's input, its attention, the block's output
        inp = layer[0].input.save()
        attn = getattr(layer[0], attention).output.save()
        out = layer[0].output.save()
    schema = models.schema_for(model.config.to_dict())
    assert schema.module(block).length == model.config.num_hidden_layers
    for path, got in ((f"{block}.0", out), (f"{block}.0.{attention}", attn)):
        said = schema.module(path).output
        assert said.kind == ("tensor" if isinstance(got, torch.Tensor) else "tuple"), path
        first = got if said.kind == "tensor" else got[0]
        dims = said.dims if said.kind == "tensor" else said.items[0].dims
        assert first.ndim == len(dims) == 3
        assert first.shape[dims.index("batch")] == len(prompts)
    said_input = schema.module(f"{block}.0").input
    assert isinstance(inp, torch.Tensor) and inp.ndim == said_input.ndim
    assert inp.shape[said_input.dims.index("batch")] == len(prompts)


# ---------------------------------------------------------------- releases and docs

def test_transformers_releases_cover_every_architecture():
    for architecture in models.architectures():
        releases = models.transformers_releases(architecture)
        assert releases and releases[-1][0].startswith(">=") and "," not in releases[-1][0]
        assert {kind for _, kind in releases} <= {"tensor", "tuple"}, (architecture, releases)


def test_output_since_names_the_release_the_block_became_a_tensor():
    for architecture in models.architectures():
        releases = models.transformers_releases(architecture)
        config = models.config_from_class(models._class_for(architecture)["class"], {})
        schema = models.schema_for(config)
        block = schema.layers + ".0"
        since = schema.output_since(block)
        if len(releases) == 1:
            assert since is None, architecture
            continue
        assert since == re.match(r">=([\d.]+)", releases[-1][0]).group(1), architecture
        before = models.schema_for(config, _just_before(since))
        assert before.module(block).output.kind != schema.module(block).output.kind, architecture


def _just_before(release: str) -> str:
    measured = models.measured_releases()
    return measured[measured.index(release) - 1]


def test_the_docs_table_is_the_data():
    text = (ROOT / "docs" / "models.md").read_text()
    start, end = gen.DOC_MARKERS
    assert start in text and end in text
    assert text.split(start)[1].split(end)[0].strip() == gen.releases_table().strip()


def test_every_stored_range_builds():
    """Every range of every architecture rebuilds into a tree whose values parse, at 1 and 40 layers."""
    for architecture in models.architectures():
        for item in models._ranges(architecture):
            for count in (1, 40):
                schema = models._build(architecture, item.range, count)
                assert schema.module(item.layers).length == count
                assert schema.module(f"{item.layers}.{count - 1}").type == item.nodes[item.layers + ".0"]["type"]
                ranks = list(_all_ranks(schema.root))
                assert len(ranks) == len(set(ranks)), (architecture, item.range)


def test_unknown_architectures_have_no_schema():
    assert models.schema_for({"model_type": "bert", "num_hidden_layers": 2}) is None
    assert models.schema_for({}) is None
    assert models.schema_for({"model_type": "gpt2", "n_layer": "twelve"}) is None  # a broken config is unknown
    assert models.schema_for({"model_type": "gpt2"}).layer_count == 12  # absent: GPT2Config's default
    assert models.config_from_class("NoSuchConfig", {}) is None


def test_live_schema_measures_an_architecture_the_table_lacks_and_keeps_it(tmp_path):
    """Opt-in: granite is not bundled; with torch + transformers here it is measured once, and the next
    process reads the kept JSON without importing either."""
    from nnsight_lint.knowledge import extract

    config = {"model_type": "granite", "num_hidden_layers": 5}
    assert models.schema_for(config) is None
    schema = extract.live_schema(config, cache=str(tmp_path))
    assert schema.module("model.layers").length == 5
    assert schema.module("model.layers.4.self_attn").output.kind == "tuple"
    (kept,) = tmp_path.glob("granite-*.json")
    code = (
        "import sys; sys.modules['torch'] = sys.modules['transformers'] = None\n"
        "from nnsight_lint.knowledge import extract\n"
        f"s = extract.live_schema({config!r}, cache={str(tmp_path)!r})\n"
        "print(s.module('model.layers').length, s.module('model.layers.0').output.kind)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.split() == ["5", schema.module("model.layers.0").output.kind], done.stderr
    kept.write_text("{broken")  # a broken cache entry is measured again, not a crash
    assert extract.live_schema(config, cache=str(tmp_path)).module("model.layers").length == 5
    assert extract.live_schema({"model_type": "no-such-architecture", "num_hidden_layers": 2},
                               cache=str(tmp_path)) is None


def test_the_live_schemas_setting_measures_a_cached_model_the_table_lacks(tmp_path, monkeypatch):
    """`live-schemas = true`, real torch + transformers, a tiny granite config.json in a fake Hugging
    Face cache: the CLI measures granite (not bundled), keeps it, and judges `layers[3]` on its 2
    layers; without the setting, and in a pre-commit hook (PRE_COMMIT=1), the model stays unknown."""
    from tests.support import run_cli

    hub, project, kept = tmp_path / "hub", tmp_path / "project", tmp_path / "xdg" / "nnsight-lint" / "models"
    snapshot = hub / "models--my-org--granite-tiny" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    (hub / "models--my-org--granite-tiny" / "refs").mkdir()
    (hub / "models--my-org--granite-tiny" / "refs" / "main").write_text("abc")
    (snapshot / "config.json").write_text(json.dumps({
        "model_type": "granite", "architectures": ["GraniteForCausalLM"], "num_hidden_layers": 2,
        "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100}))
    project.mkdir()
    (project / "probe.py").write_text(
        'from nnsight import LanguageModel\n\nmodel = LanguageModel("my-org/granite-tiny")\n'
        'with model.trace("hello"):\n    hidden = model.model.layers[3].output.save()\n')
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PRE_COMMIT", raising=False)

    def check(setting: str, pre_commit: bool = False):
        (project / "pyproject.toml").write_text(f"[tool.nnsight-lint]\n{setting}\n")
        with monkeypatch.context() as hook:
            if pre_commit:
                hook.setenv("PRE_COMMIT", "1")  # what pre-commit sets for its hooks
            result = run_cli("check", "--no-cache", "--select", "NNL4", "probe.py", cwd=project, timeout=300)
        assert "Traceback" not in result.stderr, result.stderr
        return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines() if ": NNL" in line]

    assert check("live-schemas = false") == []
    assert check("live-schemas = true", pre_commit=True) == [] and not kept.exists()
    assert check("live-schemas = true") == ["NNL402"]
    (measured,) = kept.glob("granite-*.json")
    assert "model.layers.0" in json.loads(measured.read_text())["nodes"]
    assert check("live-schemas = true") == ["NNL402"]  # from the kept measurement
