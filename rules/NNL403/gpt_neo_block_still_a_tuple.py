"""GPT-Neo's block still returns a tuple in transformers 5: `h[0].output[0]` is the hidden states.
"""
from nnsight import LanguageModel
from transformers import GPTNeoConfig, GPTNeoForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    GPTNeoForCausalLM(GPTNeoConfig(num_layers=2, hidden_size=32, num_heads=2, vocab_size=12, max_position_embeddings=32,
                                   attention_types=[[["global", "local"], 1]])),
    tokenizer=tokenizer(),
)

with model.trace(["the cat sat", "a dog ran"]):
    hidden = model.transformer.h[0].output[0].save()

assert hidden.shape == (2, 3, 32)
