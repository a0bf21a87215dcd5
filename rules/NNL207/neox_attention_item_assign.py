"""GPT-NeoX (Pythia) names its attention `attention`; its output is a tuple too.
"""
# runtime-raises: 'tuple' object does not support item assignment
import torch
from nnsight import NNsight
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

config = GPTNeoXConfig(
    vocab_size=16, hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2,
)
pythia = NNsight(GPTNeoXForCausalLM(config).eval())
with pythia.trace(torch.tensor([[1, 2, 3]])):
    pythia.gpt_neox.layers[0].attention.output[0] = 0  # expect: NNL207
