"""The block output used whole, and indexed as the 3-d tensor it is: all right.
"""
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    whole = model.transformer.h[0].output.save()
    last = model.transformer.h[1].output[:, -1, :].save()
    first_prompt_last = model.transformer.h[1].output[0, -1, :].save()

assert whole.shape == (2, 3, 32) and last.shape == (2, 32) and first_prompt_last.shape == (32,)
