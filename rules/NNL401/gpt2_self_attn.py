"""Llama's `self_attn` on a GPT-2 block (it calls it `attn`): AttributeError naming `self_attn`.
"""
# runtime-raises: has attribute 'self_attn'
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    attention = model.transformer.h[0].self_attn.output[0].save()  # expect: NNL401
