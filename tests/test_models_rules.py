"""NNL401-NNL404 against the knowledge: the same program linted for two transformers releases on
either side of the release that made a decoder block return a tensor gets opposite verdicts; the
message says which release it assumed; a model the source does not name is never reported,
unless `[tool.nnsight-lint.models]` names it. The releases come from the bundled table, not from
this file."""
from __future__ import annotations

import textwrap

import pytest

from nnsight_lint.engine.lint import LintOptions, lint_source
from nnsight_lint.knowledge import models as knowledge

GPT2 = 'LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tok)'
LLAMA = ('LanguageModel(LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, '
         'num_attention_heads=2, num_key_value_heads=2, vocab_size=12)), tokenizer=tok)')
ARCHITECTURES = {"gpt2": (GPT2, "transformer.h", "GPT2"), "llama": (LLAMA, "model.layers", "Llama")}


def program(construction: str, line: str, config: str) -> str:
    head = f"from nnsight import LanguageModel\nfrom transformers import {config}Config, "
    head += "GPT2LMHeadModel\n" if config == "GPT2" else "LlamaForCausalLM\n"
    return head + f"model = {construction}\nwith model.trace(['the cat', 'a dog']):\n    x = {line}.save()\n"


def codes(source: str, **options) -> list:
    return [d.code for d in lint_source(source, "t.py", LintOptions(**options))]


def sides(architecture: str, path: str):
    """(a release before the block became a tensor, the first release with a tensor), measured."""
    config = knowledge.config_from_class({"gpt2": "GPT2Config", "llama": "LlamaConfig"}[architecture], {})
    since = knowledge.schema_for(config).output_since(path + ".0")
    assert since is not None, f"the table measures no change of {architecture}'s block"
    before = [r for r in knowledge.measured_releases() if _key(r) < _key(since)]
    assert before, "no measured release before the change"
    return before[-1], since


def _key(version: str):
    return tuple(int(p) for p in version.split(".")[:3])


@pytest.mark.parametrize("architecture", sorted(ARCHITECTURES))
def test_block_output_indexing_flips_with_the_transformers_release(architecture):
    construction, layers, config = ARCHITECTURES[architecture]
    old, new = sides(architecture, layers)
    item = program(construction, f"model.{layers}[0].output[0]", config)
    tensor_index = program(construction, f"model.{layers}[0].output[:, -1, :]", config)
    assert codes(item, transformers_version=new) == ["NNL403"]
    assert codes(item, transformers_version=old) == []
    assert codes(tensor_index, transformers_version=old) == ["NNL404"]
    assert codes(tensor_index, transformers_version=new) == []


def test_the_story_says_which_transformers_it_assumed():
    construction, layers, config = ARCHITECTURES["gpt2"]
    _, new = sides("gpt2", layers)
    item = program(construction, f"model.{layers}[0].output[0]", config)
    (unknown,) = lint_source(item, "t.py", LintOptions())
    assert "assumed: the project's transformers version is unknown" in unknown.detail
    newest = knowledge.measured_releases()[-1]
    assert f"transformers {newest.rsplit('.0', 1)[0] if newest.endswith('.0') else newest}" in unknown.detail
    (pinned,) = lint_source(item, "t.py", LintOptions(transformers_version=new))
    assert "unknown" not in pinned.detail and f"transformers {new}" in pinned.detail


BAD = """
with model.trace("the cat"):
    a = model.model.layers[0].output.save()
    b = model.transformer.h[12].output[0].save()
    c = model.transformer.h[0].attn.output[:, -1].save()
"""


@pytest.mark.parametrize("construction", [
    "",  # a free name: the harness's model
    "model = load(args.model)\n",
    "from nnterp import StandardizedTransformer\nmodel = StandardizedTransformer('gpt2')\n",
    "from nnsight.modeling.vllm import VLLM\nmodel = VLLM('gpt2')\n",
    "from nnsight import NNsight\nfrom transformers import GPT2Model, GPT2Config\nmodel = NNsight(GPT2Model(GPT2Config()))\n",
    "from nnsight import LanguageModel\nmodel = LanguageModel('some-org/never-heard-of')\n",
    "from nnsight import LanguageModel\nmodel = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=n)))\n",
])
def test_models_it_cannot_resolve_are_never_reported(construction):
    assert [c for c in codes(construction + BAD) if c.startswith("NNL4")] == []


def test_the_models_setting_names_what_the_source_cannot():
    source = "model = load(args.model)\n" + BAD
    assert [c for c in codes(source) if c.startswith("NNL4")] == []
    found = codes(source, models={"model": "openai-community/gpt2"})
    assert sorted(c for c in found if c.startswith("NNL4")) == ["NNL401", "NNL402", "NNL404"]  # 12 layers
    found = codes(source.replace("h[12]", "h[0]"), models={"model": "openai-community/gpt2"})
    assert sorted(c for c in found if c.startswith("NNL4")) == ["NNL401", "NNL403", "NNL404"]


def test_a_fixture_in_conftest_names_the_model(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "conftest.py").write_text(textwrap.dedent("""
        import pytest
        from nnsight import LanguageModel

        @pytest.fixture(scope="module")
        def model():
            return LanguageModel("openai-community/gpt2", dispatch=True)
    """))
    test = tmp_path / "test_layers.py"
    source = "def test_layers(model):\n" + textwrap.indent(BAD, "    ")
    test.write_text(source)
    found = [d.code for d in lint_source(source, str(test), LintOptions())]
    assert sorted(c for c in found if c.startswith("NNL4")) == ["NNL401", "NNL402", "NNL404"]


@pytest.mark.parametrize("test", ["parse(TRANSFORMERS_VERSION) < parse('4.54')", "is_old"])
def test_code_that_branches_on_the_transformers_version_is_not_judged_in_either_release(test):
    """nnterp's demo picks `.output[0]` or `.output` by the installed transformers: each arm is
    right where it runs, at either release; the same lines outside the `if` are judged."""
    before, since = sides("llama", "model.layers")
    head = program(LLAMA, "model.model.layers[0].output", "Llama").split("model = ")[0]
    branched = head + textwrap.dedent(f"""\
        from packaging.version import parse
        from transformers import __version__ as TRANSFORMERS_VERSION
        is_old = parse(TRANSFORMERS_VERSION) < parse("4.54")
        model = {LLAMA}
        with model.trace(['the cat', 'a dog']):
            if {test}:
                x = model.model.layers[0].output[0].save()
            else:
                x = model.model.layers[0].output.save()
                y = model.model.layers[1].output[:, -1].save()
        """)
    for release in (before, since):
        assert codes(branched, transformers_version=release) == []
    unbranched = branched.replace(f"    if {test}:\n", "    if True:\n")
    assert codes(unbranched, transformers_version=since) == ["NNL403"]
    assert codes(unbranched, transformers_version=before) == ["NNL404"]


def test_a_test_that_only_contains_the_letters_of_version_is_no_version_branch():
    _, since = sides("llama", "model.layers")
    head = program(LLAMA, "model.model.layers[0].output", "Llama").split("model = ")[0]
    source = head + f"conversion = True\nmodel = {LLAMA}\nwith model.trace(['the cat', 'a dog']):\n"
    source += "    if conversion:\n        x = model.model.layers[0].output[0].save()\n"
    assert codes(source, transformers_version=since) == ["NNL403"]
