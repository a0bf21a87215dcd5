"""Attention modules still return `(attn_output, attn_weights)`: `self_attn.output[0]` is right.
"""
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace(["the cat sat", "a dog ran"]):
    attention = model.model.layers[0].self_attn.output[0].save()

assert attention.shape == (2, 3, 32)
