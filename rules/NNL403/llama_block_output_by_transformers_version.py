"""Code written for transformers on both sides of 4.54 picks the block's hidden states by the
installed release (nnterp's demo does this): `.output[0]` where the block returned a tuple,
`.output` whole where it returns the tensor. Each branch is right where it runs; both prompts'
states come back.
"""
from nnsight import LanguageModel
from packaging.version import parse
from transformers import LlamaConfig, LlamaForCausalLM
from transformers import __version__ as TRANSFORMERS_VERSION

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)
is_old_transformers = parse(TRANSFORMERS_VERSION) < parse("4.54")

with model.trace(["the cat sat", "a dog ran"]):
    if is_old_transformers:
        hidden = model.model.layers[0].output[0].save()
    else:
        hidden = model.model.layers[0].output.save()

assert hidden.shape[0] == 2
