"""The first item of GPT-2's attention tuple is the tensor: indexing that is right.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    last = model.transformer.h[0].attn.output[0][:, -1, :].save()

assert last.shape == (2, 32)
