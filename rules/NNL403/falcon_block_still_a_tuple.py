"""Falcon's block returns a tuple too: unpacking it is right.
"""
from nnsight import LanguageModel
from transformers import FalconConfig, FalconForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(FalconForCausalLM(FalconConfig(num_hidden_layers=2, hidden_size=32, num_attention_heads=2, vocab_size=12)), tokenizer=tokenizer())

with model.trace(["the cat sat", "a dog ran"]):
    hidden, *rest = model.transformer.h[1].output
    hidden = hidden.save()

assert hidden.shape == (2, 3, 32)
