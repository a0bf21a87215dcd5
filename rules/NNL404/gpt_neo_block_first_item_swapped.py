"""GPT-Neo's block returns a tuple: replacing its first item by joining a new one with the other
items (`(t,) + output[1:]`, the way nnsight's own tests zero a block) is tuple slicing and joining:
right, and the saved block output starts with the zeros.
"""
import torch
from nnsight import LanguageModel
from transformers import GPTNeoConfig, GPTNeoForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoForCausalLM(GPTNeoConfig(num_layers=2, hidden_size=32, num_heads=2, vocab_size=12, max_position_embeddings=32,
                                   attention_types=[[["global", "local"], 1]])),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    rest = model.transformer.h[0].output[1:]
    model.transformer.h[0].output = (torch.zeros_like(model.transformer.h[0].output[0]),) + rest
    first = model.transformer.h[0].output[0].save()
    block = model.transformer.h[1]
    block.output = (block.output[0] * 2,) + block.output[1:]
    second = block.output.save()

assert bool((first == 0).all())
assert isinstance(second, tuple) and len(second) == 2
