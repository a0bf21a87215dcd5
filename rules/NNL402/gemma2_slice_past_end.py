"""A slice past the end is legal Python: `layers[0:10]` on 2 Gemma 2 layers gives both.
"""
from nnsight import LanguageModel
from transformers import Gemma2Config, Gemma2ForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    Gemma2ForCausalLM(Gemma2Config(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                   num_key_value_heads=2, head_dim=16, vocab_size=12)),
    tokenizer=tokenizer(),
)

hidden = []
with model.trace("the cat sat"):
    for layer in model.model.layers[0:10]:
        hidden.append(layer.output.save())

assert len(hidden) == 2
