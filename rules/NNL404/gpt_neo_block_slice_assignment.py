"""GPT-Neo's block still returns a tuple: a slice assignment into it raises TypeError.
"""
# runtime-raises: 'tuple' object does not support item assignment
from nnsight import LanguageModel
from transformers import GPTNeoConfig, GPTNeoForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoForCausalLM(GPTNeoConfig(num_layers=2, hidden_size=32, num_heads=2, vocab_size=12, max_position_embeddings=32,
                                   attention_types=[[["global", "local"], 1]])),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    model.transformer.h[0].output[:, -1] = 0  # expect: NNL404
