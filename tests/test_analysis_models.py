"""Which model a trace runs on (`analysis/models.py`): the receiver of `.trace` / `.generate` /
`.scan` / `.session` resolved to its nnsight construction, through the ways real code binds it."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Optional

import libcst as cst
import pytest

from nnsight_lint.analysis import build_file_model
from nnsight_lint.analysis.models import NOT_LITERAL, ModelRef, resolve_models


def traced(source: str, path: Optional[str] = None) -> Optional[ModelRef]:
    """The model of the file's only trace (or session)."""
    model = build_file_model(cst.parse_module(textwrap.dedent(source)), ("trace",), path)
    opened = model.traces or model.sessions
    assert len(opened) == 1, opened
    return opened[0].model_ref


def test_literal_id_and_keywords():
    ref = traced("""
        from nnsight import LanguageModel
        model = LanguageModel("openai-community/gpt2", device_map="auto", dispatch=True, rename={"transformer.h": "layers"})
        with model.trace("hello"):
            h = model.layers[0].output.save()
    """)
    assert ref.wrapper == "LanguageModel" and ref.ref == "openai-community/gpt2" and ref.name == "model"
    assert ref.keyword("dispatch") is True and ref.keyword("device_map") == "auto"
    assert ref.rename == {"transformer.h": "layers"}
    assert ref.keyword("tokenizer") is None


def test_config_class_through_from_config_and_init():
    ref = traced("""
        import nnsight
        from transformers import AutoModelForCausalLM, LlamaConfig
        config = LlamaConfig(num_hidden_layers=2, hidden_size=64, vocab_size=n)
        lm = nnsight.LanguageModel(AutoModelForCausalLM.from_config(config), tokenizer=tok)
        with lm.trace("hello"):
            pass
    """)
    assert ref.config_class == "LlamaConfig" and ref.loader == "from_config"
    assert ref.config_kwargs == {"num_hidden_layers": 2, "hidden_size": 64}
    assert ref.opaque == frozenset({"vocab_size"}) and ref.model_class == "AutoModelForCausalLM"
    ref = traced("""
        from nnsight import NNsight
        from transformers import GPT2Config, GPT2LMHeadModel
        model = NNsight(GPT2LMHeadModel(GPT2Config(n_layer=3)))
        with model.trace(ids):
            pass
    """)
    assert (ref.wrapper, ref.config_class, ref.config_kwargs, ref.loader) == ("NNsight", "GPT2Config", {"n_layer": 3}, "init")


def test_config_mutated_after_construction_is_not_trusted():
    ref = traced("""
        from nnsight import LanguageModel
        from transformers import GPT2Config, GPT2LMHeadModel
        config = GPT2Config(n_layer=2)
        config.n_layer = 6
        model = LanguageModel(GPT2LMHeadModel(config), tokenizer=tok)
        with model.trace("x"):
            pass
    """)
    assert ref is not None and not ref.known


def test_from_pretrained_model_wrapped():
    ref = traced("""
        from nnsight import LanguageModel
        from transformers import AutoModelForCausalLM
        MODEL = "meta-llama/Llama-3.2-1B"
        hf = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype="auto")
        model = LanguageModel(hf, tokenizer=tokenizer)
        with model.trace("x"):
            pass
    """)
    assert (ref.ref, ref.model_class, ref.loader) == ("meta-llama/Llama-3.2-1B", "AutoModelForCausalLM", "from_pretrained")


def test_self_attribute_and_parameter_default():
    ref = traced("""
        from nnsight import LanguageModel
        class Probe:
            def __init__(self, name="EleutherAI/pythia-70m"):
                self.model = LanguageModel(name)
            def run(self, prompt):
                with self.model.trace(prompt):
                    pass
    """)
    assert ref.ref == "EleutherAI/pythia-70m" and ref.name == "self.model"


def test_last_binding_before_the_trace_wins():
    source = """
        from nnsight import LanguageModel
        model = LanguageModel("gpt2")
        with model.trace("x"):
            pass
        model = LanguageModel("meta-llama/Llama-2-7b-hf")
        with model.trace("y"):
            pass
    """
    file_model = build_file_model(cst.parse_module(textwrap.dedent(source)))
    assert [t.model_ref.ref for t in file_model.traces] == ["gpt2", "meta-llama/Llama-2-7b-hf"]
    assert [m.ref for m in file_model.models] == ["gpt2", "meta-llama/Llama-2-7b-hf"]


def test_disagreeing_branches_give_up():
    assert traced("""
        from nnsight import LanguageModel
        if big:
            model = LanguageModel("meta-llama/Llama-2-7b-hf")
        else:
            model = LanguageModel("gpt2")
        with model.trace("x"):
            pass
    """) is None


def test_function_returning_a_construction_and_a_helper_given_the_model():
    ref = traced("""
        from nnsight import LanguageModel
        def load():
            return LanguageModel("gpt2", dispatch=True)
        def run(lm, prompt):
            with lm.trace(prompt):
                pass
        model = load()
        run(model, "hello")
    """)
    assert ref.ref == "gpt2"


def test_not_looked_at():
    for source in (
        """
        from nnterp import StandardizedTransformer
        model = StandardizedTransformer("gpt2")
        with model.trace("x"):
            pass
        """,
        """
        from nnsight import LanguageModel
        class Mine(LanguageModel):
            pass
        model = Mine("gpt2")
        with model.trace("x"):
            pass
        """,
        """
        from transformer_lens import HookedTransformer
        model = HookedTransformer.from_pretrained("gpt2")
        with model.trace("x"):
            pass
        """,
        """
        with model.trace("x"):
            pass
        """,
    ):
        assert traced(source) is None, source


def test_vllm_is_a_model_ref_the_rules_may_skip():
    ref = traced("""
        from nnsight.modeling.vllm import VLLM
        model = VLLM("gpt2", tensor_parallel_size=1)
        with model.trace("x", temperature=0.0):
            pass
    """)
    assert ref.wrapper == "VLLM" and ref.ref == "gpt2"


def test_session_and_unknown_keyword_values():
    ref = traced("""
        from nnsight import LanguageModel
        model = LanguageModel(args.model, dispatch=flag)
        with model.session(remote=True):
            pass
    """)
    assert ref is not None and not ref.known and ref.keyword("dispatch") is NOT_LITERAL


def test_pytest_fixture_in_conftest(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text(textwrap.dedent("""
        import pytest
        from nnsight import LanguageModel

        @pytest.fixture(scope="session")
        def gpt2():
            return LanguageModel("openai-community/gpt2", dispatch=True)

        @pytest.fixture(name="llama")
        def _llama():
            model = LanguageModel("meta-llama/Llama-3.2-1B")
            yield model
    """))
    test = tmp_path / "tests" / "test_x.py"
    source = """
        def test_gpt2(gpt2):
            with gpt2.trace("x"):
                pass
    """
    test.write_text(textwrap.dedent(source))
    assert traced(source, str(test)).ref == "openai-community/gpt2"
    source = source.replace("gpt2", "llama")
    test.write_text(textwrap.dedent(source))
    ref = traced(source, str(test))
    assert ref.ref == "meta-llama/Llama-3.2-1B" and ref.file == str(tmp_path / "tests" / "conftest.py")
    assert traced(source, None) is None  # no path, no conftest


def test_project_helper_imported_from_another_module(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "src" / "mypkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text(textwrap.dedent("""
        from nnsight import LanguageModel
        from transformers import GPT2Config, GPT2LMHeadModel

        SMALL = LanguageModel("EleutherAI/gpt-neo-125m")

        def load_model(name="gpt2"):
            return LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2)), tokenizer=None)
    """))
    script = tmp_path / "scripts" / "run.py"
    script.parent.mkdir()
    source = """
        from mypkg.models import load_model, SMALL
        model = load_model()
        with model.trace("x"):
            pass
    """
    script.write_text(textwrap.dedent(source))
    ref = traced(source, str(script))
    assert ref.config_class == "GPT2Config" and ref.config_kwargs == {"n_layer": 2}
    source = source.replace("model = load_model()", "model = SMALL")
    assert traced(source, str(script)).ref == "EleutherAI/gpt-neo-125m"
    relative = package / "use.py"
    source = """
        from .models import load_model
        with load_model().trace("x"):
            pass
    """
    relative.write_text(textwrap.dedent(source))
    assert traced(source, str(relative)).config_class == "GPT2Config"


def test_every_construction_listed():
    constructions, receivers = resolve_models(cst.parse_module(textwrap.dedent("""
        import nnsight
        a = nnsight.LanguageModel("gpt2")
        b = nnsight.NNsight(net)
        make(nnsight.LanguageModel("EleutherAI/pythia-70m"))
    """)))
    assert [(c.wrapper, c.ref, c.name) for c in constructions] == [
        ("LanguageModel", "gpt2", "a"), ("NNsight", None, "b"), ("LanguageModel", "EleutherAI/pythia-70m", None)]
    assert receivers == {}


@pytest.mark.parametrize("receiver", ["model.trace", "model.generate", "model.scan"])
def test_every_trace_like_call(receiver):
    _, receivers = resolve_models(cst.parse_module(textwrap.dedent(f"""
        from nnsight import LanguageModel
        model = LanguageModel("gpt2")
        with {receiver}("x"):
            pass
    """)))
    assert [r.ref for r in receivers.values()] == ["gpt2"]


def test_a_loader_definition_is_not_blanked_before_parsing():
    from nnsight_lint.engine.lint import parsed_part

    source = textwrap.dedent("""
        from nnsight import LanguageModel
        def load():
            return LanguageModel("gpt2")
        def unrelated():
            return 1
        model = load()
        with model.trace("x"):
            pass
    """)
    kept = parsed_part(source)
    assert 'LanguageModel("gpt2")' in kept and "return 1" not in kept


def test_constructions_returned_or_in_containers_are_listed():
    constructions, _ = resolve_models(cst.parse_module(textwrap.dedent("""
        import nnsight
        def load():
            return nnsight.LanguageModel("gpt2")
        pair = [nnsight.LanguageModel("EleutherAI/pythia-70m"), other]
    """)))
    assert sorted(c.ref for c in constructions) == ["EleutherAI/pythia-70m", "gpt2"]


def test_traces_on_one_binding_share_its_model_ref():
    source = """
        from nnsight import LanguageModel
        model = LanguageModel("gpt2")
        with model.trace("a"):
            pass
        with model.trace("b"):
            pass
        model = LanguageModel("gpt2")
        with model.trace("c"):
            pass
    """
    first, second, third = (t.model_ref for t in build_file_model(cst.parse_module(textwrap.dedent(source))).traces)
    assert first is second  # the same binding, resolved once
    assert third is not first and third.call is not first.call and third.ref == first.ref == "gpt2"


def test_asking_again_in_one_lint_still_tells_the_files_the_answer_read(tmp_path):
    """`known_model` answers a lint's later questions from what the lint already asked; the result
    cache must still hear, each time, which files the answer depends on (`sources/reads.py`)."""
    import json
    import os

    from nnsight_lint.analysis.schemas import known_model
    from nnsight_lint.rules.context import RuleContext
    from nnsight_lint.sources import reads

    config = tmp_path / "tiny" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                                  "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
                                  "intermediate_size": 128, "vocab_size": 100}))
    past = 10**18  # older than the racy window: the state is the file's, not "racy"
    os.utime(config, ns=(past, past))
    os.utime(config.parent, ns=(past, past))
    text = textwrap.dedent(f"""
        from nnsight import LanguageModel
        model = LanguageModel({str(config.parent)!r})
        with model.trace("a"):
            pass
        with model.trace("b"):
            pass
    """)
    module = cst.parse_module(text)
    first_trace, second_trace = build_file_model(module).traces
    context = RuleContext("t.py", module, text)
    with reads.recording() as asked_first:
        known = known_model(first_trace, context)
    assert known is not None and known.schema.root.type == "LlamaForCausalLM"
    assert any(path.startswith(str(config.parent)) for path in asked_first)
    for trace in (first_trace, second_trace):
        with reads.recording() as asked_again:
            assert known_model(trace, context) is known
        assert asked_again == asked_first


def test_a_path_walked_on_a_known_model_is_walked_once():
    from nnsight_lint.analysis.schemas import known_model, walk

    module = cst.parse_module(textwrap.dedent("""
        from nnsight import LanguageModel
        model = LanguageModel("openai-community/gpt2")
        with model.trace("a"):
            pass
    """))
    known = known_model(build_file_model(module).traces[0])
    first = walk(known, ["transformer", "h", 11, "attn"])
    assert first.module is not None and first.path == ("transformer", "h", 11, "attn")
    assert walk(known, ("transformer", "h", 11, "attn")) is first  # the rules walk every access again
    past_the_end = walk(known, ("transformer", "h", 12))
    assert past_the_end.module is None and (past_the_end.at, past_the_end.reason) == (2, "index")
