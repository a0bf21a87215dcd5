"""A Llama model's `self_attn` returns `(attn_output, attn_weights)` as well (transformers 5), so item
assignment into its output fails the same way.
"""
# runtime-raises: 'tuple' object does not support item assignment
import torch
from nnsight import NNsight
from transformers import LlamaConfig, LlamaForCausalLM

config = LlamaConfig(
    vocab_size=16, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
    num_attention_heads=2, num_key_value_heads=2,
)
llama = NNsight(LlamaForCausalLM(config).eval())
with llama.trace(torch.tensor([[1, 2, 3]])):
    llama.model.layers[0].self_attn.output[0] = 0  # expect: NNL207
