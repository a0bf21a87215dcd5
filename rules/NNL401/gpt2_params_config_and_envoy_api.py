"""Parameters, the config, the tokenizer and nnsight's Envoy API are no module paths: all
fine on a GPT-2.
"""
import torch
from nnsight import LanguageModel
from transformers import GPT2Config, GPT2LMHeadModel

from tests.tiny_model import tokenizer

model = LanguageModel(GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace("the cat sat"):
    query = model.transformer.h[0].attn.c_attn.output.save()
    mlp = model.transformer.h[1].mlp.c_proj.output.save()
    logits = model.lm_head.output.save()

assert model.lm_head.weight.shape[0] == model.config.vocab_size
assert model.tokenizer("the cat").input_ids == [4, 5]
assert len(model.transformer.h) == model.config.n_layer
assert torch.is_tensor(query) and torch.is_tensor(mlp) and torch.is_tensor(logits)
