"""GPT-2's block returns the hidden-state tensor (in transformers 5): `[0]` is the first prompt's
rows only, silently.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    hidden = model.transformer.h[1].output[0].save()  # expect: NNL403

assert hidden.shape == (3, 32)  # batch row 0: (seq, hidden), not (batch, seq, hidden)
