"""`.shape` of Llama's `self_attn` output: a tuple has none.
"""
# runtime-raises: 'tuple' object has no attribute 'shape'
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

with model.trace("the cat sat"):
    size = model.model.layers[1].self_attn.output.shape  # expect: NNL404
