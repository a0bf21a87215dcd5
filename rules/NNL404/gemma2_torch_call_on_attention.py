"""A `torch.*` function given Gemma 2's attention tuple fails (torch looks for tensor attributes on it).
"""
# runtime-raises: 'tuple' object has no attribute
from nnsight import LanguageModel
from transformers import Gemma2Config, Gemma2ForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    Gemma2ForCausalLM(Gemma2Config(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                   num_key_value_heads=2, head_dim=16, vocab_size=12)),
    tokenizer=tokenizer(),
)

import torch

with model.trace("the cat sat"):
    size = torch.norm(model.model.layers[0].self_attn.output).save()  # expect: NNL404
