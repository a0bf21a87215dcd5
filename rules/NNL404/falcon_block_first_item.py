"""Falcon's block tuple indexed by its item first, then as a tensor: right.
"""
from nnsight import LanguageModel
from transformers import FalconConfig, FalconForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(FalconForCausalLM(FalconConfig(num_hidden_layers=2, hidden_size=32, num_attention_heads=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    last = model.transformer.h[0].output[0][:, -1].save()

assert last.shape == (2, 32)
