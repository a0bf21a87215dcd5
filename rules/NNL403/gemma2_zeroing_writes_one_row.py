"""Zeroing `layers[0].output[0][:]` on Gemma 2 zeroes the first prompt's rows
only.
"""
from nnsight import LanguageModel
from transformers import Gemma2Config, Gemma2ForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    Gemma2ForCausalLM(Gemma2Config(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                   num_key_value_heads=2, head_dim=16, vocab_size=12)),
    tokenizer=tokenizer(),
)

import torch

with model.trace(["the cat sat", "a dog ran"]):
    model.model.layers[0].output[0][:] = 0  # expect: NNL403
    hidden = model.model.layers[0].output.save()

assert torch.count_nonzero(hidden[0]) == 0 and torch.count_nonzero(hidden[1]) > 0
