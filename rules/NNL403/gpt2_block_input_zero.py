"""`.input` is the block's first positional argument, the hidden-state tensor: `[0]` is batch row 0.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    entering = model.transformer.h[1].input[0].save()  # expect: NNL403

assert entering.shape == (3, 32)
