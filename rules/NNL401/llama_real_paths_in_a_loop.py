"""Llama's own names, in a loop over its layers: runs clean.
"""
from nnsight import LanguageModel
from transformers import LlamaConfig, LlamaForCausalLM

from tests.tiny_model import tokenizer

model = LanguageModel(
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=2, hidden_size=32, intermediate_size=64, num_attention_heads=2,
                                 num_key_value_heads=2, vocab_size=12)),
    tokenizer=tokenizer(),
)

outputs = []
with model.trace("the cat sat"):
    for layer in model.model.layers:
        outputs.append(layer.self_attn.o_proj.output.save())
        outputs.append(layer.mlp.down_proj.output.save())
    norm = model.model.norm.output.save()

assert len(outputs) == 4
