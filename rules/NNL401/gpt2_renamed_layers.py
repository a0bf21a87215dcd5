"""`rename=` gives GPT-2's `transformer.h` the name `layers` (nnsight 0.5+): `model.layers` is right.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)),
    tokenizer=tokenizer(),
    rename={"transformer.h": "layers"},
)

with model.trace("the cat sat"):
    hidden = model.layers[1].output.save()

assert hidden.shape == (1, 3, 32)
