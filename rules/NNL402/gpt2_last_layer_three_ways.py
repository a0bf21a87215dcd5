"""The last layer by `-1`, by `len(...) - 1` and by `config.n_layer - 1`: all index 1 of 2.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

import torch

with model.trace("the cat sat"):
    a = model.transformer.h[-1].output.save()
    b = model.transformer.h[len(model.transformer.h) - 1].output.save()
    c = model.transformer.h[model.config.n_layer - 1].output.save()

assert torch.equal(a, b) and torch.equal(b, c)
