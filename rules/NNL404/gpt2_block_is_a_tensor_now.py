"""GPT-2's block returns a tensor in transformers 5.3+: tensor indexing and tensor methods are right.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    last = model.transformer.h[1].output[:, -1, :].save()
    norms = model.transformer.h[1].output.norm(dim=-1).save()

assert last.shape == (2, 32) and norms.shape == (2, 3)
